/** Name-to-ticker search (SPEC 4.1). Definition only; the handler is in SearchHttp.ts, the rules in Search.ts. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { InvalidRequest, SourceUnavailable } from "../../../domain/Errors.ts"
import { SearchResult } from "../../../domain/market/search/SearchSchemas.ts"
import { SEARCH_MAX } from "../../../domain/market/shared/Limits.ts"
import { limitParam } from "../../../domain/Params.ts"
import { marketEndpoint } from "../MarketEndpoints.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"
import { QUERY_MAX_CHARS, SEARCH_DEFAULT } from "./Search.ts"

export const SEARCH_DESCRIPTION =
  "Resolves a company name, a short name people use, a ticker or a near miss to tickers: " +
  "\"Hub Power\" or \"Hubco\" → HUBC, \"Meezan\" → MEBL, \"Lucky Cement\" → LUCK, \"HUBCO\" → HUBC. Matches the ticker, " +
  "the registered name and the news tagger's reviewed aliases; case-, accent- and punctuation-insensitive. Ranked: exact " +
  "ticker, a whole name or alias, ticker prefix, every query word starting a word of a name or alias, then near misses " +
  "(within one edit per four characters, at most three; only when nothing matched otherwise); ordinary shares first. " +
  `At most limit results (default ${SEARCH_DEFAULT}, at most ${SEARCH_MAX}). An empty q, or one over ${QUERY_MAX_CHARS} ` +
  "characters, is 400 INVALID_REQUEST; no match is an empty list."

export const searchQuery = {
  q: Schema.String.annotate({ description: "A company name or short name, a word of it, a ticker or part of one" }),
  limit: limitParam(SEARCH_MAX, SEARCH_DEFAULT)
}

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    marketEndpoint(
      HttpApiEndpoint.get("search", "/v1/search", {
        query: { ...asOfQuery, ...searchQuery },
        success: SearchResult,
        error: [InvalidRequest, SourceUnavailable]
      }),
      "Find tickers by name, alias or near miss",
      SEARCH_DESCRIPTION
    )
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Search",
    description: "Names, aliases and near misses to tickers. Public: no key needed."
  }))
{}
