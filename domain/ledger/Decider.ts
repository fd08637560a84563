/**
 * The portfolio decider: `decide(command, history, context) → events`,
 * `evolve(state, event) → state`, `initialState`. Pure: today's date and the
 * market facts a command needs come in the context.
 *
 * Events of a stream apply in effective-date order, then stream version
 * (never by date alone). A command is accepted only if the history with its
 * events inserted at their dates never holds a negative quantity — so a
 * backdated sale that would make a later position negative is refused.
 * Average cost: a buy adds its cost and fees; a sale removes the average cost
 * of what it sells and realises the difference (less fees); bonus issues and
 * splits change the quantity and conserve total cost.
 */
import type { LedgerEvent, PortfolioEvent } from "./Events.ts"
import type { TransactionBody } from "./Schemas.ts"

/** A command is a transaction body as the API decodes it (one schema, domain/ledger/Schemas.ts). */
export type Command = typeof TransactionBody.Type

export interface Position {
  readonly symbol: string
  readonly quantity: number
  /** Total cost of the shares held (average-cost method), fees included. */
  readonly cost: number
  readonly realized_pnl: number
  readonly dividends_gross: number
  readonly dividends_net: number
  readonly tax_withheld: number
  readonly fractional_entitlements: number
}

export type State = ReadonlyMap<string, Position>

/** An event as the decider sees it: with its stream order. */
export interface Entry {
  readonly event_id: string
  readonly version: number
  readonly effective_date: string
  readonly event: LedgerEvent
}

export interface Context {
  /** Today in Asia/Karachi. */
  readonly today: string
  readonly isTradingDay: (date: string) => boolean
  readonly settlementDate: (date: string) => string
  /** The circuit-breaker bounds for `symbol` on `date`, when that day's previous close is known. */
  readonly circuit?: { readonly lower: number; readonly upper: number } | undefined
}

export type Rejection = { readonly message: string; readonly symbol?: string }
export type Decision = { readonly _tag: "Accepted"; readonly events: ReadonlyArray<PortfolioEvent> } | {
  readonly _tag: "Rejected"
  readonly rejection: Rejection
}

export const initialState: State = new Map()

const EPS = 1e-9
const round = (n: number, places = 6) => Math.round(n * 10 ** places) / 10 ** places

export const emptyPosition = (symbol: string): Position => ({
  symbol,
  quantity: 0,
  cost: 0,
  realized_pnl: 0,
  dividends_gross: 0,
  dividends_net: 0,
  tax_withheld: 0,
  fractional_entitlements: 0
})

/** Applies one event. Reversals are resolved by `orderedEntries`, not here. */
export const evolve = (state: State, event: LedgerEvent): State => {
  if (event.type === "TransactionReversed" || event.type === "DonationRecorded") return state
  const out = new Map(state)
  out.set(event.symbol, evolvePosition(state.get(event.symbol) ?? emptyPosition(event.symbol), event))
  return out
}

/** One position after one event of its symbol. */
export const evolvePosition = (
  p: Position,
  event: Exclude<LedgerEvent, { type: "TransactionReversed" | "DonationRecorded" }>
): Position => {
  let next: Position
  switch (event.type) {
    case "TradeRecorded": {
      if (event.side === "buy") {
        next = { ...p, quantity: round(p.quantity + event.quantity), cost: round(p.cost + event.quantity * event.price + event.fees, 4) }
      } else {
        const avg = p.quantity > EPS ? p.cost / p.quantity : 0
        const removed = avg * event.quantity
        next = {
          ...p,
          quantity: round(p.quantity - event.quantity),
          cost: round(p.cost - removed, 4),
          realized_pnl: round(p.realized_pnl + event.quantity * event.price - event.fees - removed, 4)
        }
      }
      break
    }
    case "DividendRecorded":
      next = {
        ...p,
        dividends_gross: round(p.dividends_gross + event.gross_amount, 4),
        dividends_net: round(p.dividends_net + event.net_amount, 4),
        tax_withheld: round(p.tax_withheld + event.tax_withheld, 4)
      }
      break
    case "BonusRecorded":
      next = {
        ...p,
        quantity: round(p.quantity + event.shares_added),
        fractional_entitlements: round(p.fractional_entitlements + event.fractional_entitlement)
      }
      break
    case "SplitRecorded":
      next = { ...p, quantity: round((p.quantity * event.numerator) / event.denominator) }
      break
  }
  return next
}

