/**
 * Per-stock analytics, technicals, valuation and research package, the
 * screener and the comparison (SPEC 4.2, 4.4). Definitions only; handlers
 * are in AnalyticsHttp.ts. The descriptions document the formulas, bands and
 * limits; the rules themselves are in domain/market (Analytics, Technicals,
 * Valuation, Screener, Compare, Research).
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { DataNotFound, InvalidRequest, InvalidSymbol, SourceUnavailable } from "../../../domain/Errors.ts"
import * as A from "../../../domain/market/analytics/AnalyticsSchemas.ts"
import { COMPARE_MAX_SYMBOLS, COMPARE_MIN_SYMBOLS } from "../../../domain/market/analytics/Compare.ts"
import {
  SCREENER_DEFAULT_LIMIT,
  SCREENER_MAX_LIMIT,
  ScreenQuery,
  ScreenRequest
} from "../../../domain/market/analytics/ScreenRequest.ts"
import { AdjustParam } from "../../../domain/market/prices/AdjustmentSchemas.ts"
import { SymbolPath, SymPath } from "../../../domain/Params.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"

const symbolErrors = [InvalidSymbol, DataNotFound, SourceUnavailable] as const
const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const strict = { onExcessProperty: "error" } as const

const ANALYTICS =
  "5- and 20-session performance (last / close N sessions back − 1, ×100, on step-adjusted closes), drawdowns " +
  "from the 5- and 20-session highest close (1 − last / high, ×100), the 52-week range (clean sessions dated within 364 days of " +
  "the last; basis `intraday` only when every session has a recorded high and low, else `close`; unadjusted), 30-session liquidity " +
  "(average volume, value traded = Σ close × volume, days traded) and reference prices (previous close, closes 5 and 20 sessions " +
  "back). Windows count trading sessions, never calendar days; flagged rows are left out. The last point is the delayed quote " +
  "when it is newer than the last close. A bonus or split step inside a window is listed in `steps` and is not a fall. A figure " +
  "without enough history is absent and named in `unavailable`. 404 DATA_NOT_FOUND when no price history is recorded."

const TECHNICALS =
  "State labels with the values behind them, never a buy or sell rating; as of the last recorded session, over the " +
  "last 250 clean sessions on step-adjusted closes. SMA 20/50/200 (`above_sma200`…); RSI(14), Wilder (≥ 70 `rsi_overbought`, " +
  "≤ 30 `rsi_oversold`, else `rsi_neutral`); MACD(12, 26, 9) (`macd_above_signal` / `macd_below_signal`); Bollinger(20, 2σ) " +
  "position (`bollinger_above_upper`, `_upper_half`, `_lower_half`, `_below_lower`); classic pivots of the last session " +
  "(needs its recorded high and low); 20-session volatility of log returns, annualised ×√250 (< 20% `volatility_low`, ≥ 45% " +
  "`volatility_high`, else `volatility_normal`). A step inside the window sets `step_in_window` and is listed. An indicator " +
  "without enough sessions is absent, with the reason in `unavailable`."

const VALUATION =
  "Trailing P/E = price / trailing EPS (sourced); a loss-maker (EPS ≤ 0) has none, with the reason; without a " +
  "sourced EPS the exchange's own positive screener P/E (TTM) is used, basis `exchange_pe_ttm`. Trailing dividend yield: trailing " +
  "12-month cash payouts over the price (basis `trailing_12m_payouts`), else the exchange's screener yield. Market cap: the " +
  "exchange's figure, else shares outstanding × price. Each with its as-of and basis, and its position against the sector median " +
  "(`at` within ±1%). Sector medians (never means) are over the sector's peers on the same rules (lines that traded in the 20 " +
  "sessions up to the latest recorded session; the others in not_trading); loss-makers are left out of the median P/E and " +
  "counted; a 0 P/E or yield on the exchange's screener is unknown, never 0. Each figure carries its own date and price " +
  "(`as_of`, `price`). A figure computed here rests on the delayed quote (`price`, `price_as_of`; the exchange row's own " +
  "price only without a quote), and the trailing yield's 12 months end on that price's date, so /v1/dividends, this route " +
  "and the screener give one computed yield. An exchange figure older than the price is carried forward to it with the " +
  "exchange's inputs of its date (P/E × price / screener price, market cap × price / screener price, yield × screener price " +
  "/ price) and says so in `exchange_as_of`. An exchange figure newer than the price is never carried back (its EPS or " +
  "payouts may postdate the price): it is served as published, with the screener's date as its `as_of` and its price. " +
  "Where a figure is computed here and the exchange publishes one too, the exchange's is beside it in `as_published` (MEBL: " +
  "5.814% as computed at the close of 2026-05-25, 490.2; 6.2989% as published on 2026-08-04 at 573.7). The yield this " +
  "family ranks by and places against the sector median is `dividend_yield_pct.value`."

const SCREENER =
  "Server-side over every listed security on the delayed snapshot, ordered by symbol. Filters (all optional): " +
  "dividend_yield_min, daily_change_min, daily_change_max (0 = at or below the previous close), drawdown_5d_min, drawdown_20d_min " +
  "(percent below the 5/20-session high), drawdown_mode (`any` (default) or `all` between the two drawdown gates when both are " +
  "set), pe_min, pe_max, market_cap_min, market_cap_max (rupees), min_value_traded (rupees traded in the quote's session), " +
  "min_avg_volume_30d, min_avg_value_traded_30d (per session over 30 sessions), free_float_min_pct, free_float_min_shares, " +
  "sectors (codes or names; any matches), security_types (equity, etf, debt, right, preference, other), inside_kse100 (true, " +
  "false; null = no filter), exclude_ex_dividend (true keeps only securities known not to be ex-dividend). The yield this " +
  "family ranks and screens by is each row's `dividend_yield_pct`, the symbol's valuation yield (/v1/stocks/{symbol}/" +
  "valuation): computed from recorded payouts at the row's price where payouts are recorded, else the exchange's screener " +
  "yield; `dividend_yield_basis` says which and `dividend_yield_as_of`, `pe_ttm_as_of` and `market_cap_as_of` the date of " +
  "the price each figure rests on (the exchange's figures keep the screener's date when it is newer than the row's price). " +
  "A security whose " +
  "figure is unknown for a filtered field does not match (unknown is not zero): `left_out_unknown` counts them and " +
  `\`unknown_by_filter\` per filter. Paging: limit 1 to ${SCREENER_MAX_LIMIT} (default ${SCREENER_DEFAULT_LIMIT}), \`total\`, ` +
  "`next_cursor` (pass as `cursor`; a cursor serves the same filters on GET and POST). Unknown fields and wrong types are 400 " +
  "INVALID_REQUEST naming the field."

const COMPARE =
  `${COMPARE_MIN_SYMBOLS} to ${COMPARE_MAX_SYMBOLS} symbols, comma-separated. Measures (better direction; five bands, ` +
  "weakest to strongest): performance_20d_pct (higher; < −10, −10..−3, −3..3, 3..10, ≥ 10), drawdown_20d_pct (lower; ≥ 20, " +
  "12..20, 7..12, 3..7, < 3), volatility_20d_pct (lower; ≥ 60, 40..60, 25..40, 15..25, < 15), pe_ttm (lower; ≥ 30, 18..30, " +
  "12..18, 8..12, < 8), dividend_yield_pct (higher; < 1, 1..3, 3..6, 6..10, ≥ 10), market_cap (higher; < 1bn, 1..5bn, " +
  "5..25bn, 25..100bn, ≥ 100bn rupees), avg_value_traded_30d (higher; < 1m, 1..20m, 20..100m, 100..500m, ≥ 500m rupees). " +
  "Two symbols: head to head, the stronger band wins the measure and a point (equal bands tie; an unknown value scores " +
  "nobody), with totals and the leader. Three or more: the best known value wins each measure. Over " +
  `${COMPARE_MAX_SYMBOLS} symbols, fewer than ${COMPARE_MIN_SYMBOLS} or a repeated symbol: 400 INVALID_REQUEST; a malformed ` +
  "symbol: 400 INVALID_SYMBOL; an unknown one: 404 DATA_NOT_FOUND naming it. dividend_yield_pct, pe_ttm and market_cap are " +
  "the screener rows' (the symbol's valuation figures, each at the price of its own date)."

const ADJUSTED = "adjust=splits or total_return: every figure is computed on the symbol's default series adjusted as " +
  "GET /v1/prices/{symbol} with the same adjust serves it (its factors and cut in `adjustment`), as of that series' last row " +
  "(the delayed quote, as traded, is not a point of it); the 52-week range is then adjusted; on total_return the rupee figures of " +
  "liquidity_30d are left out (rupees traded are as traded). 404 DATA_NOT_FOUND when no row survives the cut, with its reason."

const ADJUSTED_COMPARE =
  "adjust=splits or total_return: the price measures (performance, drawdown, volatility) come from each " +
  "symbol's adjusted series, as of its last row (unknown when the series is cut to nothing); P/E, yield, market cap and value " +
  "traded stay as of the day. `adjustments` lists each symbol's factors and cut."

const RESEARCH =
  "One dated, source-aware package for agents: profile; the delayed quote with `stale` and `quote_age_seconds`; " +
  "the analytics and technicals; valuation against the sector medians; dividend history; the 10 newest filings and news items; " +
  "data caveats (no balance sheet; unadjusted prices, with each bonus or split step in a window named; the close-based 52-week " +
  "range; a stale quote; unknown dividend or news coverage; short history); the sources with their as-of. `generated_at` starts a " +
  "5-minute window (offset per symbol); `stale` and the age are judged at it, and the package is the same within the window. Served identically at /v1/stocks/{symbol}/research, " +
  "/v1/stocks/{symbol}/rh (legacy alias) and /v1/ai/research/{symbol} (alias)."

const research = <const N extends string, const P extends `/${string}`>(name: N, path: P, summary: string) =>
  HttpApiEndpoint.get(name, path, {
    query: asOfQuery,
    params: SymbolPath,
    success: A.ResearchPackage,
    error: symbolErrors
  }).annotateMerge(
    doc(summary, RESEARCH)
  )

export class AnalyticsApi extends HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.get("analytics", "/v1/stocks/:symbol/analytics", {
      params: SymbolPath,
      query: { ...asOfQuery, adjust: AdjustParam },
      success: A.StockAnalytics,
      error: symbolErrors
    }).annotateMerge(doc("Per-stock analytics", `${ANALYTICS} ${ADJUSTED}`)),
    HttpApiEndpoint.get("valuation", "/v1/stocks/:symbol/valuation", {
      query: asOfQuery,
      params: SymbolPath,
      success: A.Valuation,
      error: symbolErrors
    })
      .annotateMerge(doc("P/E, dividend yield and market cap against the sector medians", VALUATION)),
    HttpApiEndpoint.get("technicals", "/v1/stocks/:sym/technicals", {
      query: asOfQuery,
      params: SymPath,
      success: A.Technicals,
      error: symbolErrors
    })
      .annotateMerge(doc("Technical state labels (never a buy or sell rating)", TECHNICALS)),
    HttpApiEndpoint.get("screen", "/v1/screener", {
      query: { ...ScreenQuery.fields, ...asOfQuery },
      success: A.ScreenerPage,
      error: [InvalidRequest, SourceUnavailable]
    }).annotate(HttpApi.QueryParseOptions, strict).annotateMerge(doc("Screen the market (query parameters)", SCREENER)),
    HttpApiEndpoint.post("screenPost", "/v1/screener", {
      query: asOfQuery,
      payload: ScreenRequest,
      success: A.ScreenerPage,
      error: [InvalidRequest, SourceUnavailable]
    }).annotate(HttpApi.PayloadParseOptions, strict).annotateMerge(
      doc(
        "Screen the market (JSON body)",
        `The same filters as GET /v1/screener, as a JSON body (SPEC 2.2); equal filters give identical results. ${SCREENER}`
      )
    ),
    HttpApiEndpoint.get("compare", "/v1/compare", {
      query: {
        ...asOfQuery,
        symbols: Schema.String.annotate({
          description: `Comma-separated tickers, ${COMPARE_MIN_SYMBOLS} to ${COMPARE_MAX_SYMBOLS}, e.g. HUBC,KAPCO`
        }),
        adjust: AdjustParam
      },
      success: A.Comparison,
      error: [InvalidRequest, ...symbolErrors]
    }).annotateMerge(doc("Side-by-side comparison", `${COMPARE} ${ADJUSTED_COMPARE}`)),
    research("research", "/v1/stocks/:symbol/research", "Research package"),
    research("researchLegacy", "/v1/stocks/:symbol/rh", "Research package (legacy alias)"),
    research("researchAlias", "/v1/ai/research/:symbol", "Research package (alias)")
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Analytics, screener and research",
    description:
      "Figures computed from the recorded prices and fundamentals (each documented with its formula and basis; a " +
      "figure whose inputs are missing is absent): per-stock analytics, technicals, valuation, the screener over every " +
      "listed security, comparison and the research package. Public: no key needed."
  }))
{}
