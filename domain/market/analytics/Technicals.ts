/**
 * Technical indicators reported as state labels with the values behind
 * them (never a buy or sell rating), as of the last recorded session.
 *
 * Basis: the last `LOOKBACK` (250) clean sessions (flagged rows and rows
 * without a close left out) on step-adjusted closes (`PriceSteps.ts`): a
 * bonus or split inside the lookback is listed in `steps` and its day's move
 * is not a fall. Every indicator is seeded from the start of the lookback, so
 * a figure does not depend on how far back the recording goes. An indicator
 * without enough sessions is left out, with the reason in `unavailable`.
 */
import { defined } from "../../Objects.ts"
import { type ActionRecord, adjustCloses, cleanRows, findSteps } from "../prices/PriceSteps.ts"
import { round, type Unavailable } from "../shared/Figures.ts"
import type { PriceSeries } from "../snapshot/Series.ts"
import type { TechnicalsFigures } from "./AnalyticsSchemas.ts"

export const LOOKBACK = 250
export const RSI_PERIOD = 14
export const RSI_OVERBOUGHT = 70
export const RSI_OVERSOLD = 30
export const MACD_FAST = 12
export const MACD_SLOW = 26
export const MACD_SIGNAL = 9
export const BOLLINGER_PERIOD = 20
export const BOLLINGER_WIDTH = 2
export const VOLATILITY_RETURNS = 20
export const TRADING_DAYS_PER_YEAR = 250
export const VOLATILITY_LOW_PCT = 20
export const VOLATILITY_HIGH_PCT = 45

/** Mean of the last `n` values, or undefined with fewer. SMA 20, 50, 200: label `above_sma<n>` / `below_sma<n>` (`at` when equal to 4 decimals). */
export const sma = (c: ArrayLike<number>, n: number): number | undefined => {
  if (c.length < n) return undefined
  let sum = 0
  for (let i = c.length - n; i < c.length; i++) sum += c[i]!
  return sum / n
}

/**
 * Wilder's RSI of the closes, or undefined with fewer than period + 1. d_t = c_t − c_{t−1}; the first average gain
 * and loss are the means of the first 14, then avg = (avg × 13 + today's) / 14; RSI = 100 − 100 / (1 + avgGain /
 * avgLoss) (100 when avgLoss is 0). Zones: ≥ 70 `rsi_overbought`, ≤ 30 `rsi_oversold`, else `rsi_neutral`.
 */
export const rsi = (c: ArrayLike<number>, period = RSI_PERIOD): number | undefined => {
  if (c.length < period + 1) return undefined
  let gain = 0, loss = 0
  for (let i = 1; i <= period; i++) {
    const d = c[i]! - c[i - 1]!
    if (d > 0) gain += d
    else loss -= d
  }
  gain /= period
  loss /= period
  for (let i = period + 1; i < c.length; i++) {
    const d = c[i]! - c[i - 1]!
    gain = (gain * (period - 1) + Math.max(d, 0)) / period
    loss = (loss * (period - 1) + Math.max(-d, 0)) / period
  }
  return loss === 0 ? 100 : 100 - 100 / (1 + gain / loss)
}

/** EMA series seeded with the mean of the first n values; entry i is the EMA at values[n − 1 + i]. */
const ema = (values: ReadonlyArray<number>, n: number): Array<number> => {
  if (values.length < n) return []
  const a = 2 / (n + 1)
  let e = 0
  for (let i = 0; i < n; i++) e += values[i]!
  e /= n
  const out = [e]
  for (let i = n; i < values.length; i++) {
    e = a * values[i]! + (1 - a) * e
    out.push(e)
  }
  return out
}

/**
 * MACD(fast, slow, signal) at the last close, or undefined with fewer than slow + signal − 1 closes. EMA_n has
 * α = 2 / (n + 1), seeded by the mean of its first n values; MACD = EMA12 − EMA26 from the 26th close; signal =
 * EMA9 of MACD; histogram = MACD − signal. Labels `macd_above_signal` / `macd_below_signal`.
 */
