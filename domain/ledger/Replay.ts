/**
 * Replaying a portfolio stream into positions. Pure, exact (integer paisa and
 * whole shares), and the only place amounts that depend on positions are
 * computed: a bonus's shares and a dividend's rupees come from the quantity
 * held at the end of the entitlement date (the last buy date), so a trade
 * recorded later but dated earlier re-derives them.
 *
 * Events apply in effective-date order, then stream version (never by date
 * alone); reversed events and the reversals themselves are left out.
 * Average cost: a buy adds its cost and fees; a sale removes the average cost
 * of what it sells and realises the difference (less fees); bonus issues and
 * splits change the quantity and conserve the cost. Fractions of a share that
 * a bonus or split creates are not credited: they are a cash entitlement
 * (the company consolidates and sells them), kept in `fractional_entitlements`.
 *
 * A replay fails, naming where, when a position would go negative, an
 * entitlement would have no shares on its entitlement date, withheld tax
 * would exceed the gross, or a figure would leave exact integer range.
 */
import type { LedgerEvent, PositionEvent } from "./Events.ts"
import { FRACTION_UNITS, fromPaisa, isExact, mulDiv, toCentiPaisa, toPaisa } from "./Money.ts"

/** An event as the decider and the replay see it: with its stream order. */
export interface Entry {
  readonly event_id: string
  readonly version: number
  readonly effective_date: string
  readonly event: LedgerEvent
}

export interface Position {
  readonly symbol: string
  readonly quantity: number
  /** Total cost of the shares held (average-cost method), fees included, rupees. */
  readonly cost: number
  readonly realized_pnl: number
  readonly dividends_gross: number
  readonly dividends_net: number
  readonly tax_withheld: number
  /** Fractions of a share owed as cash (from bonus issues and splits). */
  readonly fractional_entitlements: number
}

/** What one event did, for figures that follow the replay (returns). */
export interface Applied {
  readonly entry: Entry
  readonly symbol: string
  /** Shares after the event. */
  readonly quantity: number
  /** Net dividend (rupees) the event paid, if it is a dividend. */
  readonly dividend_net?: number
}

export type ReplayFailure =
  | { readonly _tag: "Negative"; readonly symbol: string; readonly date: string }
  | {
    readonly _tag: "Unentitled"
    readonly symbol: string
    readonly date: string
    readonly event_id: string
    readonly what: string
  }
  | { readonly _tag: "TaxAboveGross"; readonly symbol: string; readonly event_id: string }
  | { readonly _tag: "TooLarge"; readonly symbol: string }

export type ReplayResult =
  | { readonly _tag: "Ok"; readonly state: ReadonlyMap<string, Position>; readonly applied: ReadonlyArray<Applied> }
  | ReplayFailure

/** A position in exact units: paisa, whole shares, ten-thousandths of a share. */
export interface Book {
  readonly quantity: number
  readonly fraction: number
  readonly cost: number
  readonly realized: number
  readonly gross: number
  readonly tax: number
}
export const EMPTY_BOOK: Book = { quantity: 0, fraction: 0, cost: 0, realized: 0, gross: 0, tax: 0 }

export const bookOf = (p: Position | undefined): Book =>
  p === undefined ? EMPTY_BOOK : {
    quantity: p.quantity,
    fraction: Math.round(p.fractional_entitlements * FRACTION_UNITS),
    cost: toPaisa(p.cost),
    realized: toPaisa(p.realized_pnl),
    gross: toPaisa(p.dividends_gross),
    tax: toPaisa(p.tax_withheld)
  }

export const positionOf = (symbol: string, b: Book): Position => ({
  symbol,
  quantity: b.quantity,
  cost: fromPaisa(b.cost),
  realized_pnl: fromPaisa(b.realized),
  dividends_gross: fromPaisa(b.gross),
  dividends_net: fromPaisa(b.gross - b.tax),
  tax_withheld: fromPaisa(b.tax),
  fractional_entitlements: b.fraction / FRACTION_UNITS
})

export const emptyPosition = (symbol: string): Position => positionOf(symbol, EMPTY_BOOK)

/** A buy or a sale applied to a book (shared by the replay and the decider's kept-state path). */
export const applyTrade = (b: Book, ev: Extract<LedgerEvent, { type: "TradeRecorded" }>): Book => {
  const value = toPaisa(ev.price) * ev.quantity
  const fees = toPaisa(ev.fees)
  if (ev.side === "buy") return { ...b, quantity: b.quantity + ev.quantity, cost: b.cost + value + fees }
  const removed = b.quantity > 0 ? mulDiv(b.cost, Math.min(ev.quantity, b.quantity), b.quantity) : 0
  return {
    ...b,
    quantity: b.quantity - ev.quantity,
    cost: b.cost - removed,
    realized: b.realized + value - fees - removed
  }
}

