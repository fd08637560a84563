/**
 * Point-in-time snapshots: the market at an instant T by either clock
 * (AsOf.ts), built from the store (PointInTimeStore.ts) by the same domain
 * code as the live snapshot (`snapshotSteps`), its `builtAt` set to T.
 *
 * Bounds: T after now is 400 INVALID_REQUEST; so is a recorded-clock T
 * before the earliest retrieval the store holds.
 *
 * A snapshot is keyed by the state T reflects: on the recorded clock the
 * store's version and the newest change known by T (every T between two
 * crawls shares one); on the market clock the version and T itself. One
 * build runs at a time, in the background; who may ask for one and which
 * runs next is BuildQueue.ts's (charged per client, the most wanted first).
 * A request waits for its build up to LoadWait, then is 503
 * SOURCE_UNAVAILABLE with Retry-After (the build goes on). The cached
 * snapshots are the most wanted ones within a byte budget, each dropped
 * once no one has asked for it for 10 to 20 s. A build that saw
 * the version move while it loaded answers its requests without being cached.
 *
 * The recorded state of an instant is asked of the store once per version of
 * the live read model.
 */
import { Clock, Context, Deferred, Duration, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { LRUCache } from "lru-cache"
import { InvalidRequest, RateLimited, SourceUnavailable } from "../../../domain/Errors.ts"
import { type MarketSnapshot, snapshotSteps } from "../../../domain/market/snapshot/Snapshot.ts"
import type { StoreRows } from "../../../domain/market/snapshot/StoreRows.ts"
import { Database } from "../../db/Database.ts"
import type { AsOfClock, AsOfView } from "./AsOf.ts"
import { BuildQueue, SnapshotCache } from "./BuildQueue.ts"
import { cooperatively } from "./Cooperative.ts"
import { type AsOfState, makePointInTimeStore } from "./PointInTimeStore.ts"
import { MarketReadModel } from "./ReadModel.ts"

/** Snapshots cached: a few, within a byte budget (estimated from their rows; the pack's is about 90 MB). */
export const CACHED_SNAPSHOTS = 3
export const SNAPSHOT_CACHE_BYTES = 200 * 1024 * 1024
/** A cached snapshot no one asks for over one to two of these goes (an idle service holds none). */
export const SNAPSHOT_IDLE = Duration.seconds(10)
/** Instants whose state is remembered (per live version): a repeated as_of asks the store nothing. */
const CACHED_INSTANTS = 10_000
/** How long a request is asked to wait before asking again while a snapshot is being made (seconds). */
export const BUSY_RETRY_SECONDS = 5
/** How long a request waits for the snapshot its instant needs before it is told to come back (a test may shorten it). */
export const LoadWait = Context.Reference<Duration.Duration>("psx/market/PointInTime/LoadWait", {
  defaultValue: () => Duration.seconds(8)
})
/** Bytes a row costs in a built snapshot, beyond its price columns (an estimate for the byte budget). */
const ROW_BYTES = 400

/** An estimate of a snapshot's heap: its price columns (about twice their stored bytes) and its other rows. */
export const estimateBytes = (rows: StoreRows) => {
  let bytes = 0
  for (const s of rows.series) bytes += s.rows * 2 * (4 + 5 * 8)
  for (const value of Object.values(rows)) {
    if (Array.isArray(value) && value !== rows.series) bytes += value.length * ROW_BYTES
  }
  return bytes
}

const keyOf = (clock: AsOfClock, s: AsOfState, at: number) =>
  clock === "recorded" ? `r|${s.version}|${s.state}` : `m|${s.version}|${at}`

const outOfRange = (message: string) => new InvalidRequest({ message })
const comeBack = (what: string) => new SourceUnavailable({ message: `${what}; retry after ${BUSY_RETRY_SECONDS} s` })

type Job = {
  readonly at: number
  readonly clock: AsOfClock
  readonly state: AsOfState
  readonly done: Deferred.Deferred<MarketSnapshot, SourceUnavailable>
}

export class PointInTime extends Context.Service<PointInTime, {
  /** The market at `at` (ms) by `clock`, asked for by `clients` (who is charged for a build; none: an internal caller). */
  readonly snapshotAt: (
    at: number,
    clock?: AsOfClock,
    clients?: ReadonlyArray<string>
  ) => Effect.Effect<AsOfView, InvalidRequest | RateLimited | SourceUnavailable>
  /** The view of `at`, synchronously, when its snapshot is cached for the live version; else undefined. */
  readonly cachedAt: (at: number, clock?: AsOfClock) => AsOfView | undefined
  /** The cached snapshots' estimated bytes and count (for tests and metrics). */
  readonly cached: () => { readonly bytes: number; readonly count: number }
}>()("psx/market/PointInTime") {
  static readonly layer = Layer.effect(
    PointInTime,
    Effect.gen(function*() {
      const store = makePointInTimeStore(yield* SqlClient.SqlClient, (yield* Database).mode)
      const model = yield* MarketReadModel
      const queue = new BuildQueue<Job>()
      const cache = new SnapshotCache<MarketSnapshot>(
        CACHED_SNAPSHOTS,
        SNAPSHOT_CACHE_BYTES,
        (key) => queue.demandOf(key)
      )
      const states = new LRUCache<number, { readonly live: number; readonly state: AsOfState }>({
        max: CACHED_INSTANTS
      })
      const stateAt = (at: number) =>
        Effect.suspend(() => {
          const live = model.state()?.snapshot.version
          const known = states.get(at)
          if (live !== undefined && known !== undefined && known.live === live) return Effect.succeed(known.state)
          return Effect.tap(store.stateAt(at), (state) =>
            Effect.sync(() => live !== undefined && states.set(at, { live, state })))
        })
      // Builds waiting or running, by key (a request for one of them waits for it).
      const builds = new Map<string, Deferred.Deferred<MarketSnapshot, SourceUnavailable>>()
      let running = false
      const scope = yield* Effect.scope
      yield* Effect.sync(() => cache.dropIdle()).pipe(
        Effect.repeat(Schedule.spaced(SNAPSHOT_IDLE)),
        Effect.forkIn(scope)
      )

      const bounded = Effect.fn("PointInTime.bounds")(function*(at: number, clock: AsOfClock) {
        const now = yield* Clock.currentTimeMillis
        const iso = new Date(at).toISOString()
        if (at > now) return yield* outOfRange(`as_of ${iso} is in the future (now is ${new Date(now).toISOString()})`)
        const state = yield* stateAt(at)
        if (state.earliest === undefined) return yield* outOfRange("as_of: the store holds no market data yet")
        if (clock === "recorded" && state.state === undefined) {
          return yield* outOfRange(
            `recorded_as_of ${iso} is before the earliest retrieval the service holds (${state.earliest})`
          )
        }
        return state
      })

      const build = (job: Job) =>
        Effect.gen(function*() {
          const started = yield* Clock.currentTimeMillis
          const { state, rows } = yield* store.load(job.at, job.clock)
          const snapshot = yield* cooperatively(snapshotSteps(rows, job.at))
          const after = yield* store.stateAt(job.at)
          const key = keyOf(job.clock, state, job.at)
          if (key === keyOf(job.clock, after, job.at)) cache.set(key, snapshot, estimateBytes(rows))
          yield* Effect.logInfo({
            msg: "point-in-time snapshot built",
            clock: job.clock,
            asOf: new Date(job.at).toISOString(),
            version: state.version,
            ms: (yield* Clock.currentTimeMillis) - started
          })
          return snapshot
        }).pipe(Effect.withSpan("PointInTime.build"))

      // Runs the queued builds one at a time, the most wanted first, in the layer's scope.
      const drain: Effect.Effect<void> = Effect.suspend(() => {
        const next = queue.next()
        if (next === undefined) {
          running = false
          return Effect.void
        }
        return build(next.job).pipe(
          Effect.exit,
          Effect.flatMap((exit) => Deferred.done(next.job.done, exit)),
          Effect.ensuring(Effect.sync(() => {
            builds.delete(next.key)
            queue.done(next.key)
          })),
          Effect.andThen(drain)
        )
      })
      const startDrain = Effect.suspend(() => {
        if (running) return Effect.void
        running = true
        return Effect.asVoid(Effect.forkIn(drain, scope))
      })

      const viewOf = (snapshot: MarketSnapshot, at: number, clock: AsOfClock, state: AsOfState): AsOfView => ({
        snapshot,
        clock,
        at,
        reflects: clock === "recorded" ? state.state! : new Date(at).toISOString()
      })

      const snapshotAt = Effect.fn("PointInTime.snapshotAt")(
        function*(at: number, clock: AsOfClock = "market", clients: ReadonlyArray<string> = []) {
          const state = yield* bounded(at, clock)
          const key = keyOf(clock, state, at)
          const now = yield* Clock.currentTimeMillis
          queue.asked(key, clients)
          const cached = cache.get(key)
          if (cached !== undefined) return viewOf(cached, at, clock, state)
          let done = builds.get(key)
          if (done === undefined) {
            const job: Job = { at, clock, state, done: Deferred.makeUnsafe<MarketSnapshot, SourceUnavailable>() }
            const refused = queue.enqueue(key, job, clients, now)
            if (refused !== undefined) {
              return yield* refused.reason === "queue_full"
                ? comeBack("too many instants are waiting to be loaded")
                : new RateLimited({
                  message: refused.reason === "in_flight"
                    ? `this client is already having the market loaded as of another instant (one at a time); retry after ${refused.retryAfterSeconds} s`
                    : `this client has had the market loaded as of too many instants; retry after ${refused.retryAfterSeconds} s`
                })
            }
            builds.set(key, done = job.done)
            yield* startDrain
          } else queue.join(key, clients)
          // A request waits a while for its build; then it is told to come back (the build goes on).
          const loaded = yield* Deferred.await(done).pipe(Effect.timeoutOption(yield* LoadWait))
          if (Option.isNone(loaded)) {
            return yield* comeBack(`the market as of ${new Date(at).toISOString()} is being loaded`)
          }
          return viewOf(loaded.value, at, clock, state)
        }
      )
      const cachedAt = (at: number, clock: AsOfClock = "market"): AsOfView | undefined => {
        const live = model.state()?.snapshot.version
        const known = states.get(at)
        if (live === undefined || known === undefined || known.live !== live) return undefined
        if (clock === "recorded" && known.state.state === undefined) return undefined
        const key = keyOf(clock, known.state, at)
        const snapshot = cache.get(key)
        if (snapshot !== undefined) queue.asked(key, [])
        return snapshot === undefined ? undefined : viewOf(snapshot, at, clock, known.state)
      }
      return { snapshotAt, cachedAt, cached: () => ({ bytes: cache.bytes(), count: cache.size() }) }
    })
  )
}
