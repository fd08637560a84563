/**
 * Point-in-time snapshots: the market as the service knew it at an instant T,
 * built from the store (PointInTimeStore.ts) by the same domain code as the
 * live snapshot (`snapshotSteps`), its `builtAt` set to T.
 *
 * Bounds: T after now is not yet known, and T before the earliest retrieval
 * the store holds knows nothing: both are 400 INVALID_REQUEST.
 *
 * Built snapshots are kept in a BoundedCache keyed by the state T reflects:
 * the store's market version and the newest instant at or before T at which
 * what was known changed, so every T between two crawls shares one snapshot,
 * and any write (which may add rows retrieved before T, as a pack import does)
 * makes a new key. A few entries only (a snapshot is the whole market); one
 * build at a time, in the background: a request waits for its instant's
 * build up to LOAD_WAIT, and a request about another instant meanwhile is
 * 429 RATE_LIMITED with Retry-After (no request queues behind several
 * builds). A build that saw the version move while it loaded (the embedded
 * store reads table by table) answers its requests without being kept.
 *
 * The state of an instant is asked of the store once per version of the live
 * read model: while the live snapshot's version stays, a repeated `as_of`
 * runs no SQL (a write is seen by as_of reads when the live model sees it,
 * within a poll).
 */
import { Clock, Context, Deferred, Duration, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { InvalidRequest, RateLimited, SourceUnavailable } from "../../../domain/Errors.ts"
import { type MarketSnapshot, snapshotSteps } from "../../../domain/market/snapshot/Snapshot.ts"
import { BoundedCache } from "../../cache/BoundedCache.ts"
import { Database } from "../../db/Database.ts"
import type { AsOfView } from "./AsOf.ts"
import { cooperatively } from "./Cooperative.ts"
import { type AsOfState, makePointInTimeStore } from "./PointInTimeStore.ts"
import { MarketReadModel } from "./ReadModel.ts"

/** Snapshots kept: a handful, within a byte budget (estimated from their rows). */
const KEPT_SNAPSHOTS = 2
const KEPT_BYTES = 384 * 1024 * 1024
/** Instants whose state is remembered (per live version): a repeated as_of asks the store nothing. */
const KEPT_INSTANTS = 10_000
/** How long a request is asked to wait before asking again while a snapshot is being made (seconds). */
export const BUSY_RETRY_SECONDS = 5
/** How long a request waits for the snapshot its instant needs before it is told to come back. */
const LOAD_WAIT = Duration.seconds(8)
/** Bytes a row costs in a built snapshot, beyond its price columns (an estimate for the cache's bound). */
const ROW_BYTES = 400

/** An estimate of a snapshot's heap: its price columns (about twice their stored bytes) and its other rows. */
const estimateBytes = (rows: { readonly series: ReadonlyArray<{ readonly rows: number }>; readonly [k: string]: unknown }) => {
  let bytes = 0
  for (const s of rows.series) bytes += s.rows * 2 * (4 + 5 * 8)
  for (const value of Object.values(rows)) if (Array.isArray(value) && value !== rows.series) bytes += value.length * ROW_BYTES
  return bytes
}

const keyOf = (s: AsOfState) => `${s.version}|${s.state}`

const outOfRange = (message: string) => new InvalidRequest({ message })

export class PointInTime extends Context.Service<PointInTime, {
  /** The market as known at `at` (ms): its snapshot and the instant it reflects. */
  readonly snapshotAt: (at: number) => Effect.Effect<AsOfView, InvalidRequest | RateLimited | SourceUnavailable>
  /**
   * The view of `at`, synchronously, when `snapshotAt` has made it for the live version and its snapshot is
   * still kept; else undefined (then only `snapshotAt` can say).
   */
  readonly keptAt: (at: number) => AsOfView | undefined
}>()("psx/market/PointInTime") {
  static readonly layer = Layer.effect(
    PointInTime,
    Effect.gen(function*() {
      const store = makePointInTimeStore(yield* SqlClient.SqlClient, (yield* Database).mode)
      const model = yield* MarketReadModel
      const cache = new BoundedCache<string, MarketSnapshot>({ maxEntries: KEPT_SNAPSHOTS, maxBytes: KEPT_BYTES })
      const states = new BoundedCache<number, { readonly live: number; readonly state: AsOfState }>({
        maxEntries: KEPT_INSTANTS,
        maxBytes: KEPT_INSTANTS * 200
      })
      const stateAt = (at: number) =>
        Effect.suspend(() => {
          const live = model.state()?.snapshot.version
          const known = states.get(at)
          if (live !== undefined && known !== undefined && known.live === live) return Effect.succeed(known.state)
          return Effect.tap(store.stateAt(at), (state) => Effect.sync(() => live !== undefined && states.set(at, { live, state }, 200)))
        })
      // The state whose snapshot is being made, in the background, one at a time (its fiber lives in the layer's scope).
      let loading: { readonly key: string; readonly done: Deferred.Deferred<MarketSnapshot, SourceUnavailable> } | undefined
      const scope = yield* Effect.scope
      const comeBack = (what: string) =>
        new RateLimited({ message: `${what}; retry after ${BUSY_RETRY_SECONDS} s` })

      const bounded = Effect.fn("PointInTime.bounds")(function*(at: number) {
        const now = yield* Clock.currentTimeMillis
        const iso = new Date(at).toISOString()
        if (at > now) return yield* outOfRange(`as_of ${iso} is in the future (now is ${new Date(now).toISOString()})`)
        const state = yield* stateAt(at)
        if (state.earliest === undefined) return yield* outOfRange("as_of: the store holds no market data yet")
        if (state.state === undefined) {
          return yield* outOfRange(`as_of ${iso} is before the earliest retrieval the service holds (${state.earliest})`)
        }
        return state
      })

      const build = (at: number) =>
        Effect.gen(function*() {
          const { state, rows } = yield* store.load(at)
          const snapshot = yield* cooperatively(snapshotSteps(rows, at))
          const after = yield* store.stateAt(at)
          if (keyOf(after) === keyOf(state)) cache.set(keyOf(state), snapshot, estimateBytes(rows))
          yield* Effect.logInfo({ msg: "point-in-time snapshot built", asOf: new Date(at).toISOString(), reflects: state.state, version: state.version })
          return snapshot
        }).pipe(Effect.withSpan("PointInTime.build"))

      const snapshotAt = Effect.fn("PointInTime.snapshotAt")(function*(at: number) {
        const state = yield* bounded(at)
        const reflects = state.state!
        const key = keyOf(state)
        const kept = cache.get(key)
        if (kept !== undefined) return { snapshot: kept, at, reflects } satisfies AsOfView
        if (loading !== undefined && loading.key !== key) {
          return yield* comeBack("the market as of another instant is being loaded (one at a time)")
        }
        let current = loading
        if (current === undefined) {
          const started = { key, done: Deferred.makeUnsafe<MarketSnapshot, SourceUnavailable>() }
          loading = current = started
          yield* build(at).pipe(
            Effect.exit,
            Effect.flatMap((exit) => Deferred.done(started.done, exit)),
            Effect.ensuring(Effect.sync(() => {
              loading = undefined
            })),
            Effect.forkIn(scope)
          )
        }
        // A request waits a while for the load it started or found; then it is told to come back (the load goes on).
        const loaded = yield* Deferred.await(current.done).pipe(Effect.timeoutOption(LOAD_WAIT))
        if (Option.isNone(loaded)) return yield* comeBack(`the market as of ${new Date(at).toISOString()} is being loaded`)
        const snapshot = loaded.value
        return { snapshot, at, reflects } satisfies AsOfView
      })
      const keptAt = (at: number): AsOfView | undefined => {
        const live = model.state()?.snapshot.version
        const known = states.get(at)
        if (live === undefined || known === undefined || known.live !== live || known.state.state === undefined) return undefined
        const snapshot = cache.get(keyOf(known.state))
        return snapshot === undefined ? undefined : { snapshot, at, reflects: known.state.state }
      }
      return { snapshotAt, keptAt }
    })
  )
}
