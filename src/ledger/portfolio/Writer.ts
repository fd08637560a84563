/**
 * The portfolio streams' repository: it folds a stream's events with the
 * decider's `evolve` into the state `decide` takes, keeps that state as a
 * snapshot (bounded, by the events it holds), decides a command against it
 * and appends what was accepted with the expected version. The append carries
 * the positions the command changed in the same statement as the events. A
 * snapshot is dropped on a conflict, so the retry folds the store's stream.
 *
 * Owns: the snapshots. Does not own: market facts (the caller passes the
 * decider's context), credentials, idempotency lookups (Portfolio).
 */
import { Context, Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import type { SqlError } from "effect/sql"
import { randomUUID } from "node:crypto"
import {
  type Command,
  type Context as DeciderContext,
  decide,
  draftEntry,
  evolve,
  initialState,
  type Rejection,
  type State
} from "../../../domain/ledger/Decider.ts"
import type { LedgerEvent, PortfolioEvent, StoredEvent } from "../../../domain/ledger/Events.ts"
import type { Position } from "../../../domain/ledger/Replay.ts"
import { beginCommit } from "../../http/WriteDeadline.ts"
import {
  type ConcurrencyConflict,
  EMPTY_HEAD,
  type EventMetadata,
  EventStore,
  type Head
} from "../events/EventStore.ts"
import { toEntries } from "./Projection.ts"

/** The stream snapshots cached: at most this many streams, of at most this many events in all (a longer stream stays alone). */
const MAX_STREAMS = 10_000
const MAX_EVENTS = 200_000

/** A stream's state as of its head. */
export interface Snapshot {
  readonly head: Head
  readonly state: State
}

export type WriteResult =
  | { readonly _tag: "Rejected"; readonly rejection: Rejection }
  | { readonly _tag: "Appended"; readonly event: StoredEvent; readonly positions: ReadonlyArray<Position> }

const bySymbol = (positions: Iterable<Position>) => [...positions].sort((a, b) => a.symbol.localeCompare(b.symbol))

/** The state folded from a stream's stored events. */
export const foldStream = (events: ReadonlyArray<StoredEvent>): Snapshot => {
  const last = events[events.length - 1]
  const state = toEntries(events).reduce(evolve, initialState)
  return {
    head: last === undefined
      ? EMPTY_HEAD
      : { version: last.version, hash: last.hash, last_effective: state.lastEffective },
    state
  }
}

/**
 * The positions an append writes: those `after` changed, or every one (replacing the stream's rows) when a symbol
 * no longer holds any event (a reversal of its only one).
 */
export const changedPositions = (before: State, after: State) => {
  const removed = [...before.positions.keys()].some((s) => !after.positions.has(s))
  if (removed) return { positions: bySymbol(after.positions.values()), replaceAll: true }
  return {
    positions: bySymbol([...after.positions.values()].filter((p) => before.positions.get(p.symbol) !== p)),
    replaceAll: false
  }
}

/** Decided events as entries after `from`, with the ids they will be stored under, and the state after them. */
export const stateAfter = (
  from: Snapshot,
  events: ReadonlyArray<{ readonly event: PortfolioEvent; readonly event_id: string }>
) => events.reduce((s, e, i) => evolve(s, draftEntry(e.event, from.head.version + i + 1, e.event_id)), from.state)

/**
 * Just before a commit: when the request's deadline has already answered it (a 503, src/http/WriteDeadline.ts), the
 * write is interrupted and nothing is recorded; otherwise the deadline leaves the request to this write's own answer.
 */
const mayCommit = Effect.flatMap(
  Effect.serviceOption(HttpServerRequest.HttpServerRequest),
  (request) => request._tag === "Some" && !beginCommit(request.value.source) ? Effect.interrupt : Effect.void
)

export class LedgerWriter extends Context.Service<LedgerWriter, {
  /** The stream's state and head: the snapshot, or the stream folded from the store. */
  readonly snapshot: (streamId: string) => Effect.Effect<Snapshot, SqlError.SqlError>
  /** Decides `command` against the stream's state and appends what it accepts (one statement). */
  readonly write: (
    streamId: string,
    command: Command,
    ctx: DeciderContext,
    metadata: EventMetadata,
    idempotency?: { readonly user_id: string; readonly key: string; readonly request_hash: string }
  ) => Effect.Effect<WriteResult, ConcurrencyConflict | SqlError.SqlError>
  /**
   * Appends events the caller decided in order against `from` (an import: all or none, in one statement), given
   * the state after them; every position of the stream is rewritten.
   */
  readonly writeDecided: (
    streamId: string,
    from: Snapshot,
    events: ReadonlyArray<{ readonly event: LedgerEvent; readonly event_id: string }>,
    after: State,
    metadata: EventMetadata
  ) => Effect.Effect<ReadonlyArray<StoredEvent>, ConcurrencyConflict | SqlError.SqlError>
}>()("psx/ledger/LedgerWriter") {
  static readonly layer = Layer.effect(
    LedgerWriter,
    Effect.gen(function*() {
      const store = yield* EventStore
      const snapshots = new Map<string, Snapshot>()
      let eventsCached = 0
      const forget = (streamId: string) => {
        const known = snapshots.get(streamId)
        if (known !== undefined) eventsCached -= known.head.version
        snapshots.delete(streamId)
      }
      const remember = (streamId: string, snapshot: Snapshot) => {
        forget(streamId)
        snapshots.set(streamId, snapshot)
        eventsCached += snapshot.head.version
        while (snapshots.size > MAX_STREAMS || (eventsCached > MAX_EVENTS && snapshots.size > 1)) {
          forget(snapshots.keys().next().value!)
        }
      }
      /** The snapshot caught up with the store: its head checked (one index lookup), newer events folded onto it. */
      const snapshot = (streamId: string) =>
        Effect.gen(function*() {
          const known = snapshots.get(streamId)
          const head = yield* store.head(streamId)
          if (known !== undefined && known.head.version === head.version && known.head.hash === head.hash) return known
          const events = yield* store.readStream(streamId)
          if (known === undefined || known.head.version > head.version) return foldStream(events)
          const newer = toEntries(events.filter((e) => e.version > known.head.version))
          return { head, state: newer.reduce(evolve, known.state) }
        })

      const write = Effect.fn("LedgerWriter.write")(function*(
        streamId: string,
        command: Command,
        ctx: DeciderContext,
        metadata: EventMetadata,
        idempotency?: { readonly user_id: string; readonly key: string; readonly request_hash: string }
      ) {
        const from = yield* snapshot(streamId)
        const decision = decide({ body: command, facts: ctx }, from.state)
        if (decision._tag === "Rejected") return decision
        const decided = decision.events.map((event) => ({ event, event_id: randomUUID() }))
        const after = stateAfter(from, decided)
        const { positions, replaceAll } = changedPositions(from.state, after)
        yield* mayCommit
        const { appended, head } = yield* store.append(streamId, from.head, decision.events, metadata, {
          positions,
          replaceAll,
          idempotency,
          eventIds: decided.map((d) => d.event_id)
        }).pipe(Effect.tapError(() => Effect.sync(() => forget(streamId))))
        remember(streamId, { head, state: after })
        return { _tag: "Appended" as const, event: appended[0]!, positions: bySymbol(after.positions.values()) }
      })

      const writeDecided = Effect.fn("LedgerWriter.writeDecided")(function*(
        streamId: string,
        from: Snapshot,
        events: ReadonlyArray<{ readonly event: LedgerEvent; readonly event_id: string }>,
        after: State,
        metadata: EventMetadata
      ) {
        yield* mayCommit
        const { appended, head } = yield* store.append(streamId, from.head, events.map((e) => e.event), metadata, {
          positions: bySymbol(after.positions.values()),
          replaceAll: true,
          eventIds: events.map((e) => e.event_id)
        }).pipe(Effect.tapError(() => Effect.sync(() => forget(streamId))))
        // Donations move no position and are not in `after`: a stream they were appended to is folded afresh next time.
        if (after.version === head.version) remember(streamId, { head, state: after })
        else forget(streamId)
        return appended
      })

      return { snapshot, write, writeDecided }
    })
  )
}
