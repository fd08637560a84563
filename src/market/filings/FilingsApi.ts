/**
 * What companies file and what is reported of them: income statements, dividends, corporate actions,
 * announcements and news (SPEC 4.1 and 4.3). Definitions only; handlers are in FilingsHttp.ts, the rules in
 * Filings.ts.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ANNOUNCEMENTS_DEFAULT_LIMIT, ANNOUNCEMENTS_MAX_LIMIT } from "../../../domain/market/shared/Limits.ts"
import * as S from "../../../domain/market/shared/Schemas.ts"
import * as NewsSchemas from "../../../domain/news/NewsSchemas.ts"
import { Cursor, DateParam, limitParam, SymbolPath, SymPath } from "../../../domain/Params.ts"
import { marketEndpoint, symbolErrors } from "../MarketEndpoints.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"

/** How a filing is dated, ordered and filtered, and what its coverage says (the three filings endpoints and MCP get_announcements). */
export const FILING_TIMES =
  "published_on is the exchange's Karachi date of the filing; published_at, its time, is present only when the " +
  "source gives one (most recorded filings carry a date only). Order: published_on, then published_at (a date-only filing after the " +
  "timed ones of its day), then id, newest first; date_from and date_to (YYYY-MM-DD) filter on published_on. revoked is true only " +
  "under the exchange's own REVOKED marker. coverage is unknown (with a note) when no filing of the symbol is recorded: an empty list " +
  "is then not an absence of filings."

/** Which filings or news items to list (shared with the MCP tools get_announcements and get_news). */
export const announcementQuery = {
  symbol: Schema.optional(Schema.String),
  date_from: Schema.optional(DateParam),
  date_to: Schema.optional(DateParam),
  limit: limitParam(ANNOUNCEMENTS_MAX_LIMIT, ANNOUNCEMENTS_DEFAULT_LIMIT),
  cursor: Cursor
}

const oneCompany = { ...asOfQuery, limit: announcementQuery.limit, cursor: Cursor }

const NEWS =
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

const DIVIDENDS =
  "Dividend history keyed by fiscal year, with the ex-date repair, trailing 12-month DPS and yield, years_paid, " +
  "data_coverage_start and coverage (unknown: no record for the symbol, never zero). Dates of a payout: ex_date is the " +
  "first day of the exchange's book closure (SPEC 2.3, = book_closure_from); last_buy_date the last trading day whose " +
  "trade settles before it (a buyer that day is entitled); xd_date the next trading day, when the stock trades ex (XD, XB, " +
  "XR) and a buyer is no longer entitled. The trailing 12-month window counts a payout on its xd_date and ends on the date " +
  "of the price its yield divides by (`price`, the delayed quote's close of ttm_to), so the yield is of one date. That " +
  "computed ttm_dividend_yield_pct is the yield this family ranks by; the exchange's own screener yield is beside it, " +
  "labelled, in yield_as_published (its date and price)."

/** A read of one symbol's filed figures at `path`, answered with `success`. */
const bySymbol = <const Name extends string, const Path extends `/${string}`, S extends Schema.Top>(
  name: Name,
  path: Path,
  success: S,
  summary: string,
  description: string
) =>
  marketEndpoint(
    HttpApiEndpoint.get(name, path, { query: asOfQuery, params: SymbolPath, success, error: symbolErrors }),
    summary,
    description
  )

export class FilingsApi extends HttpApiGroup.make("filings")
  .add(
    bySymbol(
      "financials",
      "/v1/financials/:symbol",
      S.Financials,
      "Get income statements",
      "Income statement by period (annual, quarterly); never balance-sheet lines."
    ),
    bySymbol(
      "stockFinancials",
      "/v1/stocks/:symbol/financials",
      S.Financials,
      "Get income statements (stock path)",
      "Income statement periods (same as /v1/financials/{symbol})."
    ),
    bySymbol("dividends", "/v1/dividends/:symbol", S.Dividends, "Get dividend history", DIVIDENDS),
    bySymbol(
      "stockDividends",
      "/v1/stocks/:symbol/dividends",
      S.Dividends,
      "Get dividend history (stock path)",
      "Payout history and trailing yield (same as /v1/dividends/{symbol})."
    ),
    bySymbol(
      "corporateActions",
      "/v1/corporate-actions/:symbol",
      S.CorporateActions,
      "Get corporate actions",
      "Bonus, right, split/restatement, ex-markers and cash events with dates."
    ),
    marketEndpoint(
      HttpApiEndpoint.get("announcements", "/v1/announcements", {
        query: { ...announcementQuery, ...asOfQuery },
        success: S.Announcements,
        error: symbolErrors
      }),
      "List company filings",
      `Company filings (source_type: filing), newest first. Default ${ANNOUNCEMENTS_DEFAULT_LIMIT}, maximum ${ANNOUNCEMENTS_MAX_LIMIT}. ` +
        FILING_TIMES
    ),
    marketEndpoint(
      HttpApiEndpoint.get("symbolAnnouncements", "/v1/announcements/:sym", {
        params: SymPath,
        query: oneCompany,
        success: S.Announcements,
        error: symbolErrors
      }),
      "List one company's filings",
      `Filings for one company. ${FILING_TIMES}`
    ),
    marketEndpoint(
      HttpApiEndpoint.get("stockAnnouncements", "/v1/stocks/:symbol/announcements", {
        params: SymbolPath,
        query: oneCompany,
        success: S.Announcements,
        error: symbolErrors
      }),
      "List one company's filings (stock path)",
      `Filings and notices for one company. ${FILING_TIMES}`
    ),
    marketEndpoint(
      HttpApiEndpoint.get("news", "/v1/news", {
        query: { ...announcementQuery, ...asOfQuery },
        success: NewsSchemas.News,
        error: symbolErrors
      }),
      "List news items",
      NEWS
    )
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Filings and news",
    description:
      "What companies file and what is reported of them: income statements, dividend history, corporate actions, " +
      "announcements to the exchange and news. Public: no key needed."
  }))
{}
