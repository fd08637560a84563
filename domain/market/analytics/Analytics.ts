/**
 * Per-stock analytics (SPEC 2.3 "Stock analytics"): 5- and 20-session
 * performance, drawdowns from the 5- and 20-session highs, the 52-week range
 * with its basis, 30-session liquidity and reference prices.
 */
import { karachiDateOf } from "../../Karachi.ts"
import { defined } from "../../Objects.ts"
import { type ActionRecord, adjustCloses, cleanRows, findSteps, type Step } from "../prices/PriceSteps.ts"
import { changePct, round, type Unavailable, week52Start } from "../shared/Figures.ts"
import type { PriceSeries } from "../snapshot/Series.ts"
import type { AnalyticsFigures } from "./AnalyticsSchemas.ts"

/** The fields of the latest delayed quote the analytics use. */
export interface LatestQuote {
  readonly price: number
  readonly previous_close?: number | undefined
  readonly change_pct?: number | undefined
  readonly volume?: number | undefined
  readonly as_of: string
}

export const LIQUIDITY_SESSIONS = 30

/** Clean points: the series' clean rows, plus the quote when it is newer. */
interface Points {
  readonly dates: Array<string>
  readonly closes: Array<number>
  readonly rows: Array<number>
  readonly quoted: boolean
}

/** No window reaches further back than this many clean sessions (52 weeks hold about 250). */
const HISTORY = 400

const points = (s: PriceSeries, quote: LatestQuote | undefined): Points => {
  const rows = cleanRows(s).slice(-HISTORY)
  const dates = rows.map((i) => s.dates[i]!)
  const closes = rows.map((i) => s.close[i]!)
  const quoteDay = quote !== undefined && Number.isFinite(quote.price) && quote.price > 0
    ? karachiDateOf(quote.as_of)
    : undefined
  const quoted = quoteDay !== undefined && (dates.length === 0 || quoteDay > dates[dates.length - 1]!)
  if (quoted) {
    dates.push(quoteDay)
    closes.push(quote!.price)
  }
  return { dates, closes, rows, quoted }
}

const stepsIn = (steps: ReadonlyArray<Step>, from: string, to: string) =>
  steps.filter((st) => st.date > from && st.date <= to)

type Missing = (figure: string, reason: string) => void

/** The first point examined for steps: the longest session window (20 back from the last point) and the 52 weeks. */
const firstExamined = (dates: ReadonlyArray<string>, w52From: string) => {
  const n = dates.length
  let first = n - 1
  while (first > 0 && (dates[first - 1]! >= w52From || first > n - 21)) first--
  return first
}

/** Percent change over the last `k` sessions of the step-adjusted closes. */
const performance = (adjusted: ArrayLike<number>, k: number, missing: Missing) => {
  const n = adjusted.length
  if (n <= k) {
    missing(`performance_${k}d_pct`, `needs ${k + 1} sessions; ${n} recorded`)
    return undefined
  }
  return round(changePct(adjusted[n - 1 - k]!, adjusted[n - 1]!))
}

/** The high of the last `k` adjusted closes and the last close's fall from it, in percent. */
const drawdown = (adjusted: ArrayLike<number>, k: number, missing: Missing): { high?: number; dd?: number } => {
  const n = adjusted.length
  if (n < k) {
    missing(`drawdown_${k}d_pct`, `needs ${k} sessions; ${n} recorded`)
    return {}
  }
  let high = -Infinity
  for (let i = n - k; i < n; i++) high = Math.max(high, adjusted[i]!)
  return { high: round(high), dd: round((1 - adjusted[n - 1]! / high) * 100) }
}

/** The 52-week high and low, intraday when every row has a usable high and low, else on closes (unadjusted). */
const week52Range = (s: PriceSeries, cleanRows: ReadonlyArray<number>, from: string, missing: Missing) => {
  const rows = cleanRows.filter((i) => s.dates[i]! >= from)
  if (rows.length === 0) {
    missing("week52", "no recorded session in the last 52 weeks")
    return undefined
  }
  const intraday = rows.every((i) =>
    Number.isFinite(s.high[i]!) && Number.isFinite(s.low[i]!) && s.high[i]! >= s.low[i]! && s.high[i]! > 0
  )
  let hi = rows[0]!, lo = rows[0]!
  const hv = (i: number) => (intraday ? s.high[i]! : s.close[i]!)
  const lv = (i: number) => (intraday ? s.low[i]! : s.close[i]!)
  for (const i of rows) {
    if (hv(i) > hv(hi)) hi = i
    if (lv(i) < lv(lo)) lo = i
  }
  return {
    high: hv(hi),
    low: lv(lo),
    high_date: s.dates[hi]!,
    low_date: s.dates[lo]!,
    from: s.dates[rows[0]!]!,
    to: s.dates[rows[rows.length - 1]!]!,
    sessions: rows.length,
    basis: intraday ? "intraday" as const : "close" as const,
    adjusted: false as const
  }
}

/** Volume and value traded over the last 30 clean sessions (sessions without a recorded volume left out of the averages). */
const liquidity30d = (s: PriceSeries, cleanRows: ReadonlyArray<number>, missing: Missing) => {
  const rows = cleanRows.slice(-LIQUIDITY_SESSIONS)
  if (rows.length < LIQUIDITY_SESSIONS) {
    missing("liquidity_30d", `needs ${LIQUIDITY_SESSIONS} sessions; ${rows.length} recorded`)
    return undefined
  }
  let known = 0, volume = 0, value = 0, traded = 0
  for (const i of rows) {
    const v = s.volume[i]!
    if (!Number.isFinite(v)) continue
    known++
    volume += v
    value += v * s.close[i]!
    if (v > 0) traded++
  }
  if (known === 0) missing("liquidity_30d.avg_volume", "no volume recorded in the window")
  return {
    sessions: rows.length,
    days_traded: traded,
    ...(known > 0
      ? {
        avg_volume: round(volume / known, 2),
        value_traded: round(value, 2),
        avg_value_traded: round(value / known, 2)
      }
      : {})
  }
}

