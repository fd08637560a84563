/**
 * The market's kept answers (http/AnswerCache.ts): their policies, used by
 * the market features' …Http.ts handlers, and the warming of
 * the hottest ones for each new snapshot.
 *
 * An answer lives with the read model's state it was made from (a new
 * snapshot starts with none) and stays until a calendar boundary can change
 * it (AnswerValidity.ts). Failures that are a function of the snapshot and
 * the clock — 404 no such data, 409 unverified, 409 stale — are answers too.
 * A symbol's answers are kept for the listed tickers as spelled in the
 * snapshot (bounded by the universe), and for other well-formed tickers (an
 * unknown symbol's 404) up to the cache's cap per snapshot, like free queries.
 */
import { Duration, Effect, Layer, Schedule, Schema } from "effect"
import { DataNotFound, DataStale, DataUnverified } from "../../../domain/Errors.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { Ticker } from "../../../domain/market/shared/Ticker.ts"
import { RecentMap } from "../../cache/RecentMap.ts"
import { type Answer, AnswerCache, type AnswerPolicy, type Decoded, type InstantHome, type Keeping } from "../../http/AnswerCache.ts"
import { makeHeapSettle } from "../../system/HeapSettle.ts"
import { Analytics } from "../analytics/Analytics.ts"
import { asOfHeaders, asOfInstant, clockOf, readAsOf } from "./AsOf.ts"
import { PointInTime } from "./PointInTime.ts"
import { MarketReadModel, type ReadModelState } from "./ReadModel.ts"

const isTicker = Schema.is(Ticker)

/** as_of texts whose instant is remembered, and instants whose home is kept per snapshot (the ones in use at once are few). */
const INSTANT_TEXTS = 256

/** The failures that depend on the snapshot and the clock alone. */
const isSnapshotFailure = (error: unknown) =>
  error instanceof DataNotFound || error instanceof DataUnverified || error instanceof DataStale

const symbolOf = (request: Decoded): string | undefined => request.params?.symbol ?? request.params?.sym

const symbolKeeping = (symbol: string | undefined, state: ReadModelState): Keeping =>
  symbol === undefined ? undefined : state.snapshot.symbols.has(symbol) ? "bounded" : isTicker(symbol) ? "open" : undefined

/** Whether the request's query sets nothing but `allowed` (any other parameter: not kept). */
const onlyQuery = (request: Decoded, allowed: ReadonlyArray<string>) =>
  Object.keys(request.query ?? {}).every((k) => request.query[k] === undefined || allowed.includes(k))

export interface SymbolAnswers {
  /** The query parameters a kept request may set (default: any). */
  readonly query?: ReadonlyArray<string>
  /** One name for aliases that serve the same answer. */
  readonly shareAs?: string
}

/** The policies of the market's kept answers, over the read model. */
/**
 * A point-in-time request's home (`as_of`): the answers of the snapshot known at its instant, made as of it
 * (AsOf.ts `readAsOf`), kept while PointInTime keeps that snapshot and the live version stays; none until a
 * first request has had the snapshot made (the HttpApi pipeline answers that one).
 */
const instantHomes = (pit: typeof PointInTime.Service) => {
  // The answers of one kept snapshot (its requests' keys hold their as_of), and its home for each instant.
  const homesOf = new WeakMap<MarketSnapshot, { readonly answers: Map<string, Answer>; readonly at: Map<number, InstantHome> }>()
  // An as_of text's instant, read once (a hot instant is asked for again and again).
  const instants = new RecentMap<string, number | null>(INSTANT_TEXTS)
  return (request: Decoded): InstantHome | "live" | undefined => {
    const named = clockOf((name) => request.query?.[name])
    if (named === undefined) return "live"
    if (named === "both") return undefined
    let at = instants.get(named.raw)
    if (at === undefined) instants.set(named.raw, at = asOfInstant(named.raw) ?? null)
    const view = at === null ? undefined : pit.keptAt(at, named.clock)
    if (view === undefined) return undefined
    // One snapshot is one clock's: its answers (keyed by the request, which names the clock) are its own.
    let homes = homesOf.get(view.snapshot)
    if (homes === undefined) homesOf.set(view.snapshot, homes = { answers: new Map(), at: new Map() })
    let home = homes.at.get(view.at)
    if (home === undefined || home.headers["x-as-of-known"] !== view.reflects) {
      if (homes.at.size >= INSTANT_TEXTS) homes.at.clear()
      homes.at.set(view.at, home = { answers: homes.answers, run: readAsOf(view), headers: asOfHeaders(view) })
    }
    return home
  }
}

