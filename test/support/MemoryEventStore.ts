/**
 * An event store in memory, for testing the ledger's write path (LedgerWriter, Portfolio) without a
 * database. It is a `Layer.mock` of EventStore: only the members a test allows are implemented, and any
 * other member dies with an "unimplemented" defect when called. A test that leaves `readStream` out
 * therefore also proves that the code under test decided without reading the history, and one that
 * leaves `append` out proves that nothing was written.
 *
 * Hashes here are synthetic (`memory-<version>`): the write path does not read them, and the chain itself
 * is tested against the real store (ledger.test.ts, ledger-audit.test.ts).
 */
import { Effect, Layer, Ref } from "effect"
import type { LedgerEvent, StoredEvent } from "../../domain/ledger/Events.ts"
import type { Position } from "../../domain/ledger/Replay.ts"
import {
  type AppendOptions,
  ConcurrencyConflict,
  EMPTY_HEAD,
  EventStore,
  type Head,
  type IdempotencyClaim
} from "../../src/ledger/events/EventStore.ts"

/** One stream's contents, as a test sets it up and reads it back. */
export interface MemoryStream {
  readonly events: ReadonlyArray<StoredEvent>
  readonly positions: ReadonlyArray<Position>
  readonly claims: ReadonlyMap<string, IdempotencyClaim>
  /** Every append the store was asked for, accepted or not. */
  readonly appends: ReadonlyArray<
    { readonly events: ReadonlyArray<LedgerEvent>; readonly options: AppendOptions | undefined }
  >
}

export const emptyStream: MemoryStream = { events: [], positions: [], claims: new Map(), appends: [] }

type Member = "head" | "positions" | "readStream" | "readEvent" | "idempotencyClaim" | "append"

export interface MemoryOptions {
  /** The members implemented; the others die when called. */
  readonly allow: ReadonlyArray<Member>
  /** How many appends lose a race (fail with a ConcurrencyConflict) before one is accepted. */
  readonly lostRaces?: number
  /** Called on each `readStream`. */
  readonly onRead?: () => void
}

const headOf = (events: ReadonlyArray<StoredEvent>): Head => {
  const last = events[events.length - 1]
  if (last === undefined) return EMPTY_HEAD
  const lastEffective = events.reduce((d, e) => (e.effective_date > d ? e.effective_date : d), "")
  return { version: last.version, hash: last.hash, last_effective: lastEffective }
}

const storedAt = (streamId: string, event: LedgerEvent, version: number): StoredEvent => ({
  position: version,
  stream_id: streamId,
  version,
  event_id: `event-${version}`,
  recorded_at: "2026-06-15T06:00:00.000Z",
  effective_date: event.type === "DonationRecorded" ? "2026-06-15" : event.trade_date,
  event,
  prev_hash: `memory-${version - 1}`,
  hash: `memory-${version}`
})

/** The positions after an append: the given ones replace the stream's (replaceAll) or those of their symbols. */
const positionsAfter = (before: ReadonlyArray<Position>, options: AppendOptions | undefined) => {
  const given = options?.positions ?? []
  if (options?.replaceAll === true) return given
  const bySymbol = new Map(before.map((p) => [p.symbol, p]))
  for (const p of given) bySymbol.set(p.symbol, p)
  return [...bySymbol.values()].sort((a, b) => a.symbol.localeCompare(b.symbol))
}

/** The store over `stream` (a Ref the test reads back), implementing only `options.allow`. */
export const memoryEventStore = (stream: Ref.Ref<MemoryStream>, options: MemoryOptions) => {
  let races = options.lostRaces ?? 0
  const members: Partial<typeof EventStore.Service> = {
    head: () => Effect.map(Ref.get(stream), (s) => headOf(s.events)),
    positions: () => Effect.map(Ref.get(stream), (s) => s.positions),
    readStream: () => Effect.map(Ref.get(stream), (s) => (options.onRead?.(), s.events)),
    readEvent: (_streamId, eventId) => Effect.map(Ref.get(stream), (s) => s.events.find((e) => e.event_id === eventId)),
    idempotencyClaim: (_userId, key) => Effect.map(Ref.get(stream), (s) => s.claims.get(key)),
    append: (streamId, head, events, _metadata, appendOptions) =>
      Effect.gen(function*() {
        yield* Ref.update(stream, (s) => ({ ...s, appends: [...s.appends, { events, options: appendOptions }] }))
        const current = yield* Ref.get(stream)
        if (races > 0 || head.version !== current.events.length) {
          races = Math.max(0, races - 1)
          return yield* new ConcurrencyConflict({ stream_id: streamId, expected: head.version })
        }
        const appended = events.map((e, i) => storedAt(streamId, e, head.version + i + 1))
        const claim = appendOptions?.idempotency
        const claims = new Map(current.claims)
        if (claim !== undefined) {
          claims.set(claim.key, {
            request_hash: claim.request_hash,
            event_id: appended[0]!.event_id,
            version: appended[0]!.version
          })
        }
        const all = [...current.events, ...appended]
        yield* Ref.set(stream, {
          ...current,
          events: all,
          positions: positionsAfter(current.positions, appendOptions),
          claims
        })
        return { appended, head: headOf(all) }
      })
  }
  const allowed = Object.fromEntries(Object.entries(members).filter(([name]) => options.allow.includes(name as Member)))
  return Layer.mock(EventStore, allowed)
}
