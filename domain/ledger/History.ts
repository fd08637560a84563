/**
 * A portfolio stream's history as the decider keeps it: every entry, and for
 * each symbol its events in application order (date, then version) with the
 * book after each. A symbol replays apart from the others (only the filer
 * status crosses symbols, and it is read by date), so a new event is checked
 * by replaying its own symbol from its date: an event dated after the
 * symbol's others costs one step, a backdated one the steps after it.
 *
 * A History value never changes. `with` answers a new one; the indexes are
 * shared with it and grown in place while it is the newest, and rebuilt from
 * the entries when an older value is read again (a test branching a state).
 */
import type { PositionEvent } from "./Events.ts"
import {
  applyEvent,
  type Book,
  bookFailure,
  EMPTY_BOOK,
  type Entry,
  type Position,
  positionOf,
  type ReplayFailure
} from "./Replay.ts"

/** One applied event of a symbol and the book after it. */
interface Applied {
  readonly entry: Entry
  readonly book: Book
}

/** The mutable indexes behind the newest History of a line of states. */
interface Indexes {
  /** Every entry in version order (append-only: older Histories read a prefix of it). */
  readonly entries: Array<Entry>
  readonly byId: Map<string, Entry>
  /** Reversed event id → the reversal's entry. */
  readonly reversedBy: Map<string, Entry>
  readonly symbols: Map<string, Array<Applied>>
  /** The tax status entries, in version order. */
  readonly statuses: Array<Entry>
  tip: History | undefined
}

const emptyIndexes = (): Indexes => ({
  entries: [],
  byId: new Map(),
  reversedBy: new Map(),
  symbols: new Map(),
  statuses: [],
  tip: undefined
})

/** The first index whose entry is dated after `date` (so an event dated `date` goes there, after its same-day peers). */
const upperBound = (list: ReadonlyArray<Applied>, date: string) => {
  let lo = 0, hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]!.entry.effective_date <= date) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Re-applies `tail` after `list[0..from)`: the applied steps, and the first failure met (the steps go on past it,
 * so a stored stream that does not replay still folds; `decide` is what refuses).
 */
const restep = (list: ReadonlyArray<Applied>, from: number, tail: ReadonlyArray<Entry>) => {
  const steps: Array<Applied> = []
  let failure: ReplayFailure | undefined
  let book = from > 0 ? list[from - 1]!.book : EMPTY_BOOK
  // An entitlement reads the quantity held at the end of an earlier date: in the prefix or among the new steps.
  const quantityAt = (date: string) => {
    const inSteps = upperBound(steps, date)
    if (inSteps > 0) return steps[inSteps - 1]!.book.quantity
    const inPrefix = Math.min(upperBound(list, date), from)
    return inPrefix > 0 ? list[inPrefix - 1]!.book.quantity : 0
  }
  for (const entry of tail) {
    const step = applyEvent(book, entry, entry.event as PositionEvent, quantityAt)
    const problem = "_tag" in step
      ? step
      : bookFailure(step.book, (entry.event as PositionEvent).symbol, entry.effective_date)
    if (problem !== undefined) failure ??= problem
    if (!("_tag" in step)) book = step.book
    steps.push({ entry, book })
  }
  return { steps, failure }
}

/** What adding `entry` does to its symbol: the symbol, where its list changes, the new steps, and any failure. */
type Change = {
  readonly symbol: string
  readonly from: number
  readonly steps: ReadonlyArray<Applied>
  readonly failure: ReplayFailure | undefined
}

export class History {
  private indexes: Indexes
  private readonly length: number
  private constructor(indexes: Indexes, length: number) {
    this.indexes = indexes
    this.length = length
  }

  static readonly empty = (): History => {
    const indexes = emptyIndexes()
    const h = new History(indexes, 0)
    indexes.tip = h
    return h
  }

  /** The indexes of this value, rebuilt from its entries when a newer value has grown them. */
  private own(): Indexes {
    if (this.indexes.tip === this) return this.indexes
    const older = this.indexes.entries.slice(0, this.length)
    const rebuilt = emptyIndexes()
    rebuilt.tip = this
    this.indexes = rebuilt
    for (const e of older) this.grow(e)
    return rebuilt
  }

