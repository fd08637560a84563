/**
 * The market read model: the one immutable `MarketSnapshot` every market
 * read answers from, with no SQL on the read path.
 *
 * It is built from the store when the service starts, and rebuilt whenever
 * the store's market version moves: every write to a market table bumps it
 * (a statement trigger), whoever writes — this instance's ingest, another
 * instance sharing the PostgreSQL, or a script. Each instance polls the
 * version (`PSX_READ_MODEL_POLL_MS`, default 1 s) and rebuilds once it has
 * stopped moving for one poll (so a long ingest is loaded once, at its end,
 * or once a minute while it runs). The new snapshot is swapped in whole;
 * readers holding the old one finish with it.
 *
 * Encoded answers (`answers`) belong to the snapshot they were made from and
 * go with it.
 */
import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { SourceUnavailable } from "../../../domain/Errors.ts"
import { buildSnapshot, type MarketSnapshot } from "../../../domain/market/Snapshot.ts"
import { AppConfig } from "../../config/AppConfig.ts"
import { MarketStore } from "./MarketStore.ts"

/** An encoded answer and the instant after which it must be made again (calendar boundaries). */
export interface EncodedAnswer {
  readonly status: 200 | 404 | 409
  readonly body: Uint8Array
  readonly validUntil: number
}

export interface ReadModelState {
  readonly snapshot: MarketSnapshot
  readonly answers: Map<string, EncodedAnswer>
}

/** How long a build may wait behind a store that keeps changing before it loads anyway. */
const MAX_DEFER_MS = 60_000

export class MarketReadModel extends Context.Service<MarketReadModel, {
  /** The current snapshot; SOURCE_UNAVAILABLE until the first build has succeeded. */
  readonly snapshot: Effect.Effect<MarketSnapshot, SourceUnavailable>
  /** The current state, synchronously (undefined before the first build). */
  readonly state: () => ReadModelState | undefined
  /** Rebuilds now if the store's version differs from the snapshot's; true when it did. */
  readonly refresh: Effect.Effect<boolean, SourceUnavailable>
}>()("psx/market/MarketReadModel") {
  static readonly layer = Layer.effect(
    MarketReadModel,
    Effect.gen(function*() {
      const store = yield* MarketStore
      const config = yield* AppConfig
      let current: ReadModelState | undefined

      const build = Effect.gen(function*() {
        const started = yield* Clock.currentTimeMillis
        const projected = yield* store.projectPrices
        const rows = yield* store.load
        const loaded = yield* Clock.currentTimeMillis
        const snapshot = buildSnapshot(rows, loaded)
        current = { snapshot, answers: new Map() }
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
        for (const reason of snapshot.rejected.slice(0, 20)) yield* Effect.logWarning({ msg: "read model row rejected", reason })
        return snapshot
      }).pipe(Effect.withSpan("MarketReadModel.build"))

      const refresh = Effect.gen(function*() {
        const version = yield* store.version
        if (current !== undefined && current.snapshot.version === version) return false
        yield* build
        return true
      })

      yield* build.pipe(
        Effect.catch((e) => Effect.logError({ msg: "market read model: first build failed; retrying in the background", error: e.message }))
      )

      // Poll: rebuild once the version has stopped moving for one interval (or has kept moving for MAX_DEFER_MS).
      let seen: { version: number; since: number } | undefined
      const poll = Effect.gen(function*() {
        const version = yield* store.version
        const now = yield* Clock.currentTimeMillis
        if (current !== undefined && current.snapshot.version === version) {
          seen = undefined
          return
        }
        if (seen === undefined) {
          seen = { version, since: now }
          if (current !== undefined) return
        }
        const settled = seen.version === version
        if (!settled && now - seen.since < MAX_DEFER_MS) {
          seen = { version, since: seen.since }
          return
        }
        seen = undefined
        yield* build
      }).pipe(
        Effect.catch((e) => Effect.logWarning({ msg: "market read model: poll failed; serving the last snapshot", error: e.message }))
      )
      yield* poll.pipe(
        Effect.repeat(Schedule.spaced(Duration.millis(config.readModelPollMs))),
        Effect.forkScoped
      )

      const snapshot = Effect.suspend(() =>
        current !== undefined
          ? Effect.succeed(current.snapshot)
          : Effect.fail(new SourceUnavailable({ message: "market data is not loaded yet; try again shortly" }))
      )
      return { snapshot, state: () => current, refresh }
    })
  )
}
