/**
 * The listed universe: the paged company list, a company's profile and its full payload (SPEC 4.1).
 * Definitions only; handlers are in CompaniesHttp.ts, the rules in Companies.ts.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SourceUnavailable } from "../../../domain/Errors.ts"
import { PEER_RULE } from "../../../domain/market/board/PeerRule.ts"
import { COMPANIES_DEFAULT_LIMIT, COMPANIES_MAX_LIMIT } from "../../../domain/market/shared/Limits.ts"
import * as S from "../../../domain/market/shared/Schemas.ts"
import { BoolParam, Cursor, limitParam, SymbolPath, SymPath } from "../../../domain/Params.ts"
import { marketEndpoint, symbolErrors } from "../MarketEndpoints.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"

const YIELDS =
  "Two yields, labelled: ttm_dividend_yield_pct as computed here (= /v1/dividends/{symbol}: the payouts of " +
  "the 12 months to the quote's date over the quote's price), the one this family ranks by; ratios.dividend_yield_pct " +
  "as published by the exchange's screener, with the screener's date and price (ratios.as_of, ratios.price). Peers and " +
  "sector medians use the exchange's figures as published."

export class CompaniesApi extends HttpApiGroup.make("companies")
  .add(
    marketEndpoint(
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
      }),
      "List the company universe",
      `Page of the company universe ordered by symbol (keyset cursor, stable under inserts). Default page ${COMPANIES_DEFAULT_LIMIT}, ` +
        `maximum ${COMPANIES_MAX_LIMIT}; limit=1 reads total cheaply. A changed or expired cursor is 400 INVALID_REQUEST.`
    ),
    marketEndpoint(
      HttpApiEndpoint.get("company", "/v1/companies/:symbol", {
        query: asOfQuery,
        params: SymbolPath,
        success: S.Company,
        error: symbolErrors
      }),
      "Get a company profile with quote and ratios",
      "Company profile, delayed quote, computed ratios, trailing 12-month dividend per share and yield. " + YIELDS +
        " 400 INVALID_SYMBOL for a malformed ticker; 404 DATA_NOT_FOUND for an unknown one."
    ),
    marketEndpoint(
      HttpApiEndpoint.get("stock", "/v1/stocks/:sym", {
        query: asOfQuery,
        params: SymPath,
        success: S.Stock,
        error: symbolErrors
      }),
      "Get the full-company payload",
      "Full-company payload: profile, quote, ratios, peers, sector medians, dividends, filings, financials and a derived " +
        "block (market cap, close-based 52-week range, next session's circuit-breaker bounds, margin, growth). Unknown parts are absent. " +
        YIELDS + " " + PEER_RULE
    )
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Companies",
    description:
      "The listed universe (search by name: GET /v1/search): the paged company list, a company's profile with its quote and " +
      "ratios, and the full-company payload. Public: no key needed."
  }))
{}
