/**
 * Tax rules the ledger applies, as dated, versioned data (docs/PSX-FACTS.md):
 * the rule in force on a date is the newest whose `effective` date is on or
 * before it, and the event records the rule's id and rate, so a later rule
 * never rewrites an earlier dividend.
 *
 * - Withholding tax on cash dividends: 15% for filers (on the Active
 *   Taxpayers List), double for non-filers. Some categories of company pay
 *   at other rates (the facts say "higher for some categories"); for those,
 *   record the gross amount with the tax the warrant shows (`tax_withheld`).
 * - Capital gains tax (15% for filers on securities bought from 1 Jul 2024)
 *   is not computed: realised profit and loss are before capital gains tax,
 *   and every figure that could be read as net says so.
 */

export interface WithholdingRule {
  readonly id: string
  readonly effective: string
  readonly filer_pct: number
  readonly non_filer_pct: number
  readonly note: string
}

/** Newest first. */
export const dividendWithholdingRules: ReadonlyArray<WithholdingRule> = [
  {
    id: "wht-dividend-2019-07",
    effective: "2019-07-01",
    filer_pct: 15,
    non_filer_pct: 30,
    note: "Withholding on cash dividends: 15% for filers, double (30%) for non-filers, standard category"
  }
]

/** The withholding rule in force on `date`, or undefined before the first held rule. */
export const withholdingRuleOn = (date: string): WithholdingRule | undefined =>
  dividendWithholdingRules.find((r) => date >= r.effective)

/** The rate for a filer or a non-filer under `rule`, in percent. */
export const withholdingPct = (rule: WithholdingRule, filer: boolean) => (filer ? rule.filer_pct : rule.non_filer_pct)

/** What every net figure says about tax. */
export const NET_OF_TAX_NOTE = "Net dividends are after withholding tax (recorded per dividend, by rule or as on the warrant); " +
  "realised profit and loss are before capital gains tax, which the service does not compute."
