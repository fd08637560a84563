/**
 * Handler of the quote endpoint: a thin call into Quotes. Its answers are cached as bytes per snapshot
 * (`cached`, http/AnswerCache.ts; policy in readmodel/SnapshotAnswers.ts) until the quote turns stale or
 * the trading day's next phase (readmodel/AnswerValidity.ts).
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AnswerCache } from "../../http/AnswerCache.ts"
import { Api } from "../../http/Api.ts"
import { quoteValidUntil } from "../readmodel/AnswerValidity.ts"
import { PointInTime } from "../readmodel/PointInTime.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { snapshotAnswers } from "../readmodel/SnapshotAnswers.ts"
import { Quotes } from "./Quotes.ts"

export const QuotesHttp = HttpApiBuilder.group(Api, "quotes", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* Quotes
    const cached = (yield* AnswerCache).handlersOf(Api, "quotes")
    const policies = snapshotAnswers(yield* MarketReadModel, yield* PointInTime)
    return handlers.handle(
      "quote",
      cached("quote", policies.ofSymbol(quoteValidUntil), ({ params, query }) =>
        quotes.get(params.symbol, { allowStale: query.allow_stale === true }))
    )
  }))
