/**
 * The portfolio decider, as in emmett: `decide(command, state) → events`,
 * `evolve(state, entry) → state`, `initialState`. Pure: today's date and the
 * market facts a command needs travel with the command (`facts`).
 *
 * `decide` is total over a state folded by `evolve`: the stream's head, its
 * positions and its history (History.ts), where each symbol's events are kept
 * in application order with the book after each. A command is accepted only
 * if its symbol still replays with the new event inserted at its date: no
 * negative position on any date, no dividend or bonus without shares on its
 * entitlement date, every figure exact. Entitlements are re-derived by that
 * replay, so a backdated trade changes the bonus shares and dividends after
 * it (and a rejection names the entitlement it would leave without shares).
 * A payout is counted once: a second dividend or bonus with the same book
 * closure is refused, naming the event that holds it. Rejections never
 * reveal how many shares are held.
 */
import { lastBuyDate } from "../market/calendar/Calendar.ts"
import type { PortfolioEvent } from "./Events.ts"
import { History } from "./History.ts"
import { LIMITS } from "./Money.ts"
import { type DayClose, priceFlags } from "./PriceCheck.ts"
import type { Entry, Position, ReplayFailure } from "./Replay.ts"
import { bodyProblem, type TransactionBody } from "./Schemas.ts"
import { withholdingPct, withholdingRuleOn } from "./Taxes.ts"

export { type Entry, orderedEntries, type Position, replay } from "./Replay.ts"

/** A transaction body as the API decodes it (one schema, domain/ledger/Schemas.ts). */
export type Command = typeof TransactionBody.Type

/** What the decider is told besides the body: today and the market's facts. */
export interface Context {
  /** Today in Asia/Karachi. */
  readonly today: string
  readonly isTradingDay: (date: string) => boolean
  readonly settlementDate: (date: string) => string
  /** The day's circuit-breaker bounds from the previous trading day's as-traded close; absent when that close is unknown. */
  readonly circuit?: { readonly lower: number; readonly upper: number; readonly previous_date?: string } | undefined
  /** The trade day's recorded closes (as traded, and the served series when it differs): a price 50% off one is flagged. */
  readonly dayCloses?: ReadonlyArray<DayClose> | undefined
  /** The symbol's first recorded session: no trade may be dated earlier. */
  readonly firstSession?: string | undefined
  /** The Karachi day the symbol was first seen gone from the exchange's listing: no buy or sell on or after it. */
  readonly delistedOn?: string | undefined
  /** The book closure of the recorded payout a dividend or bonus belongs to, when the body names none. */
  readonly bookClosure?: string | undefined
}

/** The command as `decide` takes it: the body and the facts it is decided with. */
export interface DecideCommand {
  readonly body: Command
  readonly facts: Context
}

/** A stream folded by `evolve`: its head, every position, and its history. */
export interface State {
  readonly version: number
  /** The latest effective date among the events ("" for an empty stream). */
  readonly lastEffective: string
  /** Each symbol with an event that applies, by symbol. */
  readonly positions: ReadonlyMap<string, Position>
  readonly history: History
}

export const initialState: State = { version: 0, lastEffective: "", positions: new Map(), history: History.empty() }

export type Rejection = {
  readonly message: string
  readonly symbol?: string
  /** The event that already holds this payout (a 409, not a 400). */
  readonly recordedIn?: string
}
/** What `decide` answers: the events to append, or why not. */
export type Decision =
  | { readonly _tag: "Accepted"; readonly events: ReadonlyArray<PortfolioEvent> }
  | { readonly _tag: "Rejected"; readonly rejection: Rejection }

const reject = (message: string, symbol?: string): { readonly _tag: "Rejected"; readonly rejection: Rejection } => ({
  _tag: "Rejected",
  rejection: { message, ...(symbol ? { symbol } : {}) }
})

/** A decided event as the stream will hold it at `version` (the one draft builder: a POST and an import). */
export const draftEntry = (event: PortfolioEvent, version: number, event_id = `(new ${version})`): Entry => ({
  event_id,
  version,
  effective_date: event.trade_date,
  event
})

/** The state after one more stored entry. Never throws: an entry that does not replay is folded as it is (verify reports it). */
export const evolve = (state: State, entry: Entry): State => {
  const { history, touched } = state.history.with(entry)
  let positions = state.positions
  if (touched !== undefined) {
    const next = new Map(positions)
    if (touched.position === null) next.delete(touched.symbol)
    else next.set(touched.symbol, touched.position)
    positions = next
  }
  return {
    version: Math.max(state.version, entry.version),
    lastEffective: entry.effective_date > state.lastEffective ? entry.effective_date : state.lastEffective,
    positions,
    history
  }
}