  /** Every entry, in version order. */
  entries(): ReadonlyArray<Entry> {
    const all = this.own().entries
    return all.length === this.length ? all : all.slice(0, this.length)
  }

  /** The entry with this id. */
  find(eventId: string): Entry | undefined {
    return this.own().byId.get(eventId)
  }

  /** The reversal of this event, if it was reversed. */
  reversalOf(eventId: string): Entry | undefined {
    return this.own().reversedBy.get(eventId)
  }

  /** The filer status in force on `date`: the newest not reversed, by date then version. */
  filerOn(date: string): boolean | undefined {
    let best: Entry | undefined
    for (const e of this.own().statuses) {
      if (e.effective_date > date || this.reversalOf(e.event_id)) continue
      if (best === undefined || e.effective_date >= best.effective_date) best = e
    }
    return best?.event.type === "TaxStatusRecorded" ? best.event.filer : undefined
  }

  /** The applied (not reversed) events of a symbol, in application order. */
  applied(symbol: string): ReadonlyArray<Entry> {
    return (this.own().symbols.get(symbol) ?? []).map((a) => a.entry)
  }

  /** The position of a symbol now, or undefined when no event of it applies. */
  position(symbol: string): Position | undefined {
    const list = this.own().symbols.get(symbol)
    return list === undefined || list.length === 0 ? undefined : positionOf(symbol, list[list.length - 1]!.book)
  }

  /** Every position now (symbols with an event that applies), by symbol. */
  positions(): ReadonlyMap<string, Position> {
    const symbols = [...this.own().symbols.keys()].sort((a, b) => a.localeCompare(b))
    return new Map(symbols.flatMap((s) => {
      const p = this.position(s)
      return p === undefined ? [] : [[s, p] as const]
    }))
  }

  /** What adding `entry` would do to its symbol's replay (undefined when it moves no position). */
  private change(entry: Entry): Change | undefined {
    const ev = entry.event
    const symbols = this.own().symbols
    if (ev.type === "TransactionReversed") {
      const target = this.find(ev.reverses)
      if (target === undefined || !("symbol" in target.event) || target.event.type === "TransactionReversed") {
        return undefined
      }
      const list = symbols.get(target.event.symbol) ?? []
      const at = list.findIndex((a) => a.entry === target)
      if (at < 0) return undefined
      return { symbol: target.event.symbol, from: at, ...restep(list, at, list.slice(at + 1).map((a) => a.entry)) }
    }
    if (ev.type === "DonationRecorded" || ev.type === "TaxStatusRecorded") return undefined
    const list = symbols.get(ev.symbol) ?? []
    const at = upperBound(list, entry.effective_date)
    return { symbol: ev.symbol, from: at, ...restep(list, at, [entry, ...list.slice(at).map((a) => a.entry)]) }
  }

  /** Why adding `entry` would not replay (a negative position on some date, an entitlement without shares…), or undefined. */
  check(entry: Entry): ReplayFailure | undefined {
    return this.change(entry)?.failure
  }

  /** The history with `entry` added, and the position of the symbol it touched (null when it no longer holds any event). */
  with(
    entry: Entry
  ): { readonly history: History; readonly touched?: { readonly symbol: string; readonly position: Position | null } } {
    const indexes = this.own()
    const touched = this.grow(entry)
    const next = new History(indexes, this.length + 1)
    indexes.tip = next
    if (touched === undefined) return { history: next }
    const position = next.position(touched)
    return { history: next, touched: { symbol: touched, position: position ?? null } }
  }

  /** Adds `entry` to the indexes in place (only ever on the tip); the symbol whose replay changed. */
  private grow(entry: Entry): string | undefined {
    const change = this.change(entry)
    const indexes = this.indexes
    indexes.entries.push(entry)
    indexes.byId.set(entry.event_id, entry)
    if (entry.event.type === "TransactionReversed") indexes.reversedBy.set(entry.event.reverses, entry)
    if (entry.event.type === "TaxStatusRecorded") indexes.statuses.push(entry)
    if (change === undefined) return undefined
    const list = indexes.symbols.get(change.symbol) ?? []
    list.length = change.from
    for (const s of change.steps) list.push(s)
    indexes.symbols.set(change.symbol, list)
    return change.symbol
  }
}
