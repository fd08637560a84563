/** Handlers of the market-data endpoints: thin calls into the market services. */
import { Clock, Effect, Layer, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { marketStatus, settlementDays } from "../../domain/market/Calendar.ts"
import { Api } from "../http/Api.ts"
import { Companies } from "./Companies.ts"
import { Filings } from "./Filings.ts"
import { Freshness } from "./Freshness.ts"
import { MarketIndexes } from "./Indexes.ts"
import { Prices } from "./Prices.ts"
import * as S from "../../domain/market/Schemas.ts"
import { Quotes } from "./Quotes.ts"
import { makeReadCache } from "./ReadCache.ts"
import { Sources } from "./Sources.ts"

export const MarketHttp = HttpApiBuilder.group(Api, "market", (handlers) =>
  Effect.gen(function*() {
    const companies = yield* Companies
    const quotes = yield* Quotes
    const prices = yield* Prices
    const filings = yield* Filings
    const freshness = yield* Freshness
    const encodedCache = makeReadCache(1_000, 5_000)
    const encoded = <A, I, E>(key: string, schema: Schema.Codec<A, I>, effect: Effect.Effect<A, E>) =>
      encodedCache(key, Effect.map(effect, (value) => HttpServerResponse.jsonUnsafe(Schema.encodeSync(schema)(value))))
    return handlers
      .handle("status", () =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const s = marketStatus(now)
          return {
            now: new Date(now).toISOString(),
            time_zone: "Asia/Karachi" as const,
            ...s,
            settlement: `T+${settlementDays(s.date)}`,
            quotes: "delayed" as const
          }
        }))
      .handle("search", ({ query }) => companies.search(query.q))
      .handle("companies", ({ query }) => companies.list(query))
      .handle("company", ({ params }) => companies.company(params.symbol))
      .handle("stock", ({ params }) => companies.stock(params.sym))
      .handle("quote", ({ params, query }) => {
        const allowStale = query.allow_stale === true
        // Hot path: the encoded answer is reused for a second (quotes change only on ingest).
        return encoded(`quote:${params.symbol.trim().toUpperCase()}:${allowStale}`, S.Quote, quotes.get(params.symbol, { allowStale }))
      })
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

/** The market services, over a SqlClient and AppConfig. */
export const MarketServices = Layer.mergeAll(Companies.layer, Freshness.layer, MarketIndexes.layer).pipe(
  Layer.provideMerge(Filings.layer),
  Layer.provideMerge(Layer.mergeAll(Quotes.layer, Prices.layer)),
  Layer.provideMerge(Sources.layer)
)
