/**
 * The rows of a portfolio's valuation as the performance answer gives them: none (the default), one a session,
 * or one a week or a month. A weekly or monthly row is its last session's: value, cost, KSE-100 and flags of
 * that session's close, with the money and dividends that flowed over all of its sessions in the rows' range.
 * Pure; sums in paisa.
 */
import { addDays } from "../Karachi.ts"
import { weekday } from "../market/calendar/Calendar.ts"
import type { Valuation } from "./DailyValuation.ts"
import type { PerformanceDay } from "./PerformanceSchemas.ts"

export const DAY_SERIES = ["none", "weekly", "monthly", "daily"] as const
export type DaySeries = typeof DAY_SERIES[number]

/** The Monday of a date's week (Monday to Sunday). */
const weekOf = (date: string) => addDays(date, -((weekday(date) + 6) % 7))

/** The bucket a session falls in; sessions of one bucket are consecutive. */
const bucketOf = (series: Exclude<DaySeries, "none">, date: string) =>
  series === "daily" ? date : series === "weekly" ? weekOf(date) : date.slice(0, 7)

/** The row of sessions first..last (one bucket), at the last one's close (built directly: a long history makes thousands). */
const rowOf = (v: Valuation, first: number, last: number): PerformanceDay => {
  let flow = 0, dividends = 0
  for (let i = first; i <= last; i++) {
    flow += v.cashIn[i]! - v.cashOut[i]!
    dividends += v.dividends[i]!
  }
  const value = v.value[last]!, kse = v.kse100[last]!, flags = v.flags[last]
  const day: { -readonly [K in keyof PerformanceDay]: PerformanceDay[K] } = {
    date: v.sessions[last]!,
    cost: v.cost[last]! / 100,
    net_flow: flow / 100,
    dividends: dividends / 100
  }
  if (!Number.isNaN(value)) day.value = value / 100
  if (!Number.isNaN(kse)) day.kse100 = kse
  if (flags !== undefined) day.flags = flags
  return day
}

/** The rows of sessions first..last, one per bucket of `series`; undefined for `none`. */
export const rowsOf = (
  v: Valuation,
  first: number,
  last: number,
  series: DaySeries
): Array<PerformanceDay> | undefined => {
  if (series === "none") return undefined
  const rows: Array<PerformanceDay> = []
  let start = first
  for (let i = first; i <= last; i++) {
    if (i === last || bucketOf(series, v.sessions[i + 1]!) !== bucketOf(series, v.sessions[i]!)) {
      rows.push(rowOf(v, start, i))
      start = i + 1
    }
  }
  return rows
}
