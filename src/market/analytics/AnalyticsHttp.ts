/** Handlers of the analytics, screener, comparison and research endpoints: thin calls into the Analytics service. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../http/Api.ts"
import { Analytics } from "./Analytics.ts"

export const AnalyticsHttp = HttpApiBuilder.group(Api, "analytics", (handlers) =>
  Effect.map(Analytics, (analytics) =>
    handlers
      .handle("analytics", ({ params, query }) => analytics.analytics(params.symbol, query.adjust))
      .handle("valuation", ({ params }) => analytics.valuation(params.symbol))
      .handle("technicals", ({ params }) => analytics.technicals(params.sym))
      .handle("screen", ({ query }) => analytics.screen(query))
      .handle("screenPost", ({ payload }) => analytics.screen(payload))
      .handle("compare", ({ query }) => analytics.compare(query.symbols, query.adjust))
      .handle("research", ({ params }) => analytics.research(params.symbol))
      .handle("researchLegacy", ({ params }) => analytics.research(params.symbol))
      .handle("researchAlias", ({ params }) => analytics.research(params.symbol))))
