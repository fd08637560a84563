/**
 * The decision rules re-run over a stored stream, for the auditor's verify:
 * a hash chain proves the events were not changed after they were written,
 * not that they should have been accepted. `checkDecisions` walks a stream
 * in version order and checks every event against the rules the decider
 * applies, with the state of the events before it:
 *
 * - bounds and exactness of quantities and amounts (whole shares, paisa);
 * - a trade on a PSX trading day, settling on the date the dated settlement
 *   rule gives; nothing before the first recorded session;
 * - an entitlement's date is the last buy date of its book closure, which is
 *   not after its credit date; a dividend's tax rate is the rule's for its
 *   date and filer status;
 * - a reversal names an earlier, reversible, not yet reversed event;
 * - after each event the stream replays: no negative position on any date,
 *   no entitlement without shares, every figure exact.
 *
 * Pure; its cost grows with the stream times the number of events that are
 * not plain in-order trades (those are checked against running positions).
 */
import { isTradingDay, lastBuyDate, settlementDate } from "../market/Calendar.ts"
import { describeFailure } from "./Decider.ts"
import type { LedgerEvent } from "./Events.ts"
import { hasPlaces, LIMITS } from "./Money.ts"
import { applyTrade, bookOf, type Entry, type Position, positionOf, replay } from "./Replay.ts"
import { FIRST_SESSION } from "./Schemas.ts"
import { dividendWithholdingRules, withholdingPct } from "./Taxes.ts"

export interface DecisionFailure {
  readonly event_id: string
  readonly version: number
  readonly reason: string
}

const tradeProblem = (ev: Extract<LedgerEvent, { type: "TradeRecorded" }>): string | undefined => {
  if (!Number.isInteger(ev.quantity) || ev.quantity < 1 || ev.quantity > LIMITS.quantity) return "the quantity is not a whole number of shares within bounds"
  if (!hasPlaces(ev.price, 2) || ev.price <= 0 || ev.price > LIMITS.price) return "the price is not a rupee amount in paisa within bounds"
  if (!hasPlaces(ev.fees, 2) || ev.fees < 0 || ev.fees > LIMITS.fees) return "the fees are not a rupee amount in paisa within bounds"
  if (ev.trade_date < FIRST_SESSION) return `the trade date is before the first recorded session (${FIRST_SESSION})`
  if (!isTradingDay(ev.trade_date)) return `${ev.trade_date} is not a PSX trading day`
  const settles = settlementDate(ev.trade_date)
  return ev.settlement_date === settles ? undefined : `settlement ${ev.settlement_date} where the settlement rule gives ${settles}`
}

const entitlementProblem = (ev: Extract<LedgerEvent, { type: "DividendRecorded" | "BonusRecorded" }>): string | undefined => {
  if (ev.entitlement_date === undefined) return undefined // recorded before entitlements were derived: amounts as stored
  if (ev.book_closure_from === undefined) return "an entitlement without its book closure"
  if (ev.book_closure_from > ev.trade_date) return "the book closure starts after the credit date"
  const last = lastBuyDate(ev.book_closure_from)
  return ev.entitlement_date === last ? undefined : `entitlement date ${ev.entitlement_date} where the last buy date is ${last}`
}

const taxProblem = (ev: Extract<LedgerEvent, { type: "DividendRecorded" }>): string | undefined => {
  if (ev.entitlement_date === undefined || ev.tax_withheld !== undefined) return undefined
  const rule = dividendWithholdingRules.find((r) => r.id === ev.tax_rule)
  if (rule === undefined || ev.filer === undefined) return "a dividend without a withholding rule or filer status"
  const inForce = dividendWithholdingRules.find((r) => ev.trade_date >= r.effective)
  if (inForce?.id !== rule.id) return `withholding rule ${rule.id} is not the one in force on ${ev.trade_date}`
  const pct = withholdingPct(rule, ev.filer)
  return ev.tax_rate_pct === pct ? undefined : `withholding at ${ev.tax_rate_pct}% where the rule gives ${pct}%`
}

const reversalProblem = (ev: Extract<LedgerEvent, { type: "TransactionReversed" }>, before: ReadonlyArray<Entry>) => {
  const target = before.find((e) => e.event_id === ev.reverses)
  if (target === undefined) return `reverses ${ev.reverses}, which is not an earlier event of this stream`
  if (target.event.type === "TransactionReversed" || target.event.type === "DonationRecorded") return "reverses an event that cannot be reversed"
  return before.some((e) => e.event.type === "TransactionReversed" && e.event.reverses === ev.reverses) ? "reverses an event twice" : undefined
}

/** The rule an event breaks on its own, given the events before it. */
const eventProblem = (e: Entry, before: ReadonlyArray<Entry>): string | undefined => {
  const ev = e.event
  switch (ev.type) {
    case "TradeRecorded":
      return tradeProblem(ev)
    case "BonusRecorded":
      return entitlementProblem(ev)
    case "DividendRecorded":
      return entitlementProblem(ev) ?? taxProblem(ev)
    case "TransactionReversed":
      return reversalProblem(ev, before)
    default:
      return undefined
  }
}

/** Running positions of the events checked so far. */
interface Running {
  readonly lastEffective: string
  readonly positions: Map<string, Position>
}

/** Whether the stream up to `e` replays (checked against running positions for a trade in date order); updates `run`. */
const replayProblem = (run: Running, e: Entry, entries: () => ReadonlyArray<Entry>): string | undefined => {
  const ev = e.event
  if (ev.type === "DonationRecorded" || ev.type === "TaxStatusRecorded") return undefined
  if (ev.type === "TradeRecorded" && e.effective_date >= run.lastEffective) {
    const book = applyTrade(bookOf(run.positions.get(ev.symbol)), ev)
    if (book.quantity < 0) return describeFailure({ _tag: "Negative", symbol: ev.symbol, date: e.effective_date })
    run.positions.set(ev.symbol, positionOf(ev.symbol, book))
    return undefined
  }
  const r = replay(entries())
  if (r._tag !== "Ok") return describeFailure(r)
  run.positions.clear()
  for (const [symbol, p] of r.state) run.positions.set(symbol, p)
  return undefined
}

/** The first event of a stream (in version order) that the decision rules would not have accepted. */
export const checkDecisions = (stream: ReadonlyArray<Entry>): DecisionFailure | undefined => {
  let run: Running = { lastEffective: "", positions: new Map() }
  const seen: Array<Entry> = []
  for (const e of [...stream].sort((a, b) => a.version - b.version)) {
    const reason = eventProblem(e, seen) ?? replayProblem(run, e, () => [...seen, e])
    if (reason !== undefined) return { event_id: e.event_id, version: e.version, reason }
    seen.push(e)
    if (e.effective_date > run.lastEffective) run = { ...run, lastEffective: e.effective_date }
  }
  return undefined
}
