/**
 * The append-only event store on PostgreSQL.
 *
 * Owns: appending with an expected stream version (a conflict is a typed
 * `ConcurrencyConflict`), the per-stream SHA-256 hash chain, running a
 * projection step inside the append's transaction, and reading streams and
 * the whole ledger. Does not own: deciding what to append (the decider).
 *
 * Catch-up reading: positions come from a sequence, so a slow transaction
 * can commit an event with a lower position after a faster one. Readers of
 * the whole ledger therefore page by (transaction id, position) and only
 * below the oldest transaction still in flight: no event can ever appear
 * behind a reader's checkpoint.
 */
import { Clock, Context, Data, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash, randomUUID } from "node:crypto"
import { chainInput, GENESIS } from "../../domain/ledger/Chain.ts"
import { effectiveDate, type LedgerEvent, type StoredEvent } from "../../domain/ledger/Events.ts"
import { iso } from "../market/Rows.ts"

export class ConcurrencyConflict extends Data.TaggedError("ConcurrencyConflict")<{
  readonly stream_id: string
  readonly expected: number
}> {}

export interface EventMetadata {
  readonly actor_key_id?: string | undefined
  readonly request_id?: string | undefined
  readonly causation_id?: string | undefined
  readonly idempotency_key?: string | undefined
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** A checkpoint of a catch-up reader of the whole ledger. */
export interface Checkpoint {
  readonly tx: string
  readonly position: number
}

const rowToStored = (r: Record<string, unknown>): StoredEvent & { readonly tx: string } => ({
  position: Number(r["position"]),
  stream_id: String(r["stream_id"]),
  version: Number(r["version"]),
  event_id: String(r["event_id"]),
  recorded_at: String(r["recorded_at"]),
  effective_date: String(r["effective_date"]),
  event: r["payload"] as LedgerEvent,
  prev_hash: String(r["prev_hash"]),
  hash: String(r["hash"]),
  tx: String(r["tx"])
})

/** A unique-key violation (SQLSTATE 23505), however the driver words it. */
export const isUniqueViolation = (e: SqlError.SqlError) => {
  const text = `${e.message} ${String((e.reason as { cause?: unknown })?.cause ?? "")} ${JSON.stringify(e.reason ?? {})}`
  return /23505|duplicate key|unique/i.test(text)
}

const COLUMNS = `position, stream_id, version, event_id, payload, ${iso("recorded_at")} AS recorded_at,
  effective_date::text AS effective_date, prev_hash, hash, tx::text AS tx`

export class EventStore extends Context.Service<EventStore, {
  /** Every event of a stream in version order. */
  readonly readStream: (streamId: string) => Effect.Effect<ReadonlyArray<StoredEvent>, SqlError.SqlError>
  /**
   * Appends `events` after `expectedVersion` and runs `project` with the
   * stream's full history (old and new) in the same transaction.
   */
  readonly append: <A, E, R>(
    streamId: string,
    expectedVersion: number,
    events: ReadonlyArray<LedgerEvent>,
    metadata: EventMetadata,
    project: (all: ReadonlyArray<StoredEvent>, appended: ReadonlyArray<StoredEvent>) => Effect.Effect<A, E, R>
  ) => Effect.Effect<{ readonly appended: ReadonlyArray<StoredEvent>; readonly projected: A }, ConcurrencyConflict | SqlError.SqlError | E, R>
  /** A page of the whole ledger for catch-up readers, after `from`. */
  readonly readAll: (from: Checkpoint | undefined, limit: number) => Effect.Effect<{
    readonly events: ReadonlyArray<StoredEvent & { readonly tx: string }>
    readonly next: Checkpoint | undefined
  }, SqlError.SqlError>
  /** Distinct stream ids, for whole-ledger tools. */
  readonly streams: Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
}>()("psx/ledger/EventStore") {
  static readonly layer = Layer.effect(
    EventStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      // Streams are append-only: a cached prefix stays true; only newer versions are read.
      const cache = new Map<string, ReadonlyArray<StoredEvent>>()

      const readStream = (streamId: string) =>
        Effect.gen(function*() {
          const known = cache.get(streamId) ?? []
          const after = known.length > 0 ? known[known.length - 1]!.version : 0
          const rows = yield* sql.unsafe<Record<string, unknown>>(
            `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version`,
            [streamId, after]
          )
          if (rows.length === 0) return known
          const all = [...known, ...rows.map(rowToStored)]
          if (cache.size > 10_000) cache.clear()
          cache.set(streamId, all)
          return all
        })

      const append = <A, E, R>(
        streamId: string,
        expectedVersion: number,
        events: ReadonlyArray<LedgerEvent>,
        metadata: EventMetadata,
        project: (all: ReadonlyArray<StoredEvent>, appended: ReadonlyArray<StoredEvent>) => Effect.Effect<A, E, R>
      ) =>
        sql.withTransaction(Effect.gen(function*() {
          const history = yield* readStream(streamId)
          if (history.length !== expectedVersion) {
            return yield* new ConcurrencyConflict({ stream_id: streamId, expected: expectedVersion })
          }
          const now = new Date(yield* Clock.currentTimeMillis).toISOString()
          let prev = history.length > 0 ? history[history.length - 1]!.hash : GENESIS
          const rows = events.map((event, i) => {
            const version = expectedVersion + i + 1
            const event_id = randomUUID()
            const effective_date = effectiveDate(event, now.slice(0, 10))
            const hash = sha256(chainInput(prev, { stream_id: streamId, version, event_id, effective_date, recorded_at: now, payload: event }))
            const row = { stream_id: streamId, version, event_id, type: event.type, payload: event, effective_date, prev_hash: prev, hash }
            prev = hash
            return row
          })
          const inserted = yield* sql.unsafe<Record<string, unknown>>(
            `INSERT INTO events (stream_id, version, event_id, type, payload, metadata, recorded_at, effective_date, prev_hash, hash)
             SELECT stream_id, version, event_id, type, payload, $2::jsonb, $3::timestamptz, effective_date, prev_hash, hash
             FROM jsonb_to_recordset($1::jsonb) AS t(stream_id text, version int, event_id text, type text, payload jsonb,
               effective_date date, prev_hash text, hash text)
             ORDER BY version
             RETURNING ${COLUMNS}`,
            [JSON.stringify(rows), JSON.stringify(metadata), now]
          ).pipe(
            Effect.catchTag("SqlError", (e): Effect.Effect<never, ConcurrencyConflict | SqlError.SqlError> =>
              isUniqueViolation(e)
                ? Effect.fail(new ConcurrencyConflict({ stream_id: streamId, expected: expectedVersion }))
                : Effect.fail(e))
          )
          const appended = inserted.map(rowToStored)
          const projected = yield* project([...history, ...appended], appended)
          return { appended, projected }
        }))
      // The cache only ever holds rows read as committed (before this
      // transaction's own insert), so a failed append leaves it valid.

      const readAll = (from: Checkpoint | undefined, limit: number) =>
        Effect.gen(function*() {
          const rows = yield* sql.unsafe<Record<string, unknown>>(
            `SELECT ${COLUMNS} FROM events
             WHERE tx < pg_snapshot_xmin(pg_current_snapshot())
               AND (tx, position) > ($1::xid8, $2::bigint)
             ORDER BY tx, position LIMIT ${limit}`,
            [from?.tx ?? "0", from?.position ?? 0]
          )
          const events = rows.map(rowToStored)
          const last = events[events.length - 1]
          return { events, next: last ? { tx: last.tx, position: last.position } : from }
        })

      const streams = Effect.map(
        sql<{ stream_id: string }>`select distinct stream_id from events order by stream_id`,
        (rows) => rows.map((r) => r.stream_id)
      )

      return { readStream, append, readAll, streams }
    })
  )
}
