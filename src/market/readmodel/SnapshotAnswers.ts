/**
 * The market's cached answers (http/AnswerCache.ts): their policies, used by
 * the market features' …Http.ts handlers, and the analytics figures made
 * ahead for each new snapshot.
 *
 * An answer lives with the read model's state it was made from (a new
 * snapshot makes it no longer current) and stays until a calendar boundary
 * can change it (AnswerValidity.ts). Failures that are a function of the snapshot and
 * the clock — 404 no such data, 409 unverified, 409 stale — are answers too.
 * A symbol's answers are cached for the listed tickers as spelled in the
 * snapshot (bounded by the universe), and for other well-formed tickers (an
 * unknown symbol's 404) in the cache's share for free queries.
 */
import { Duration, Effect, Layer, Schedule, Schema } from "effect"
import { LRUCache } from "lru-cache"
import { DataNotFound, DataStale, DataUnverified } from "../../../domain/Errors.ts"
import { Ticker } from "../../../domain/market/shared/Ticker.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import type { AnswerPolicy, CacheShare, Decoded, PastSnapshot } from "../../http/AnswerCache.ts"
import { Analytics } from "../analytics/Analytics.ts"
import { asOfHeaders, asOfInstant, clockOf, dataThroughHeaders } from "./AsOf.ts"
import { PointInTime } from "./PointInTime.ts"
import { MarketReadModel, type ReadModelState } from "./ReadModel.ts"

const isTicker = Schema.is(Ticker)

/** as_of texts whose instant is remembered, and instants whose answers are cached per snapshot (the ones in use at once are few). */
const INSTANT_TEXTS = 256

/** The failures that depend on the snapshot and the clock alone. */
const isSnapshotFailure = (error: unknown) =>
  error instanceof DataNotFound || error instanceof DataUnverified || error instanceof DataStale

const symbolOf = (request: Decoded): string | undefined => request.params?.symbol ?? request.params?.sym

const symbolShare = (symbol: string | undefined, state: ReadModelState): CacheShare =>
  symbol === undefined
    ? undefined
    : state.snapshot.symbols.has(symbol)
    ? "bounded"
    : isTicker(symbol)
    ? "open"
    : undefined

/** Whether the request's query sets nothing but `allowed` (any other parameter: not cached). */
const onlyQuery = (request: Decoded, allowed: ReadonlyArray<string>) =>
  Object.keys(request.query ?? {}).every((k) => request.query[k] === undefined || allowed.includes(k))

export interface SymbolAnswers {
  /** The query parameters a cached request may set (default: any). */
  readonly query?: ReadonlyArray<string>
}

/**
 * Where a point-in-time request's (`as_of`) answer is cached: apart from the live answers, one place per snapshot
 * known at its instant and the state it reflects, for as long as PointInTime caches that snapshot; none until a
 * first request has had the snapshot made (the HttpApi pipeline answers that one, as it answers every request not
 * cached).
 */
const instantCaches = (pit: typeof PointInTime.Service) => {
  // The places of one cached snapshot, by instant and the state it reflects.
  const placesOf = new WeakMap<MarketSnapshot, LRUCache<string, PastSnapshot>>()
  // An as_of text's instant, read once (a hot instant is asked for again and again).
  const instants = new LRUCache<string, { readonly at: number | undefined }>({ max: INSTANT_TEXTS })
  return (request: Decoded): PastSnapshot | "live" | undefined => {
    const named = clockOf((name) => request.query?.[name])
    if (named === undefined) return "live"
    if (named === "both") return undefined
    let known = instants.get(named.raw)
    if (known === undefined) instants.set(named.raw, known = { at: asOfInstant(named.raw) })
    const view = known.at === undefined ? undefined : pit.cachedAt(known.at, named.clock)
    if (view === undefined) return undefined
    // One snapshot is one clock's: its answers (keyed by the request, which names the clock) are its own.
    let places = placesOf.get(view.snapshot)
    if (places === undefined) placesOf.set(view.snapshot, places = new LRUCache({ max: INSTANT_TEXTS }))
    const key = `${view.at} ${view.reflects}`
    let place = places.get(key)
    if (place === undefined) places.set(key, place = { headers: asOfHeaders(view) })
    return place
  }
}

/** An answer that says its quote is stale: the 409 DATA_STALE, or a quote marked `stale` (allow_stale). */
const saysStale = (outcome: unknown) =>
  outcome instanceof DataStale ||
  (typeof outcome === "object" && outcome !== null && (outcome as { readonly stale?: unknown }).stale === true)

/** The headers of a live answer (AsOfMiddleware.ts adds them to the answer the pipeline makes). */
const liveHeaders = (state: ReadModelState) => dataThroughHeaders(state.snapshot)

export const snapshotAnswers = (model: typeof MarketReadModel.Service, pit: typeof PointInTime.Service) => {
  // The policy's fields are named by http/AnswerCache.ts: `snapshot` is the live state, `pastSnapshot` an as_of's place.
  const liveState = () => model.state()
  const instantPlace = instantCaches(pit)
  return {
    /** A symbol's answer, true until `validUntil` of its data (or of the symbol, for research). */
    ofSymbol: (
      validUntil: (data: SymbolData | undefined, now: number, symbol: string) => number,
      options: SymbolAnswers = {}
    ): AnswerPolicy<ReadModelState> => ({
      snapshot: liveState,
      share: (request, state) =>
        options.query !== undefined && !onlyQuery(request, options.query)
          ? undefined
          : symbolShare(symbolOf(request), state),
      validUntil: (request, state, now) => {
        const symbol = symbolOf(request)!
        return validUntil(state.snapshot.symbols.get(symbol), now, symbol)
      },
      cachesFailure: isSnapshotFailure,
      saysStale,
      pastSnapshot: instantPlace,
      headers: liveHeaders
    }),
    /** An answer over the whole snapshot: one (`bounded`) or one per free query (`open`, capped). */
    ofSnapshot: (share: "bounded" | "open", validUntil: (now: number) => number): AnswerPolicy<ReadModelState> => ({
      snapshot: liveState,
      share: () => share,
      validUntil: (_request, _state, now) => validUntil(now),
      cachesFailure: isSnapshotFailure,
      saysStale,
      pastSnapshot: instantPlace,
      headers: liveHeaders
    })
  }
}

/**
 * For each new snapshot: the day's analytics figures, a slice at a time, so the first screener or research
 * request does not make them. (Answers are made by the first request for each: the HttpApi pipeline answers
 * it and the answer cache keeps its bytes.)
 */
export const AnalyticsPrecompute = Layer.effectDiscard(Effect.gen(function*() {
  const model = yield* MarketReadModel
  const analytics = yield* Analytics
  let prepared: ReadModelState | undefined
  const pass = Effect.gen(function*() {
    const state = model.state()
    if (state === undefined || state === prepared) return
    prepared = state
    yield* analytics.prepare(state.snapshot)
  })
  yield* pass.pipe(Effect.repeat(Schedule.spaced(Duration.millis(250))), Effect.forkScoped)
}))