/** Entries in application order, without reversed events and the reversals themselves. */
export const orderedEntries = (entries: ReadonlyArray<Entry>): ReadonlyArray<Entry> => {
  const reversed = new Set(
    entries.flatMap((e) => (e.event.type === "TransactionReversed" ? [e.event.reverses] : []))
  )
  return entries
    .filter((e) => !reversed.has(e.event_id) && e.event.type !== "TransactionReversed" && e.event.type !== "DonationRecorded")
    .slice()
    .sort((a, b) => (a.effective_date < b.effective_date ? -1 : a.effective_date > b.effective_date ? 1 : a.version - b.version))
}

/**
 * Replays entries on top of `base` (the state of every event before them;
 * empty when the entries are the whole stream); answers the holdings, or the
 * first point at which a quantity went negative.
 */
export const replay = (entries: ReadonlyArray<Entry>, base: State = initialState):
  | { readonly _tag: "Ok"; readonly state: State }
  | { readonly _tag: "Negative"; readonly symbol: string; readonly date: string; readonly quantity: number } =>
{
  // Same result as folding `evolve`, without copying the map per event.
  const state = new Map<string, Position>(base)
  for (const e of orderedEntries(entries)) {
    const ev = e.event
    if (ev.type === "DonationRecorded" || ev.type === "TransactionReversed") continue
    const next = evolvePosition(state.get(ev.symbol) ?? emptyPosition(ev.symbol), ev)
    state.set(ev.symbol, next)
    if (next.quantity < -EPS) return { _tag: "Negative", symbol: ev.symbol, date: e.effective_date, quantity: next.quantity }
  }
  return { _tag: "Ok", state }
}

/** The quantity of `symbol` held at the end of `date` (entries on top of `base`). */
export const quantityOn = (entries: ReadonlyArray<Entry>, symbol: string, date: string, base: State = initialState) => {
  let p = base.get(symbol) ?? emptyPosition(symbol)
  for (const e of orderedEntries(entries)) {
    if (e.effective_date > date) break
    const ev = e.event
    if (ev.type !== "DonationRecorded" && ev.type !== "TransactionReversed" && ev.symbol === symbol) p = evolvePosition(p, ev)
  }
  return p.quantity
}

const reject = (message: string, symbol?: string): Decision => ({
  _tag: "Rejected",
  rejection: { message, ...(symbol ? { symbol } : {}) }
})

const finite = (n: unknown) => typeof n === "number" && Number.isFinite(n)

/**
 * Decides a command against `history` on top of `base`. With the whole stream
 * as history, `base` is empty. A caller holding the current state may pass it
 * as `base` with an empty history when the command takes effect on or after
 * every recorded event (so it applies last) and is not a reversal: the
 * decision is then the same, at a cost that does not grow with the stream.
 */
