/**
 * Handlers of the market-data endpoints: thin calls into the market services.
 * The hottest reads are kept as bytes per snapshot (`cached`, http/AnswerCache.ts; policies in
 * readmodel/SnapshotAnswers.ts): the fast path answers them from there, else this handler runs.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { currentMarketStatus } from "../../domain/market/Calendar.ts"
import { AnswerCache } from "../http/AnswerCache.ts"
import { Api } from "../http/Api.ts"
import { Analytics } from "./analytics/Analytics.ts"
import { Companies } from "./companies/Companies.ts"
import { Filings } from "./filings/Filings.ts"
import { Freshness } from "./provenance/Freshness.ts"
import { MarketBoard } from "./board/Board.ts"
import { MarketIndexes } from "./board/Indexes.ts"
import { Prices } from "./prices/Prices.ts"
import { cursorDayValidUntil, quoteOrDayValidUntil, quoteValidUntil } from "./readmodel/AnswerValidity.ts"
import { MarketStore } from "./readmodel/MarketStore.ts"
import { Quotes } from "./quotes/Quotes.ts"
import { MarketReadModel } from "./readmodel/ReadModel.ts"
import { AnswerWarming, snapshotAnswers } from "./readmodel/SnapshotAnswers.ts"
import { Sources } from "./provenance/Provenance.ts"
import { AsOfMiddlewareLive } from "./readmodel/AsOfMiddleware.ts"
import { PointInTime } from "./readmodel/PointInTime.ts"
import { nextCursorDay } from "../paging/Cursors.ts"

export const MarketHttp = HttpApiBuilder.group(Api, "market", (handlers) =>
  Effect.gen(function*() {
    const companies = yield* Companies
    const quotes = yield* Quotes
    const prices = yield* Prices
    const filings = yield* Filings
    const freshness = yield* Freshness
    const cached = (yield* AnswerCache).handlersOf(Api, "market")
    const kept = snapshotAnswers(yield* MarketReadModel)
    return handlers
      .handle("status", () => currentMarketStatus)
      .handle("search", ({ query }) => companies.search(query.q))
      .handle("companies", cached("companies", kept.ofSnapshot("open", nextCursorDay), ({ query }) => companies.list(query)))
      .handle("company", cached("company", kept.ofSymbol(quoteOrDayValidUntil), ({ params }) => companies.company(params.symbol)))
      .handle("stock", cached("stock", kept.ofSymbol(quoteOrDayValidUntil), ({ params }) => companies.stock(params.sym)))
      .handle(
        "quote",
        cached("quote", kept.ofSymbol(quoteValidUntil), ({ params, query }) => quotes.get(params.symbol, { allowStale: query.allow_stale === true }))
      )
      .handle(
        "prices",
        cached("prices", kept.ofSymbol(cursorDayValidUntil, { query: ["range"] }), ({ params, query }) => prices.history(params.symbol, query))
      )
      .handle("financials", ({ params }) => filings.financials(params.symbol))
      .handle("stockFinancials", ({ params }) => filings.financials(params.symbol))
      .handle("dividends", ({ params }) => filings.dividends(params.symbol))
      .handle("stockDividends", ({ params }) => filings.dividends(params.symbol))
      .handle("corporateActions", ({ params }) => filings.corporateActions(params.symbol))
      .handle("announcements", ({ query }) => filings.announcements(query))
      .handle("symbolAnnouncements", ({ params, query }) => filings.announcements({ ...query, symbol: params.sym }))
      .handle("stockAnnouncements", ({ params, query }) => filings.announcements({ ...query, symbol: params.symbol }))
      .handle("news", ({ query }) => filings.news(query))
      .handle("freshness", () => freshness.freshness)
      .handle("sources", ({ params }) => freshness.symbolSources(params.symbol))
      .handle("ingestFundamentals", ({ query }) => freshness.warmFundamentals(query.n ?? 10))
  }))

/**
 * The market services over the read model (and the read model over the store, AppConfig and Cursors), with
 * the answer cache the market's handlers keep their answers in and its warming.
 */
export const MarketServices = AnswerWarming.pipe(Layer.provideMerge(Layer.mergeAll(
  Companies.layer,
  Freshness.layer,
  MarketIndexes.layer,
  MarketBoard.layer,
  Filings.layer,
  Quotes.layer,
  Prices.layer,
  Sources.layer,
  AsOfMiddlewareLive
)), Layer.provideMerge(Analytics.layer), Layer.provideMerge(PointInTime.layer), Layer.provideMerge(MarketReadModel.layer), Layer.provideMerge(MarketStore.layer),
  Layer.provideMerge(AnswerCache.layer))
