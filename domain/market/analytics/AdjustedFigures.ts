/**
 * Analytics and comparison measures on an adjusted series (`adjust` on
 * /v1/stocks/{symbol}/analytics and /v1/compare): the same rules as the
 * unadjusted figures (Analytics.ts, Technicals.ts), run on the symbol's
 * default series adjusted by Adjustment.ts.
 */
import { defined } from "../../Objects.ts"
import { adjustedOf, type AdjustedSeries, type AdjustMode } from "../prices/Adjustment.ts"
import { seriesBasis } from "../prices/Restated.ts"
import type { SymbolData } from "../snapshot/Snapshot.ts"
import { analytics } from "./Analytics.ts"
import type { AnalyticsFigures, ScreenFigures } from "./AnalyticsSchemas.ts"
import { technicals } from "./Technicals.ts"

const AS_TRADED =
  "rupees traded are as traded; a total_return series scales closes by dividends, not volumes: see adjust=none"

/** The rupee figures of liquidity_30d left out of a total_return answer. */
const withoutRupees = (f: AnalyticsFigures): AnalyticsFigures => {
  const l = f.liquidity_30d
  if (l === undefined || l.value_traded === undefined) return f
  const { value_traded: _v, avg_value_traded: _a, ...kept } = l
  return {
    ...f,
    liquidity_30d: kept,
    unavailable: [
      ...f.unavailable,
      { figure: "liquidity_30d.value_traded", reason: AS_TRADED },
      { figure: "liquidity_30d.avg_value_traded", reason: AS_TRADED }
    ]
  }
}

/** liquidity_30d left out when the adjusted series has no volumes (their share basis is not known). */
const withoutVolumes = (f: AnalyticsFigures): AnalyticsFigures => {
  const { liquidity_30d: _l, ...rest } = f
  const reason = "volumes are left out: whether the exchange restated this series for a split is not known"
  return {
    ...rest,
    unavailable: [...f.unavailable.filter((u) => !u.figure.startsWith("liquidity_30d")), {
      figure: "liquidity_30d",
      reason
    }]
  }
}

/**
 * The analytics of a symbol's default series adjusted by `mode` (figures absent when no row survives the cut).
 *
 * - The delayed quote is not a point of an adjusted series (it is as traded,
 *   and an action may fall between it and the last row): adjusted figures
 *   are as of the series' last row.
 * - Every price figure is on the adjusted basis: performance, drawdowns, the
 *   52-week range (`adjusted: true`) and the reference closes. Rupees traded
 *   are as traded: on a `total_return` series (closes scaled by dividends,
 *   volumes not) `liquidity_30d` keeps its sessions and volumes and leaves
 *   the rupee figures out, named in `unavailable` (and where the series'
 *   volumes are left out, all of `liquidity_30d`); a comparison's
 *   `avg_value_traded_30d`, P/E, yield and market cap stay the unadjusted
 *   figures of the day.
 */
export const adjustedAnalytics = (
  data: SymbolData,
  mode: AdjustMode
): { readonly adjusted: AdjustedSeries; readonly figures?: AnalyticsFigures } | undefined => {
  const s = data.prices
  if (s === undefined || s.dates.length === 0) return undefined
  const adjusted = adjustedOf(data, s, mode)
  const a = analytics(adjusted.series)
  if (a === undefined) return { adjusted }
  const figures: AnalyticsFigures = {
    ...a,
    ...(a.week52 !== undefined ? { week52: { ...a.week52, adjusted: true } } : {}),
    price_series: seriesBasis(s.series, data.restatement)
  }
  if (adjusted.volumes === "left_out") return { adjusted, figures: withoutVolumes(figures) }
  return { adjusted, figures: mode === "total_return" ? withoutRupees(figures) : figures }
}

/** A symbol's comparison figures with the price-history measures taken from its adjusted series (unknown when none survive). */
export const adjustedScreenFigures = (
  f: ScreenFigures,
  data: SymbolData,
  mode: AdjustMode
): { readonly figures: ScreenFigures; readonly adjusted?: AdjustedSeries } => {
  const {
    performance_5d_pct: _p5,
    performance_20d_pct: _p20,
    drawdown_5d_pct: _d5,
    drawdown_20d_pct: _d20,
    volatility_20d_pct: _v,
    ...rest
  } = f
  const got = adjustedAnalytics(data, mode)
  if (got === undefined) return { figures: rest }
  const a = got.figures
  const t = a !== undefined ? technicals(got.adjusted.series) : undefined
  return {
    adjusted: got.adjusted,
    figures: {
      ...rest,
      ...defined({
        performance_5d_pct: a?.performance_5d_pct,
        performance_20d_pct: a?.performance_20d_pct,
        drawdown_5d_pct: a?.drawdown_5d_pct,
        drawdown_20d_pct: a?.drawdown_20d_pct,
        volatility_20d_pct: t?.volatility_20d?.annualised_pct
      })
    }
  }
}
