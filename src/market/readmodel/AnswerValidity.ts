/**
 * How long an encoded answer stays true: until a calendar boundary can change
 * it (a quote turning stale, a new Karachi day, a new cursor day).
 */
import { DAY_MS, nextKarachiMidnight } from "../../../domain/Karachi.ts"
import { quoteIsFresh } from "../../../domain/market/Calendar.ts"
import type { SymbolData } from "../../../domain/market/Snapshot.ts"

/** The first instant after `now` at which a fresh quote of `asOfMs` turns stale (Infinity when it already is). */
export const freshUntil = (asOfMs: number, now: number): number => {
  if (!quoteIsFresh(asOfMs, now)) return now
  let lo = now, hi = now + 40 * DAY_MS
  if (quoteIsFresh(asOfMs, hi)) return hi
  while (hi - lo > 1_000) {
    const mid = Math.floor((lo + hi) / 2)
    if (quoteIsFresh(asOfMs, mid)) lo = mid
    else hi = mid
  }
  return hi
}

/** The next Karachi midnight after `now`. */
export const nextKarachiDay = nextKarachiMidnight

/** Until when the quote embedded in an answer keeps its `stale` flag. */
export const quoteValidUntil = (data: SymbolData | undefined, now: number) => {
  if (data?.quote === undefined) return Infinity
  const asOf = Date.parse(data.quote.as_of)
  return quoteIsFresh(asOf, now) ? freshUntil(asOf, now) : Infinity
}
