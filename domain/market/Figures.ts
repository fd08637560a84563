/**
 * Small helpers shared by the per-symbol computations (analytics,
 * technicals, valuation, screener): rounding for output, the trading day of
 * an instant in Asia/Karachi, and building records whose unknown figures are
 * absent keys (never 0, never null).
 */

/** Rounded to `dp` decimal places (4 by default), for output only; computations keep full precision. */
export const round = (v: number, dp = 4): number => {
  const f = 10 ** dp
  return Math.round(v * f) / f
}

/** Percent change from `from` to `to`: (to / from − 1) × 100. */
export const changePct = (from: number, to: number): number => (to / from - 1) * 100

/** The Asia/Karachi calendar date (UTC+5, no daylight saving) of an ISO instant or date. */
export const karachiDate = (instantOrDate: string): string =>
  instantOrDate.length === 10 ? instantOrDate : new Date(Date.parse(instantOrDate) + 5 * 3_600_000).toISOString().slice(0, 10)

const DAY = 86_400_000
/** Calendar days from date `a` to date `b` (YYYY-MM-DD). */
export const daysBetween = (a: string, b: string): number => (Date.parse(b + "T00:00:00Z") - Date.parse(a + "T00:00:00Z")) / DAY

/** `date` moved by `days` calendar days. */
export const addDays = (date: string, days: number): string => new Date(Date.parse(date + "T00:00:00Z") + days * DAY).toISOString().slice(0, 10)

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

/** Only the keys whose values are defined (unknown figures become absent keys). */
export const defined = <T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k in o) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof T]?: Exclude<T[K], undefined> }
}

/** A figure that could not be given, and why. */
export interface Unavailable {
  readonly figure: string
  readonly reason: string
}
