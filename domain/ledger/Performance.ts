/**
 * A portfolio's performance (GET /v1/me/performance): the daily valuation
 * (DailyValuation.ts) from its first event to the last session, and for each
 * standard period (Returns.ts) the time-weighted return, the money-weighted
 * return (Xirr.ts), the total return with net dividends, KSE-100's change over
 * the same days and each holding's contribution. Pure.
 *
 * A period runs from the close of its start session (excluded) to the close
 * of its last; one that would start before the first event starts at
 * inception instead: from nothing held, the first event's session included
 * (its trades count from their prices to that close), KSE-100 from that
 * session's close (an index has no level at the moment of a trade).
 *
 * Total return = gain / capital, where gain = value at the end + money out +
 * net dividends − value at the start − money in, and capital = value at the
 * start + money in. A holding's contribution is its own gain over the same
 * capital, so the contributions add up to the total return.
 */
import { closeOnOrBefore, type IndexCloses } from "../market/board/IndexHistory.ts"
import { daysBetween, lastAtOrBefore, type Move, movesOf, sessionsBetween, valuate, type Valuation, type ValuationCloses } from "./DailyValuation.ts"
import type { Entry, ReplayFailure } from "./Replay.ts"
import { dayBefore, type Period, periodStart, PERIODS, twr } from "./Returns.ts"
import type { PerformanceDay, PeriodFigures } from "./PerformanceSchemas.ts"
import { type Flow, xirr } from "./Xirr.ts"

export interface PerformanceRequest {
  readonly entries: ReadonlyArray<Entry>
  readonly closes: ReadonlyMap<string, ValuationCloses>
  readonly index: IndexCloses | undefined
  /** Karachi's date today: no close after it is used. */
  readonly today: string
  /** The first and last days of the daily rows wanted (the periods end at `to`, and `from` adds the range). */
  readonly from?: string | undefined
  readonly to?: string | undefined
}

export interface PerformanceResult {
  readonly first_event?: string
  readonly last_session?: string
  readonly periods: ReadonlyArray<PeriodFigures>
  readonly days: ReadonlyArray<PerformanceDay>
}

/** Decimals kept in returns (0.123456 is 12.3456%). */
export const RETURN_PLACES = 6
const decimal = (x: number) => Math.round(x * 10 ** RETURN_PLACES) / 10 ** RETURN_PLACES
const rupees = (paisa: number) => paisa / 100
const known = <K extends string>(key: K, x: number | undefined): { [k in K]?: number } =>
  (x === undefined || !Number.isFinite(x) ? {} : { [key]: x }) as { [k in K]?: number }

interface Window {
  readonly period: Period | "range"
  /** The session whose close the period starts from; −1: from inception. */
  readonly base: number
  readonly last: number
  readonly covers: boolean
}

const windowOf = (sessions: ReadonlyArray<string>, last: number, period: Window["period"], wanted: string | undefined): Window | undefined => {
  if (wanted === undefined || wanted < sessions[0]!) return { period, base: -1, last, covers: wanted === undefined }
  const base = lastAtOrBefore(sessions, wanted)
  return base >= last ? undefined : { period, base, last, covers: true }
}

/** The newest session with a close of a symbol the portfolio held or of KSE-100, not after today. */
const newestClose = (moves: ReadonlyArray<Move>, req: PerformanceRequest) => {
  let newest = ""
  const consider = (dates: ReadonlyArray<string> | undefined) => {
    const i = dates ? lastAtOrBefore(dates, req.today) : -1
    if (i >= 0 && dates![i]! > newest) newest = dates![i]!
  }
  for (const symbol of new Set(moves.map((m) => m.symbol))) consider(req.closes.get(symbol)?.dates)
  consider(req.index?.dates)
  return newest
}

/** KSE-100's change from the close of `from` to the close of `to` (the last recorded close on or before each). */
const indexChange = (index: IndexCloses | undefined, from: string, to: string) => {
  const a = index && closeOnOrBefore(index, from)
  const b = index && closeOnOrBefore(index, to)
  if (!a || !b || a.close <= 0) return undefined
  return { from: a.date, to: b.date, from_close: a.close, to_close: b.close, change: decimal(b.close / a.close - 1) }
}

