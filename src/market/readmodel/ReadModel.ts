/**
 * The market read model: the one immutable `MarketSnapshot` every market
 * read answers from, with no SQL on the read path.
 *
 * It is built from the store when the service starts, and rebuilt whenever
 * the store's market version moves: every statement that changes a market row bumps it
 * (a statement trigger), whoever writes — this instance's ingest, another
 * instance sharing the PostgreSQL, or a script. Each instance polls the
 * version (`PSX_READ_MODEL_POLL_MS`, default 1 s) and rebuilds once it has
 * stopped moving for one poll (so a long ingest is loaded once, at its end,
 * or once a minute while it runs). The new snapshot is swapped in whole;
 * readers holding the old one finish with it.
 *
 * A small write costs its symbols only: the store logs which symbols each
 * write touched (`market_changes`), and when few moved the new snapshot is
 * the old one with those symbols' rows reloaded and rebuilt
 * (domain/market/snapshot/SnapshotUpdate.ts); a large or market-wide write (an
 * import, index membership) rebuilds whole.
 *
 * Cached answers (SnapshotAnswers.ts) belong to the state they were made from:
 * a new state makes them no longer current.
 */
import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { SourceUnavailable } from "../../../domain/Errors.ts"
import { type MarketSnapshot, snapshotSteps } from "../../../domain/market/snapshot/Snapshot.ts"
import { planUpdate, updateSnapshot } from "../../../domain/market/snapshot/SnapshotUpdate.ts"
import { AppConfig } from "../../config/AppConfig.ts"
import { type ImportState, PackImport } from "../../ingest/PackImport.ts"
import { AsOfRead } from "./AsOf.ts"
import { cooperatively } from "./Cooperative.ts"
import { MarketStore } from "./MarketStore.ts"

export interface ReadModelState {
  readonly snapshot: MarketSnapshot
}

/** How long a build may wait behind a store that keeps changing before it loads anyway. */
const MAX_DEFER_MS = 60_000

/** How often the change log is pruned (by any instance; rows older than a day go). */
const PRUNE_EVERY_MS = 3_600_000

/** Whether the poll should build now (the store has gone quiet): once the version has stopped moving for one poll, or kept moving for MAX_DEFER_MS. */
const quietPoll = () => {
  let seen: { version: number; since: number } | undefined
  return (version: number, now: number, current: number | undefined): boolean => {
    if (current === version) {
      seen = undefined
      return false
    }
    if (seen === undefined) {
      seen = { version, since: now }
      if (current !== undefined) return false
    }
    if (seen.version !== version && now - seen.since < MAX_DEFER_MS) {
      seen = { version, since: seen.since }
      return false
    }
    seen = undefined
    return true
  }
}

/**
 * The instance's read model: the current state, when it last pruned the change log, and why its
 * snapshot must not answer yet (the store holds no data pack while one is being imported).
 */
interface ModelState {
  current: ReadModelState | undefined
  prunedAt: number
  unloaded: string | undefined
}

/**
 * Why a snapshot cannot answer market reads: it holds no data pack while the pack is being imported
 * (a 404 then would say "not recorded" of data merely not loaded yet), or the import failed. With
 * auto-import off, or once any pack is in the snapshot, it answers as it is.
 */
export const unloadedReason = (snapshot: MarketSnapshot, importState: ImportState, autoImport: boolean) => {
  if (snapshot.dataPack !== undefined) return undefined
  if (importState === "failed") return "the data pack could not be imported; the operator must see the service's log"
  if (importState === "not_started" && !autoImport) return undefined
  return "the data pack is importing; try again shortly"
}
type Store = typeof MarketStore.Service

/** A whole build: every market row loaded, the snapshot built a slice at a time. */
const buildWhole = (store: Store, model: ModelState) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    const projected = yield* store.projectPrices
    const rows = yield* store.load
    const loaded = yield* Clock.currentTimeMillis
    const snapshot = yield* cooperatively(snapshotSteps(rows, loaded))
    model.current = { snapshot }
    const done = yield* Clock.currentTimeMillis
    yield* Effect.logInfo({
      msg: "market read model built",
      version: snapshot.version,
      symbols: snapshot.symbols.size,
      seriesProjected: projected,
      loadMs: loaded - started,
      buildMs: done - loaded,
      rejected: snapshot.rejected.length
    })
    for (const reason of snapshot.rejected.slice(0, 20)) {
      yield* Effect.logWarning({ msg: "read model row rejected", reason })
    }
    return snapshot
  }).pipe(Effect.withSpan("MarketReadModel.build"))

