/**
 * Handlers of the company endpoints: thin calls into Companies. The company list, a company and the
 * full-company payload are cached as bytes per snapshot (`cached`, http/AnswerCache.ts; policies in
 * readmodel/SnapshotAnswers.ts): the fast path answers them from there, else the handler runs.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AnswerCache } from "../../http/AnswerCache.ts"
import { Api } from "../../http/Api.ts"
import { nextCursorDay } from "../../paging/Cursors.ts"
import { quoteOrDayValidUntil } from "../readmodel/AnswerValidity.ts"
import { PointInTime } from "../readmodel/PointInTime.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { snapshotAnswers } from "../readmodel/SnapshotAnswers.ts"
import { Companies } from "./Companies.ts"

export const CompaniesHttp = HttpApiBuilder.group(Api, "companies", (handlers) =>
  Effect.gen(function*() {
    const companies = yield* Companies
    const cached = (yield* AnswerCache).handlersOf(Api, "companies")
    const policies = snapshotAnswers(yield* MarketReadModel, yield* PointInTime)
    return handlers
      .handle(
        "companies",
        cached("companies", policies.ofSnapshot("open", nextCursorDay), ({ query }) => companies.list(query))
      )
      .handle(
        "company",
        cached("company", policies.ofSymbol(quoteOrDayValidUntil), ({ params }) => companies.company(params.symbol))
      )
      .handle(
        "stock",
        cached("stock", policies.ofSymbol(quoteOrDayValidUntil), ({ params }) => companies.stock(params.sym))
      )
  }))
