/**
 * Bonus, split and right steps in an unadjusted price series, and the
 * step-adjusted closes the return-based figures use.
 *
 * Prices are served as recorded (never adjusted). A 100% bonus halves the
 * quoted price overnight; measured as a return it would look like a 50% fall.
 * Computations that compare prices across days (performance, drawdowns,
 * moving averages, RSI, MACD, Bollinger, volatility) therefore run on
 * step-adjusted closes, and every step inside their window is reported.
 */
import { addDays } from "../../Karachi.ts"
import { defined } from "../../Objects.ts"
import { priceLimitOn } from "../calendar/Rules.ts"
import type { PriceSeries } from "../snapshot/Series.ts"

/** A corporate action as recorded (the `corporate_actions` rows). */
export interface ActionRecord {
  readonly kind: string
  /** The day the stock trades ex for the action. */
  readonly xd_date?: string | undefined
  readonly ratio?: number | undefined
}

export interface Step {
  /** The first session on the new basis. */
  readonly date: string
  readonly previous_date: string
  readonly close_before: number
  readonly close_after: number
  /** Rows before `date` are multiplied by this to compare with rows from `date` on. */
  readonly factor: number
  readonly basis: "recorded_action" | "detected"
  readonly kind?: string
}

/** The exchange's single-stock limit, percent of the previous close, in force on `date` (Rules.ts), or undefined before any sourced rule. */
export const priceLimitPct = (date: string): number | undefined => priceLimitOn(date)?.percent
/**
 * Rupees a close may pass the exact limit by: the exchange rounds the limit price (the widest seen at a limit in
 * the recorded closes of 2018–2023: Rs 0.0165, FATIMA 42.18 → 39.00 on 2022-04-21). A tolerance in points of the
 * price (0.5 before) hid a wrong rule date: a 7.5% fall read as within a 7% limit.
 */
const TOLERANCE_RUPEES = 0.05
const STEP_KINDS = new Set(["bonus", "ex_bonus", "split", "consolidation", "right", "ex_right"])
const RATIO_KINDS = new Set(["bonus", "ex_bonus", "split", "consolidation"])

/** Rows that take part in computed windows: not flagged, with a known positive close. */
export const cleanRows = (s: PriceSeries): Array<number> => {
  const out: Array<number> = []
  for (let i = 0; i < s.dates.length; i++) {
    const c = s.close[i]!
    if (s.flag[i] === undefined && Number.isFinite(c) && c > 0) out.push(i)
  }
  return out
}

/** True when the move from `prev` to `cur` on `date` is beyond the price limit in force (false when no rule is sourced). */
export const beyondLimit = (prev: number, cur: number, date: string): boolean => {
  const rule = priceLimitOn(date)
  return rule !== undefined &&
    Math.abs(cur - prev) > Math.max((prev * rule.percent) / 100, rule.minimumRupees) + TOLERANCE_RUPEES
}

const actionFactor = (a: ActionRecord): number | undefined => {
  const r = a.ratio
  if (r === undefined || !Number.isFinite(r) || r <= 0 || !RATIO_KINDS.has(a.kind)) return undefined
  if (a.kind === "bonus" || a.kind === "ex_bonus") return 1 / (1 + r)
  return r < 1 ? r : 1 / r
}

/**
 * Steps among `dates`/`closes` (clean rows, ascending), from index `from`
 * (the first row whose move from its predecessor is examined) to the end.
 *
 * A step is found two ways:
 * - detected: the close moved further than the exchange's single-stock price
 *   limit in force that day allows from the previous close (the dated table
 *   in Rules.ts, or Rs 1 when that is larger; plus Rs 0.05 for the rounding
 *   of the limit price). Such a move cannot be a trading move; it is a corporate
 *   action (or a suspension gap). Before the first sourced rule (2017-12-07)
 *   nothing is detected, only recorded actions placed.
 * - recorded: a corporate action of kind bonus / ex_bonus / split /
 *   consolidation / right / ex_right whose xd_date is within 10 calendar days
 *   before to 3 days after the row (book-closure starts come after the
 *   ex-day). It is placed on the detected step in that range, else on the
 *   row with the largest fall in that range; an action without a ratio is
 *   placed only on a detected step.
 *
 * The adjustment factor (what rows before the step are multiplied by):
 * - a recorded bonus with ratio r (bonus shares per share held, 0.1 = 10%):
 *   1 / (1 + r);
 * - a recorded split or consolidation with ratio q: q when q < 1 (the price
 *   factor), else 1 / q (the share multiple);
 * - otherwise (detected only, or a right, whose theoretical ex-right price
 *   needs the subscription price): the observed close ratio, so the step
 *   day's own move counts as 0% rather than as a fall.
 */
export const findSteps = (
  dates: ReadonlyArray<string>,
  closes: ArrayLike<number>,
  actions: ReadonlyArray<ActionRecord> = [],
  from = 1
): Array<Step> => {
  const start = Math.max(1, from)
  const steps = new Map<number, Step>()
  const make = (i: number, factor: number, basis: Step["basis"], kind?: string): Step => ({
    date: dates[i]!,
    previous_date: dates[i - 1]!,
    close_before: closes[i - 1]!,
    close_after: closes[i]!,
    factor,
    basis,
    ...defined({ kind })
  })
  for (let i = start; i < dates.length; i++) {
    if (beyondLimit(closes[i - 1]!, closes[i]!, dates[i]!)) {
      steps.set(i, make(i, closes[i]! / closes[i - 1]!, "detected"))
    }
  }
  for (const a of actions) {
    if (a.xd_date === undefined || !STEP_KINDS.has(a.kind)) continue
    const lo = addDays(a.xd_date, -10), hi = addDays(a.xd_date, 3)
    let detected = -1, largestFall = -1
    for (let i = start; i < dates.length; i++) {
      const d = dates[i]!
      if (d < lo || d > hi) continue
      if (steps.has(i) && detected < 0) detected = i
      if (largestFall < 0 || closes[i]! / closes[i - 1]! < closes[largestFall]! / closes[largestFall - 1]!) {
        largestFall = i
      }
    }
    const factor = actionFactor(a)
    const at = detected >= 0 ? detected : factor !== undefined ? largestFall : -1
    if (at < 0) continue
    steps.set(at, make(at, factor ?? closes[at]! / closes[at - 1]!, "recorded_action", a.kind))
  }
  return [...steps.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s)
}

/**
 * Closes put on the basis of the newest row: each close is multiplied by the
 * factors of every step after it. Rows on or after the last step are unchanged.
 */
export const adjustCloses = (
  dates: ReadonlyArray<string>,
  closes: ArrayLike<number>,
  steps: ReadonlyArray<Step>
): Float64Array => {
  const out = new Float64Array(closes.length)
  let factor = 1
  let k = steps.length - 1
  for (let i = closes.length - 1; i >= 0; i--) {
    out[i] = closes[i]! * factor
    while (k >= 0 && steps[k]!.date >= dates[i]!) {
      factor *= steps[k]!.factor
      k--
    }
  }
  return out
}
