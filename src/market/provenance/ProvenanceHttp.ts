/** Handlers of the freshness, sources and fundamentals prefetch endpoints: thin calls into DatasetStatus. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../http/Api.ts"
import { DatasetStatus } from "./DatasetStatus.ts"

export const ProvenanceHttp = HttpApiBuilder.group(Api, "provenance", (handlers) =>
  Effect.gen(function*() {
    const datasets = yield* DatasetStatus
    return handlers
      .handle("freshness", () => datasets.status)
      .handle("sources", ({ params }) => datasets.symbolSources(params.symbol))
      .handle("ingestFundamentals", ({ query }) => datasets.prefetchFundamentals(query.n ?? 10))
  }))
