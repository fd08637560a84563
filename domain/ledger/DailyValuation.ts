/**
 * A portfolio's value at every session's close, from its events and the
 * recorded daily closes of what it holds. Pure and exact: shares are whole,
 * money is integer paisa (a close is taken to the paisa), and a figure that
 * cannot be known is NaN here (absent in answers), never 0.
 */
import { toDay } from "../Karachi.ts"
import type { IndexCloses } from "../market/board/IndexHistory.ts"
import { addDays, isTradingDay, nextTradingDay } from "../market/calendar/Calendar.ts"
import { MAX_EXACT_UNITS, toPaisa } from "./Money.ts"
import { applyTrade, type Book, bookOf, type Entry, replay, type ReplayFailure } from "./Replay.ts"

/** One symbol's closes for valuation, dates ascending; `close` in rupees. */
export interface ValuationCloses {
  readonly dates: ReadonlyArray<string>
  readonly close: ArrayLike<number>
  /**
   * Rows from `from` on are the source's, restated by `factor` (its close / the as-traded close) for a split it does
   * not date; `splitOn`: that split's first session where the market records it elsewhere (a dated face value).
   */
  readonly restated?:
    | { readonly factor: number; readonly from: string; readonly splitOn?: string | undefined }
    | undefined
}

/** What one event does to the portfolio, on the session it takes effect. */
export interface Move {
  readonly date: string
  readonly symbol: string
  readonly event_id: string
  /** buy, sell, dividend, bonus or split. */
  readonly kind: string
  /** Shares added (negative: removed). */
  readonly quantity: number
  /** Paisa added to the open positions' cost (negative: removed). */
  readonly cost: number
  readonly cashIn: number
  readonly cashOut: number
  /** Net dividend, paisa. */
  readonly dividend: number
  /** A split's ratio (new shares per old). */
  readonly split?: number
}

const byDate = (
  a: { readonly date: string },
  b: { readonly date: string }
) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)

/**
 * The replayed events as moves, by the session date they take effect (stable), or the replay's failure.
 *
 * The events are the replay's (domain/ledger/Replay.ts: reversed events left
 * out, a bonus's shares and a dividend's rupees from the position on its
 * entitlement date, average cost). Each takes effect on a session:
 * - a buy or sale on its trade date: money in (price × shares + fees) or out
 *   (price × shares − fees), and the cost of the open positions as the
 *   holdings answer computes it;
 * - a bonus or a cash dividend with an entitlement date on its ex day, the
 *   session after that date, when the price drops (a bonus's shares count
 *   from then, so the value line continues through it; a dividend counts as
 *   received then, net of the tax recorded); without one, on its own date;
 * - a split on its date.
 * An event dated on a day without a session counts on the next session.
 */
export const movesOf = (entries: ReadonlyArray<Entry>): ReadonlyArray<Move> | ReplayFailure => {
  const r = replay(entries)
  if (r._tag !== "Ok") return r
  const books = new Map<string, Book>()
  const moves: Array<Move> = []
  for (const a of r.applied) {
    const ev = a.entry.event
    const before = books.get(a.symbol) ?? bookOf(undefined)
    const after = ev.type === "TradeRecorded" ? applyTrade(before, ev) : before
    books.set(a.symbol, { ...after, quantity: a.quantity })
    const exDay = "entitlement_date" in ev && ev.entitlement_date !== undefined
      ? nextTradingDay(ev.entitlement_date)
      : undefined
    const value = ev.type === "TradeRecorded" ? toPaisa(ev.price) * ev.quantity : 0
    moves.push({
      date: exDay ?? a.entry.effective_date,
      symbol: a.symbol,
      event_id: a.entry.event_id,
      kind: ev.type === "TradeRecorded" ? ev.side : ev.type.replace("Recorded", "").toLowerCase(),
      quantity: a.quantity - before.quantity,
      cost: after.cost - before.cost,
      cashIn: ev.type === "TradeRecorded" && ev.side === "buy" ? value + toPaisa(ev.fees) : 0,
      cashOut: ev.type === "TradeRecorded" && ev.side === "sell" ? value - toPaisa(ev.fees) : 0,
      dividend: a.dividend_net !== undefined ? toPaisa(a.dividend_net) : 0,
      ...(ev.type === "SplitRecorded" ? { split: ev.numerator / ev.denominator } : {})
    })
  }
  return moves.sort(byDate)
}

