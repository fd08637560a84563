/** Handlers of the freshness, sources and fundamentals warm-up endpoints: thin calls into Freshness. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../http/Api.ts"
import { Freshness } from "./Freshness.ts"

export const ProvenanceHttp = HttpApiBuilder.group(Api, "provenance", (handlers) =>
  Effect.gen(function*() {
    const freshness = yield* Freshness
    return handlers
      .handle("freshness", () => freshness.freshness)
      .handle("sources", ({ params }) => freshness.symbolSources(params.symbol))
      .handle("ingestFundamentals", ({ query }) => freshness.warmFundamentals(query.n ?? 10))
  }))
