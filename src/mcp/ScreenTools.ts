/**
 * The screener and comparison tools of the tool endpoint (SPEC 4.6):
 * screen_stocks takes the screener's JSON body (SPEC 2.2, the same fields as
 * POST /v1/screener) and compare_stocks the comparison's `symbols`; both call
 * the same service and answer the same records as the HTTP routes. A failure
 * is returned as the tool's result (the error record), not as a protocol error.
 */
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { Comparison, ScreenerPage } from "../../domain/market/analytics/AnalyticsSchemas.ts"
import { COMPARE_MAX_SYMBOLS, COMPARE_MIN_SYMBOLS } from "../../domain/market/analytics/Compare.ts"
import { ScreenRequest } from "../../domain/market/analytics/ScreenRequest.ts"
import { Analytics } from "../market/analytics/Analytics.ts"
import { marketTool } from "./Tools.ts"


export const ScreenStocks = marketTool(
  "screen_stocks",
  "Screen all listed securities on the delayed snapshot (= POST /v1/screener); every filter optional. A security " +
    "whose filtered figure is unknown is left out and counted in left_out_unknown. By symbol; paged with limit and cursor.",
  ScreenRequest,
  ScreenerPage
)

export const CompareStocks = marketTool(
  "compare_stocks",
  `Compare ${COMPARE_MIN_SYMBOLS} to ${COMPARE_MAX_SYMBOLS} symbols (= GET /v1/compare) on 20-session performance, ` +
    "drawdown, volatility, P/E, yield, market cap and value traded; two symbols are scored head-to-head.",
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