export const macd = (
  c: ArrayLike<number>,
  fast = MACD_FAST,
  slow = MACD_SLOW,
  signal = MACD_SIGNAL
): { macd: number; signal: number; histogram: number } | undefined => {
  if (c.length < slow + signal - 1) return undefined
  const values = Array.from(c)
  const f = ema(values, fast), s = ema(values, slow)
  const line = s.map((sv, i) => f[i + slow - fast]! - sv)
  const sig = ema(line, signal)
  const m = line[line.length - 1]!, g = sig[sig.length - 1]!
  return { macd: m, signal: g, histogram: m - g }
}

/** Sample standard deviation of the last `n` log returns (n + 1 closes), or undefined. */
export const logReturnStdev = (c: ArrayLike<number>, n = VOLATILITY_RETURNS): number | undefined => {
  if (c.length < n + 1) return undefined
  const r: Array<number> = []
  for (let i = c.length - n; i < c.length; i++) r.push(Math.log(c[i]! / c[i - 1]!))
  const mean = r.reduce((a, b) => a + b, 0) / n
  return Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1))
}

const versus = (price: number, level: number) => {
  const a = round(price), b = round(level)
  return a > b ? "above" as const : a < b ? "below" as const : "at" as const
}

/** What each indicator reads, and where it records its label or why it is missing. */
interface Reading {
  /** The step-adjusted closes, oldest first. */
  readonly c: ArrayLike<number>
  readonly n: number
  readonly last: number
  readonly labels: Array<string>
  readonly unavailable: Array<Unavailable>
}

const short = (x: Reading, figure: string, need: number) =>
  void x.unavailable.push({ figure, reason: `needs ${need} sessions; ${x.n} recorded` })

const smaOf = (x: Reading, k: 20 | 50 | 200) => {
  const v = sma(x.c, k)
  if (v === undefined) return short(x, `sma_${k}`, k)
  const vs = versus(x.last, v)
  x.labels.push(`${vs}_sma${k}`)
  return { value: round(v), price_vs: vs }
}

const rsiOf = (x: Reading) => {
  const v = rsi(x.c)
  if (v === undefined) return short(x, "rsi_14", RSI_PERIOD + 1)
  const zone = v >= RSI_OVERBOUGHT
    ? "overbought" as const
    : v <= RSI_OVERSOLD
    ? "oversold" as const
    : "neutral" as const
  x.labels.push(`rsi_${zone}`)
  return { value: round(v, 2), zone }
}

const macdOf = (x: Reading) => {
  const m = macd(x.c)
  if (m === undefined) return short(x, "macd", MACD_SLOW + MACD_SIGNAL - 1)
  const state = `${versus(m.macd, m.signal)}_signal` as const
  x.labels.push(`macd_${state}`)
  return { macd: round(m.macd), signal: round(m.signal), histogram: round(m.histogram), state }
}

/**
 * Bollinger(20, 2): middle = SMA20, σ = population standard deviation of the same closes, bands = middle ± 2σ,
 * %b = (close − lower) / (upper − lower). Labels `bollinger_above_upper`, `_upper_half`, `_lower_half`, `_below_lower`.
 */
const bollingerOf = (x: Reading) => {
  const { c, n, last } = x
  const mid = sma(c, BOLLINGER_PERIOD)
  if (mid === undefined) return short(x, "bollinger", BOLLINGER_PERIOD)
  let v = 0
  for (let i = n - BOLLINGER_PERIOD; i < n; i++) v += (c[i]! - mid) ** 2
  const sd = Math.sqrt(v / BOLLINGER_PERIOD)
  const upper = mid + BOLLINGER_WIDTH * sd, lower = mid - BOLLINGER_WIDTH * sd
  if (!(upper > lower)) {
    return void x.unavailable.push({ figure: "bollinger", reason: "the last 20 closes are all equal" })
  }
  const position = last > upper
    ? "above_upper" as const
    : last >= mid
    ? "upper_half" as const
    : last >= lower
    ? "lower_half" as const
    : "below_lower" as const
  x.labels.push(`bollinger_${position}`)
  return {
    middle: round(mid),
    upper: round(upper),
    lower: round(lower),
    percent_b: round((last - lower) / (upper - lower)),
    position
  }
}