/** Drops change-log rows older than a day, at most once per PRUNE_EVERY_MS. */
const pruneNow = (store: Store, model: ModelState, now: number) =>
  now - model.prunedAt <= PRUNE_EVERY_MS ? Effect.void : Effect.suspend(() => {
    model.prunedAt = now
    return store.prune.pipe(
      Effect.catch((e) => Effect.logWarning({ msg: "market change log not pruned", error: e.message }))
    )
  })

/** The few symbols a write touched, folded into the current snapshot; a whole build when the log says so. */
const updateFew = (store: Store, model: ModelState) =>
  Effect.gen(function*() {
    const prev = model.current
    if (prev === undefined) return yield* buildWhole(store, model)
    const started = yield* Clock.currentTimeMillis
    const changes = yield* store.changesSince(prev.snapshot.version)
    const plan = planUpdate(changes)
    if (plan === "whole") return yield* buildWhole(store, model)
    const projected = yield* store.projectPrices
    const rows = yield* store.loadSymbols(changes.version, plan)
    const loaded = yield* Clock.currentTimeMillis
    const snapshot = updateSnapshot(prev.snapshot, rows, plan, loaded)
    model.current = { snapshot }
    const done = yield* Clock.currentTimeMillis
    yield* Effect.logDebug({
      msg: "market read model updated",
      version: snapshot.version,
      symbols: plan.length,
      seriesProjected: projected,
      loadMs: loaded - started,
      buildMs: done - loaded
    })
    yield* pruneNow(store, model, done)
    return snapshot
  }).pipe(Effect.withSpan("MarketReadModel.update"))

export class MarketReadModel extends Context.Service<MarketReadModel, {
  /** The current snapshot (a point-in-time request's own, when AsOfRead is set); SOURCE_UNAVAILABLE until the first build has succeeded, and while the pack is importing into an empty store. */
  readonly snapshot: Effect.Effect<MarketSnapshot, SourceUnavailable>
  /** The current state, synchronously (undefined before the first build, and while `snapshot` fails). */
  readonly state: () => ReadModelState | undefined
  /** Rebuilds now if the store's version differs from the snapshot's; true when it did. */
  readonly refresh: Effect.Effect<boolean, SourceUnavailable>
}>()("psx/market/MarketReadModel") {
  static readonly layer = Layer.effect(
    MarketReadModel,
    Effect.gen(function*() {
      const store = yield* MarketStore
      const config = yield* AppConfig
      const importer = yield* PackImport
      const model: ModelState = { current: undefined, prunedAt: 0, unloaded: undefined }
      const judgeLoaded = Effect.gen(function*() {
        const current = model.current
        model.unloaded = current === undefined
          ? undefined
          : unloadedReason(current.snapshot, yield* importer.state, config.autoImport)
      })

      const refresh = Effect.gen(function*() {
        const version = yield* store.version
        if (model.current !== undefined && model.current.snapshot.version === version) return false
        yield* updateFew(store, model)
        return true
      })

      yield* buildWhole(store, model).pipe(
        Effect.catch((e) =>
          Effect.logError({
            msg: "market read model: first build failed; retrying in the background",
            error: e.message
          })
        )
      )
      yield* judgeLoaded

      const due = quietPoll()
      const poll = Effect.gen(function*() {
        const version = yield* store.version
        if (due(version, yield* Clock.currentTimeMillis, model.current?.snapshot.version)) {
          yield* updateFew(store, model)
        }
        yield* judgeLoaded
      }).pipe(
        Effect.catch((e) =>
          Effect.logWarning({ msg: "market read model: poll failed; serving the last snapshot", error: e.message })
        )
      )
      yield* poll.pipe(
        Effect.repeat(Schedule.spaced(Duration.millis(config.readModelPollMs))),
        Effect.forkScoped
      )

      const live = Effect.suspend(() =>
        model.current === undefined
          ? Effect.fail(new SourceUnavailable({ message: "market data is not loaded yet; try again shortly" }))
          : model.unloaded !== undefined
          ? Effect.fail(new SourceUnavailable({ message: model.unloaded }))
          : Effect.succeed(model.current.snapshot)
      )
      // A point-in-time request (AsOf.ts) reads the snapshot of its instant instead.
      const snapshot = Effect.flatMap(
        Effect.service(AsOfRead),
        (asOf) => (asOf === undefined ? live : Effect.succeed(asOf.snapshot))
      )
      const refreshed = Effect.tap(refresh, () => judgeLoaded)
      return { snapshot, state: () => (model.unloaded === undefined ? model.current : undefined), refresh: refreshed }
    })
  )
}
