/**
 * Encoded answers for the hottest market reads, served by the guard before
 * the HttpApi pipeline. An answer is a pure function of the read model's
 * snapshot and of the calendar, so it is encoded once per snapshot — with the
 * same Schema and JSON encoding the HttpApi handler uses, byte for byte — and
 * kept with that snapshot until a calendar boundary can change it (a quote
 * turning stale, a new Karachi day for trailing dividend figures).
 *
 * The hottest of them (quote, full payload, 1Y prices of every symbol) are
 * encoded in the background as soon as a snapshot is swapped in.
 *
 * Only canonical URLs are answered here (an upper-case listed ticker and
 * exactly these queries); anything else, any failure, and any request with
 * `Cache-Control: no-cache` goes through the full HttpApi pipeline:
 *
 *   GET /v1/quotes/{SYM}?allow_stale=true      GET /v1/stocks/{SYM}
 *   GET /v1/companies/{SYM}                    GET /v1/prices/{SYM}[?range=R]
 *   GET /v1/market/board                       GET /v1/sectors/board
 *   GET /v1/stocks/{SYM}/research, /v1/stocks/{SYM}/rh, /v1/ai/research/{SYM} (the same package)
 *   GET /v1/screener?… (ScreenerAnswers.ts: a decodable query, a bounded number per snapshot)
 */