/** The money-weighted flows of a window, in rupees from the investor's side, and the end value. */
const flowsOf = (v: Valuation, w: Window, start: number, end: number): Array<Flow> => {
  const flows: Array<Flow> = start > 0 ? [{ date: v.sessions[w.base]!, amount: -rupees(start) }] : []
  for (let i = w.base + 1; i <= w.last; i++) {
    const net = v.cashOut[i]! + v.dividends[i]! - v.cashIn[i]!
    if (net !== 0) flows.push({ date: v.sessions[i]!, amount: rupees(net) })
  }
  flows.push({ date: v.sessions[w.last]!, amount: rupees(end) })
  return flows
}

/** Each symbol's gain in the window, from its values at the ends and its own moves. */
const contributionsOf = (v: Valuation, moves: ReadonlyArray<Move>, w: Window, foldTail: boolean, capital: number) => {
  const after = w.base >= 0 ? v.sessions[w.base]! : ""
  const until = foldTail ? "9999-12-31" : v.sessions[w.last]!
  const sums = new Map<string, { cashIn: number; cashOut: number; dividends: number }>()
  for (const m of moves) {
    if (m.date <= after || m.date > until) continue
    const s = sums.get(m.symbol) ?? { cashIn: 0, cashOut: 0, dividends: 0 }
    sums.set(m.symbol, { cashIn: s.cashIn + m.cashIn, cashOut: s.cashOut + m.cashOut, dividends: s.dividends + m.dividend })
  }
  const startValues = w.base >= 0 ? v.symbolValues.get(w.base)! : new Map<string, number>()
  const endValues = v.symbolValues.get(w.last)!
  const symbols = [...new Set([...sums.keys(), ...startValues.keys(), ...endValues.keys()])].sort()
  return symbols.map((symbol) => {
    const s = sums.get(symbol) ?? { cashIn: 0, cashOut: 0, dividends: 0 }
    const start = startValues.get(symbol) ?? 0, end = endValues.get(symbol) ?? 0
    const gain = end + s.cashOut + s.dividends - start - s.cashIn
    return {
      symbol,
      ...known("value_start", rupees(start)),
      ...known("value_end", rupees(end)),
      cash_in: rupees(s.cashIn),
      cash_out: rupees(s.cashOut),
      dividends: rupees(s.dividends),
      ...known("gain", rupees(gain)),
      ...known("contribution", capital > 0 ? decimal(gain / capital) : undefined)
    }
  })
}

const UNKNOWN_NOTE = "a held symbol has no recorded close on or before a session of the period (see the days' flags), so the " +
  "value and the returns that need it are unknown"
const IDLE_NOTE = "nothing was held or bought in the period"