/**
 * Classic floor pivots from the last session's recorded high, low and close (as recorded, unadjusted): P = (H + L
 * + C) / 3, R1 = 2P − L, S1 = 2P − H, R2 = P + (H − L), S2 = P − (H − L), R3 = H + 2(P − L), S3 = L − 2(H − P).
 * The exchange's eod series has no high or low, so its pivots are absent.
 */
const pivotsOf = (x: Reading, s: PriceSeries, i: number) => {
  const h = s.high[i]!, l = s.low[i]!, cl = s.close[i]!
  if (!Number.isFinite(h) || !Number.isFinite(l) || h < l) {
    return void x.unavailable.push({
      figure: "pivots",
      reason: `no intraday high and low recorded for ${s.dates[i]} (${s.series} series)`
    })
  }
  const pv = (h + l + cl) / 3
  return {
    session_date: s.dates[i]!,
    high: h,
    low: l,
    close: cl,
    pivot: round(pv),
    r1: round(2 * pv - l),
    r2: round(pv + (h - l)),
    r3: round(h + 2 * (pv - l)),
    s1: round(2 * pv - h),
    s2: round(pv - (h - l)),
    s3: round(l - 2 * (h - pv))
  }
}

/** 20-day volatility: the stdev of log returns, annualised × √250; < 20% `volatility_low`, ≥ 45% `_high`, else `_normal`. */
const volatilityOf = (x: Reading) => {
  const sd = logReturnStdev(x.c)
  if (sd === undefined) return short(x, "volatility_20d", VOLATILITY_RETURNS + 1)
  const annual = sd * Math.sqrt(TRADING_DAYS_PER_YEAR) * 100
  const level = annual < VOLATILITY_LOW_PCT
    ? "low" as const
    : annual >= VOLATILITY_HIGH_PCT
    ? "high" as const
    : "normal" as const
  x.labels.push(`volatility_${level}`)
  return { daily_stdev_pct: round(sd * 100), annualised_pct: round(annual, 2), level }
}

/** The technicals of one series; undefined when it has no clean row. */
export const technicals = (
  s: PriceSeries,
  actions: ReadonlyArray<ActionRecord> = []
): TechnicalsFigures | undefined => {
  const rows = cleanRows(s).slice(-LOOKBACK)
  const n = rows.length
  if (n === 0) return undefined
  const dates = rows.map((i) => s.dates[i]!)
  const raw = rows.map((i) => s.close[i]!)
  const steps = findSteps(dates, raw, actions)
  const c = adjustCloses(dates, raw, steps)
  const x: Reading = { c, n, last: c[n - 1]!, labels: [], unavailable: [] }
  // Each indicator appends its label and its reason in this order, which the answer keeps.
  const sma20 = smaOf(x, 20), sma50 = smaOf(x, 50), sma200 = smaOf(x, 200)
  const rsi14 = rsiOf(x), macdOut = macdOf(x), bollinger = bollingerOf(x)
  const pivots = pivotsOf(x, s, rows[n - 1]!), vol = volatilityOf(x)
  if (steps.length > 0) x.labels.push("step_in_window")
  return {
    symbol: s.symbol,
    series: s.series,
    as_of: dates[n - 1]!,
    last_close: raw[n - 1]!,
    labels: x.labels,
    ...defined({
      sma_20: sma20,
      sma_50: sma50,
      sma_200: sma200,
      rsi_14: rsi14,
      macd: macdOut,
      bollinger,
      pivots,
      volatility_20d: vol
    }),
    adjusted_for_steps: steps.length > 0,
    steps,
    unavailable: x.unavailable
  }
}
