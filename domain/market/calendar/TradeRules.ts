/**
 * Rules that date a trade: its settlement date under the cycle in force,
 * the last date to buy and still be entitled to a payout, the XD day, and
 * the circuit-breaker bounds of a session (rules in Rules.ts).
 */
import { limitNote, priceLimitOn, settlementOn } from "./Rules.ts"
import { nextTradingDay, previousTradingDay } from "./TradingDays.ts"

/**
 * Settlement cycle in force for a trade date (Rules.ts: T+2 attested from
 * 3 Sep 2020, T+1 from 9 Feb 2026), or undefined before the first sourced rule.
 */
export const settlementDays = (tradeDate: string): number | undefined => settlementOn(tradeDate)?.days

/**
 * The settlement date of a trade under the cycle in force, skipping weekends
 * and holidays. Before the first sourced settlement rule (3 Sep 2020) the
 * cycle is not known: the date is then computed as T+2 and
 * `settlementDays(tradeDate)` is undefined — callers that serve it must say
 * so (the ledger's own bound on trade dates is its concern).
 */
export const settlementDate = (tradeDate: string) => {
  let d = tradeDate
  for (let i = settlementDays(tradeDate) ?? 2; i > 0; i--) d = nextTradingDay(d)
  return d
}

/**
 * The last trading day on which a buyer is still entitled to a payout whose
 * book closure starts on `bookClosureStart`: the trade must settle before
 * the closure starts (on or before the working day before it). Undefined
 * when the settlement cycle of that time is not sourced.
 */
export const lastBuyDate = (bookClosureStart: string): string | undefined => {
  let d = previousTradingDay(bookClosureStart)
  while (settlementDate(d) >= bookClosureStart) d = previousTradingDay(d)
  return settlementDays(d) === undefined ? undefined : d
}

/**
 * The day a payout's stock trades ex (XD, XB, XR): the trading day after the
 * last buy date (PSX-FACTS.md), before the book closure starts.
 */
export const xdDate = (bookClosureStart: string): string | undefined => {
  const last = lastBuyDate(bookClosureStart)
  return last === undefined ? undefined : nextTradingDay(last)
}

export interface CircuitBounds {
  readonly lower: number
  readonly upper: number
  /** The trading session the bounds apply to. */
  readonly session: string
  readonly rule: string
}

/**
 * Circuit-breaker bounds of the trading session `session`, from the previous
 * session's close, under the rule in force that day (Rules.ts); undefined
 * before the first sourced rule or without a positive close.
 */
export const circuitBounds = (previousClose: number, session: string): CircuitBounds | undefined => {
  const rule = priceLimitOn(session)
  if (rule === undefined || !(previousClose > 0)) return undefined
  const band = Math.max((previousClose * rule.percent) / 100, rule.minimumRupees)
  const round = (n: number) => Math.round(n * 100) / 100
  return {
    lower: round(Math.max(previousClose - band, 0.01)),
    upper: round(previousClose + band),
    session,
    rule: limitNote(rule)
  }
}

/** Bounds of the next trading session after the close of `closeDate` (not the next calendar day). */
export const nextSessionBounds = (close: number, closeDate: string): CircuitBounds | undefined =>
  circuitBounds(close, nextTradingDay(closeDate))
