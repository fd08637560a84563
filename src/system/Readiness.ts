/**
 * What /ready reports, answered at once in every state: it never waits on
 * the store for more than `WAIT`.
 *
 * - The database: a probe (the store's market version, a one-row read) is
 *   kept in flight, started every 200 ms and by each /ready. The store is
 *   down when the last probe failed, or when one has waited a second or more
 *   (fifteen while the data pack is being imported, which holds the embedded
 *   store's one connection in long batches: a busy store is not a down one,
 *   so /ready does not flap while it imports). A probe is never interrupted:
 *   on the embedded store a cancelled statement drops the one connection.
 * - The data pack: `installed` only once the read model serves it, i.e. its
 *   snapshot's market version is at least the version a probe started after
 *   the import finished read. Until then an installed pack reads `importing`.
 */
import { Clock, Context, Deferred, Duration, Effect, Layer, Schedule } from "effect"
import { Database } from "../db/Database.ts"

/** Where the bundled data pack's import stands. */
export type ImportState = "not_started" | "importing" | "installed" | "failed"

/**
 * What /ready asks of the features (given by the composition root, src/Layers.ts, from the pack import,
 * the market store and the read model), so this module depends on no feature.
 */
export class ReadinessSources extends Context.Service<ReadinessSources, {
  /** The pack import's state. */
  readonly importState: Effect.Effect<ImportState>
  /** The store's market version: a one-row read, the probe of the store. */
  readonly storeVersion: Effect.Effect<number, unknown>
  /** The market version of the snapshot the read model serves, if any. */
  readonly servedVersion: () => number | undefined
}>()("psx/system/ReadinessSources") {}

export interface ReadinessReport {
  readonly database: "postgres" | "embedded"
  readonly data_pack: ImportState
  /** Why the store counts as down, when it does. */
  readonly down: string | undefined
}

const TICK = Duration.millis(200)
/** How long /ready waits for a probe it started before answering from what is known. */
const WAIT = Duration.millis(80)
const GRACE_MS = 1_000
const GRACE_IMPORTING_MS = 15_000

export class Readiness extends Context.Service<Readiness, {
  /** The current report: starts a probe if none is in flight and waits for it at most 80 ms. */
  readonly report: Effect.Effect<ReadinessReport>
}>()("psx/system/Readiness") {
  static readonly layer = Layer.effect(
    Readiness,
    Effect.gen(function*() {
      const db = yield* Database
      const sources = yield* ReadinessSources
      let inFlight: { readonly since: number; readonly done: Deferred.Deferred<void> } | undefined
      let failure: string | undefined
      /** The store's market version read by a probe started once the pack was installed. */
      let installedAt: number | undefined

      const probe = Effect.gen(function*() {
        if (inFlight !== undefined) return inFlight.done
        const packInstalled = (yield* sources.importState) === "installed"
        if (!packInstalled) installedAt = undefined
        const done = yield* Deferred.make<void>()
        inFlight = { since: yield* Clock.currentTimeMillis, done }
        yield* sources.storeVersion.pipe(
          Effect.matchCause({
            onFailure: () => {
              failure = `the ${db.mode} database did not answer`
            },
            onSuccess: (version) => {
              failure = undefined
              if (packInstalled && installedAt === undefined) installedAt = version
            }
          }),
          Effect.ensuring(Effect.suspend(() => {
            inFlight = undefined
            return Deferred.succeed(done, undefined)
          })),
          Effect.forkDetach
        )
        return done
      })

      yield* probe.pipe(Effect.repeat(Schedule.spaced(TICK)), Effect.forkScoped)

      const dataPack = Effect.map(sources.importState, (state): ImportState => {
        if (state !== "installed") return state
        const served = sources.servedVersion()
        return installedAt !== undefined && served !== undefined && served >= installedAt ? "installed" : "importing"
      })

      const report = Effect.gen(function*() {
        const done = yield* probe
        yield* Effect.timeoutOption(Deferred.await(done), WAIT)
        const now = yield* Clock.currentTimeMillis
        const data_pack = yield* dataPack
        const grace = data_pack === "importing" ? GRACE_IMPORTING_MS : GRACE_MS
        const waiting = inFlight === undefined ? 0 : now - inFlight.since
        const down = failure ??
          (waiting >= grace ? `the ${db.mode} database did not answer within ${grace / 1000} s` : undefined)
        return { database: db.mode, data_pack, down }
      })
      return { report }
    })
  )
}
