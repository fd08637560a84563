/**
 * Handlers of the analytics, screener, comparison and research endpoints: thin calls into the Analytics
 * service. The research package (under its three paths, one cached answer) and screener pages are cached as
 * bytes per snapshot (`cached`, readmodel/SnapshotAnswers.ts).
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AnswerCache } from "../../http/AnswerCache.ts"
import { Api } from "../../http/Api.ts"
import { researchValidUntil, screenValidUntil } from "../readmodel/AnswerValidity.ts"
import { PointInTime } from "../readmodel/PointInTime.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { snapshotAnswers } from "../readmodel/SnapshotAnswers.ts"
import { Analytics } from "./Analytics.ts"

export const AnalyticsHttp = HttpApiBuilder.group(Api, "analytics", (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    const cached = (yield* AnswerCache).handlersOf(Api, "analytics")
    const policies = snapshotAnswers(yield* MarketReadModel, yield* PointInTime)
    const research = policies.ofSymbol((_data, now, symbol) => researchValidUntil(symbol, now))
    return handlers
      .handle("analytics", ({ params, query }) => analytics.analytics(params.symbol, query.adjust))
      .handle("valuation", ({ params }) => analytics.valuation(params.symbol))
      .handle("technicals", ({ params }) => analytics.technicals(params.sym))
      .handle(
        "screen",
        cached("screen", policies.ofSnapshot("open", screenValidUntil), ({ query }) => analytics.screen(query))
      )
      .handle("screenPost", ({ payload }) => analytics.screen(payload))
      .handle("compare", ({ query }) => analytics.compare(query.symbols, query.adjust))
      .handle("research", cached("research", research, ({ params }) => analytics.research(params.symbol)))
      .handle("researchLegacy", cached("researchLegacy", research, ({ params }) => analytics.research(params.symbol)))
      .handle("researchAlias", cached("researchAlias", research, ({ params }) => analytics.research(params.symbol)))
  }))
