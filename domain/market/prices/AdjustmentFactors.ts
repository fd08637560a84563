/**
 * The rules of an adjusted series, one action at a time (Adjustment.ts puts
 * them together): each action's price and volume factors on a series, the
 * actions that matter to a mode, and the moves beyond the price limit that
 * no recorded action explains.
 */
import { addDays } from "../../Karachi.ts"
import { priceLimitRules } from "../calendar/Rules.ts"
import { indexAtOrBefore, type PriceSeries } from "../snapshot/Series.ts"
import type { ActionKind, CorporateAction } from "./AdjustmentActions.ts"
import type { AdjustFactor, UnknownTerms } from "./AdjustmentSchemas.ts"
import { beyondLimit } from "./PriceSteps.ts"
import * as Q from "./Rational.ts"

export type AdjustMode = "splits" | "total_return"

export const KINDS: Readonly<Record<AdjustMode, ReadonlySet<ActionKind>>> = {
  splits: new Set(["bonus", "split", "right"]),
  total_return: new Set(["bonus", "split", "right", "cash_dividend"])
}

/** From the first sourced price limit on, a split or consolidation shows as a move beyond it. */
export const DETECTABLE_FROM = priceLimitRules[priceLimitRules.length - 1]!.from
/** Restated factors agree with recorded splits within this (relative): the restatement's own day tolerance. */
export const AGREE = 0.005
export const MAX_DECIMALS = 4

/** A factor as served (AdjustmentSchemas.ts `AdjustFactor`). */
export type AppliedFactor = typeof AdjustFactor.Type
/** An action whose day or terms are unknown, as served (AdjustmentSchemas.ts `UnknownTerms`). */
export type UnknownAction = typeof UnknownTerms.Type

export interface Priced {
  readonly action: CorporateAction & { readonly date: string }
  readonly price: Q.Rational
  readonly volume: Q.Rational
  readonly terms: string
}

export interface Cut {
  readonly before: string
  readonly reason: string
}

export const fmt = (r: Q.Rational, places = 6) => String(Number(Q.toNumber(r).toFixed(places)))

/** Index of the last unflagged row with a positive close dated before `date`, or -1. */
export const previousClean = (s: PriceSeries, date: string) => {
  let i = indexAtOrBefore(s, addDays(date, -1))
  while (i >= 0 && (s.flag[i] !== undefined || !(s.close[i]! > 0))) i--
  return i
}

/** An action's price and volume factors on this series, or why they are unknown. */
export const priceAction = (
  s: PriceSeries,
  a: CorporateAction & { readonly date: string }
): Priced | string | undefined => {
  const t = a.terms!
  if (t.type === "fixed") {
    return {
      action: a,
      price: t.factor,
      volume: t.volume,
      terms: `${a.description}: prices × ${fmt(t.factor)}, volumes × ${fmt(t.volume)}`
    }
  }
  const i = previousClean(s, a.date)
  if (i < 0) return undefined
  const p = Q.fromDecimal(s.close[i]!)
  const before = `previous close Rs ${s.close[i]!} on ${s.dates[i]!}`
  if (t.type === "cash") {
    const left = Q.sub(p, t.amount)
    if (!Q.isPositive(left)) return `the dividend Rs ${fmt(t.amount, 4)} is not below the ${before}`
    return {
      action: a,
      price: Q.div(left, p),
      volume: Q.ONE,
      terms: `${a.description}: Rs ${fmt(t.amount, 4)} per share; ${before}; (P − D) / P`
    }
  }
  const terp = Q.div(Q.add(p, Q.mul(t.perShare, t.price)), Q.add(Q.ONE, t.perShare))
  return {
    action: a,
    price: Q.div(terp, p),
    volume: Q.ONE,
    terms: `${a.description}: ${fmt(t.perShare)} right per share at Rs ${fmt(t.price, 4)}; ${before}; ` +
      `TERP = (P + r·S) / (1 + r) = Rs ${fmt(terp, 4)}`
  }
}

export const unknownOf = (a: CorporateAction, reason: string): UnknownAction => ({
  kind: a.kind,
  ...(a.date !== undefined ? { date: a.date } : {}),
  ...(a.from !== undefined ? { from: a.from } : {}),
  ...(a.by !== undefined ? { by: a.by } : {}),
  description: a.description,
  reason,
  source: a.source
})

/** The last day an action can be: its day, else its bound, else after every row. */
export const lastPossible = (a: CorporateAction, end: string) =>
  a.date ?? (a.by !== undefined && a.by < end ? a.by : end)

/** Whether an action (known or not) can fall in (after, on]: it then explains a move between those rows (an action with no bound at all explains none). */
export const within = (a: CorporateAction, after: string, on: string) =>
  a.date !== undefined
    ? a.date > after && a.date <= on
    : (a.from !== undefined || a.by !== undefined) && (a.from ?? "") <= on && (a.by === undefined || a.by > after)

/** Moves beyond the price limit between unflagged rows that no recorded action explains: the newest one. */
export const unexplainedStep = (s: PriceSeries, actions: ReadonlyArray<CorporateAction>): Cut | undefined => {
  let next = -1
  for (let i = s.dates.length - 1; i >= 0 && s.dates[i]! >= DETECTABLE_FROM; i--) {
    if (s.flag[i] !== undefined || !(s.close[i]! > 0)) continue
    if (
      next >= 0 && beyondLimit(s.close[i]!, s.close[next]!, s.dates[next]!) &&
      !actions.some((a) => within(a, s.dates[i]!, s.dates[next]!))
    ) {
      return {
        before: s.dates[next]!,
        reason: `on ${s.dates[next]!} the close moved from Rs ${s.close[i]!} (${s.dates[i]!}) to Rs ${s
          .close[next]!}, beyond the ` +
          "price limit, and no corporate action is recorded for it: an action missing from the record (or a gap in trading)"
      }
    }
    next = i
  }
  return undefined
}
