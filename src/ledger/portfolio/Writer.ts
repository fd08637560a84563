/**
 * Deciding and appending a portfolio command at a cost that does not grow
 * with the stream: the state a command is decided from (the stream's head
 * and its positions, kept beside the projection in the store and cached
 * here) is read in two single-row-per-symbol queries, never by replaying.
 *
 * A command taking effect on or after every recorded event applies last, so
 * it is decided from that state alone. A backdated command or a reversal
 * needs the history: it is decided from the whole stream, and the positions
 * are replayed. Either way the append carries the new head and positions in
 * the same statement as the events.
 *
 * Owns: the per-stream state cache (bounded; dropped on a conflict so the
 * retry reads the store). Does not own: market facts (the caller passes the
 * decider's context), credentials, idempotency lookups (Portfolio).
 */
import { Context, Effect, Layer } from "effect"
import type { SqlError } from "effect/sql"
import {
  type Command,
  type Context as DeciderContext,
  decide,
  evolve,
  type Rejection,
  type State
} from "../../../domain/ledger/Decider.ts"
import type { Position } from "../../../domain/ledger/Replay.ts"
import type { LedgerEvent, PortfolioEvent, StoredEvent } from "../../../domain/ledger/Events.ts"
import { type ConcurrencyConflict, type EventMetadata, EventStore, type Head } from "../events/EventStore.ts"
import { positionsOf, toEntries } from "./Projection.ts"

const MAX_CACHED = 10_000

/** A decided event as the replay sees it before it is stored (its version; the hash does not matter to positions). */
const draftOf = (event: PortfolioEvent, version: number): StoredEvent => ({
  position: 0,
  stream_id: "",
  version,
  event_id: `(new ${version})`,
  recorded_at: "",
  effective_date: event.trade_date,
  event,
  prev_hash: "",
  hash: ""
})

export type WriteResult =
  | { readonly _tag: "Rejected"; readonly rejection: Rejection }
  | { readonly _tag: "Appended"; readonly event: StoredEvent; readonly positions: ReadonlyArray<Position> }

export class LedgerWriter extends Context.Service<LedgerWriter, {
  /** Decides `command` against the stream's state and appends what it accepts (one statement). */
  readonly write: (
    streamId: string,
    command: Command,
    ctx: DeciderContext,
    metadata: EventMetadata,
    idempotency?: { readonly user_id: string; readonly key: string; readonly request_hash: string }
  ) => Effect.Effect<WriteResult, ConcurrencyConflict | SqlError.SqlError>
  /**
   * Appends events the caller decided in order, each with this decider, from the stream's whole history at `from`
   * (an import: all or none, in one statement); `positions` is the stream's every position after them.
   */
  readonly writeDecided: (
    streamId: string,
    from: Head,
    events: ReadonlyArray<{ readonly event: LedgerEvent; readonly event_id: string }>,
    positions: ReadonlyArray<Position>,
    metadata: EventMetadata
  ) => Effect.Effect<ReadonlyArray<StoredEvent>, ConcurrencyConflict | SqlError.SqlError>
}>()("psx/ledger/LedgerWriter") {
  static readonly layer = Layer.effect(
    LedgerWriter,
    Effect.gen(function*() {
      const store = yield* EventStore
      const states = new Map<string, { readonly head: Head; readonly positions: ReadonlyMap<string, Position> }>()
      const remember = (streamId: string, head: Head, positions: ReadonlyArray<Position>) => {
        states.delete(streamId)
        states.set(streamId, { head, positions: new Map(positions.map((p) => [p.symbol, p])) })
        if (states.size > MAX_CACHED) states.delete(states.keys().next().value!)
      }
      const stateOf = (streamId: string) =>
        Effect.gen(function*() {
          const known = states.get(streamId)
          if (known !== undefined) return known
          const [head, positions] = yield* Effect.all([store.head(streamId), store.positions(streamId)])
          return { head, positions: new Map(positions.map((p) => [p.symbol, p])) }
        })

      const write = Effect.fn("LedgerWriter.write")(function*(
        streamId: string,
        command: Command,
        ctx: DeciderContext,
        metadata: EventMetadata,
        idempotency?: { readonly user_id: string; readonly key: string; readonly request_hash: string }
      ) {
        const kept = yield* stateOf(streamId)
        const head: State = { version: kept.head.version, lastEffective: kept.head.last_effective ?? "", positions: kept.positions }
        // Read → decide → append: from the head and positions alone when that decides it, else from the history.
        const first = decide({ body: command, facts: ctx }, head)
        const needs = first._tag === "NeedsHistory"
        const history = needs ? yield* store.readStream(streamId) : []
        const state: State = needs ? { ...head, entries: toEntries(history) } : head
        const decision = needs ? decide({ body: command, facts: ctx }, state) : first
        if (decision._tag === "NeedsHistory") return yield* Effect.die(new Error("decide: the whole history did not decide it"))
        if (decision._tag === "Rejected") return decision
        const drafts = decision.events.map((event, i) => draftOf(event, kept.head.version + i + 1))
        const positions = needs
          ? positionsOf([...history, ...drafts])
          : [...toEntries(drafts).reduce(evolve, state).positions.values()].sort((a, b) => a.symbol.localeCompare(b.symbol))
        const touched = new Set(decision.events.flatMap((e) => ("symbol" in e ? [e.symbol] : [])))
        const { appended, head: next } = yield* store.append(streamId, kept.head, decision.events, metadata, {
          positions: needs ? positions : positions.filter((p) => touched.has(p.symbol)),
          replaceAll: needs,
          idempotency
        })
          .pipe(Effect.tapError(() => Effect.sync(() => states.delete(streamId))))
        remember(streamId, next, positions)
        return { _tag: "Appended" as const, event: appended[0]!, positions }
      })

      const writeDecided = Effect.fn("LedgerWriter.writeDecided")(function*(
        streamId: string,
        from: Head,
        events: ReadonlyArray<{ readonly event: LedgerEvent; readonly event_id: string }>,
        positions: ReadonlyArray<Position>,
        metadata: EventMetadata
      ) {
        const { appended, head } = yield* store.append(streamId, from, events.map((e) => e.event), metadata, {
          positions,
          replaceAll: true,
          eventIds: events.map((e) => e.event_id)
        }).pipe(Effect.tapError(() => Effect.sync(() => states.delete(streamId))))
        remember(streamId, head, positions)
        return appended
      })

      return { write, writeDecided }
    })
  )
}
