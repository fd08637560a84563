/**
 * Whether a delayed quote is still current: the freshness rule, and the
 * last session whose close has passed.
 */
import { karachiDate, karachiInstant, karachiMinutes } from "../../Karachi.ts"
import { closeMinutes, marketStatus, sessionsOn } from "./MarketHours.ts"
import type { MarketStatus } from "./StatusSchema.ts"
import { isTradingDay, previousTradingDay } from "./TradingDays.ts"

/**
 * Whether a delayed quote as of `asOfMs` is still current at `nowMs`: during
 * trading it may lag at most `maxDelayMinutes`; outside trading it must be
 * from the last trading day's close or later.
 */
export const quoteIsFresh = (asOfMs: number, nowMs: number, maxDelayMinutes = 30) => {
  const cutoff = freshnessCutoff(nowMs, maxDelayMinutes)
  return asOfMs >= cutoff
}

/** The last trading day whose closing time has passed at `nowMs` (Karachi). */
export const lastCompletedSession = (nowMs: number): string => {
  const today = karachiDate(nowMs)
  return isTradingDay(today) && karachiMinutes(nowMs) >= closeMinutes(today) ? today : previousTradingDay(today)
}

/** Phases during which a quote must be recent (the old states open, order matching and break). */
const underway: ReadonlySet<MarketStatus["phase"]> = new Set([
  "order_matching",
  "opening",
  "trading",
  "between_sessions",
  "after_trading"
])

/** Whether the trading day is in a phase during which a quote must be recent (now less the allowed delay). */
const isUnderway = (nowMs: number) => underway.has(marketStatus(nowMs).phase)

/**
 * The oldest as-of instant still current at `nowMs`: during trading, the
 * start of the current minute less the allowed delay; otherwise the start
 * (Karachi midnight) of the last trading day that has opened.
 */
export const freshnessCutoff = (nowMs: number, maxDelayMinutes = 30): number => {
  const status = marketStatus(nowMs)
  if (underway.has(status.phase)) return (Math.floor(nowMs / 60_000) - maxDelayMinutes) * 60_000
  const today = karachiDate(nowMs)
  const beforeOpen = status.is_trading_day && karachiMinutes(nowMs) < (sessionsOn(today)[0]?.start ?? 0)
  return karachiInstant(status.is_trading_day && !beforeOpen ? today : previousTradingDay(today))
}

/**
 * The first instant, from `nowMs` on, at which a quote as of `asOfMs` is stale while the trading day stays in
 * the phase it is in at `nowMs` (`nowMs` itself when it is stale already; Infinity when that phase's cutoff is
 * fixed). During trading the cutoff is whole minutes: at minute m (ms since the epoch / 60,000, rounded down)
 * the quote is stale once m·60,000 − delay·60,000 > asOf, first at m = ⌊(asOf + delay·60,000) / 60,000⌋ + 1.
 */
export const staleFrom = (asOfMs: number, nowMs: number, maxDelayMinutes = 30): number => {
  if (!quoteIsFresh(asOfMs, nowMs, maxDelayMinutes)) return nowMs
  if (!isUnderway(nowMs)) return Infinity
  return (Math.floor((asOfMs + maxDelayMinutes * 60_000) / 60_000) + 1) * 60_000
}
