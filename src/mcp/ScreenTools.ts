/**
 * The screener and comparison tools of the tool endpoint (SPEC 4.6):
 * screen_stocks takes the screener's JSON body (SPEC 2.2, the same fields as
 * POST /v1/screener) and compare_stocks the comparison's `symbols`; both call
 * the same service and answer the same records as the HTTP routes. A failure
 * is returned as the tool's result (the error record), not as a protocol error.
 */
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { Comparison, ScreenerPage } from "../../domain/market/AnalyticsSchemas.ts"
import { COMPARE_MAX_SYMBOLS, COMPARE_MIN_SYMBOLS } from "../../domain/market/Compare.ts"
import { SCREENER_DEFAULT_LIMIT, SCREENER_MAX_LIMIT, ScreenRequest } from "../../domain/market/ScreenRequest.ts"
import { Analytics } from "../market/analytics/Analytics.ts"
import { marketTool } from "./Tools.ts"


export const ScreenStocks = marketTool(
  "screen_stocks",
  "Screen every listed PSX security on the delayed snapshot; the same filters as POST /v1/screener. " +
    "Filters (all optional): dividend_yield_min, daily_change_min/max (percent; daily_change_max=0 = at or below the previous " +
    "close), drawdown_5d_min, drawdown_20d_min (percent below the 5/20-session high) with drawdown_mode any|all, pe_min, pe_max, " +
    "market_cap_min/max and min_value_traded (rupees), min_avg_volume_30d, min_avg_value_traded_30d, free_float_min_pct, " +
    "free_float_min_shares, sectors (codes or names), security_types, inside_kse100 (true/false/null), exclude_ex_dividend. " +
    "A security whose figure is unknown for a filtered field is left out and counted in left_out_unknown (unknown is not zero). " +
    `Ordered by symbol; limit 1-${SCREENER_MAX_LIMIT} (default ${SCREENER_DEFAULT_LIMIT}); pass next_cursor back as cursor for the next page.`,
  ScreenRequest,
  ScreenerPage
)

export const CompareStocks = marketTool(
  "compare_stocks",
  `Compare ${COMPARE_MIN_SYMBOLS} to ${COMPARE_MAX_SYMBOLS} PSX symbols on 20-session performance, drawdown and ` +
    "volatility, P/E, dividend yield, market cap and 30-session value traded. Two symbols: a scored head-to-head (each measure " +
    "banded; the stronger band wins a point; totals and leader). Three or more: the best known value per measure. Unknown " +
    "values score nobody. Same answer as GET /v1/compare.",
  Schema.Struct({
    symbols: Schema.String.annotate({ description: "Comma-separated tickers, e.g. HUBC,KAPCO" })
  }),
  Comparison
)

export const ScreenToolkit = Toolkit.make(ScreenStocks, CompareStocks)

export const ScreenToolkitLive = ScreenToolkit.toLayer(Effect.map(Analytics, (analytics) =>
  ScreenToolkit.of({
    screen_stocks: (request) => analytics.screen(request),
    compare_stocks: ({ symbols }) => analytics.compare(symbols)
  })))