const figuresOf = (v: Valuation, moves: ReadonlyArray<Move>, index: IndexCloses | undefined, w: Window, foldTail: boolean): PeriodFigures => {
  const first = w.base + 1
  const start = w.base >= 0 ? v.value[w.base]! : 0
  let cashIn = 0, cashOut = 0, dividends = 0, unknown = Number.isNaN(start)
  for (let i = first; i <= w.last; i++) {
    cashIn += v.cashIn[i]!
    cashOut += v.cashOut[i]!
    dividends += v.dividends[i]!
    unknown ||= Number.isNaN(v.value[i]!)
  }
  const end = v.value[w.last]!
  const capital = start + cashIn
  const gain = end + cashOut + dividends - start - cashIn
  const timeWeighted = twr(v, first, w.last, start)
  const flows = Number.isNaN(gain) ? [] : flowsOf(v, w, start, end)
  const rate = flows.length > 0 ? xirr(flows) : undefined
  const firstFlow = flows.find((f) => f.amount !== 0)?.date
  const span = firstFlow === undefined ? 0 : daysBetween(firstFlow, v.sessions[w.last]!)
  const kse = indexChange(index, v.sessions[Math.max(w.base, 0)]!, v.sessions[w.last]!)
  return {
    period: w.period,
    from: v.sessions[Math.max(w.base, 0)]!,
    to: v.sessions[w.last]!,
    from_inception: w.base < 0,
    covers_whole_period: w.covers,
    ...known("value_start", rupees(start)),
    ...known("value_end", rupees(end)),
    cash_in: rupees(cashIn),
    cash_out: rupees(cashOut),
    dividends: rupees(dividends),
    ...known("gain", rupees(gain)),
    ...known("twr", timeWeighted === undefined ? undefined : decimal(timeWeighted)),
    ...known("mwr", rate === undefined ? undefined : decimal(Math.pow(1 + rate, span / 365) - 1)),
    ...known("xirr", rate === undefined ? undefined : decimal(rate)),
    ...known("total_return", capital > 0 ? decimal(gain / capital) : undefined),
    ...(kse ? { kse100: kse } : {}),
    ...known("difference", kse && timeWeighted !== undefined ? decimal(decimal(timeWeighted) - kse.change) : undefined),
    contributions: contributionsOf(v, moves, w, foldTail && w.last === v.sessions.length - 1, capital),
    ...(unknown ? { note: UNKNOWN_NOTE } : timeWeighted === undefined ? { note: IDLE_NOTE } : {})
  }
}

/** One row (built directly: a long history makes thousands). */
const dayOf = (v: Valuation, i: number): PerformanceDay => {
  const value = v.value[i]!, kse = v.kse100[i]!, flags = v.flags[i]
  const day: { -readonly [K in keyof PerformanceDay]: PerformanceDay[K] } = {
    date: v.sessions[i]!,
    cost: v.cost[i]! / 100,
    net_flow: (v.cashIn[i]! - v.cashOut[i]!) / 100,
    dividends: v.dividends[i]! / 100
  }
  if (!Number.isNaN(value)) day.value = value / 100
  if (!Number.isNaN(kse)) day.kse100 = kse
  if (flags !== undefined) day.flags = flags
  return day
}

/** The performance of a portfolio's events at recorded closes, or the replay's failure. */
export const performanceOf = (req: PerformanceRequest): PerformanceResult | ReplayFailure => {
  const moves = movesOf(req.entries)
  if ("_tag" in moves) return moves
  if (moves.length === 0) return { periods: [], days: [] }
  const firstEvent = moves[0]!.date
  const lastMove = moves[moves.length - 1]!.date
  const newest = newestClose(moves, req)
  const all = sessionsBetween(firstEvent, newest > lastMove ? newest : lastMove)
  if (all.length === 0) return { first_event: firstEvent, periods: [], days: [] }
  const naturalLast = all.length - 1
  const last = req.to === undefined ? naturalLast : lastAtOrBefore(all, req.to)
  const base = { first_event: firstEvent, last_session: all[naturalLast]! }
  if (last < 0) return { ...base, periods: [], days: [] }
  const sessions = all.slice(0, last + 1)
  const end = sessions[last]!
  const windows = [
    ...PERIODS.map((p) => windowOf(sessions, last, p, periodStart(p, end))),
    ...(req.from !== undefined ? [windowOf(sessions, last, "range", dayBefore(req.from))] : [])
  ].filter((w): w is Window => w !== undefined)
  const boundaries = new Set(windows.flatMap((w) => [w.base, w.last]))
  const foldTail = last === naturalLast
  const v = valuate(moves, req.closes, req.index, sessions, { foldTail, boundaries })
  const firstRow = req.from === undefined ? 0 : lastAtOrBefore(sessions, dayBefore(req.from)) + 1
  const days: Array<PerformanceDay> = []
  for (let i = firstRow; i <= last; i++) days.push(dayOf(v, i))
  return { ...base, periods: windows.map((w) => figuresOf(v, moves, req.index, w, foldTail)), days }
}
