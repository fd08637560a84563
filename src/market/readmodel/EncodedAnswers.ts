/**
 * Encoded answers of the hottest market reads, keyed by HttpApi endpoint and
 * decoded parameters (never by URL: the HttpApi definitions are the only route
 * table; http/FastPath.ts derives its matcher from them and asks here).
 *
 * An answer is a pure function of the read model's snapshot and of the
 * calendar, so it is encoded once per snapshot — with the same Schema and JSON
 * encoding the HttpApi handler uses, byte for byte — and kept with that
 * snapshot until a calendar boundary can change it (AnswerValidity.ts).
 * Failures that are a function of the snapshot alone (404 no data, 409
 * unverified) are answers too; any other failure is left to the HttpApi
 * pipeline.
 *
 * Symbol endpoints answer only listed tickers as spelled in the snapshot, so
 * their keys are bounded by the universe; endpoints with open-ended queries
 * (the company list, the screener) keep at most `MAX_OPEN_ANSWERS` answers per
 * snapshot. The hottest answers (quote, full payload, 1Y prices, research of
 * every symbol, the boards) are encoded in the background as soon as a
 * snapshot is swapped in.
 */
import { Clock, Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { DataNotFound, DataUnverified } from "../../../domain/Errors.ts"
import { ResearchPackage, ScreenerPage } from "../../../domain/market/AnalyticsSchemas.ts"
import { MarketBoard as MarketBoardRecord, SectorBoard } from "../../../domain/market/MarketSchemas.ts"
import * as S from "../../../domain/market/Schemas.ts"
import type { SymbolData } from "../../../domain/market/Snapshot.ts"
import { nextCursorDay } from "../../paging/Cursors.ts"
import { Analytics } from "../analytics/Analytics.ts"
import { researchInstant } from "../analytics/ResearchPackage.ts"
import { MarketBoard } from "../board/Board.ts"
import { Companies } from "../companies/Companies.ts"
import { Prices } from "../prices/Prices.ts"
import { Quotes } from "../quotes/Quotes.ts"
import { makeHeapSettle } from "../../system/HeapSettle.ts"
import { nextKarachiDay, quoteValidUntil } from "./AnswerValidity.ts"
import { type EncodedAnswer, MarketReadModel, type ReadModelState } from "./ReadModel.ts"

/** The decoded request of an endpoint, as its HttpApi handler receives it. */
export interface AnswerInput {
  readonly params?: any
  readonly query?: any
}

/** A request's place in the cache: its key, the state it belongs to, and the answer held (if still valid). */
export interface AnswerProbe {
  readonly endpoint: string
  readonly input: AnswerInput
  readonly key: string
  readonly state: ReadModelState
  readonly hit: EncodedAnswer | undefined
}

const MAX_OPEN_ANSWERS = 1_000
const utf8 = new TextEncoder()

/** One JSON text per decoded value whatever its key order; absent (undefined) keys leave no trace. */
export const canonicalKey = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(",")}]`
  const keys = Object.keys(value)
  if (keys.length > 1) keys.sort()
  let text = "{"
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k]
    if (v !== undefined) text += `${text.length > 1 ? "," : ""}${JSON.stringify(k)}:${canonicalKey(v)}`
  }
  return text + "}"
}

const encoder = <A, I>(schema: Schema.Codec<A, I>) => {
  const toJson = Schema.encodeSync(schema)
  return (value: A) => utf8.encode(JSON.stringify(toJson(value)))
}

const notFoundBytes = encoder(DataNotFound)
const unverifiedBytes = encoder(DataUnverified)

/** Encodes what `effect` gives: a success with `bytes`, a snapshot-only failure with its error record. */
const answerOf = <A, E>(effect: Effect.Effect<A, E>, bytes: (a: A) => Uint8Array, validUntil: number) =>
  effect.pipe(
    Effect.map((value): EncodedAnswer | undefined => ({ status: 200, body: bytes(value), validUntil })),
    Effect.catch((e) =>
      Effect.succeed<EncodedAnswer | undefined>(
        e instanceof DataNotFound
          ? { status: 404, body: notFoundBytes(e), validUntil }
          : e instanceof DataUnverified
          ? { status: 409, body: unverifiedBytes(e), validUntil }
          : undefined
      )
    )
  )

/** How one endpoint's answers are made. */
interface Answerer {
  /** The cache name (endpoints serving the same package share it). */
  readonly name: string
  /** Whether this input is answered from the cache at all. */
  readonly accepts: (input: AnswerInput, state: ReadModelState) => boolean
  /** Unbounded inputs (free queries): capped per snapshot. */
  readonly open: boolean
  readonly make: (input: AnswerInput, data: SymbolData | undefined, now: number) => Effect.Effect<EncodedAnswer | undefined>
}

const symbolOf = (input: AnswerInput): string | undefined => input.params?.symbol ?? input.params?.sym
const onlyQuery = (input: AnswerInput, allowed: ReadonlyArray<string>) =>
  Object.keys(input.query ?? {}).every((k) => input.query[k] === undefined || allowed.includes(k))
const listed = (input: AnswerInput, state: ReadModelState) => {
  const symbol = symbolOf(input)
  return symbol !== undefined && state.snapshot.symbols.has(symbol)
}

export class EncodedAnswers extends Context.Service<EncodedAnswers, {
  /** The endpoints (`group.endpoint`, as in the Api) whose answers are kept here. */
  readonly endpoints: ReadonlySet<string>
  /** Synchronously: where a decoded request stands in the cache, or undefined when it is not answered here. */
  readonly probe: (endpoint: string, input: AnswerInput, now: number) => AnswerProbe | undefined
  /** Makes and keeps the answer of a probe that missed (undefined: the HttpApi pipeline answers). */
  readonly fill: (probe: AnswerProbe) => Effect.Effect<EncodedAnswer | undefined>
  /** The answer of a decoded request: the cached one, or made now (undefined: not answered here). */
  readonly lookup: (endpoint: string, input: AnswerInput) => Effect.Effect<EncodedAnswer | undefined>
}>()("psx/market/EncodedAnswers") {
  static readonly layer = Layer.effect(
    EncodedAnswers,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      const answerers = yield* makeAnswerers
      const openCounts = new WeakMap<ReadModelState, number>()

      const probe = (endpoint: string, input: AnswerInput, now: number): AnswerProbe | undefined => {
        const answerer = answerers.get(endpoint)
        const state = model.state()
        if (answerer === undefined || state === undefined || !answerer.accepts(input, state)) return undefined
        const key = `${answerer.name} ${canonicalKey(input)}`
        const held = state.answers.get(key)
        const hit = held !== undefined && now < held.validUntil ? held : undefined
        if (hit === undefined && answerer.open && held === undefined && (openCounts.get(state) ?? 0) >= MAX_OPEN_ANSWERS) {
          return undefined
        }
        return { endpoint, input, key, state, hit }
      }

      const fill = (p: AnswerProbe) =>
        Effect.gen(function*() {
          const answerer = answerers.get(p.endpoint)!
          const symbol = symbolOf(p.input)
          const data = symbol === undefined ? undefined : p.state.snapshot.symbols.get(symbol)
          const made = yield* answerer.make(p.input, data, yield* Clock.currentTimeMillis)
          if (made === undefined) return undefined
          // Kept with the snapshot it was made from: a newer snapshot starts with no answers.
          if (answerer.open && !p.state.answers.has(p.key)) openCounts.set(p.state, (openCounts.get(p.state) ?? 0) + 1)
          p.state.answers.set(p.key, made)
          return made
        })

      const lookup = (endpoint: string, input: AnswerInput) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const p = probe(endpoint, input, now)
          return p === undefined ? Effect.succeed(undefined) : p.hit !== undefined ? Effect.succeed(p.hit) : fill(p)
        })

      yield* warm(model, yield* Analytics, lookup, yield* makeHeapSettle).pipe(Effect.repeat(Schedule.spaced(Duration.millis(250))), Effect.forkScoped)
      return { endpoints: new Set(answerers.keys()), probe, fill, lookup }
    })
  )
}

/** Each cached answer's encoder (its route's success schema). */
const bytes = {
  quote: encoder(S.Quote),
  stock: encoder(S.Stock),
  company: encoder(S.Company),
  companies: encoder(S.CompaniesPage),
  prices: encoder(S.PricesResponse),
  marketBoard: encoder(MarketBoardRecord),
  sectorBoard: encoder(SectorBoard),
  research: encoder(ResearchPackage),
  screen: encoder(ScreenerPage)
}
const always = () => true

/** The research package (served under three paths). */
const researchAnswerer = (analytics: typeof Analytics.Service): Answerer => ({
  name: "research",
  accepts: listed,
  open: false,
  // Dated to the symbol's 5-minute window (ResearchPackage.researchInstant): made again when that turns over.
  make: (i, _d, now) => answerOf(analytics.research(symbolOf(i)!), bytes.research, researchInstant(now, symbolOf(i)!).until)
})

/** The answerers, by endpoint (`group.endpoint` in the Api). */
const makeAnswerers = Effect.gen(function*() {
  const quotes = yield* Quotes
  const companies = yield* Companies
  const prices = yield* Prices
  const board = yield* MarketBoard
  const analytics = yield* Analytics
  const research = researchAnswerer(analytics)
  const until = (data: SymbolData | undefined, now: number, other: number) => Math.min(quoteValidUntil(data, now), other)
  return new Map<string, Answerer>([
    ["market.quote", {
      name: "quote",
      accepts: (i, s) => listed(i, s) && i.query?.allow_stale === true,
      open: false,
      make: (i, d, now) => answerOf(quotes.get(symbolOf(i)!, { allowStale: true }), bytes.quote, until(d, now, Infinity))
    }],
    ["market.stock", {
      name: "stock",
      accepts: listed,
      open: false,
      make: (i, d, now) => answerOf(companies.stock(symbolOf(i)!), bytes.stock, until(d, now, nextKarachiDay(now)))
    }],
    ["market.company", {
      name: "company",
      accepts: listed,
      open: false,
      make: (i, d, now) => answerOf(companies.company(symbolOf(i)!), bytes.company, until(d, now, nextKarachiDay(now)))
    }],
    ["market.prices", {
      name: "prices",
      accepts: (i, s) => listed(i, s) && onlyQuery(i, ["range"]),
      open: false,
      // Its next_cursor carries the cursor day (see Cursors): made again when that changes.
      make: (i, _d, now) => answerOf(prices.history(symbolOf(i)!, i.query), bytes.prices, nextCursorDay(now))
    }],
    ["market.companies", {
      name: "companies",
      accepts: always,
      open: true,
      make: (i, _d, now) => answerOf(companies.list(i.query), bytes.companies, nextCursorDay(now))
    }],
    ["board.marketBoard", { name: "marketBoard", accepts: always, open: false, make: () => answerOf(board.board, bytes.marketBoard, Infinity) }],
    ["board.sectorBoard", { name: "sectorBoard", accepts: always, open: false, make: () => answerOf(board.sectorBoard, bytes.sectorBoard, Infinity) }],
    ["analytics.research", research],
    ["analytics.researchLegacy", research],
    ["analytics.researchAlias", research],
    ["analytics.screen", {
      name: "screen",
      accepts: always,
      open: true,
      // Trailing yields follow the Karachi day; a next_cursor carries the cursor day.
      make: (i, _d, now) => answerOf(analytics.screen(i.query), bytes.screen, Math.min(nextKarachiDay(now), nextCursorDay(now)))
    }]
  ])
})

/**
 * Encodes the hottest answers of each new snapshot, a symbol at a time, so the
 * first request for a symbol finds its bytes ready (a request that comes first
 * encodes its own).
 */
const warm = (
  model: typeof MarketReadModel.Service,
  analytics: typeof Analytics.Service,
  lookup: (endpoint: string, input: AnswerInput) => Effect.Effect<EncodedAnswer | undefined>,
  settleHeap: () => Effect.Effect<void>
) => {
  let warmed: ReadModelState | undefined
  return Effect.gen(function*() {
    const state = model.state()
    if (state === undefined || state === warmed) return
    warmed = state
    // The day's figures first, a slice at a time: the research answers below would otherwise compute them in one go.
    yield* analytics.prepare(state.snapshot)
    yield* lookup("board.marketBoard", {})
    yield* lookup("board.sectorBoard", {})
    for (const symbol of state.snapshot.symbols.keys()) {
      if (model.state() !== state) return
      yield* lookup("market.quote", { params: { symbol }, query: { allow_stale: true } })
      yield* lookup("market.stock", { params: { sym: symbol } })
      yield* lookup("market.prices", { params: { symbol }, query: { range: "1Y" } })
      yield* lookup("analytics.research", { params: { symbol } })
      yield* Effect.yieldNow
    }
    // The snapshot is built and its hottest answers encoded: give back what building it left behind.
    yield* settleHeap()
  })
}
