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
const underway: ReadonlySet<MarketStatus["phase"]> = new Set(["order_matching", "opening", "trading", "between_sessions", "after_trading"])

let memo: { minute: number; delay: number; cutoff: number } | undefined

/**
 * The oldest as-of instant still current at `nowMs`: during trading, now
 * less the allowed delay; otherwise the start (Karachi midnight) of the last
 * trading day that has opened. Memoised per minute: it is on the quote path.
 */
export const freshnessCutoff = (nowMs: number, maxDelayMinutes = 30): number => {
  const minute = Math.floor(nowMs / 60_000)
  const status = memo?.minute === minute && memo.delay === maxDelayMinutes ? undefined : marketStatus(nowMs)
  if (status === undefined) return memo!.cutoff
  let cutoff: number
  if (underway.has(status.phase)) {
    cutoff = minute * 60_000 - maxDelayMinutes * 60_000
  } else {
    const today = karachiDate(nowMs)
    const beforeOpen = status.is_trading_day && karachiMinutes(nowMs) < (sessionsOn(today)[0]?.start ?? 0)
    const lastSession = status.is_trading_day && !beforeOpen ? today : previousTradingDay(today)
    cutoff = karachiInstant(lastSession)
  }
  memo = { minute, delay: maxDelayMinutes, cutoff }
  return cutoff
}
