/**
 * The one definition of "previous close" for a trading day: the close of
 * the trading day before it (the dated calendar's previous trading day, not
 * any earlier recorded row), as traded. It comes from the as-traded series,
 * or from the default series when the source is not known to have restated
 * the symbol's history; a flagged row (a source glitch), a missing day or a
 * restated series gives undefined, which callers report as unknown — never
 * an older or restated close.
 */
import { previousTradingDay } from "../calendar/Calendar.ts"
import { indexAtOrBefore, type PriceSeries } from "../snapshot/Series.ts"
import type { SymbolData } from "../snapshot/Snapshot.ts"

export interface PreviousClose {
  /** The trading day the close belongs to. */
  readonly date: string
  readonly close: number
  readonly series: "as_traded" | "merged"
}

const closeOn = (s: PriceSeries | undefined, day: string): number | undefined => {
  if (s === undefined) return undefined
  const i = indexAtOrBefore(s, day)
  const c = i >= 0 && s.dates[i] === day && s.flag[i] === undefined ? s.close[i]! : NaN
  return Number.isFinite(c) && c > 0 ? c : undefined
}

/** The previous trading day's as-traded close for a session on `date`, or undefined when it is not known. */
export const previousClose = (
  data: Pick<SymbolData, "asTraded" | "prices" | "disagreement">,
  date: string
): PreviousClose | undefined => {
  const day = previousTradingDay(date)
  const asTraded = closeOn(data.asTraded, day)
  if (asTraded !== undefined) return { date: day, close: asTraded, series: "as_traded" }
  const merged = data.disagreement === undefined ? closeOn(data.prices, day) : undefined
  return merged !== undefined ? { date: day, close: merged, series: "merged" } : undefined
}