/** Whole shares and the fraction (ten-thousandths) of `quantity × numerator / denominator`. */
const scaled = (quantity: number, numerator: number, denominator: number) => {
  const units = BigInt(Math.trunc(quantity)) * BigInt(numerator)
  const whole = Number(units / BigInt(denominator))
  const rest = Number(units % BigInt(denominator))
  return { whole, fraction: Math.round((rest * FRACTION_UNITS) / denominator) }
}

/** Bonus shares on `held` at `percent` (two decimals at most): the whole shares, and the fraction owed as cash. */
export const bonusShares = (held: number, percent: number) => scaled(held, Math.round(percent * 100), 10_000)

/** A dividend's gross, tax and net in paisa, on `held` shares. */
export const dividendAmounts = (ev: Extract<LedgerEvent, { type: "DividendRecorded" }>, held: number) => {
  const gross = ev.per_share !== undefined
    ? Math.round((held * toCentiPaisa(ev.per_share)) / 100)
    : toPaisa(ev.gross_amount ?? 0)
  const tax = ev.tax_withheld !== undefined
    ? toPaisa(ev.tax_withheld)
    : ev.tax_rate_pct !== undefined
    ? mulDiv(gross, Math.round(ev.tax_rate_pct * 100), 10_000)
    : 0
  return { gross, tax }
}

/** Entries in application order, without reversed events and the reversals themselves. */
export const orderedEntries = (entries: ReadonlyArray<Entry>): ReadonlyArray<Entry> => {
  const reversed = new Set(entries.flatMap((e) => (e.event.type === "TransactionReversed" ? [e.event.reverses] : [])))
  return entries
    .filter((e) =>
      !reversed.has(e.event_id) && e.event.type !== "TransactionReversed" && e.event.type !== "DonationRecorded"
    )
    .slice()
    .sort((
      a,
      b
    ) => (a.effective_date < b.effective_date ? -1 : a.effective_date > b.effective_date ? 1 : a.version - b.version))
}

/** Each symbol's quantity at the end of each date seen so far (dates ascending). */
class QuantityTimeline {
  private readonly days = new Map<string, Array<{ date: string; quantity: number }>>()
  record(symbol: string, date: string, quantity: number) {
    const list = this.days.get(symbol) ?? []
    if (list.length > 0 && list[list.length - 1]!.date === date) list[list.length - 1] = { date, quantity }
    else list.push({ date, quantity })
    this.days.set(symbol, list)
  }
  at(symbol: string, date: string): number {
    const list = this.days.get(symbol) ?? []
    let lo = 0, hi = list.length - 1, found = 0
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (list[mid]!.date <= date) {
        found = list[mid]!.quantity
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }
}

export type Step = { readonly book: Book; readonly dividend?: number } | ReplayFailure

/** One position event applied to its symbol's book, given the quantity of that symbol held at the end of an earlier date. */
export const applyEvent = (b: Book, entry: Entry, ev: PositionEvent, quantityAt: (date: string) => number): Step => {
  switch (ev.type) {
    case "TradeRecorded":
      return { book: applyTrade(b, ev) }
    case "SplitRecorded": {
      const s = scaled(b.quantity, ev.numerator, ev.denominator)
      return { book: { ...b, quantity: s.whole, fraction: b.fraction + s.fraction } }
    }
    case "BonusRecorded": {
      if (ev.entitlement_date === undefined) {
        const added = ev.shares_added ?? 0
        const whole = Math.floor(added + 1e-9)
        return {
          book: {
            ...b,
            quantity: b.quantity + whole,
            fraction: b.fraction + Math.round((added - whole) * FRACTION_UNITS)
          }
        }
      }
      const held = quantityAt(ev.entitlement_date)
      if (held <= 0) {
        return unentitled(
          ev.symbol,
          ev.entitlement_date,
          entry,
          `the ${ev.percent}% bonus credited on ${ev.trade_date}`
        )
      }
      const s = bonusShares(held, ev.percent)
      return { book: { ...b, quantity: b.quantity + s.whole, fraction: b.fraction + s.fraction } }
    }
    case "DividendRecorded": {
      if (ev.entitlement_date === undefined) {
        const gross = toPaisa(ev.gross_amount ?? 0), tax = toPaisa(ev.tax_withheld ?? 0)
        return { book: { ...b, gross: b.gross + gross, tax: b.tax + tax }, dividend: gross - tax }
      }
      const held = quantityAt(ev.entitlement_date)
      if (held <= 0) return unentitled(ev.symbol, ev.entitlement_date, entry, `the dividend paid on ${ev.trade_date}`)
      const { gross, tax } = dividendAmounts(ev, held)
      if (tax > gross) return { _tag: "TaxAboveGross", symbol: ev.symbol, event_id: entry.event_id }
      return { book: { ...b, gross: b.gross + gross, tax: b.tax + tax }, dividend: gross - tax }
    }
  }
}

const unentitled = (symbol: string, date: string, entry: Entry, what: string): ReplayFailure => ({
  _tag: "Unentitled",
  symbol,
  date,
  event_id: entry.event_id,
  what
})

/**
 * Why a book cannot stand, or undefined: a negative quantity, or a figure out of exact range (whole shares up
 * to 2^53 − 1; amounts and fractions within MAX_EXACT_UNITS). The replay and the decider's History both ask
 * this, so the decider refuses exactly what a replay would refuse.
 */
export const bookFailure = (b: Book, symbol: string, date: string): ReplayFailure | undefined =>
  b.quantity < 0
    ? { _tag: "Negative", symbol, date }
    : Number.isSafeInteger(b.quantity) && isExact(b.fraction, b.cost, b.realized, b.gross, b.tax)
    ? undefined
    : { _tag: "TooLarge", symbol }

/**
 * A replay that takes one entry at a time, in application order: each
 * position event applied to its symbol's book with the timeline of the
 * quantities before it. `replay` runs it over a whole stream; the verifier
 * also steps it over events that apply after every earlier one, so a stream
 * recorded in date order is replayed once, not once per event.
 */
export class Replayer {
  private readonly books = new Map<string, Book>()
  private readonly timeline = new QuantityTimeline()