export const decide = (command: Command, history: ReadonlyArray<Entry>, ctx: Context, base: State = initialState): Decision => {
  if (command.kind === "reversal") {
    const target = history.find((e) => e.event_id === command.event_id)
    if (target === undefined) return reject(`no event ${command.event_id} in this portfolio`)
    if (target.event.type === "TransactionReversed" || target.event.type === "DonationRecorded") {
      return reject(`event ${command.event_id} cannot be reversed`)
    }
    if (history.some((e) => e.event.type === "TransactionReversed" && e.event.reverses === command.event_id)) {
      return reject(`event ${command.event_id} is already reversed`)
    }
    if (command.reason.trim() === "") return reject("body field `reason`: a reversal needs a reason")
    const event: PortfolioEvent = {
      type: "TransactionReversed",
      reverses: command.event_id,
      symbol: target.event.symbol,
      trade_date: target.event.trade_date,
      reason: command.reason.trim()
    }
    return accept(event, history, target.effective_date, base)
  }
  const { symbol, trade_date } = command
  if (trade_date > ctx.today) return reject(`body field \`trade_date\`: ${trade_date} is in the future (today is ${ctx.today})`, symbol)
  switch (command.kind) {
    case "buy":
    case "sell": {
      if (!finite(command.quantity) || command.quantity <= 0) return reject("body field `quantity`: must be greater than 0", symbol)
      if (!finite(command.price) || command.price <= 0) return reject("body field `price`: must be greater than 0", symbol)
      const fees = command.fees ?? 0
      if (!finite(fees) || fees < 0) return reject("body field `fees`: must be 0 or more", symbol)
      if (!ctx.isTradingDay(trade_date)) return reject(`body field \`trade_date\`: ${trade_date} is not a PSX trading day`, symbol)
      const flags: Array<string> = []
      if (ctx.circuit && (command.price < ctx.circuit.lower - 0.005 || command.price > ctx.circuit.upper + 0.005)) {
        flags.push(
          `price ${command.price} is outside ${trade_date}'s circuit-breaker bounds ${ctx.circuit.lower}–${ctx.circuit.upper}`
        )
      }
      return accept({
        type: "TradeRecorded",
        side: command.kind,
        symbol,
        quantity: command.quantity,
        price: command.price,
        fees,
        trade_date,
        settlement_date: ctx.settlementDate(trade_date),
        flags
      }, history, trade_date, base)
    }
    case "dividend": {
      const tax = command.tax_withheld ?? 0
      if (!finite(tax) || tax < 0) return reject("body field `tax_withheld`: must be 0 or more", symbol)
      let gross: number
      if (command.gross_amount !== undefined) {
        if (!finite(command.gross_amount) || command.gross_amount <= 0) return reject("body field `gross_amount`: must be greater than 0", symbol)
        gross = command.gross_amount
      } else if (command.per_share !== undefined) {
        if (!finite(command.per_share) || command.per_share <= 0) return reject("body field `per_share`: must be greater than 0", symbol)
        const held = quantityOn(history, symbol, trade_date, base)
        if (held <= EPS) return reject(`no ${symbol} held on ${trade_date}: a per-share dividend needs a position`, symbol)
        gross = round(held * command.per_share, 4)
      } else {
        return reject("body: a dividend needs `gross_amount` or `per_share`", symbol)
      }
      if (tax > gross) return reject("body field `tax_withheld`: more than the gross amount", symbol)
      return accept({
        type: "DividendRecorded",
        symbol,
        trade_date,
        gross_amount: gross,
        tax_withheld: tax,
        net_amount: round(gross - tax, 4),
        ...(command.per_share !== undefined ? { per_share: command.per_share } : {})
      }, history, trade_date, base)
    }
    case "bonus": {
      if (!finite(command.percent) || command.percent <= 0) return reject("body field `percent`: must be greater than 0", symbol)
      const held = quantityOn(history, symbol, trade_date, base)
      if (held <= EPS) return reject(`no ${symbol} held on ${trade_date}: nothing to receive a bonus on`, symbol)
      const added = round((held * command.percent) / 100)
      return accept({
        type: "BonusRecorded",
        symbol,
        trade_date,
        percent: command.percent,
        shares_added: added,
        fractional_entitlement: round(added - Math.floor(added + EPS))
      }, history, trade_date, base)
    }
    case "split": {
      const { numerator, denominator } = command
      if (!Number.isInteger(numerator) || numerator <= 0) return reject("body field `numerator`: a whole number above 0", symbol)
      if (!Number.isInteger(denominator) || denominator <= 0) return reject("body field `denominator`: a whole number above 0", symbol)
      if (numerator === denominator) return reject("body: a split of 1 for 1 changes nothing", symbol)
      if (quantityOn(history, symbol, trade_date, base) <= EPS) return reject(`no ${symbol} held on ${trade_date}`, symbol)
      return accept({ type: "SplitRecorded", symbol, trade_date, numerator, denominator }, history, trade_date, base)
    }
  }
}

/** Accepts `event` if the history with it inserted never goes negative. */
const accept = (event: PortfolioEvent, history: ReadonlyArray<Entry>, effective: string, base: State): Decision => {
  const nextVersion = history.reduce((v, e) => Math.max(v, e.version), 0) + 1
  const r = replay([...history, { event_id: "(new)", version: nextVersion, effective_date: effective, event }], base)
  if (r._tag === "Negative") {
    return reject(
      `this would leave ${round(r.quantity, 4)} ${r.symbol} on ${r.date}: a position can never be negative`,
      r.symbol
    )
  }
  return { _tag: "Accepted", events: [event] }
}

