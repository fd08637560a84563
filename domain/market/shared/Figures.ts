/**
 * Small helpers shared by the per-symbol computations (analytics,
 * technicals, valuation, screener): rounding for output, the 52-week
 * window, and why a figure could not be given (absent keys: domain/Objects.ts).
 */
import { addDays } from "../../Karachi.ts"

/** Rounded to `dp` decimal places (4 by default), for output only; computations keep full precision. */
export const round = (v: number, dp = 4): number => {
  const f = 10 ** dp
  return Math.round(v * f) / f
}

/** Percent change from `from` to `to`: (to / from − 1) × 100. */
export const changePct = (from: number, to: number): number => (to / from - 1) * 100

/**
 * The one 52-week window every endpoint uses (/v1/stocks `derived.week52`,
 * /analytics `week52`, the screener): the sessions dated after
 * `last − 364 days` up to and including `last`, the newest point (the last
 * clean close, or the quote's Karachi day when newer). 52 weeks = 364 days,
 * so the window never holds the same weekday twice at its ends.
 */
export const WEEK52_DAYS = 364
/** The first date inside the 52-week window ending on `last`. */
export const week52Start = (last: string): string => addDays(last, 1 - WEEK52_DAYS)

/** A figure that could not be given, and why. */
export interface Unavailable {
  readonly figure: string
  readonly reason: string
}
