/**
 * The tool endpoint's market-data tools (SPEC 4.6). Each tool mirrors one
 * HTTP route: its arguments are that route's path and query fields (the same
 * Schemas, from the features' …Api.ts and domain/Params.ts), its result is the route's
 * response Schema, and its handler calls the same service, so an agent gets
 * the same figures, provenance and error records either way.
 *
 * A data failure (unknown symbol, stale quote…) is returned as the tool's
 * result with `isError: true` and the error record `{error, message, symbol?}`
 * as text; arguments that do not decode are a JSON-RPC invalid-params error
 * naming the argument (strict: an unknown argument is refused too).
 *
 * The sector, screener and comparison tools live in SectorTools.ts and
 * ScreenTools.ts; Server.ts serves them all.
 */
import { Effect, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import {
  DataNotFound,
  DataStale,
  DataUnverified,
  InvalidRequest,
  InvalidSymbol,
  SourceUnavailable
} from "../../domain/Errors.ts"
import * as S from "../../domain/market/shared/Schemas.ts"
import * as NewsSchemas from "../../domain/news/NewsSchemas.ts"
import { SymbolPath } from "../../domain/Params.ts"
import { Companies } from "../market/companies/Companies.ts"
import { Filings } from "../market/filings/Filings.ts"
import { IndexDetail, MarketSnapshot } from "../../domain/market/board/BoardSchemas.ts"
import { MarketBoard } from "../market/board/Board.ts"
import { indexQuery } from "../market/board/BoardApi.ts"
import { MarketIndexes } from "../market/board/Indexes.ts"
import { announcementQuery } from "../market/filings/FilingsApi.ts"
import { pricesQuery } from "../market/prices/PricesApi.ts"
import { Prices } from "../market/prices/Prices.ts"
import { Quotes } from "../market/quotes/Quotes.ts"

/** Every error record a market tool can return (as its result, with isError). */
export const ToolFailure = Schema.Union([InvalidSymbol, DataNotFound, DataStale, DataUnverified, InvalidRequest, SourceUnavailable])

/** Said once in every description: what any market figure is and is not. */
export const CAVEATS = "Unknown is absent, never 0."

/**
 * A read-only market-data tool: annotated read-only, idempotent, not
 * destructive and closed-world (it reads the service's own recorded store,
 * never the outside world), with strict arguments.
 */
export const marketTool = <const N extends string, P extends Schema.Top, A extends Schema.Top>(
  name: N,
  description: string,
  parameters: P,
  success: A
) =>
  Tool.make(name, {
    description: `${description} ${CAVEATS}`,
    parameters,
    success,
    failure: ToolFailure,
    failureMode: "return"
  })
    .annotate(Tool.Readonly, true)
    .annotate(Tool.Idempotent, true)
    .annotate(Tool.Destructive, false)
    .annotate(Tool.OpenWorld, false)
    .annotate(Tool.Strict, true)

const symbolArgs = Schema.Struct(SymbolPath)

const quoteArgs = Schema.Struct({
  ...SymbolPath,
  allow_stale: Schema.optionalKey(Schema.Boolean.annotate({
    description: "true: return the last known quote marked stale: true instead of the DATA_STALE error"
  }))
})

export const GetCompany = marketTool(
  "get_company",
  "One listed company (= GET /v1/companies/{symbol}): name, sector, type, KSE-100 weight, delayed quote, " +
    "screener ratios (P/E, market cap Rs, shares), trailing-12-month dividend per share (Rs) and yield (%). " +
    "dividend_coverage unknown: no payout record held, not a non-payer.",
  symbolArgs,
  S.Company
)

export const GetQuote = marketTool(
  "get_quote",
  "The delayed quote of one symbol (= GET /v1/quotes/{symbol}): price, change, OHLC, volume, as_of, basis and " +
    "ex_dividend (null = undetermined, not false). DATA_STALE when too old: pass allow_stale: true to get it marked stale; " +
    "DATA_UNVERIFIED when outside the circuit-breaker bounds.",
  quoteArgs,
  S.Quote
)

export const GetPriceHistory = marketTool(
  "get_price_history",
  "Daily OHLCV of one symbol, newest first (= GET /v1/prices/{symbol}). NOT adjusted for dividends, bonus or " +
    "rights: a bonus shows as a step, not a fall. range (1M..MAX) or date_from/date_to (YYYY-MM-DD). Paged: limit, " +
    "then cursor = next_cursor.",
  Schema.Struct({ ...SymbolPath, ...pricesQuery }),
  S.PricesResponse
)

export const GetFinancials = marketTool(
  "get_financials",
  "Income statement lines by annual and quarterly period (= GET /v1/financials/{symbol}), each with its units. " +
    "No balance sheet (no ROE, P/B, debt, free cash flow).",
  symbolArgs,
  S.Financials
)

export const GetDividends = marketTool(
  "get_dividends",
  "Dividend, bonus and right history by fiscal year (= GET /v1/dividends/{symbol}): ex_date (book closure start), " +
    "last_buy_date, xd_date (XD day), Rs per share, % of face value; TTM dividend and yield. " +
    "Nothing before data_coverage_start is recorded.",
  symbolArgs,
  S.Dividends
)

export const GetCorporateActions = marketTool(
  "get_corporate_actions",
  "Bonus issues, rights, splits, restatements and cash events of one symbol with dates and datasets " +
    "(= GET /v1/corporate-actions/{symbol}); explains steps in the unadjusted prices.",
  symbolArgs,
  S.CorporateActions
)

export const GetAnnouncements = marketTool(
  "get_announcements",
  "Company filings to the exchange, newest first (= GET /v1/announcements): filter by symbol, date_from/" +
    "date_to (YYYY-MM-DD, published_on); paged with limit and cursor. published_at only when the source gives a time.",
  Schema.Struct(announcementQuery),
  S.Announcements
)

export const GetNews = marketTool(
  "get_news",
  "News, newest first (= GET /v1/news): filter by symbol (items naming the company) and date_from/date_to (Karachi " +
    "days); paged with limit and cursor. One story from several outlets is one item. Filings: get_announcements.",
  Schema.Struct(announcementQuery),
  NewsSchemas.News
)

export const GetIndex = marketTool(
  "get_index",
  "One index (= GET /v1/indices/{id}): level, change, constituents with weights (%), daily closes in a window " +
    "(range or date_from/date_to; at most limit).",
  Schema.Struct({ id: Schema.String.annotate({ description: "Index code, e.g. KSE100 or ALLSHR (case-insensitive)" }), ...indexQuery }),
  IndexDetail
)

export const GetMarketSnapshot = marketTool(
  "get_market_snapshot",
  "Index levels, breadth of the latest session and each dataset's as_of (= GET /v1/market/snapshot).",
  Tool.EmptyParams,
  MarketSnapshot
)

export const PsxToolkit = Toolkit.make(
  GetCompany,
  GetQuote,
  GetPriceHistory,
  GetFinancials,
  GetDividends,
  GetCorporateActions,
  GetAnnouncements,
  GetNews,
  GetIndex,
  GetMarketSnapshot
)

export const PsxToolkitLive = PsxToolkit.toLayer(Effect.gen(function*() {
  const companies = yield* Companies
  const quotes = yield* Quotes
  const prices = yield* Prices
  const filings = yield* Filings
  const indexes = yield* MarketIndexes
  const board = yield* MarketBoard
  return PsxToolkit.of({
    get_company: ({ symbol }) => companies.company(symbol),
    get_quote: ({ symbol, allow_stale }) => quotes.get(symbol, { allowStale: allow_stale === true }),
    get_price_history: ({ symbol, ...query }) => prices.history(symbol, query),
    get_financials: ({ symbol }) => filings.financials(symbol),
    get_dividends: ({ symbol }) => filings.dividends(symbol),
    get_corporate_actions: ({ symbol }) => filings.corporateActions(symbol),
    get_announcements: (q) => filings.announcements(q),
    get_news: (q) => filings.news(q),
    get_index: ({ id, ...query }) => indexes.index(id, query),
    get_market_snapshot: () => board.snapshot
  })
}))
