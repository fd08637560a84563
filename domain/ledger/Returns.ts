/**
 * Time-weighted return of a portfolio from its events and recorded daily
 * closes, dividends included. Pure.
 *
 * Daily chain-linking, flows at the start of the day: on each date with a
 * close, r = (V + D) / (V_prev + F) − 1, where V is the holdings' value at
 * the close (a symbol's last recorded close carries forward over days it did
 * not trade), D the net dividends received that day, and F the net money put
 * in that day (buys at cost with fees, less sale proceeds after fees). Days
 * with no capital at risk are skipped. The return is Π(1 + r) − 1.
 */
import { addDays } from "../Karachi.ts"
import { type Entry, orderedEntries, replay } from "./Replay.ts"

export interface PeriodReturn {
  readonly period: string
  readonly from: string
  readonly to: string
  readonly return_pct: number
  /** False when the portfolio started after the period's start (the return runs from its first event). */
  readonly covers_whole_period: boolean
}

type Closes = ReadonlyMap<string, ReadonlyArray<{ readonly date: string; readonly close: number }>>

const shiftMonths = (iso: string, months: number) => {
  const d = new Date(iso + "T00:00:00Z")
  d.setUTCMonth(d.getUTCMonth() - months)
  return d.toISOString().slice(0, 10)
}

/** The return from the close of `start` (exclusive) to the close of `end`, or undefined with no capital at risk. */
export const twr = (entries: ReadonlyArray<Entry>, closes: Closes, start: string, end: string): number | undefined => {
  const replayed = replay(entries)
  if (replayed._tag !== "Ok") return undefined
  const events = replayed.applied
  const dates = [...new Set([...closes.values()].flatMap((rows) => rows.map((r) => r.date)))]
    .filter((d) => d <= end)
    .sort()
  const lastClose = new Map<string, number>()
  const cursor = new Map<string, number>()
  const qty = new Map<string, number>()
  let e = 0
  let prevValue = 0
  let growth = 1
  let counted = false
  for (const date of dates) {
    let flow = 0
    let dividends = 0
    for (; e < events.length && events[e]!.entry.effective_date <= date; e++) {
      const a = events[e]!
      const ev = a.entry.event
      qty.set(a.symbol, a.quantity)
      dividends += a.dividend_net ?? 0
      if (ev.type === "TradeRecorded") flow += ev.side === "buy" ? ev.quantity * ev.price + ev.fees : -(ev.quantity * ev.price - ev.fees)
    }
    for (const [symbol, rows] of closes) {
      let i = cursor.get(symbol) ?? 0
      while (i < rows.length && rows[i]!.date <= date) lastClose.set(symbol, rows[i++]!.close)
      cursor.set(symbol, i)
    }
    let value = 0
    for (const [symbol, q] of qty) {
      if (q <= 1e-9) continue
      const c = lastClose.get(symbol)
      if (c === undefined) return undefined // a holding with no recorded close yet: unknown, not zero
      value += q * c
    }
    if (date > start) {
      const base = prevValue + flow
      if (base > 1e-9) {
        growth *= (value + dividends) / base
        counted = true
      }
    }
    prevValue = value
  }
  return counted ? Math.round((growth - 1) * 1_000_000) / 10_000 : undefined
}

/** Returns over 1M, 3M, 6M, YTD, 1Y and since inception, ending at `end` (the newest date with closes). */
export const periodReturns = (entries: ReadonlyArray<Entry>, closes: Closes, end: string): ReadonlyArray<PeriodReturn> => {
  const first = orderedEntries(entries)[0]?.effective_date
  if (first === undefined) return []
  // The day before the first event: its close is the base of the first day's return.
  const inception = addDays(first, -1)
  const periods: ReadonlyArray<[string, string]> = [
    ["1M", shiftMonths(end, 1)],
    ["3M", shiftMonths(end, 3)],
    ["6M", shiftMonths(end, 6)],
    ["YTD", `${Number(end.slice(0, 4)) - 1}-12-31`],
    ["1Y", shiftMonths(end, 12)],
    ["since_inception", inception]
  ]
  return periods.flatMap(([period, wanted]) => {
    const start = wanted < inception ? inception : wanted
    const r = twr(entries, closes, start, end)
    return r === undefined
      ? []
      : [{ period, from: start, to: end, return_pct: r, covers_whole_period: period === "since_inception" || wanted >= inception }]
  })
}
