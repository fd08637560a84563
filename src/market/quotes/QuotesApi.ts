/**
 * The delayed quote (SPEC 4.1). Definitions only; the handler is in QuotesHttp.ts, the rules in Quotes.ts.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { DataStale, DataUnverified } from "../../../domain/Errors.ts"
import * as S from "../../../domain/market/shared/Schemas.ts"
import { BoolParam, SymbolPath } from "../../../domain/Params.ts"
import { marketEndpoint, symbolErrors } from "../MarketEndpoints.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"

export class QuotesApi extends HttpApiGroup.make("quotes")
  .add(
    marketEndpoint(
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
      }),
      "Get the delayed quote",
      "Delayed quote (status: delayed) with its as-of and corporate-action state (ex_dividend true/false/null). " +
        "409 DATA_STALE when older than the calendar allows (during trading: 30 minutes; otherwise the last session's close), " +
        "409 DATA_UNVERIFIED when the price breaks the circuit-breaker bounds."
    )
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Quotes",
    description:
      "The delayed quote of a listed security, never live: its as-of, its staleness judged by the market calendar, " +
      "and its corporate-action state. Public: no key needed."
  }))
{}