import { Clock, Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { DataNotFound, DataUnverified } from "../../../domain/Errors.ts"
import { karachiDate, quoteIsFresh } from "../../../domain/market/Calendar.ts"
import { RANGES, type Range } from "../../../domain/market/Limits.ts"
import { MarketBoard as MarketBoardRecord, SectorBoard } from "../../../domain/market/MarketSchemas.ts"
import * as S from "../../../domain/market/Schemas.ts"
import type { SymbolData } from "../../../domain/market/Snapshot.ts"
import { nextCursorDay } from "../../paging/Cursors.ts"
import { MarketBoard } from "../board/Board.ts"
import { ResearchPackage } from "../../../domain/market/AnalyticsSchemas.ts"
import { Analytics } from "../analytics/Analytics.ts"
import { Companies } from "../companies/Companies.ts"
import { Prices } from "../prices/Prices.ts"
import { Quotes } from "../quotes/Quotes.ts"
import { type EncodedAnswer, MarketReadModel, type ReadModelState } from "./ReadModel.ts"
import { researchInstant } from "../analytics/ResearchPackage.ts"
import { makeScreenerAnswers, SCREENER_PREFIX } from "./ScreenerAnswers.ts"

const TICKER = /^[A-Z0-9][A-Z0-9.\-]{0,15}$/u
const DAY_MS = 86_400_000
const KARACHI_OFFSET_MS = 5 * 3_600_000
const utf8 = new TextEncoder()

/** The first instant after `now` at which a fresh quote of `asOfMs` turns stale (Infinity when it already is). */
export const freshUntil = (asOfMs: number, now: number): number => {
  if (!quoteIsFresh(asOfMs, now)) return now
  let lo = now, hi = now + 40 * DAY_MS
  if (quoteIsFresh(asOfMs, hi)) return hi
  while (hi - lo > 1_000) {
    const mid = Math.floor((lo + hi) / 2)
    if (quoteIsFresh(asOfMs, mid)) lo = mid
    else hi = mid
  }
  return hi
}

/** The next Karachi midnight after `now`. */
const nextKarachiDay = (now: number) => Date.parse(karachiDate(now) + "T00:00:00Z") - KARACHI_OFFSET_MS + DAY_MS

/** Until when the quote embedded in an answer keeps its `stale` flag. */
const quoteValidUntil = (data: SymbolData, now: number) => {
  if (data.quote === undefined) return Infinity
  const asOf = Date.parse(data.quote.as_of)
  return quoteIsFresh(asOf, now) ? freshUntil(asOf, now) : Infinity
}

type Route =
  | { readonly kind: "quote"; readonly symbol: string }
  | { readonly kind: "stock"; readonly symbol: string }
  | { readonly kind: "company"; readonly symbol: string }
  | { readonly kind: "prices"; readonly symbol: string; readonly range: Range | undefined }
  | { readonly kind: "marketBoard" | "sectorBoard" }
  | { readonly kind: "research"; readonly symbol: string }

/** Routes whose answer depends on the snapshot alone (no symbol, no query). */
const fixedRoutes = new Map<string, Route>([["/v1/market/board", { kind: "marketBoard" }], ["/v1/sectors/board", { kind: "sectorBoard" }]])

const rangeOf = new Map<string, Range | undefined>([["", undefined], ...RANGES.map((r) => [`range=${r}`, r] as const)])

/** The canonical route a URL names, or undefined. */
export const routeOf = (url: string): Route | undefined => {
  const fixed = fixedRoutes.get(url)
  if (fixed !== undefined) return fixed
  const q = url.indexOf("?")
  const path = q === -1 ? url : url.slice(0, q)
  const query = q === -1 ? "" : url.slice(q + 1)
  if (path.startsWith("/v1/stocks/") && (path.endsWith("/research") || path.endsWith("/rh"))) {
    const symbol = path.slice("/v1/stocks/".length, path.lastIndexOf("/"))
    return query === "" && TICKER.test(symbol) ? { kind: "research", symbol } : undefined
  }
  const slash = path.lastIndexOf("/")
  const base = path.slice(0, slash)
  const symbol = path.slice(slash + 1)
  if (!TICKER.test(symbol)) return undefined
  switch (base) {
    case "/v1/quotes":
      return query === "allow_stale=true" ? { kind: "quote", symbol } : undefined
    case "/v1/stocks":
      return query === "" ? { kind: "stock", symbol } : undefined
    case "/v1/companies":
      return query === "" ? { kind: "company", symbol } : undefined
    case "/v1/prices":
      return rangeOf.has(query) ? { kind: "prices", symbol, range: rangeOf.get(query) } : undefined
    case "/v1/ai/research":
      return query === "" ? { kind: "research", symbol } : undefined
    default:
      return undefined
  }
}

export class EncodedAnswers extends Context.Service<EncodedAnswers, {
  /** The encoded answer for a canonical URL, or undefined (then the HttpApi pipeline answers). */
  readonly lookup: (url: string) => Effect.Effect<EncodedAnswer | undefined>
}>()("psx/market/EncodedAnswers") {
  static readonly layer = Layer.effect(
    EncodedAnswers,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      const quotes = yield* Quotes
      const companies = yield* Companies
      const prices = yield* Prices
      const board = yield* MarketBoard
      const analytics = yield* Analytics
      const encode = <A, I>(schema: Schema.Codec<A, I>) => {
        const toJson = Schema.encodeSync(schema)
        return (value: A) => utf8.encode(JSON.stringify(toJson(value)))
      }
      const quoteBytes = encode(S.Quote)
      const stockBytes = encode(S.Stock)
      const companyBytes = encode(S.Company)
      const pricesBytes = encode(S.PricesResponse)
      const marketBoardBytes = encode(MarketBoardRecord)
      const sectorBoardBytes = encode(SectorBoard)
      const researchBytes = encode(ResearchPackage)
      const screenerAnswer = makeScreenerAnswers(analytics)

      const notFound = encode(DataNotFound)
      const unverified = encode(DataUnverified)
      /** Failures that are a function of the snapshot alone are answers too (404 no data, 409 unverified). */
      const failure = (e: unknown, validUntil: number): EncodedAnswer | undefined =>
        e instanceof DataNotFound
          ? { status: 404, body: notFound(e), validUntil }
          : e instanceof DataUnverified
          ? { status: 409, body: unverified(e), validUntil }
          : undefined

      const make = (route: Route, data: SymbolData | undefined, now: number): Effect.Effect<EncodedAnswer | undefined> => {
        const until = (extra: number) => Math.min(data === undefined ? Infinity : quoteValidUntil(data, now), extra)
        const answer = <A, E>(effect: Effect.Effect<A, E>, bytes: (a: A) => Uint8Array, validUntil: number) =>
          effect.pipe(
            Effect.map((value): EncodedAnswer | undefined => ({ status: 200, body: bytes(value), validUntil })),
            Effect.catch((e) => Effect.succeed(failure(e, validUntil)))
          )
        switch (route.kind) {
          case "quote":
            return answer(quotes.get(route.symbol, { allowStale: true }), quoteBytes, until(Infinity))
          case "stock":
            return answer(companies.stock(route.symbol), stockBytes, until(nextKarachiDay(now)))
          case "company":
            return answer(companies.company(route.symbol), companyBytes, until(nextKarachiDay(now)))
          case "prices":
            // Its next_cursor carries the cursor day (see Cursors): made again when that changes.
            return answer(prices.history(route.symbol, { range: route.range }), pricesBytes, nextCursorDay(now))
          case "marketBoard":
            return answer(board.board, marketBoardBytes, Infinity)
          case "sectorBoard":
            return answer(board.sectorBoard, sectorBoardBytes, Infinity)
          case "research":
            // Dated to the symbol's 5-minute window (ResearchPackage.researchInstant): made again when that turns over.
            return answer(analytics.research(route.symbol), researchBytes, researchInstant(now, route.symbol).until)
        }
      }

      const lookup = (url: string) =>
        Effect.gen(function*() {
          const route = routeOf(url)
          const state = model.state()
          if (state !== undefined && url.startsWith(SCREENER_PREFIX)) {
            const now = yield* Clock.currentTimeMillis
            return yield* screenerAnswer(url, state, now, Math.min(nextKarachiDay(now), nextCursorDay(now)))
          }
          if (route === undefined || state === undefined) return undefined
          const data = "symbol" in route ? state.snapshot.symbols.get(route.symbol) : undefined
          if ("symbol" in route && data === undefined) return undefined
          const now = yield* Clock.currentTimeMillis
          const hit = state.answers.get(url)
          if (hit !== undefined && now < hit.validUntil) return hit
          const made = yield* make(route, data, now)
          if (made === undefined) return undefined
          // Kept with the snapshot it was made from: a newer snapshot starts with no answers.
          state.answers.set(url, made)
          return made
        })

      // Encode the hottest answers of each new snapshot in the background, a symbol at a time, so the first
      // request for a symbol finds its bytes ready (a request that comes first encodes its own).
      const HOT = (symbol: string) => [
        `/v1/quotes/${symbol}?allow_stale=true`,
        `/v1/stocks/${symbol}`,
        `/v1/prices/${symbol}?range=1Y`,
        `/v1/stocks/${symbol}/research`
      ]
      let warmed: ReadModelState | undefined
      const warm = Effect.gen(function*() {
        const state = model.state()
        if (state === undefined || state === warmed) return
        warmed = state
        for (const url of fixedRoutes.keys()) yield* lookup(url)
        for (const symbol of state.snapshot.symbols.keys()) {
          if (model.state() !== state) return
          for (const url of HOT(symbol)) yield* lookup(url)
          yield* Effect.yieldNow
        }
      })
      yield* warm.pipe(Effect.repeat(Schedule.spaced(Duration.millis(250))), Effect.forkScoped)

      return { lookup }
    })
  )
}
