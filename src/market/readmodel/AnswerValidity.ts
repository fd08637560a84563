/**
 * How long a cached answer stays true: until a calendar boundary can change it
 * (a quote turning stale, a phase of the trading day beginning or ending, a
 * new Karachi day, a new cursor day, a symbol's research window turning over).
 */
import { karachiDate, karachiInstant, karachiMinutes, nextKarachiMidnight } from "../../../domain/Karachi.ts"
import { quoteIsFresh, sessionsOn, staleFrom } from "../../../domain/market/calendar/Calendar.ts"
import type { SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { nextCursorDay } from "../../paging/Cursors.ts"
import { researchInstant } from "../analytics/ResearchPackage.ts"

/** The next Karachi midnight after `now`. */
export const nextKarachiDay = nextKarachiMidnight

/**
 * The next instant after `now` at which a phase of the trading day begins or ends (pre-open, order
 * matching, trading, post-close), or the next Karachi midnight. Between two of them the freshness rule
 * is one regime (a fixed cutoff, or now less the allowed delay) and the last completed session is
 * the same, so whether a quote is stale, and what a DATA_STALE answer says, changes only at one.
 */
export const nextSessionBoundary = (now: number): number => {
  const today = karachiDate(now)
  const minutes = karachiMinutes(now)
  let next = Infinity
  for (const phase of sessionsOn(today)) {
    if (phase.start > minutes && phase.start < next) next = phase.start
    if (phase.end > minutes && phase.end < next) next = phase.end
  }
  return next === Infinity ? nextKarachiMidnight(now) : karachiInstant(today, 0, next)
}

/**
 * The first instant after `now` at which a fresh quote of `asOfMs` turns stale, or `until` (the next session
 * boundary, where the rule itself changes and the answer is made again), whichever comes first: from the rule's
 * whole minutes (Calendar `staleFrom`), to the millisecond.
 */
export const freshUntil = (asOfMs: number, now: number, until = nextSessionBoundary(now)): number =>
  Math.min(staleFrom(asOfMs, now), until)

/**
 * Until when an answer that embeds a symbol's quote, or says it is stale (409 DATA_STALE), stays true:
 * while fresh, until it turns stale; while stale, until the next session boundary. Without a quote,
 * the answer is a function of the snapshot alone.
 */
export const quoteValidUntil = (data: SymbolData | undefined, now: number): number => {
  if (data?.quote === undefined) return Infinity
  const asOf = Date.parse(data.quote.as_of)
  return quoteIsFresh(asOf, now) ? freshUntil(asOf, now) : nextSessionBoundary(now)
}

/** A profile or full payload: its quote, and the Karachi day (trailing figures). */
export const quoteOrDayValidUntil = (data: SymbolData | undefined, now: number) =>
  Math.min(quoteValidUntil(data, now), nextKarachiDay(now))

/** An answer whose `next_cursor` carries the cursor day (see Cursors). */
export const cursorDayValidUntil = (_data: SymbolData | undefined, now: number) => nextCursorDay(now)

/** A screener page: trailing yields follow the Karachi day; a `next_cursor` carries the cursor day. */
export const screenValidUntil = (now: number) => Math.min(nextKarachiDay(now), nextCursorDay(now))

/** A research package is dated to the symbol's 5-minute window (ResearchPackage.researchInstant). */
export const researchValidUntil = (symbol: string, now: number) => researchInstant(now, symbol).until
