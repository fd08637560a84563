/**
 * Market-data endpoints (SPEC 4.1 to 4.3 and the ingest endpoint of 4.5).
 * Definitions only; handlers are in MarketHttp.ts.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { DataNotFound, DataStale, DataUnverified, InvalidSymbol, SourceUnavailable } from "../../domain/Errors.ts"
import {
  ANNOUNCEMENTS_DEFAULT_LIMIT,
  ANNOUNCEMENTS_MAX_LIMIT,
  COMPANIES_DEFAULT_LIMIT,
  COMPANIES_MAX_LIMIT,
  PRICES_DEFAULT_LIMIT,
  PRICES_MAX_LIMIT,
  RANGES
} from "../../domain/market/Limits.ts"
import { PEER_RULE } from "../../domain/market/PeerRule.ts"
import { AdjustParam } from "../../domain/market/AdjustmentSchemas.ts"
import * as S from "../../domain/market/Schemas.ts"
import * as NewsSchemas from "../../domain/news/NewsSchemas.ts"
import { MarketStatus } from "../../domain/market/StatusSchema.ts"
import { asOfQuery } from "./readmodel/AsOf.ts"
import { AsOfMiddleware } from "./readmodel/AsOfMiddleware.ts"
import { BoolParam, Cursor, DateParam, limitParam, SymbolPath, SymPath } from "../../domain/Params.ts"

const symbolErrors = [InvalidSymbol, DataNotFound, SourceUnavailable] as const
const describe = (summary: string, text: string) => OpenApi.annotations({ summary, description: text })
/** How a filing is dated, ordered and filtered, and what its coverage says (the three filings endpoints and MCP get_announcements). */
export const FILING_TIMES = "published_on is the exchange's Karachi date of the filing; published_at, its time, is present only when the " +
  "source gives one (most recorded filings carry a date only). Order: published_on, then published_at (a date-only filing after the " +
  "timed ones of its day), then id, newest first; date_from and date_to (YYYY-MM-DD) filter on published_on. revoked is true only " +
  "under the exchange's own REVOKED marker. coverage is unknown (with a note) when no filing of the symbol is recorded: an empty list " +
  "is then not an absence of filings."


export const announcementQuery = {
  symbol: Schema.optional(Schema.String),
  date_from: Schema.optional(DateParam),
  date_to: Schema.optional(DateParam),
  limit: limitParam(ANNOUNCEMENTS_MAX_LIMIT, ANNOUNCEMENTS_DEFAULT_LIMIT),
  cursor: Cursor
}

export const pricesQuery = {
  date_from: Schema.optional(DateParam),
  date_to: Schema.optional(DateParam),
  limit: limitParam(PRICES_MAX_LIMIT, PRICES_DEFAULT_LIMIT),
  range: Schema.optional(Schema.Literals(RANGES).annotate({
    description: "A named window counted back from the newest row: 1M, 3M, 6M, YTD, 1Y, 2Y, 3Y, 5Y, MAX"
  })),
  series: Schema.optional(Schema.Literals(["auto", "as_traded", "eod"]).annotate({
    description: "auto (default): as traded where recorded, else the exchange's eod series; restated symbols get eod alone"
  })),
  cursor: Cursor
}

