/**
 * The exchange's dated rules, one copy each: the single-stock price limit
 * (circuit breaker) and the settlement cycle. Every rule holds from its
 * `from` date, which is either the effective date a notice gives
 * (`basis: "effective"`) or, where no source gives the start, the earliest
 * date a source shows it in force (`basis: "attested"`). Before the first
 * rule of a table nothing is known and the lookups answer undefined: a rule
 * is never extended back beyond its source.
 *
 * Used by Calendar.ts (circuit bounds, settlement, last buy date) and
 * PriceSteps.ts (corporate-action steps: a move beyond the limit in force).
 */

export interface DatedRule {
  /** First date the rule holds (see `basis`). */
  readonly from: string
  readonly basis: "effective" | "attested"
  /** Where the rule and its date come from. */
  readonly source: string
}

export interface PriceLimitRule extends DatedRule {
  readonly percent: number
  readonly minimumRupees: number
}

const schedule2020 =
  "PSX notice of Jan 2020 (Mettis Global, 15 Jan 2020, 'PSX discloses the schedule for widening of Circuit Breakers')"
/** A 2020 step dated by the recorded closes: the first session with a close at the new limit (none beyond it). */
const closes2020 = (percent: number, from: string) =>
  `${schedule2020}; the steps' dates are not in the recorded text of the notice: ${from} is the first session whose ` +
  `closes move ${percent}% from the previous close (ChubsB/KSE-100-Data, 100 KSE-100 names)`
const schedule2024 =
  "PSX notice of 21 May 2024 (ProPakistani and Mettis Global, 21 May 2024: fortnightly +0.5% from 27 May to 22 Jul 2024)"

/** Single-stock limits, newest first: ±percent of the previous close or Rs 1, whichever is higher. */
export const priceLimitRules: ReadonlyArray<PriceLimitRule> = [
  { from: "2024-07-22", percent: 10, minimumRupees: 1, basis: "effective", source: schedule2024 },
  { from: "2024-07-08", percent: 9.5, minimumRupees: 1, basis: "effective", source: schedule2024 },
  { from: "2024-06-24", percent: 9, minimumRupees: 1, basis: "effective", source: schedule2024 },
  { from: "2024-06-10", percent: 8.5, minimumRupees: 1, basis: "effective", source: schedule2024 },
  { from: "2024-05-27", percent: 8, minimumRupees: 1, basis: "effective", source: schedule2024 },
  { from: "2020-03-16", percent: 7.5, minimumRupees: 1, basis: "attested", source: closes2020(7.5, "2020-03-16") },
  { from: "2020-03-02", percent: 7, minimumRupees: 1, basis: "attested", source: closes2020(7, "2020-03-02") },
  { from: "2020-02-17", percent: 6.5, minimumRupees: 1, basis: "attested", source: closes2020(6.5, "2020-02-17") },
  { from: "2020-02-03", percent: 6, minimumRupees: 1, basis: "attested", source: closes2020(6, "2020-02-03") },
  { from: "2020-01-20", percent: 5.5, minimumRupees: 1, basis: "effective", source: schedule2020 },
  {
    from: "2017-12-07",
    percent: 5,
    minimumRupees: 1,
    basis: "attested",
    source: "ProPakistani, 7 Dec 2017 ('the Circuit Breaker, which currently prevails at 5%'); its start is not sourced"
  }
]

export interface SettlementRule extends DatedRule {
  /** Trading days from trade to settlement. */
  readonly days: number
}

/** Settlement cycles by trade date, newest first. */
export const settlementRules: ReadonlyArray<SettlementRule> = [
  {
    from: "2026-02-09",
    days: 1,
    basis: "effective",
    source:
      "PSX notice (PSX-FACTS.md): T+1 from trades of Monday 9 Feb 2026; trades of 6 and 9 Feb settled together on 10 Feb"
  },
  {
    from: "2020-09-03",
    days: 2,
    basis: "attested",
    source:
      "Business Recorder, PSX clearing schedule for the T+2 system (transactions from 3 Sep 2020); its start is not sourced"
  }
]

const ruleOn = <R extends DatedRule>(rules: ReadonlyArray<R>, date: string): R | undefined =>
  rules.find((r) => date >= r.from)

/** The single-stock price limit in force on a trading date, or undefined before the first sourced rule. */
export const priceLimitOn = (date: string): PriceLimitRule | undefined => ruleOn(priceLimitRules, date)

/** The settlement cycle in force for a trade date, or undefined before the first sourced rule. */
export const settlementOn = (tradeDate: string): SettlementRule | undefined => ruleOn(settlementRules, tradeDate)

/** The rule's words, as served beside a figure computed from it. */
export const limitNote = (r: PriceLimitRule) =>
  `±${r.percent}% of previous close or Rs ${r.minimumRupees}, whichever is higher (from ${r.from}, ${r.basis}: ${r.source})`