/** The reference closes as recorded: the previous close (the quote's when it is the last point), 5 and 20 sessions back. */
const references = (p: Points, quote: LatestQuote | undefined) => {
  const n = p.dates.length
  const ref = (
    k: number
  ): {
    close?: number
    date?: string | undefined
  } => (n > k ? { close: p.closes[n - 1 - k]!, date: p.dates[n - 1 - k]! } : {})
  const prev = p.quoted && quote?.previous_close !== undefined
    ? { close: quote.previous_close, date: p.dates[n - 2] }
    : ref(1)
  const r5 = ref(5), r20 = ref(20)
  return defined({
    previous_close: prev.close,
    previous_close_date: prev.date,
    close_5d_ago: r5.close,
    close_5d_ago_date: r5.date,
    close_20d_ago: r20.close,
    close_20d_ago_date: r20.date
  })
}

/** The steps shown: those in the 20-session window and in the 52 weeks, once each, by date. */
const stepsShown = (
  windowSteps: ReadonlyArray<Step>,
  steps: ReadonlyArray<Step>,
  week52: { from: string; to: string } | undefined
) =>
  [...new Map([...windowSteps, ...(week52 ? stepsIn(steps, week52.from, week52.to) : [])].map((st) => [st.date, st]))
    .values()]
    .sort((a, b) => (a.date < b.date ? -1 : 1))

/**
 * The analytics of one series; `undefined` when it has no clean row and no quote.
 *
 * Inputs: one symbol's `PriceSeries`, optionally its latest delayed quote and
 * its recorded corporate actions. Basis and rules:
 * - Windows count sessions (rows), never calendar days; flagged rows and rows
 *   without a close are left out of every window ("clean" rows). The one
 *   exception is the 52-week range, whose name is a calendar period: the
 *   clean sessions of `week52Start` (Figures.ts), the one definition.
 * - The last price is the last clean close, or the quote's price when the
 *   quote's Karachi trading day is after that close (then it is the newest
 *   point of the 5- and 20-session windows, and the quote's previous close is
 *   the previous close).
 * - performance_Nd_pct = (last / close N sessions before it − 1) × 100 on
 *   step-adjusted closes (see `PriceSteps.ts`): a bonus or split inside the window
 *   is reported in `steps`, not counted as a fall. Needs N + 1 points.
 * - drawdown_Nd_pct = (1 − last / highest step-adjusted close of the last N
 *   points) × 100, ≥ 0; `high_Nd` is that high on the basis of the last
 *   session. Close-based because most series have no intraday high.
 * - 52-week range: as recorded (unadjusted). Basis `intraday` only when every
 *   session in the window has a recorded high and low (high ≥ low), else
 *   `close`. Steps inside it are listed.
 * - Liquidity: the last 30 clean sessions (the quote's partial session is not
 *   counted). avg_volume = mean volume over the sessions with a recorded
 *   volume; value_traded = Σ close × volume (no VWAP is recorded);
 *   avg_value_traded = value_traded / those sessions; days_traded = sessions
 *   with volume > 0. Absent when fewer than 30 sessions are recorded.
 * - Reference prices are as recorded (unadjusted): previous close, and the
 *   closes 5 and 20 sessions before the last point.
 */
export const analytics = (
  s: PriceSeries,
  options: { readonly quote?: LatestQuote | undefined; readonly actions?: ReadonlyArray<ActionRecord> | undefined } = {}
): AnalyticsFigures | undefined => {
  const p = points(s, options.quote)
  const n = p.dates.length
  if (n === 0) return undefined
  const unavailable: Array<Unavailable> = []
  const missing: Missing = (figure, reason) => unavailable.push({ figure, reason })
  const lastDate = p.dates[n - 1]!
  const w52From = week52Start(lastDate)
  const steps = findSteps(p.dates, p.closes, options.actions, firstExamined(p.dates, w52From) + 1)
  const adjusted = adjustCloses(p.dates, p.closes, steps)
  // The order of `unavailable` is part of the answer: drawdowns, 52 weeks, liquidity, then performance.
  const dd5 = drawdown(adjusted, 5, missing), dd20 = drawdown(adjusted, 20, missing)
  const windowSteps = stepsIn(steps, p.dates[Math.max(0, n - 21)]!, lastDate)
  const week52 = week52Range(s, p.rows, w52From, missing)
  const liquidity = liquidity30d(s, p.rows, missing)
  const perf5 = performance(adjusted, 5, missing), perf20 = performance(adjusted, 20, missing)
  return {
    symbol: s.symbol,
    series: s.series,
    as_of: lastDate,
    last_price: p.closes[n - 1]!,
    last_price_basis: p.quoted ? "quote" : "close",
    last_price_as_of: p.quoted ? options.quote!.as_of : lastDate,
    ...defined({
      performance_5d_pct: perf5,
      performance_20d_pct: perf20,
      high_5d: dd5.high,
      drawdown_5d_pct: dd5.dd,
      high_20d: dd20.high,
      drawdown_20d_pct: dd20.dd,
      week52,
      liquidity_30d: liquidity
    }),
    reference: references(p, options.quote),
    adjusted_for_steps: windowSteps.length > 0,
    steps: stepsShown(windowSteps, steps, week52),
    unavailable
  }
}