/** Decides a command against the state: the events to append, or why not. */
export const decide = (command: DecideCommand, state: State): Decision => {
  const { body, facts } = command
  const problem = bodyProblem(body)
  if (problem !== undefined) return reject(problem, "symbol" in body ? body.symbol : undefined)
  const drafted = draft(body, facts, state)
  return "_tag" in drafted ? drafted : accept(drafted, state)
}

type Drafted = PortfolioEvent | ReturnType<typeof reject>

const draft = (body: Command, facts: Context, state: State): Drafted => {
  if (body.kind === "reversal") return draftReversal(body, state.history)
  if (body.trade_date > facts.today) {
    return reject(
      `body field \`trade_date\`: ${body.trade_date} is in the future (today is ${facts.today})`,
      "symbol" in body ? body.symbol : undefined
    )
  }
  switch (body.kind) {
    case "buy":
    case "sell":
      return draftTrade(body, facts)
    case "dividend":
      return draftDividend(body, facts, state.history)
    case "bonus":
      return draftBonus(body, facts, state.history)
    case "split":
      return body.numerator === body.denominator
        ? reject("body: a split of 1 for 1 changes nothing", body.symbol)
        : {
          type: "SplitRecorded",
          symbol: body.symbol,
          trade_date: body.trade_date,
          numerator: body.numerator,
          denominator: body.denominator
        }
    case "tax_status":
      return { type: "TaxStatusRecorded", filer: body.filer, trade_date: body.trade_date }
  }
}

/** An event id as a message may repeat it: an event's UUID (or a short id) as given; anything else, which may be a secret pasted in its place, not at all. */
const shownId = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu.test(id) || /^[\w-]{1,12}$/u.test(id)
    ? id
    : "(the id given)"

const draftReversal = (body: Extract<Command, { kind: "reversal" }>, history: History): Drafted => {
  const target = history.find(body.event_id)
  if (target === undefined) return reject(`no event ${shownId(body.event_id)} in this portfolio`)
  const t = target.event
  if (t.type === "TransactionReversed" || t.type === "DonationRecorded") {
    return reject(`event ${body.event_id} cannot be reversed`)
  }
  if (history.reversalOf(body.event_id) !== undefined) {
    return reject(`event ${body.event_id} is already reversed`)
  }
  if (body.reason.trim() === "") return reject("body field `reason`: a reversal needs a reason")
  return {
    type: "TransactionReversed",
    reverses: body.event_id,
    symbol: t.type === "TaxStatusRecorded" ? "" : t.symbol,
    trade_date: t.trade_date,
    reason: body.reason.trim()
  }
}

const draftTrade = (body: Extract<Command, { kind: "buy" | "sell" }>, facts: Context): Drafted => {
  const { symbol, trade_date } = body
  if (!facts.isTradingDay(trade_date)) {
    return reject(`body field \`trade_date\`: ${trade_date} is not a PSX trading day`, symbol)
  }
  if (facts.firstSession !== undefined && trade_date < facts.firstSession) {
    return reject(
      `body field \`trade_date\`: ${trade_date} is before ${symbol}'s first recorded session (${facts.firstSession})`,
      symbol
    )
  }
  if (facts.delistedOn !== undefined && trade_date >= facts.delistedOn) {
    return reject(
      `body field \`trade_date\`: ${symbol} left the exchange's listing on ${facts.delistedOn}; it cannot be bought or sold on or after that day`,
      symbol
    )
  }
  if (body.quantity * body.price > LIMITS.tradeValue) {
    return reject(
      `body: a trade worth more than Rs ${LIMITS.tradeValue.toLocaleString("en")} is beyond the ledger's bound`,
      symbol
    )
  }
  return {
    type: "TradeRecorded",
    side: body.kind,
    symbol,
    quantity: body.quantity,
    price: body.price,
    fees: body.fees ?? 0,
    trade_date,
    settlement_date: facts.settlementDate(trade_date),
    flags: priceFlags(body.price, symbol, trade_date, facts.circuit, facts.dayCloses ?? [])
  }
}

/** The book closure and entitlement date (last buy date) of a dividend or bonus, or why it cannot be known. */
const entitlementOf = (body: Extract<Command, { kind: "dividend" | "bonus" }>, facts: Context) => {
  const bookClosure = body.book_closure_from ?? facts.bookClosure
  if (bookClosure === undefined) {
    return reject(
      `body field \`book_closure_from\`: needed — no ${
        body.kind === "bonus" ? "bonus" : "cash"
      } payout of ${body.symbol} with a ` +
        `book closure on or before ${body.trade_date} is recorded, and the register at book closure decides who is entitled`,
      body.symbol
    )
  }
  if (bookClosure > body.trade_date) {
    return reject(
      `body field \`book_closure_from\`: ${bookClosure} is after the credit date ${body.trade_date}`,
      body.symbol
    )
  }
  const last: string | undefined = lastBuyDate(bookClosure)
  if (last === undefined) {
    return reject(
      `body field \`book_closure_from\`: no sourced settlement rule covers ${bookClosure}, so its last buy date is unknown`,
      body.symbol
    )
  }
  return { book_closure_from: bookClosure, entitlement_date: last }
}

