/**
 * One period's figures of a portfolio's performance (Performance.ts): TWR, XIRR and the period's money-weighted
 * return, total return with net dividends, each holding's contribution, and the benchmarks' changes over the same
 * days. Pure.
 *
 * A benchmark's change runs between its closes on or before the period's `from` and `to`; a `difference` is given
 * only when both closes are dated on those very sessions, so the two sides cover the same days.
 */
import { closeOnOrBefore, type IndexCloses } from "../market/board/IndexHistory.ts"
import { daysBetween, lastAtOrBefore, type Move, type Valuation } from "./DailyValuation.ts"
import type { PeriodFigures } from "./PerformanceSchemas.ts"
import { type Period, twr } from "./Returns.ts"
import { type Flow, xirr } from "./Xirr.ts"

/** Decimals kept in returns (0.123456 is 12.3456%). */
export const RETURN_PLACES = 6
const decimal = (x: number) => Math.round(x * 10 ** RETURN_PLACES) / 10 ** RETURN_PLACES
const rupees = (paisa: number) => paisa / 100
const known = <K extends string>(key: K, x: number | undefined): { [k in K]?: number } =>
  (x === undefined || !Number.isFinite(x) ? {} : { [key]: x }) as { [k in K]?: number }

export interface Window {
  readonly period: Period | "range"
  /** The session whose close the period starts from; −1: from inception. */
  readonly base: number
  readonly last: number
  readonly covers: boolean
}

export const windowOf = (
  sessions: ReadonlyArray<string>,
  last: number,
  period: Window["period"],
  wanted: string | undefined
): Window | undefined => {
  if (wanted === undefined || wanted < sessions[0]!) return { period, base: -1, last, covers: wanted === undefined }
  const base = lastAtOrBefore(sessions, wanted)
  return base >= last ? undefined : { period, base, last, covers: true }
}

/** The benchmarks a portfolio is compared with. */
export interface Benchmarks {
  /** KSE-100: total return (dividends, bonus and rights adjusted in it). */
  readonly total: IndexCloses | undefined
  /** KSE100PR: price return; undefined where its closes are not recorded. */
  readonly price: IndexCloses | undefined
}

/** An index's change from the close of `from` to the close of `to` (the last recorded close on or before each). */
const indexChange = (index: IndexCloses | undefined, from: string, to: string) => {
  const a = index && closeOnOrBefore(index, from)
  const b = index && closeOnOrBefore(index, to)
  if (!a || !b || a.close <= 0) return undefined
  return { from: a.date, to: b.date, from_close: a.close, to_close: b.close, change: decimal(b.close / a.close - 1) }
}

/** `ours − theirs`, only when the benchmark's closes are dated on the period's own first and last sessions. */
const differenceOf = (ours: number | undefined, theirs: ReturnType<typeof indexChange>, from: string, to: string) =>
  ours !== undefined && theirs !== undefined && theirs.from === from && theirs.to === to
    ? decimal(decimal(ours) - theirs.change)
    : undefined

const unequalDays = (name: string, change: NonNullable<ReturnType<typeof indexChange>>, from: string, to: string) =>
  `${name} has no close on ${
    change.from !== from ? from : to
  } (its change runs ${change.from} to ${change.to}): no difference ` +
  "is given over unequal days"

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
const contributionsOf = (v: Valuation, moves: ReadonlyArray<Move>, w: Window, capital: number) => {
  const after = w.base >= 0 ? v.sessions[w.base]! : ""
  const until = v.sessions[w.last]!
  const sums = new Map<string, { cashIn: number; cashOut: number; dividends: number }>()
  for (const m of moves) {
    if (m.date <= after || m.date > until) continue
    const s = sums.get(m.symbol) ?? { cashIn: 0, cashOut: 0, dividends: 0 }
    sums.set(m.symbol, {
      cashIn: s.cashIn + m.cashIn,
      cashOut: s.cashOut + m.cashOut,
      dividends: s.dividends + m.dividend
    })
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

const UNKNOWN_NOTE =
  "a held symbol has no recorded close on or before a session of the period (see the days' flags), so the " +
  "value and the returns that need it are unknown"
const IDLE_NOTE = "nothing was held or bought in the period"

/** The period's sums of what flowed, and whether a value in it is unknown. */
const sumsOf = (v: Valuation, first: number, last: number, start: number) => {
  let cashIn = 0, cashOut = 0, dividends = 0, unknown = Number.isNaN(start)
  for (let i = first; i <= last; i++) {
    cashIn += v.cashIn[i]!
    cashOut += v.cashOut[i]!
    dividends += v.dividends[i]!
    unknown ||= Number.isNaN(v.value[i]!)
  }
  return { cashIn, cashOut, dividends, unknown }
}

/** The benchmarks' changes over the period, the differences where the days are the same, and why one is left out. */
const benchmarkFigures = (v: Valuation, w: Window, start: number, totalTwr: number | undefined, b: Benchmarks) => {
  const from = v.sessions[Math.max(w.base, 0)]!, to = v.sessions[w.last]!
  const kse = indexChange(b.total, from, to)
  const difference = differenceOf(totalTwr, kse, from, to)
  const pr = indexChange(b.price, from, to)
  const priceTwr = pr === undefined
    ? undefined
    : twr({ ...v, dividends: new Float64Array(v.dividends.length) }, w.base + 1, w.last, start)
  const priceDifference = differenceOf(priceTwr, pr, from, to)
  const notes = [
    ...(kse !== undefined && totalTwr !== undefined && difference === undefined
      ? [unequalDays("KSE-100", kse, from, to)]
      : []),
    ...(pr !== undefined && priceTwr !== undefined && priceDifference === undefined
      ? [unequalDays("KSE100PR", pr, from, to)]
      : [])
  ]
  return {
    ...(kse ? { kse100: kse } : {}),
    ...known("difference", difference),
    ...known("price_twr", priceTwr === undefined ? undefined : decimal(priceTwr)),
    ...(pr ? { kse100pr: pr } : {}),
    ...known("price_difference", priceDifference),
    ...(notes.length > 0 ? { benchmark_note: notes.join("; ") } : {})
  }
}

export const figuresOf = (
  v: Valuation,
  moves: ReadonlyArray<Move>,
  benchmarks: Benchmarks,
  w: Window
): PeriodFigures => {
  const first = w.base + 1
  const start = w.base >= 0 ? v.value[w.base]! : 0
  const { cashIn, cashOut, dividends, unknown } = sumsOf(v, first, w.last, start)
  const end = v.value[w.last]!
  const capital = start + cashIn
  const gain = end + cashOut + dividends - start - cashIn
  const timeWeighted = twr(v, first, w.last, start)
  const flows = Number.isNaN(gain) ? [] : flowsOf(v, w, start, end)
  const rate = flows.length > 0 ? xirr(flows) : undefined
  const firstFlow = flows.find((f) => f.amount !== 0)?.date
  const span = firstFlow === undefined ? 0 : daysBetween(firstFlow, v.sessions[w.last]!)
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
    ...benchmarkFigures(v, w, start, timeWeighted, benchmarks),
    contributions: contributionsOf(v, moves, w, capital),
    ...(unknown ? { note: UNKNOWN_NOTE } : timeWeighted === undefined ? { note: IDLE_NOTE } : {})
  }
}
