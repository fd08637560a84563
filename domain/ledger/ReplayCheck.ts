/**
 * The decision rules re-run over a stored stream, for the auditor's verify:
 * a hash chain proves the events were not changed after they were written,
 * not that they should have been accepted. `checkDecisions` walks a stream
 * in version order and checks every event against the rules the decider
 * applies, with the state of the events before it.
 */
import { isTradingDay, lastBuyDate, settlementDate } from "../market/calendar/Calendar.ts"
import { describeFailure } from "./Decider.ts"
import type { LedgerEvent } from "./Events.ts"
import { History } from "./History.ts"
import { hasPlaces, LIMITS } from "./Money.ts"
import type { Entry, Position } from "./Replay.ts"
import { FIRST_SESSION } from "./Schemas.ts"
import { dividendWithholdingRules, withholdingPct } from "./Taxes.ts"

export interface DecisionFailure {
  readonly event_id: string
  readonly version: number
  readonly reason: string
}

/** Calendar answers asked again and again over one stream (a few hundred dates for thousands of trades), memoised per check. */
interface CalendarMemo {
  readonly tradingDay: (date: string) => boolean
  readonly settles: (date: string) => string
  readonly lastBuy: (date: string) => string | undefined
}
const memo = <A>(f: (date: string) => A) => {
  const known = new Map<string, A>()
  return (date: string): A => {
    if (known.has(date)) return known.get(date)!
    const a = f(date)
    known.set(date, a)
    return a
  }
}
const calendarMemo = (): CalendarMemo => ({
  tradingDay: memo(isTradingDay),
  settles: memo(settlementDate),
  lastBuy: memo(lastBuyDate)
})

const tradeProblem = (ev: Extract<LedgerEvent, { type: "TradeRecorded" }>, cal: CalendarMemo): string | undefined => {
  if (!Number.isInteger(ev.quantity) || ev.quantity < 1 || ev.quantity > LIMITS.quantity) {
    return "the quantity is not a whole number of shares within bounds"
  }
  if (!hasPlaces(ev.price, 2) || ev.price <= 0 || ev.price > LIMITS.price) {
    return "the price is not a rupee amount in paisa within bounds"
  }
  if (!hasPlaces(ev.fees, 2) || ev.fees < 0 || ev.fees > LIMITS.fees) {
    return "the fees are not a rupee amount in paisa within bounds"
  }
  if (ev.trade_date < FIRST_SESSION) return `the trade date is before the first recorded session (${FIRST_SESSION})`
  if (!cal.tradingDay(ev.trade_date)) return `${ev.trade_date} is not a PSX trading day`
  const settles = cal.settles(ev.trade_date)
  return ev.settlement_date === settles
    ? undefined
    : `settlement ${ev.settlement_date} where the settlement rule gives ${settles}`
}

const entitlementProblem = (
  ev: Extract<LedgerEvent, { type: "DividendRecorded" | "BonusRecorded" }>,
  cal: CalendarMemo
): string | undefined => {
  if (ev.entitlement_date === undefined) return undefined // recorded before entitlements were derived: amounts as stored
  if (ev.book_closure_from === undefined) return "an entitlement without its book closure"
  if (ev.book_closure_from > ev.trade_date) return "the book closure starts after the credit date"
  const last = cal.lastBuy(ev.book_closure_from)
  return ev.entitlement_date === last
    ? undefined
    : `entitlement date ${ev.entitlement_date} where the last buy date is ${last}`
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

/** What the check keeps of the events before the current one. */
interface Running {
  /** The events so far, each symbol's in application order. */
  history: History
  readonly byId: Map<string, Entry>
  readonly reversed: Set<string>
  readonly cal: CalendarMemo
}

const reversalProblem = (ev: Extract<LedgerEvent, { type: "TransactionReversed" }>, run: Running) => {
  const target = run.byId.get(ev.reverses)
  if (target === undefined) return `reverses ${ev.reverses}, which is not an earlier event of this stream`
  if (target.event.type === "TransactionReversed" || target.event.type === "DonationRecorded") {
    return "reverses an event that cannot be reversed"
  }
  return run.reversed.has(ev.reverses) ? "reverses an event twice" : undefined
}

/** The rule an event breaks on its own, given the events before it. */
const eventProblem = (e: Entry, run: Running): string | undefined => {
  const ev = e.event
  switch (ev.type) {
    case "TradeRecorded":
      return tradeProblem(ev, run.cal)
    case "BonusRecorded":
      return entitlementProblem(ev, run.cal)
    case "DividendRecorded":
      return entitlementProblem(ev, run.cal) ?? taxProblem(ev)
    case "TransactionReversed":
      return reversalProblem(ev, run)
    default:
      return undefined
  }
}

/** Whether the stream up to `e` replays (its symbol, from `e`'s date); updates `run`. */
const replayProblem = (run: Running, e: Entry): string | undefined => {
  const failure = run.history.check(e)
  run.history = run.history.with(e).history
  return failure === undefined ? undefined : describeFailure(failure)
}

/**
 * Walks a stream in version order: the first event the decision rules would
 * not have accepted, or the positions the whole stream replays to (the same
 * as `replay`'s, without replaying it again).
 */
export const checkAndReplay = (stream: ReadonlyArray<Entry>):
  | { readonly _tag: "Fail"; readonly failure: DecisionFailure }
  | { readonly _tag: "Ok"; readonly state: ReadonlyMap<string, Position> } =>
{
  const run: Running = { history: History.empty(), byId: new Map(), reversed: new Set(), cal: calendarMemo() }
  const sorted = stream.every((e, i) => i === 0 || stream[i - 1]!.version < e.version)
    ? stream
    : [...stream].sort((a, b) => a.version - b.version)
  for (const e of sorted) {
    const reason = eventProblem(e, run) ?? replayProblem(run, e)
    if (reason !== undefined) return { _tag: "Fail", failure: { event_id: e.event_id, version: e.version, reason } }
    run.byId.set(e.event_id, e)
    if (e.event.type === "TransactionReversed") run.reversed.add(e.event.reverses)
  }
  return { _tag: "Ok", state: run.history.positions() }
}

/**
 * The first event of a stream (in version order) that the decision rules would not have accepted.
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
 * Pure. Each event is checked by replaying its own symbol from its date
 * (History.ts), as the decider checks it: an event in date order is one
 * step; a backdated one or a reversal replays the steps after it.
 */
export const checkDecisions = (stream: ReadonlyArray<Entry>): DecisionFailure | undefined => {
  const r = checkAndReplay(stream)
  return r._tag === "Fail" ? r.failure : undefined
}
