/** Handlers of the market-data endpoints: thin calls into the market services. */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { currentMarketStatus } from "../../domain/market/Calendar.ts"
import { Api } from "../http/Api.ts"
import { Analytics } from "./analytics/Analytics.ts"
import { Companies } from "./companies/Companies.ts"
import { Filings } from "./filings/Filings.ts"
import { Freshness } from "./provenance/Freshness.ts"
import { MarketBoard } from "./board/Board.ts"
import { MarketIndexes } from "./board/Indexes.ts"
import { Prices } from "./prices/Prices.ts"
import { EncodedAnswers } from "./readmodel/EncodedAnswers.ts"
import { MarketStore } from "./readmodel/MarketStore.ts"
import { Quotes } from "./quotes/Quotes.ts"
import { MarketReadModel } from "./readmodel/ReadModel.ts"
import { Sources } from "./provenance/Provenance.ts"

export const MarketHttp = HttpApiBuilder.group(Api, "market", (handlers) =>
  Effect.gen(function*() {
    const companies = yield* Companies
    const quotes = yield* Quotes
    const prices = yield* Prices
    const filings = yield* Filings
    const freshness = yield* Freshness
    return handlers
      .handle("status", () => currentMarketStatus)
      .handle("search", ({ query }) => companies.search(query.q))
      .handle("companies", ({ query }) => companies.list(query))
      .handle("company", ({ params }) => companies.company(params.symbol))
      .handle("stock", ({ params }) => companies.stock(params.sym))
      .handle("quote", ({ params, query }) => quotes.get(params.symbol, { allowStale: query.allow_stale === true }))
      .handle("prices", ({ params, query }) => prices.history(params.symbol, query))
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

/** The market services over the read model (and the read model over the store, AppConfig and Cursors). */
export const MarketServices = EncodedAnswers.layer.pipe(Layer.provideMerge(Layer.mergeAll(
  Companies.layer,
  Freshness.layer,
  MarketIndexes.layer,
  MarketBoard.layer,
  Filings.layer,
  Quotes.layer,
  Prices.layer,
  Sources.layer
)), Layer.provideMerge(Analytics.layer), Layer.provideMerge(MarketReadModel.layer), Layer.provideMerge(MarketStore.layer))
