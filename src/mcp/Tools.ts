/**
 * The tool endpoint's market-data tools (SPEC 4.6). Each tool mirrors one
 * HTTP route: its arguments are that route's path and query fields (the same
 * Schemas, from MarketApi.ts and domain/Params.ts), its result is the route's
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
import * as S from "../../domain/market/Schemas.ts"
import * as NewsSchemas from "../../domain/news/NewsSchemas.ts"
import { SymbolPath } from "../../domain/Params.ts"
import { Companies } from "../market/companies/Companies.ts"
import { Filings } from "../market/filings/Filings.ts"
import { IndexDetail, MarketSnapshot } from "../../domain/market/MarketSchemas.ts"
import { MarketBoard } from "../market/board/Board.ts"
import { indexQuery } from "../market/board/BoardApi.ts"
import { MarketIndexes } from "../market/board/Indexes.ts"
import { announcementQuery, FILING_TIMES, pricesQuery } from "../market/MarketApi.ts"
import { Prices } from "../market/prices/Prices.ts"
import { Quotes } from "../market/quotes/Quotes.ts"

/** Every error record a market tool can return (as its result, with isError). */
export const ToolFailure = Schema.Union([InvalidSymbol, DataNotFound, DataStale, DataUnverified, InvalidRequest, SourceUnavailable])

/** Said once in every description: what any market figure is and is not. */
export const CAVEATS = "Figures are recorded from the Pakistan Stock Exchange (delayed, never live) and each names its " +
  "source and as-of; a field that is unknown is absent, never 0. Prices in Pakistani rupees (PKR) unless stated."

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
    description: `${description}\n\n${CAVEATS}`,
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
  "One listed company (mirrors GET /v1/companies/{symbol}): name, sector, security type, KSE-100 membership and " +
    "weight, its delayed quote, ratios from the exchange's screener (P/E on trailing EPS, market cap in rupees, " +
    "shares), and trailing 12-month dividend per share (rupees) and yield (percent). dividend_coverage 'unknown' " +
    "means no payout record is held for it, not that it pays nothing. Errors: INVALID_SYMBOL (malformed ticker), " +
    "DATA_NOT_FOUND (not listed). Find a ticker from a name with GET /v1/search.",
  symbolArgs,
  S.Company
)

export const GetQuote = marketTool(
  "get_quote",
  "The delayed quote of one symbol (mirrors GET /v1/quotes/{symbol}): price, previous close, change and change_pct " +
    "(percent), open/high/low, volume (shares), as_of, basis (daily_close or a delayed board snapshot) and the " +
    "corporate-action state (ex_dividend true/false, or null when undetermined — null is not false). Errors: " +
    "DATA_STALE when the quote is older than the market calendar allows (pass allow_stale: true to get it marked " +
    "stale), DATA_UNVERIFIED when the price breaks the circuit-breaker bounds, DATA_NOT_FOUND, INVALID_SYMBOL.",
  quoteArgs,
  S.Quote
)

export const GetPriceHistory = marketTool(
  "get_price_history",
  "Daily OHLCV rows of one symbol, newest first (mirrors GET /v1/prices/{symbol}); adjusted is always false: prices " +
    "are NOT adjusted for dividends, bonus issues or rights, so a 30% bonus shows as a step of about 23% that is not " +
    "a fall. Rows recorded with a close only leave open/high/low out. range (1M, 3M, 6M, YTD, 1Y, 2Y, 3Y, 5Y, MAX) " +
    "counts back from the newest row and adds that window's close-based high, low and change; or give date_from / " +
    "date_to (YYYY-MM-DD). Paged: limit (default 250, at most 1000), then pass next_cursor as cursor.",
  Schema.Struct({ ...SymbolPath, ...pricesQuery }),
  S.PricesResponse
)

export const GetFinancials = marketTool(
  "get_financials",
  "Income statement lines by period, annual and quarterly (mirrors GET /v1/financials/{symbol}); each line states " +
    "its units (thousands of rupees or rupees). No balance sheet: return on equity, price to book, debt to equity " +
    "and free cash flow are never available. coverage 'unknown' means no statement is recorded for the symbol.",
  symbolArgs,
  S.Financials
)

export const GetDividends = marketTool(
  "get_dividends",
  "Dividend, bonus and right history of one symbol keyed by fiscal year (mirrors GET /v1/dividends/{symbol}): " +
    "ex_date is the start of the exchange's book closure (a repaired year carries ex_date_corrected and the " +
    "original ex_date_as_published); last_buy_date is the last day a buyer is entitled and xd_date the next trading " +
    "day, when the stock trades ex; amount_per_share in rupees, percent of face value; trailing 12-month dividend " +
    "per share and yield (percent), years_paid of the last five. History starts at data_coverage_start: fewer rows " +
    "before it mean a short record, not a stopped payer; coverage 'unknown' is unknown, never zero.",
  symbolArgs,
  S.Dividends
)

export const GetCorporateActions = marketTool(
  "get_corporate_actions",
  "Corporate actions of one symbol with dates (mirrors GET /v1/corporate-actions/{symbol}): bonus issues, rights, " +
    "splits and restatements, ex-markers and cash events, each naming the dataset it comes from. Use it to explain " +
    "steps in the unadjusted price history.",
  symbolArgs,
  S.CorporateActions
)

export const GetAnnouncements = marketTool(
  "get_announcements",
  "Company filings to the exchange, newest first (mirrors GET /v1/announcements): source_type is always 'filing' " +
    "(what the company said, not independent press). Filter by symbol and date_from / date_to (YYYY-MM-DD); paged " +
    "with limit (default 50, at most 200) and cursor (the previous page's next_cursor). " + FILING_TIMES,
  Schema.Struct(announcementQuery),
  S.Announcements
)

export const GetNews = marketTool(
  "get_news",
  "News events (mirrors GET /v1/news), newest first: filter by symbol (items whose headline or summary names " +
    "the company, not the exchange) and date_from / date_to (YYYY-MM-DD, Karachi days of published_at); " +
    "paged with limit (default 50, at most 200) and cursor. published_at is the publisher's own time; event_date is " +
    "kept apart and absent when unknown. The same story from two outlets or republished is one item with several " +
    "sources (republished: true), not a new event. Outside the recorded days, coverage is 'unknown' (not 'no news'); " +
    "company filings are under get_announcements.",
  Schema.Struct(announcementQuery),
  NewsSchemas.News
)

export const GetIndex = marketTool(
  "get_index",
  "One index (mirrors GET /v1/indices/{id}): its current level, previous level and change (points, percent) with " +
    "as_of, its recorded daily closes in a window (history: range 1M..MAX, default 1Y, or date_from/date_to; newest " +
    "first, at most limit, default 260, maximum 1000; with the window's high, low and change) and its constituents " +
    "with weights in percent. Codes: KSE100 (closes from 2010), ALLSHR.",
  Schema.Struct({ id: Schema.String.annotate({ description: "Index code, e.g. KSE100 or ALLSHR (case-insensitive)" }), ...indexQuery }),
  IndexDetail
)

export const GetMarketSnapshot = marketTool(
  "get_market_snapshot",
  "The market at a glance (mirrors GET /v1/market/snapshot): index levels with change_pct (percent), breadth of " +
    "the latest recorded session (advancers, decliners, unchanged, with its basis) and each dataset's as_of and " +
    "age in days. No arguments.",
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