/**
 * The event that already holds this payout: a dividend or bonus of the same symbol and book closure, not reversed.
 * A payout is counted once; to change one, reverse the event that holds it and record the correction.
 */
const heldPayout = (
  type: "DividendRecorded" | "BonusRecorded",
  symbol: string,
  bookClosure: string,
  history: History
): Drafted | undefined => {
  const holder = history.applied(symbol).find((e) => e.event.type === type && e.event.book_closure_from === bookClosure)
  if (holder === undefined) return undefined
  const what = type === "BonusRecorded" ? "bonus" : "dividend"
  return {
    _tag: "Rejected",
    rejection: {
      message:
        `the ${symbol} ${what} with book closure from ${bookClosure} is already recorded as event ${holder.event_id}: a payout ` +
        "is counted once (to change it, reverse that event and record the correction)",
      symbol,
      recordedIn: holder.event_id
    }
  }
}

const draftBonus = (body: Extract<Command, { kind: "bonus" }>, facts: Context, history: History): Drafted => {
  const e = entitlementOf(body, facts)
  if ("_tag" in e) return e
  const held = heldPayout("BonusRecorded", body.symbol, e.book_closure_from, history)
  if (held !== undefined) return held
  return { type: "BonusRecorded", symbol: body.symbol, trade_date: body.trade_date, percent: body.percent, ...e }
}

const draftDividend = (body: Extract<Command, { kind: "dividend" }>, facts: Context, history: History): Drafted => {
  const { symbol, trade_date } = body
  const e = entitlementOf(body, facts)
  if ("_tag" in e) return e
  const held = heldPayout("DividendRecorded", symbol, e.book_closure_from, history)
  if (held !== undefined) return held
  if ((body.per_share === undefined) === (body.gross_amount === undefined)) {
    return reject("body: a dividend needs exactly one of `per_share` and `gross_amount`", symbol)
  }
  const base = { type: "DividendRecorded" as const, symbol, trade_date, ...e }
  const amount = body.per_share !== undefined ? { per_share: body.per_share } : { gross_amount: body.gross_amount! }
  if (body.tax_withheld !== undefined) {
    if (body.gross_amount === undefined) {
      return reject("body field `tax_withheld`: give it with `gross_amount` (as the warrant shows)", symbol)
    }
    if (body.tax_withheld > body.gross_amount) {
      return reject("body field `tax_withheld`: more than the gross amount", symbol)
    }
    return { ...base, ...amount, tax_withheld: body.tax_withheld }
  }
  const filer = body.filer ?? history.filerOn(trade_date)
  if (filer === undefined) {
    return reject(
      "body field `filer`: the withholding rate depends on the filer status, which this portfolio has not recorded " +
        "(send filer: true or false, or record it once with kind tax_status)",
      symbol
    )
  }
  const rule = withholdingRuleOn(trade_date)
  if (rule === undefined) {
    return reject(`no withholding rule is held for ${trade_date}: give gross_amount and tax_withheld`, symbol)
  }
  return { ...base, ...amount, tax_rule: rule.id, tax_rate_pct: withholdingPct(rule, filer), filer }
}

/** Why a replay failed, in words that never reveal a quantity held. */
export const describeFailure = (f: ReplayFailure): string => {
  switch (f._tag) {
    case "Negative":
      return `this would sell more ${f.symbol} than is held on ${f.date} (a position can never be negative, on any date)`
    case "Unentitled":
      return `this would leave no ${f.symbol} held on ${f.date}, the entitlement date of ${f.what} (event ${f.event_id}); ` +
        "reverse that entitlement first"
    case "TaxAboveGross":
      return `this would make the tax withheld exceed the gross of the dividend ${f.event_id}`
    case "TooLarge":
      return `this would take ${f.symbol}'s figures beyond the ledger's exact range`
  }
}

/** Accepts `event` if its symbol still replays with it inserted at its date (or, for a reversal, with its target left out). */
const accept = (event: PortfolioEvent, state: State): Decision => {
  const failure = state.history.check(draftEntry(event, state.version + 1))
  if (failure === undefined) return { _tag: "Accepted", events: [event] }
  return reject(describeFailure(failure), "symbol" in event && event.symbol !== "" ? event.symbol : undefined)
}