/** The sessions from `from` to `to`, inclusive. */
export const sessionsBetween = (from: string, to: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let d = from; d <= to; d = addDays(d, 1)) if (isTradingDay(d)) out.push(d)
  return out
}

/** The index of the last element ≤ `date` in ascending `dates` (−1 when none). */
export const lastAtOrBefore = (dates: ReadonlyArray<string>, date: string): number => {
  let lo = 0, hi = dates.length - 1, found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (dates[mid]! <= date) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/** The value of each session's close, and what flowed that day, in paisa. */
export interface Valuation {
  readonly sessions: ReadonlyArray<string>
  readonly value: Float64Array
  readonly cost: Float64Array
  readonly cashIn: Float64Array
  readonly cashOut: Float64Array
  readonly dividends: Float64Array
  /** KSE-100 points at the session's close (NaN: none recorded that day). */
  readonly kse100: Float64Array
  readonly flags: ReadonlyArray<ReadonlyArray<string> | undefined>
  /** Each symbol's value (paisa, NaN unknown) at the sessions asked for as boundaries. */
  readonly symbolValues: ReadonlyMap<number, ReadonlyMap<string, number>>
}

/**
 * A symbol's closes read session by session (ascending): the close in paisa (NaN: none on or before), and the
 * flags it carries, one shared array per kind (undefined: none). Allocates nothing per read.
 */
class CloseReader {
  private cursor = 0
  flags: ReadonlyArray<string> | undefined
  private readonly dates: ReadonlyArray<string>
  private readonly close: ArrayLike<number>
  private readonly factor: number
  /** Rows from this date on are restated by the source ("~": none, after every date). */
  private readonly restatedFrom: string
  /** The split the source restated for, as the market dates it (undefined: not dated). */
  private readonly splitOn: string | undefined
  /** The date of the portfolio's own split of the ratio the source restated by (it dates what the source does not). */
  private readonly ownSplit: string | undefined
  private readonly kinds: Record<
    "none" | "carried" | "unrestated" | "carriedUnrestated" | "restated" | "carriedRestated",
    ReadonlyArray<string>
  >
  constructor(symbol: string, closes: ValuationCloses | undefined, moves: ReadonlyArray<Move>) {
    this.dates = closes?.dates ?? []
    this.close = closes?.close ?? []
    const restated = closes?.restated
    this.factor = restated?.factor ?? 1
    this.restatedFrom = restated ? restated.from : "~"
    this.splitOn = restated?.splitOn
    const split = restated &&
      moves.find((m) => m.symbol === symbol && m.split !== undefined && Math.abs(restated.factor * m.split - 1) < 0.01)
    this.ownSplit = split?.date
    const carried = `carried:${symbol}`
    this.kinds = {
      none: [`no_close:${symbol}`],
      carried: [carried],
      unrestated: [`unrestated:${symbol}`],
      carriedUnrestated: [carried, `unrestated:${symbol}`],
      restated: [`restated:${symbol}`],
      carriedRestated: [carried, `restated:${symbol}`]
    }
  }
  /** The close in force at `session` for shares held since `heldSince`. */
  read(session: string, heldSince: string): number {
    const dates = this.dates
    while (this.cursor < dates.length && dates[this.cursor]! <= session) this.cursor++
    const i = this.cursor - 1
    if (i < 0) return this.flag(this.kinds.none, NaN)
    const date = dates[i]!
    const carried = date !== session
    const paisa = toPaisa(this.close[i]!)
    if (date < this.restatedFrom) return this.flag(carried ? this.kinds.carried : undefined, paisa)
    if (this.ownSplit === undefined) {
      // Shares bought after the split the source restated for were never valued across it: nothing to flag.
      if (this.splitOn !== undefined && heldSince >= this.splitOn) {
        return this.flag(carried ? this.kinds.carried : undefined, paisa)
      }
      return this.flag(carried ? this.kinds.carriedRestated : this.kinds.restated, paisa)
    }
    if (date >= this.ownSplit) return this.flag(carried ? this.kinds.carried : undefined, paisa)
    return this.flag(
      carried ? this.kinds.carriedUnrestated : this.kinds.unrestated,
      toPaisa(this.close[i]! / this.factor)
    )
  }
  private flag(flags: ReadonlyArray<string> | undefined, paisa: number) {
    this.flags = flags
    return paisa
  }
}

/**
 * The valuation of `sessions`: the moves dated on or before each applied as they fall (later ones are not
 * valued), each held symbol valued at its close. `boundaries`: sessions whose per-symbol values are kept.
 *
 * A held symbol without a close on a session is valued at its last recorded
 * close and the session is flagged `carried:SYMBOL`; with no close on or
 * before the session the value is unknown (`no_close:SYMBOL`). Closes the
 * source restated for a split it does not date (`restated`) are divided
 * back by the source's factor before the portfolio's own recorded split of
 * the same ratio (`unrestated:SYMBOL`), else used as they are and flagged
 * (`restated:SYMBOL`) on a position opened before that split (or when the
 * split's date is not known): one opened after it never crossed it.
 */
export const valuate = (
  moves: ReadonlyArray<Move>,
  closes: ReadonlyMap<string, ValuationCloses>,
  index: IndexCloses | undefined,
  sessions: ReadonlyArray<string>,
  boundaries: Iterable<number>
): Valuation => {
  const n = sessions.length
  const v: Valuation = {
    sessions,
    value: new Float64Array(n),
    cost: new Float64Array(n),
    cashIn: new Float64Array(n),
    cashOut: new Float64Array(n),
    dividends: new Float64Array(n),
    kse100: new Float64Array(n).fill(NaN),
    flags: new Array(n),
    symbolValues: new Map()
  }
  const symbols = [...new Set(moves.map((m) => m.symbol))].sort()
  const slot = new Map(symbols.map((s, k) => [s, k]))
  const quantity = new Float64Array(symbols.length)
  /** The session each open position was opened on. */
  const heldSince: Array<string> = symbols.map(() => "")
  const readers = symbols.map((s) => new CloseReader(s, closes.get(s), moves))
  const boundary = new Uint8Array(n)
  for (const i of boundaries) if (i >= 0 && i < n) boundary[i] = 1
  const flags = v.flags as Array<ReadonlyArray<string> | undefined>
  let cost = 0, m = 0, k100 = 0
  for (let i = 0; i < n; i++) {
    const session = sessions[i]!
    for (; m < moves.length && moves[m]!.date <= session; m++) {
      const mv = moves[m]!
      const k = slot.get(mv.symbol)!
      if (quantity[k] === 0) heldSince[k] = session
      quantity[k]! += mv.quantity
      cost += mv.cost
      v.cashIn[i]! += mv.cashIn
      v.cashOut[i]! += mv.cashOut
      v.dividends[i]! += mv.dividend
    }
    let value = 0
    let dayFlags: ReadonlyArray<string> | undefined
    const perSymbol = boundary[i] === 1 ? new Map<string, number>() : undefined
    for (let k = 0; k < symbols.length; k++) {
      const q = quantity[k]!
      if (q === 0) continue
      const reader = readers[k]!
      const worth = q * reader.read(session, heldSince[k]!) // sessions ascend, so each reader only moves forward
      value += worth
      perSymbol?.set(symbols[k]!, worth)
      if (reader.flags) dayFlags = dayFlags === undefined ? reader.flags : [...dayFlags, ...reader.flags]
    }
    v.value[i] = Number.isInteger(value) && Math.abs(value) <= MAX_EXACT_UNITS ? value : NaN
    v.cost[i] = cost
    flags[i] = dayFlags
    if (perSymbol) (v.symbolValues as Map<number, ReadonlyMap<string, number>>).set(i, perSymbol)
    if (index) {
      while (k100 < index.dates.length && index.dates[k100]! < session) k100++
      if (index.dates[k100] === session) v.kse100[i] = index.close[k100]!
    }
  }
  return v
}

/** Days from one date to another. */
export const daysBetween = (from: string, to: string) => toDay(to) - toDay(from)
