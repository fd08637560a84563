/**
 * One security's screen figures (the row the screener filters on), computed
 * once per read-model build from its quote, series, actions, fundamentals
 * and trailing payouts; and whether a day is an ex-dividend day.
 */
import { defined } from "../../Objects.ts"
import type { ActionRecord } from "../prices/PriceSteps.ts"
import { round } from "../shared/Figures.ts"
import type { PriceSeries } from "../snapshot/Series.ts"
import { analytics, type LatestQuote } from "./Analytics.ts"
import type { AnalyticsFigures, ScreenFigures, TechnicalsFigures } from "./AnalyticsSchemas.ts"
import { technicals } from "./Technicals.ts"
import { dividendYield, type FundamentalsInput, marketCap, trailingPe, type TrailingYieldInput } from "./Valuation.ts"

/** Whether `day` is an ex-dividend day: the same rule as the quote's corporate-action state. */
export const exDividendOn = (
  day: string,
  actions: ReadonlyArray<ActionRecord>,
  payoutCoverage: "recorded" | "unknown" | undefined
): boolean | null =>
  actions.some((a) => a.xd_date === day && (a.kind === "ex_dividend" || a.kind === "cash_dividend"))
    ? true
    : payoutCoverage === "recorded"
    ? false
    : null

export interface ScreenInput {
  readonly symbol: string
  readonly name: string
  readonly sector?: string | undefined
  readonly sector_code?: string | undefined
  readonly security_type: ScreenFigures["security_type"]
  readonly inside_kse100: boolean
  readonly series?: PriceSeries | undefined
  readonly actions?: ReadonlyArray<ActionRecord> | undefined
  readonly quote?: LatestQuote | undefined
  readonly fundamentals?:
    | (FundamentalsInput & {
      readonly free_float_shares?: number | undefined
      readonly volume_30d_avg?: number | undefined
    })
    | undefined
  readonly trailing?: TrailingYieldInput | undefined
  /** From `exDividendOn` (or the quote's corporate-action state). */
  readonly ex_dividend: boolean | null
  /** Already computed for this series, quote and actions (a read model computes them once); else computed here. */
  readonly analytics?: AnalyticsFigures | undefined
  readonly technicals?: TechnicalsFigures | undefined
}

/**
 * One security's screen figures, computed once per read-model build:
 * - price, change_pct and value_traded (price × volume) from the quote; without
 *   a quote, from the last clean session of the series (change against the
 *   session before);
 * - drawdowns, performance and 30-session average value traded from
 *   `analytics` (step-adjusted); volatility from `technicals`;
 * - P/E, yield and market cap by the `Valuation` rules;
 * - avg_volume_30d: the exchange's 30-day average, else the series' own;
 * - free_float_pct = free_float_shares / shares_outstanding × 100.
 */
export const screenFigures = (input: ScreenInput): ScreenFigures => {
  const a = input.analytics ??
    (input.series ? analytics(input.series, { quote: input.quote, actions: input.actions }) : undefined)
  const t = input.technicals ?? (input.series ? technicals(input.series, input.actions) : undefined)
  const q = input.quote
  const f = input.fundamentals
  const lastRow = (() => {
    const s = input.series
    if (s === undefined || a === undefined || a.last_price_basis !== "close") return undefined
    const i = s.dates.lastIndexOf(a.as_of)
    return { price: a.last_price, as_of: a.as_of, volume: s.volume[i]! }
  })()
  const price = q !== undefined ? { price: q.price, as_of: q.as_of } : lastRow
  const changePct = q !== undefined
    ? q.change_pct ??
      (q.previous_close !== undefined && q.previous_close > 0
        ? round((q.price / q.previous_close - 1) * 100)
        : undefined)
    : a?.reference.previous_close !== undefined && lastRow !== undefined
    ? round((lastRow.price / a.reference.previous_close - 1) * 100)
    : undefined
  const volume = q !== undefined ? q.volume : lastRow?.volume
  const pe = trailingPe(f, price), dy = dividendYield(f, input.trailing, price), cap = marketCap(f, price)
  const val = (o: typeof pe) => ("value" in o ? round(o.value) : undefined)
  const ff = f?.free_float_shares, so = f?.shares_outstanding
  return {
    symbol: input.symbol,
    name: input.name,
    ...defined({ sector: input.sector, sector_code: input.sector_code }),
    security_type: input.security_type,
    inside_kse100: input.inside_kse100,
    ...defined({
      price: price?.price,
      price_as_of: price?.as_of,
      change_pct: changePct,
      value_traded: price !== undefined && volume !== undefined && Number.isFinite(volume)
        ? round(price.price * volume, 2)
        : undefined,
      dividend_yield_pct: val(dy),
      pe_ttm: val(pe),
      market_cap: val(cap),
      free_float_shares: ff,
      free_float_pct: ff !== undefined && so !== undefined && so > 0 ? round((ff / so) * 100) : undefined,
      avg_volume_30d: f?.volume_30d_avg ?? a?.liquidity_30d?.avg_volume,
      avg_value_traded_30d: a?.liquidity_30d?.avg_value_traded,
      performance_5d_pct: a?.performance_5d_pct,
      performance_20d_pct: a?.performance_20d_pct,
      drawdown_5d_pct: a?.drawdown_5d_pct,
      drawdown_20d_pct: a?.drawdown_20d_pct,
      volatility_20d_pct: t?.volatility_20d?.annualised_pct
    }),
    ex_dividend: input.ex_dividend
  }
}
