/**
 * Where every dataset came from and how stale it is, and the fundamentals prefetch (SPEC 4.3 and the ingest
 * endpoint of 4.5). Definitions only; handlers are in ProvenanceHttp.ts, the rules in DatasetStatus.ts,
 * Provenance.ts and FundamentalsPrefetch.ts.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SourceUnavailable } from "../../../domain/Errors.ts"
import * as S from "../../../domain/market/shared/Schemas.ts"
import { SymbolPath } from "../../../domain/Params.ts"
import { marketEndpoint, symbolErrors } from "../MarketEndpoints.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"

const WARM =
  "Warms the fundamentals projection for up to n listed equities (1 to 40, default 10) that were never checked or " +
  "were checked more than a day ago, oldest first: an equity with no row gets one from its latest recorded delayed " +
  "quote (price and that quote's date as as_of; neither when no quote is recorded), and every row of the batch is " +
  "stamped as checked. It never changes or estimates a recorded figure; with the bundled pack there is nothing newer " +
  "to fetch. With the live portal source (PSX_SOURCE=portal) it fetches instead: the company page (profile, equity, " +
  "income statements, ratios) and payouts of the n listed symbols fetched longest ago or never, one request at a " +
  "time; concurrent calls never fetch one symbol twice. Answers warmed, batch, remaining and universe counts."

export class ProvenanceApi extends HttpApiGroup.make("provenance")
  .add(
    marketEndpoint(
      HttpApiEndpoint.get("freshness", "/v1/freshness", {
        query: asOfQuery,
        success: S.FreshnessAnswer,
        error: SourceUnavailable
      }),
      "Get per-dataset coverage and age",
      "Per-dataset coverage (symbols, first and last dates), as-of, age in days, source and retrieval time."
    ),
    marketEndpoint(
      HttpApiEndpoint.get("sources", "/v1/ai/sources/:symbol", {
        query: asOfQuery,
        params: SymbolPath,
        success: S.SymbolSources,
        error: symbolErrors
      }),
      "Get the provenance of a symbol's data",
      "Provenance per data area for one symbol: source, as-of and retrieval time."
    ),
    marketEndpoint(
      HttpApiEndpoint.get("ingestFundamentals", "/v1/ingest/fundamentals", {
        query: {
          n: Schema.optional(
            Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 40 })).annotate({
              description: "Symbols to warm, 1 to 40; default 10"
            })
          )
        },
        success: S.IngestResult,
        error: SourceUnavailable
      }),
      "Warm the fundamentals projection",
      WARM
    )
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Provenance and freshness",
    description:
      "Where every dataset came from and how fresh it is: each dataset's coverage and age, the sources of one " +
      "symbol's data, and the warm-up of the fundamentals projection. Public: no key needed."
  }))
{}
