/**
 * The tool endpoint's tools (SPEC 4.6): each is a typed schema over the same
 * services and records the HTTP API serves, so an agent gets the same
 * figures, provenance and error records either way. A failure is returned
 * as the tool's result (the error record), not as a protocol error.
 *
 * Served: get_company, get_quote, get_price_history, get_financials,
 * get_dividends, get_corporate_actions, get_announcements, get_news,
 * get_index, get_market_snapshot. The sector tools are in SectorTools.ts;
 * all are merged into the served toolkit in Server.ts.
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
import { Companies } from "../market/Companies.ts"
import { Filings } from "../market/Filings.ts"
import { RANGES } from "../../domain/market/Limits.ts"
import { Prices } from "../market/Prices.ts"
import { Quotes } from "../market/Quotes.ts"
import { IndexDetail, MarketSnapshot } from "../../domain/market/MarketSchemas.ts"
import { MarketBoard } from "../market/Board.ts"
import { MarketIndexes } from "../market/Indexes.ts"

const failure = Schema.Union([InvalidSymbol, DataNotFound, DataStale, DataUnverified, InvalidRequest, SourceUnavailable])
const symbol = { symbol: Schema.String.annotate({ description: "A PSX ticker, e.g. HUBC" }) }
const tool = <const N extends string, P extends Schema.Struct.Fields, A extends Schema.Top>(name: N, description: string, parameters: P, success: A) =>
  Tool.make(name, { description, parameters: Schema.Struct(parameters), success, failure, failureMode: "return" })

export const GetCompany = tool("get_company", "Company profile, delayed quote, ratios and trailing dividend figures, with sources.", symbol, S.Company)
export const GetQuote = tool(
  "get_quote",
  "The delayed quote with its as-of and corporate-action state. Stale quotes fail with DATA_STALE unless allow_stale is true.",
  { ...symbol, allow_stale: Schema.optionalKey(Schema.Boolean) },
  S.Quote
)
export const GetPriceHistory = tool(
  "get_price_history",
  "Daily OHLCV newest first, never adjusted for corporate actions. range: 1M, 3M, 6M, YTD, 1Y, 2Y, 3Y, 5Y, MAX (from the newest row).",
  {
    ...symbol,
    range: Schema.optionalKey(Schema.Literals(RANGES)),
    date_from: Schema.optionalKey(Schema.String),
    date_to: Schema.optionalKey(Schema.String),
    limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 })))
  },
  S.PricesResponse
)
export const GetFinancials = tool("get_financials", "Income statement by period (no balance sheet).", symbol, S.Financials)
export const GetDividends = tool(
  "get_dividends",
  "Dividend history by fiscal year with ex-dates (book closure start), trailing figures and coverage (unknown is not zero).",
  symbol,
  S.Dividends
)
export const GetCorporateActions = tool("get_corporate_actions", "Bonus, right, split/restatement and ex-marker events.", symbol, S.CorporateActions)
export const GetAnnouncements = tool(
  "get_announcements",
  "Company filings (source_type filing), newest first.",
  { symbol: Schema.optionalKey(Schema.String), limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))) },
  S.Announcements
)
export const GetNews = tool("get_news", "News items (published_at and event_date apart); coverage unknown when no source is configured.", {
  symbol: Schema.optionalKey(Schema.String)
}, S.News)
export const GetIndex = tool("get_index", "An index's current level (no history) and its constituents with weights. Codes: KSE100, ALLSHR.", {
  id: Schema.String.annotate({ description: "Index code, e.g. KSE100" })
}, IndexDetail)
export const GetMarketSnapshot = Tool.make("get_market_snapshot", {
  description: "Index levels, breadth of the latest recorded session and dataset freshness.",
  parameters: Tool.EmptyParams,
  success: MarketSnapshot,
  failure,
  failureMode: "return"
})

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
    get_index: ({ id }) => indexes.index(id),
    get_market_snapshot: () => board.snapshot
  })
}))
