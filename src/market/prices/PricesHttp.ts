/**
 * Handler of the price history endpoint: a thin call into Prices. Its answers without a query other than
 * `range` are cached as bytes per snapshot (`cached`, http/AnswerCache.ts; policy in
 * readmodel/SnapshotAnswers.ts) until the next cursor day.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AnswerCache } from "../../http/AnswerCache.ts"
import { Api } from "../../http/Api.ts"
import { cursorDayValidUntil } from "../readmodel/AnswerValidity.ts"
import { PointInTime } from "../readmodel/PointInTime.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { snapshotAnswers } from "../readmodel/SnapshotAnswers.ts"
import { Prices } from "./Prices.ts"

export const PricesHttp = HttpApiBuilder.group(Api, "prices", (handlers) =>
  Effect.gen(function*() {
    const prices = yield* Prices
    const cached = (yield* AnswerCache).handlersOf(Api, "prices")
    const policies = snapshotAnswers(yield* MarketReadModel, yield* PointInTime)
    return handlers.handle(
      "prices",
      cached("prices", policies.ofSymbol(cursorDayValidUntil, { query: ["range"] }), ({ params, query }) =>
        prices.history(params.symbol, query))
    )
  }))
