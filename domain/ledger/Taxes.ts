/**
 * Tax rules the ledger applies, as dated, versioned data (docs/PSX-FACTS.md):
 * the rule in force on a date is the newest whose `effective` date is on or
 * before it, and the event records the rule's id and rate, so a later rule
 * never rewrites an earlier dividend.
 */

export interface WithholdingRule {
  readonly id: string
  readonly effective: string
  readonly filer_pct: number
  readonly non_filer_pct: number
  readonly note: string
  /** Where the rates and the `effective` date come from; `effective_sourced: false` when no source dates it. */
  readonly source: string
  readonly effective_sourced: boolean
}

/**
 * Withholding tax on cash dividends, newest first: 15% for filers (on the Active Taxpayers List), double for
 * non-filers. Some categories of company pay at other rates ("higher for some categories"); for those, record the
 * gross amount with the tax the warrant shows (`tax_withheld`).
 */
export const dividendWithholdingRules: ReadonlyArray<WithholdingRule> = [
  {
    id: "wht-dividend-2019-07",
    effective: "2019-07-01",
    filer_pct: 15,
    non_filer_pct: 30,
    note: "Withholding on cash dividends: 15% for filers, double (30%) for non-filers, standard category",
    source:
      "Rates: docs/PSX-FACTS.md (15% standard for filers, non-filers double). Unsourced date: no recorded source " +
      "gives the day these rates took effect; 2019-07-01 (a fiscal year's start) is this service's assumption",
    effective_sourced: false
  }
]

/** The withholding rule in force on `date`, or undefined before the first held rule. */
export const withholdingRuleOn = (date: string): WithholdingRule | undefined =>
  dividendWithholdingRules.find((r) => date >= r.effective)

/** The rate for a filer or a non-filer under `rule`, in percent. */
export const withholdingPct = (rule: WithholdingRule, filer: boolean) => (filer ? rule.filer_pct : rule.non_filer_pct)

/** What every net figure says about tax. */
export const NET_OF_TAX_NOTE =
  "Net dividends are after withholding tax (recorded per dividend, by rule or as on the warrant); " +
  "realised profit and loss are before capital gains tax (only GET /v1/me/tax-statement applies it, by its one dated rule: 15% for " +
  "filers on shares bought from 1 Jul 2024)."

export interface CapitalGainsRule {
  readonly id: string
  /** Shares acquired on or after this date are covered. */
  readonly acquired_from: string
  readonly filer_pct: number
  readonly note: string
}

/**
 * Capital gains tax, newest first: 15% for filers on securities bought from 1 Jul 2024; only a filer's rate is
 * recorded (docs/PSX-FACTS.md). Holdings' realised profit and loss are before it;
 * only the tax-year statement (domain/ledger/TaxYear.ts) applies it, to a
 * sale the rule covers. No rate is recorded for non-filers or for shares bought
 * before that date, so none is computed for them.
 */
export const capitalGainsRules: ReadonlyArray<CapitalGainsRule> = [
  {
    id: "cgt-securities-2024-07",
    acquired_from: "2024-07-01",
    filer_pct: 15,
    note:
      "Capital gains tax on securities bought from 1 Jul 2024: 15% for filers; no rate is recorded for non-filers " +
      "or for securities bought before that date"
  }
]

/** The capital gains rule covering shares all acquired on or after `earliestAcquired`, or undefined. */
export const capitalGainsRuleFor = (earliestAcquired: string): CapitalGainsRule | undefined =>
  capitalGainsRules.find((r) => earliestAcquired >= r.acquired_from)
