/**
 * The time-weighted return, defined once (GET /v1/me/performance and the
 * returns in GET /v1/me/analyze both use it), and the standard periods.
 * Pure.
 */
import { addDays } from "../Karachi.ts"

/** A valuation's daily figures (paisa; NaN: unknown). */
export interface DailyFlows {
  readonly value: ArrayLike<number>
  readonly cashIn: ArrayLike<number>
  readonly cashOut: ArrayLike<number>
  readonly dividends: ArrayLike<number>
}

/**
 * The time-weighted return over sessions first..last (inclusive), from a value of `before` at the close
 * before `first` (0 from inception); undefined when a value is unknown or nothing was ever at risk.
 *
 * Daily chain-linking over sessions: each session's return is
 * r = (V + D + O) / (V_prev + I) − 1, where V is the holdings' value at the
 * session's close, V_prev the previous session's, D the net dividends that
 * count that session, I the money put in (buys at price × shares + fees) and
 * O the money taken out (sales at price × shares − fees). Money in counts at
 * the start of the day (it is at risk from its trade price to the close);
 * money out at its end, so a day's base is never negative and selling
 * everything is not a −100% day. A session with nothing at risk
 * (V_prev + I = 0) is left out. TWR = Π(1 + r) − 1.
 */
export const twr = (d: DailyFlows, first: number, last: number, before: number): number | undefined => {
  let growth = 1
  let counted = false
  let previous = before
  if (Number.isNaN(previous)) return undefined
  for (let i = first; i <= last; i++) {
    const value = d.value[i]!
    if (Number.isNaN(value)) return undefined
    const base = previous + d.cashIn[i]!
    if (base > 0) {
      growth *= (value + d.dividends[i]! + d.cashOut[i]!) / base
      counted = true
    }
    previous = value
  }
  return counted ? growth - 1 : undefined
}

/** The standard periods, each ending at the last session. */
export const PERIODS = ["1M", "3M", "6M", "YTD", "1Y", "since_inception"] as const
export type Period = typeof PERIODS[number]

/** `iso` moved back `months` calendar months, on the same day of the month or that month's last (05-31 → 04-30). */
const monthsBefore = (iso: string, months: number) => {
  const total = Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1 - months
  const year = Math.floor(total / 12), month = (total % 12) + 1
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate()
  const day = Math.min(Number(iso.slice(8, 10)), last)
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
}

/**
 * The date whose close a period's return starts from, for a period ending at `end`: a month (three, six, twelve)
 * before it, the last day of the previous year for YTD; undefined for since inception (the first event's).
 */
export const periodStart = (period: Period, end: string): string | undefined => {
  switch (period) {
    case "1M":
      return monthsBefore(end, 1)
    case "3M":
      return monthsBefore(end, 3)
    case "6M":
      return monthsBefore(end, 6)
    case "1Y":
      return monthsBefore(end, 12)
    case "YTD":
      return `${Number(end.slice(0, 4)) - 1}-12-31`
    case "since_inception":
      return undefined
  }
}

/** The day before `date` (a range's first day starts from the close before it). */
export const dayBefore = (date: string) => addDays(date, -1)