export class MarketApi extends HttpApiGroup.make("market")
  .add(
    HttpApiEndpoint.get("status", "/v1/market/status", { query: asOfQuery, success: MarketStatus }).annotateMerge(
      describe(
        "Market calendar status now",
        "Market calendar status now (the service clock), in Asia/Karachi: state (open, closed, pre-open, post-close) and finer " +
          "phase, the session (Friday has two), today's and the next session's times, the next and previous trading day, why " +
          "the market is closed (weekend, named holiday, or a recorded closure) and the settlement cycle in force. Each answer " +
          "names the calendar it rests on: the exchange's published holiday list (2026), closures derived from the recorded " +
          "prices (2004 to the last recorded day), or none (unverified: weekdays assumed open)."
      )
    ),
    HttpApiEndpoint.get("search", "/v1/search", {
      query: { ...asOfQuery, q: Schema.String.annotate({ description: "A company name, a word of it, or (part of) a ticker" }) },
      success: S.SearchResult,
      error: SourceUnavailable
    }).annotateMerge(describe(
      "Find tickers by company name",
      "Finds tickers from a company name or part of a ticker; case- and accent-insensitive; ranked exact ticker, " +
        "ticker prefix, then name words; at most 20 results. An empty q is 400 INVALID_REQUEST."
    )),
    HttpApiEndpoint.get("companies", "/v1/companies", {
      query: {
        ...asOfQuery,
        limit: limitParam(COMPANIES_MAX_LIMIT, COMPANIES_DEFAULT_LIMIT),
        cursor: Cursor,
        sector: Schema.optional(Schema.String.annotate({ description: "Sector name or 4-digit code" })),
        security_type: Schema.optional(Schema.Literals(["equity", "etf", "debt", "right", "preference", "other"])),
        inside_kse100: Schema.optional(BoolParam)
      },
      success: S.CompaniesPage,
      error: SourceUnavailable
    }).annotateMerge(describe(
      "List the company universe",
      `Page of the company universe ordered by symbol (keyset cursor, stable under inserts). Default page ${COMPANIES_DEFAULT_LIMIT}, ` +
        `maximum ${COMPANIES_MAX_LIMIT}; limit=1 reads total cheaply. A changed or expired cursor is 400 INVALID_REQUEST.`
    )),
    HttpApiEndpoint.get("company", "/v1/companies/:symbol", {
      query: asOfQuery,
      params: SymbolPath,
      success: S.Company,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get a company profile with quote and ratios",
      "Company profile, delayed quote, computed ratios, trailing 12-month dividend per share and yield. " +
        "400 INVALID_SYMBOL for a malformed ticker; 404 DATA_NOT_FOUND for an unknown one."
    )),
    HttpApiEndpoint.get("stock", "/v1/stocks/:sym", {
      query: asOfQuery,
      params: SymPath,
      success: S.Stock,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get the full-company payload",
      "Full-company payload: profile, quote, ratios, peers, sector medians, dividends, filings, financials and a derived " +
        "block (market cap, close-based 52-week range, next session's circuit-breaker bounds, margin, growth). Unknown parts are absent. " +
        PEER_RULE
    )),
    HttpApiEndpoint.get("quote", "/v1/quotes/:symbol", {
      params: SymbolPath,
      query: {
        ...asOfQuery,
        allow_stale: Schema.optional(BoolParam.annotate({
          description: "true: return the last known quote marked stale instead of 409 DATA_STALE"
        }))
      },
      success: S.Quote,
      error: [...symbolErrors, DataStale, DataUnverified]
    }).annotateMerge(describe(
      "Get the delayed quote",
      "Delayed quote (status: delayed) with its as-of and corporate-action state (ex_dividend true/false/null). " +
        "409 DATA_STALE when older than the calendar allows (during trading: 30 minutes; otherwise the last session's close), " +
        "409 DATA_UNVERIFIED when the price breaks the circuit-breaker bounds."
    )),
    HttpApiEndpoint.get("prices", "/v1/prices/:symbol", {
      params: SymbolPath,
      query: { ...asOfQuery, ...pricesQuery, adjust: AdjustParam },
      success: S.PricesResponse,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get daily price history (as traded, or adjusted on request)",
      `Daily OHLCV, newest first: as traded by default (adjusted: false); adjust=splits or total_return adjusts it (see the ` +
        `parameter and the answer's adjustment block). Default ${PRICES_DEFAULT_LIMIT} rows, maximum ${PRICES_MAX_LIMIT}, then next_cursor. ` +
        "Rows recorded with a close only leave open/high/low out. A named range also returns its close-based high, low and change."
    )),
    HttpApiEndpoint.get("financials", "/v1/financials/:symbol", {
      query: asOfQuery,
      params: SymbolPath,
      success: S.Financials,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get income statements",
      "Income statement by period (annual, quarterly); never balance-sheet lines."
    )),
    HttpApiEndpoint.get("stockFinancials", "/v1/stocks/:symbol/financials", {
      query: asOfQuery,
      params: SymbolPath,
      success: S.Financials,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get income statements (stock path)",
      "Income statement periods (same as /v1/financials/{symbol})."
    )),
    HttpApiEndpoint.get("dividends", "/v1/dividends/:symbol", {
      query: asOfQuery,
      params: SymbolPath,
      success: S.Dividends,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get dividend history",
      "Dividend history keyed by fiscal year, with the ex-date repair, trailing 12-month DPS and yield, years_paid, " +
        "data_coverage_start and coverage (unknown: no record for the symbol, never zero). Dates of a payout: ex_date is the " +
        "first day of the exchange's book closure (SPEC 2.3, = book_closure_from); last_buy_date the last trading day whose " +
        "trade settles before it (a buyer that day is entitled); xd_date the next trading day, when the stock trades ex (XD, XB, " +
        "XR) and a buyer is no longer entitled. The trailing 12-month window counts a payout on its xd_date."
    )),
    HttpApiEndpoint.get("stockDividends", "/v1/stocks/:symbol/dividends", {
      query: asOfQuery,
      params: SymbolPath,
      success: S.Dividends,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get dividend history (stock path)",
      "Payout history and trailing yield (same as /v1/dividends/{symbol})."
    )),
    HttpApiEndpoint.get("corporateActions", "/v1/corporate-actions/:symbol", {
      query: asOfQuery,
      params: SymbolPath,
      success: S.CorporateActions,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get corporate actions",
      "Bonus, right, split/restatement, ex-markers and cash events with dates."
    )),
    HttpApiEndpoint.get("announcements", "/v1/announcements", {
      query: { ...announcementQuery, ...asOfQuery },
      success: S.Announcements,
      error: symbolErrors
    }).annotateMerge(describe(
      "List company filings",
      `Company filings (source_type: filing), newest first. Default ${ANNOUNCEMENTS_DEFAULT_LIMIT}, maximum ${ANNOUNCEMENTS_MAX_LIMIT}. ` +
        FILING_TIMES
    )),
    HttpApiEndpoint.get("symbolAnnouncements", "/v1/announcements/:sym", {
      params: SymPath,
      query: { ...asOfQuery, limit: announcementQuery.limit, cursor: Cursor },
      success: S.Announcements,
      error: symbolErrors
    }).annotateMerge(describe("List one company's filings", `Filings for one company. ${FILING_TIMES}`)),
    HttpApiEndpoint.get("stockAnnouncements", "/v1/stocks/:symbol/announcements", {
      params: SymbolPath,
      query: { ...asOfQuery, limit: announcementQuery.limit, cursor: Cursor },
      success: S.Announcements,
      error: symbolErrors
    }).annotateMerge(describe(
      "List one company's filings (stock path)",
      `Filings and notices for one company. ${FILING_TIMES}`
    )),
    HttpApiEndpoint.get("news", "/v1/news", {
      query: { ...announcementQuery, ...asOfQuery },
      success: NewsSchemas.News,
      error: symbolErrors
    }).annotateMerge(describe(
      "List news items",
      "News events, newest first by first publication. Parameters: symbol (items tagged with that ticker), date_from and " +
        `date_to (YYYY-MM-DD, Karachi days of published_at), limit (default ${ANNOUNCEMENTS_DEFAULT_LIMIT}, at most ` +
        `${ANNOUNCEMENTS_MAX_LIMIT}) and cursor (the previous page's next_cursor). published_at is the publisher's own time ` +
        "(published_at_basis publisher), or for the recorded headline digests of 31 Jan-3 Feb 2026 the first fetch that listed " +
        "the item (first_seen: published no later); " +
        "event_date (when the reported event happened) is kept apart and absent when unknown. The same story from two " +
        "outlets, or republished (same address, or same headline and text within its window), is one item with several sources " +
        "(republished: true); a daily column's editions are separate items. Symbols are the listed companies the headline or " +
        "summary names (ticker, registered or short name, one reviewed alias table), for recorded and live news alike, not the exchange. " +
        "Live news is read from publishers' RSS and Atom feeds every 30 minutes in portal mode; its provenance is the publishers'. " +
        "For days outside the recorded windows, or a symbol no recorded item names, coverage is unknown, not 'no news'."
    )),
    HttpApiEndpoint.get("freshness", "/v1/freshness", { query: asOfQuery, success: S.Freshness, error: SourceUnavailable }).annotateMerge(
      describe(
        "Get per-dataset coverage and age",
        "Per-dataset coverage (symbols, first and last dates), as-of, age in days, source and retrieval time."
      )
    ),
    HttpApiEndpoint.get("sources", "/v1/ai/sources/:symbol", {
      query: asOfQuery,
      params: SymbolPath,
      success: S.SymbolSources,
      error: symbolErrors
    }).annotateMerge(describe(
      "Get the provenance of a symbol's data",
      "Provenance per data area for one symbol: source, as-of and retrieval time."
    )),
    HttpApiEndpoint.get("ingestFundamentals", "/v1/ingest/fundamentals", {
      query: {
        n: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 40 })).annotate({
          description: "Symbols to warm, 1 to 40; default 10"
        }))
      },
      success: S.IngestResult,
      error: SourceUnavailable
    }).annotateMerge(describe(
      "Warm the fundamentals projection",
      "Warms the fundamentals projection for up to n listed equities (1 to 40, default 10) that were never checked or " +
        "were checked more than a day ago, oldest first: an equity with no row gets one from its latest recorded delayed " +
        "quote (price and that quote's date as as_of; neither when no quote is recorded), and every row of the batch is " +
        "stamped as checked. It never changes or estimates a recorded figure; with the bundled pack there is nothing newer " +
        "to fetch. With the live portal source (PSX_SOURCE=portal) it fetches instead: the company page (profile, equity, " +
        "income statements, ratios) and payouts of the n listed symbols fetched longest ago or never, one request at a " +
        "time; concurrent calls never fetch one symbol twice. Answers warmed, batch, remaining and universe counts."
    ))
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Market data",
    description: "Read-only data on PSX-listed securities: universe, profiles, delayed quotes, daily prices (as traded, adjusted on request), " +
      "income statements, dividends, corporate actions, filings, news, provenance and freshness. Public: no key needed."
  }))
{}
