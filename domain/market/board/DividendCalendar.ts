/**
 * The dividend calendar: payouts whose book closure has not ended, each
 * with its last buy date and whether buying now still earns it, judged in
 * Asia/Karachi. Pure: the caller passes the payouts, their provenance and
 * the instant.
 *
 * Entitlement follows the register at book closure (docs/PSX-FACTS.md): a buyer
 * is entitled when the trade settles before the closure starts, so the last
 * buy date is the last trading day whose settlement (T+2 for trades until
 * 6 Feb 2026, T+1 from 9 Feb 2026, skipping weekends and holidays) falls
 * before the closure's first day (`lastBuyDate` in Calendar.ts). `ex_date`
 * is the closure's first day (SPEC 2.3); `xd_date` the day the stock trades
 * ex, the trading day after the last buy date.
 */
import { defined } from "../../Objects.ts"
import {
  closeMinutes,
  isTradingDay,
  karachiDate,
  karachiMinutes,
  lastBuyDate,
  nextTradingDay,
  settlementDate,
  settlementDays,
  weakestBasis
} from "../calendar/Calendar.ts"
import type { CalendarBasis } from "../calendar/StatusSchema.ts"
import { type PayoutRecord, repairExDate } from "../filings/Dividends.ts"

export interface Entitlement {
  /** The book closure's first day (SPEC 2.3's `ex_date`), the same day as `book_closure_from`. */
  readonly ex_date: string
  readonly book_closure_from: string
  readonly last_buy_date: string
  /** The day the stock trades ex: the trading day after the last buy date. */
  readonly xd_date: string
  readonly settlement_cycle: string
  readonly settles_on: string
  /** The first day a trade can still be placed: today while trading is open, else the next trading day. */
  readonly next_trade_date: string
  /** Today is a trading day, trading has not ended, and today is on or before the last buy date. */
  readonly buying_today_earns: boolean
  /** A trade at the next chance (today or the next trading day) still earns it. */
  readonly buying_next_session_earns: boolean
  /** The least certain calendar among the days the answer rests on. */
  readonly calendar: CalendarBasis
}

/** Entitlement to a payout whose book closure starts `bookClosureFrom`, judged at `nowMs` in Karachi. */
export const entitlement = (bookClosureFrom: string, nowMs: number): Entitlement | undefined => {
  const today = karachiDate(nowMs)
  const last = lastBuyDate(bookClosureFrom)
  const days = last === undefined ? undefined : settlementDays(last)
  if (last === undefined || days === undefined) return undefined
  const openToday = isTradingDay(today) && karachiMinutes(nowMs) < closeMinutes(today)
  const next = openToday ? today : nextTradingDay(today)
  const from = today < last ? today : last
  return {
    ex_date: bookClosureFrom,
    book_closure_from: bookClosureFrom,
    last_buy_date: last,
    xd_date: nextTradingDay(last),
    settlement_cycle: `T+${days}`,
    settles_on: settlementDate(last),
    next_trade_date: next,
    buying_today_earns: openToday && today <= last,
    buying_next_session_earns: next <= last,
    calendar: weakestBasis(from, bookClosureFrom)
  }
}

export interface OpenPayout extends Entitlement {
  readonly symbol: string
  readonly kind: PayoutRecord["kind"]
  readonly details: string
  readonly percent?: number
  readonly announced_at?: string
  readonly book_closure_to?: string
  readonly book_closure_from_as_published?: string
}

/**
 * Payouts still open at `nowMs`: the book closure (its last day, or its
 * first when no last is published) is today or later in Karachi. The ex-date
 * repair of Dividends.ts applies (a closure dated before its announcement).
 * Sorted by book closure, then symbol.
 */
export const openPayouts = (payouts: ReadonlyArray<PayoutRecord>, nowMs: number): ReadonlyArray<OpenPayout> => {
  const today = karachiDate(nowMs)
  const out: Array<OpenPayout> = []
  for (const p of payouts) {
    if (p.bookClosureFrom === undefined) continue
    const repaired = repairExDate(p.bookClosureFrom, p.announcedAt)
    const from = repaired.ex_date
    const to = p.bookClosureTo !== undefined && repaired.ex_date_corrected === undefined ? p.bookClosureTo : undefined
    if ((to ?? from) < today) continue
    const ent = entitlement(from, nowMs)
    if (ent === undefined) continue
    out.push({
      symbol: p.symbol,
      kind: p.kind,
      details: p.details,
      ...defined({
        percent: p.percent,
        announced_at: p.announcedAt,
        book_closure_to: to,
        book_closure_from_as_published: repaired.ex_date_as_published
      }),
      ...ent
    })
  }
  return out.sort((a, b) => a.book_closure_from.localeCompare(b.book_closure_from) || a.symbol.localeCompare(b.symbol))
}

/**
 * What the payout recordings allow one to say, for the response: which
 * symbols were recorded and up to when. `recordedSymbols` and `asOf` come
 * from the payouts dataset's provenance.
 */
export const payoutCoverageNote = (recordedSymbols: ReadonlyArray<string>, asOf: string, open: number) =>
  `Payouts are recorded for ${recordedSymbols.length} symbol(s) only (${
    recordedSymbols.join(", ")
  }), as announced up to ${asOf}; ` +
  `${open} of them are open now. Payouts of every other symbol, and any announced after ${asOf}, are unknown, not absent.`