  /** Applies `entry` (which must sort after every entry applied so far): what it did, undefined if it moves no position, or the failure. */
  step(entry: Entry): Applied | ReplayFailure | undefined {
    const ev = entry.event
    if (ev.type === "TransactionReversed" || ev.type === "DonationRecorded" || ev.type === "TaxStatusRecorded") {
      return undefined
    }
    const step = applyEvent(
      this.books.get(ev.symbol) ?? EMPTY_BOOK,
      entry,
      ev,
      (date) => this.timeline.at(ev.symbol, date)
    )
    if ("_tag" in step) return step
    const failure = bookFailure(step.book, ev.symbol, entry.effective_date)
    if (failure !== undefined) return failure
    this.books.set(ev.symbol, step.book)
    this.timeline.record(ev.symbol, entry.effective_date, step.book.quantity)
    return {
      entry,
      symbol: ev.symbol,
      quantity: step.book.quantity,
      ...(step.dividend !== undefined ? { dividend_net: fromPaisa(step.dividend) } : {})
    }
  }

  /** One symbol's book so far, in exact units (the tax-year statement reads it around each event). */
  book(symbol: string): Book {
    return this.books.get(symbol) ?? EMPTY_BOOK
  }

  /** The positions so far, by symbol in order. */
  state(): ReadonlyMap<string, Position> {
    return new Map(
      [...this.books].sort(([a], [b]) => a.localeCompare(b)).map(([s, b]) => [s, positionOf(s, b)] as const)
    )
  }
}

/** Whether a step failed. */
export const isFailure = (r: Applied | ReplayFailure | undefined): r is ReplayFailure => r !== undefined && "_tag" in r

/** Replays a whole stream (every event of it) into positions, or the first failure. */
export const replay = (entries: ReadonlyArray<Entry>): ReplayResult => {
  const replayer = new Replayer()
  const applied: Array<Applied> = []
  for (const entry of orderedEntries(entries)) {
    const r = replayer.step(entry)
    if (isFailure(r)) return r
    if (r !== undefined) applied.push(r)
  }
  return { _tag: "Ok", state: replayer.state(), applied }
}

/** The filer status recorded as in force on `date` (the newest by date, then version), or undefined. */
export const filerOn = (entries: ReadonlyArray<Entry>, date: string): boolean | undefined => {
  let status: boolean | undefined
  for (const e of orderedEntries(entries)) {
    if (e.effective_date > date) break
    if (e.event.type === "TaxStatusRecorded") status = e.event.filer
  }
  return status
}

/** The quantity of `symbol` held at the end of `date`, or undefined if the stream does not replay. */
export const quantityOn = (entries: ReadonlyArray<Entry>, symbol: string, date: string): number | undefined => {
  const r = replay(entries.filter((e) => e.effective_date <= date))
  return r._tag === "Ok" ? (r.state.get(symbol)?.quantity ?? 0) : undefined
}