export const snapshotAnswers = (model: typeof MarketReadModel.Service, pit: typeof PointInTime.Service) => {
  const home = () => model.state()
  const instantHome = instantHomes(pit)
  return {
    /** A symbol's answer, true until `validUntil` of its data (or of the symbol, for research). */
    ofSymbol: (
      validUntil: (data: SymbolData | undefined, now: number, symbol: string) => number,
      options: SymbolAnswers = {}
    ): AnswerPolicy<ReadModelState> => ({
      home,
      keeps: (request, state) =>
        options.query !== undefined && !onlyQuery(request, options.query) ? undefined : symbolKeeping(symbolOf(request), state),
      validUntil: (request, state, now) => {
        const symbol = symbolOf(request)!
        return validUntil(state.snapshot.symbols.get(symbol), now, symbol)
      },
      keepsFailure: isSnapshotFailure,
      instantHome,
      ...(options.shareAs !== undefined ? { shareAs: options.shareAs } : {})
    }),
    /** An answer over the whole snapshot: one (`bounded`) or one per free query (`open`, capped). */
    ofSnapshot: (keeping: "bounded" | "open", validUntil: (now: number) => number): AnswerPolicy<ReadModelState> => ({
      home,
      keeps: () => keeping,
      validUntil: (_request, _state, now) => validUntil(now),
      keepsFailure: isSnapshotFailure,
      instantHome
    })
  }
}

/**
 * For each new snapshot: the day's analytics figures a slice at a time, then the hottest answers a
 * symbol at a time (quote with and without allow_stale, full payload, 1Y prices, research, the boards), so the first request for a
 * symbol finds its bytes ready (a request that comes first makes its own); then the heap is settled.
 * Endpoints registered after a snapshot was warmed (the routes are built after the services) are warmed
 * on the next pass.
 */
export const AnswerWarming = Layer.effectDiscard(Effect.gen(function*() {
  const model = yield* MarketReadModel
  const analytics = yield* Analytics
  const cache = yield* AnswerCache
  const settleHeap = yield* makeHeapSettle
  let warmed: { state: ReadModelState; endpoints: number } | undefined
  const pass = Effect.gen(function*() {
    const state = model.state()
    const endpoints = cache.entries().length
    if (state === undefined || (state === warmed?.state && endpoints === warmed.endpoints)) return
    warmed = { state, endpoints }
    yield* analytics.prepare(state.snapshot)
    yield* cache.warm("board.marketBoard", {})
    yield* cache.warm("board.sectorBoard", {})
    for (const symbol of state.snapshot.symbols.keys()) {
      if (model.state() !== state) return
      yield* cache.warm("quotes.quote", { params: { symbol }, query: { allow_stale: true } })
      yield* cache.warm("quotes.quote", { params: { symbol }, query: {} })
      yield* cache.warm("companies.stock", { params: { sym: symbol } })
      yield* cache.warm("prices.prices", { params: { symbol }, query: { range: "1Y" } })
      yield* cache.warm("analytics.research", { params: { symbol } })
      yield* Effect.yieldNow
    }
    // The snapshot is built and its hottest answers encoded: give back what building it left behind.
    yield* settleHeap()
  })
  yield* pass.pipe(Effect.repeat(Schedule.spaced(Duration.millis(250))), Effect.forkScoped)
}))
