/**
 * The append-only event store on PostgreSQL.
 *
 * Owns: appending with an expected stream version (a conflict is a typed
 * `ConcurrencyConflict`), the per-stream SHA-256 hash chain, writing the
 * projection rows and idempotency claim the caller computed in the same
 * statement as the events (one round trip, atomic), and reading streams and
 * the whole ledger. Does not own: deciding what to append (the decider) or
 * how positions are computed (the projection).
 *
 * Catch-up reading: positions come from a sequence, so a slow transaction
 * can commit an event with a lower position after a faster one. Readers of
 * the whole ledger therefore page by (transaction id, position) and only
 * below the oldest transaction still in flight: no event can ever appear
 * behind a reader's checkpoint. The transaction id is compared as a bigint
 * (`txn`, migration 0005): the embedded store mis-orders `xid8`.
 */
import { Clock, Context, Data, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash, hash as cryptoHash, randomUUID } from "node:crypto"
import { chainInput, GENESIS } from "../../domain/ledger/Chain.ts"
import { effectiveDate, type LedgerEvent, type StoredEvent } from "../../domain/ledger/Events.ts"
import type { Position } from "../../domain/ledger/Decider.ts"
import { iso } from "../db/Rows.ts"

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

/** SHA-256 hex of a text (the one-shot `crypto.hash` where the runtime has it). */
export const sha256: (text: string) => string = typeof cryptoHash === "function"
  ? (text) => cryptoHash("sha256", text, "hex")
  : (text) => createHash("sha256").update(text).digest("hex")

/** A checkpoint of a catch-up reader of the whole ledger. */
export interface Checkpoint {
  readonly tx: string
  readonly position: number
}

/** A stored event from its row (`COLUMNS`). */
export const rowToStored = (r: Record<string, unknown>): StoredEvent & { readonly tx: string } => ({
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

/** The columns `rowToStored` reads. */
export const COLUMNS = `position, stream_id, version, event_id, payload, ${iso("recorded_at")} AS recorded_at,
  effective_date::text AS effective_date, prev_hash, hash, txn::text AS tx`

export interface AppendOptions {
  /** The stream's positions after the append (computed from all its events); written in the same statement. */
  readonly holdings?: ((all: ReadonlyArray<StoredEvent>) => ReadonlyArray<Position>) | undefined
  /** An Idempotency-Key to claim for the first appended event, in the same statement. */
  readonly idempotency?: { readonly user_id: string; readonly key: string; readonly request_hash: string } | undefined
}

export class EventStore extends Context.Service<EventStore, {
  /** Every event of a stream in version order. */
  readonly readStream: (streamId: string) => Effect.Effect<ReadonlyArray<StoredEvent>, SqlError.SqlError>
  /**
   * Appends `events` after `expectedVersion`. The events, the projection rows
   * and the idempotency claim are written by one statement, so they commit or
   * fail together; a lost race on the version or the key is a ConcurrencyConflict.
   */
  readonly append: (
    streamId: string,
    expectedVersion: number,
    events: ReadonlyArray<LedgerEvent>,
    metadata: EventMetadata,
    options?: AppendOptions
  ) => Effect.Effect<{ readonly appended: ReadonlyArray<StoredEvent>; readonly all: ReadonlyArray<StoredEvent> }, ConcurrencyConflict | SqlError.SqlError>
  /** A page of the whole ledger for catch-up readers, after `from`. */
  readonly readAll: (from: Checkpoint | undefined, limit: number) => Effect.Effect<{
    readonly events: ReadonlyArray<StoredEvent & { readonly tx: string }>
    readonly next: Checkpoint | undefined
  }, SqlError.SqlError>
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

      const append = (
        streamId: string,
        expectedVersion: number,
        events: ReadonlyArray<LedgerEvent>,
        metadata: EventMetadata,
        options?: AppendOptions
      ) =>
        Effect.gen(function*() {
          // The cached prefix is enough when it ends at the expected version:
          // if another writer got there first, the unique (stream, version)
          // key refuses the insert below.
          const cached = cache.get(streamId)
          const history = cached !== undefined && cached.length === expectedVersion ? cached : yield* readStream(streamId)
          if (history.length !== expectedVersion) {
            return yield* new ConcurrencyConflict({ stream_id: streamId, expected: expectedVersion })
          }
          const now = new Date(yield* Clock.currentTimeMillis).toISOString()
          let prev = history.length > 0 ? history[history.length - 1]!.hash : GENESIS
          const drafts: Array<StoredEvent> = events.map((event, i) => {
            const version = expectedVersion + i + 1
            const event_id = randomUUID()
            const effective_date = effectiveDate(event, now.slice(0, 10))
            const hash = sha256(chainInput(prev, { stream_id: streamId, version, event_id, effective_date, recorded_at: now, payload: event }))
            const draft = { position: 0, stream_id: streamId, version, event_id, recorded_at: now, effective_date, event, prev_hash: prev, hash }
            prev = hash
            return draft
          })
          const positions = options?.holdings ? options.holdings([...history, ...drafts]) : undefined
          const inserted = yield* sql.unsafe<Record<string, unknown>>(
            `WITH ins AS (
               INSERT INTO events (stream_id, version, event_id, type, payload, metadata, recorded_at, effective_date, prev_hash, hash)
               SELECT $2, version, event_id, type, payload, $3::jsonb, $4::timestamptz, effective_date, prev_hash, hash
               FROM jsonb_to_recordset($1::jsonb) AS t(version int, event_id text, type text, payload jsonb,
                 effective_date date, prev_hash text, hash text)
               ORDER BY version
               RETURNING ${COLUMNS}
             ), p AS (
               SELECT * FROM jsonb_to_recordset($5::jsonb) AS t(symbol text, quantity numeric, cost numeric, realized_pnl numeric,
                 dividends_gross numeric, dividends_net numeric, tax_withheld numeric, fractional_entitlements numeric)
             ), up AS (
               INSERT INTO holdings (stream_id, symbol, quantity, cost, realized_pnl, dividends_gross, dividends_net, tax_withheld,
                                     fractional_entitlements, as_of_version)
               SELECT $2, symbol, quantity, cost, realized_pnl, dividends_gross, dividends_net, tax_withheld, fractional_entitlements, $6
               FROM p
               ON CONFLICT (stream_id, symbol) DO UPDATE SET quantity = excluded.quantity, cost = excluded.cost,
                 realized_pnl = excluded.realized_pnl, dividends_gross = excluded.dividends_gross,
                 dividends_net = excluded.dividends_net, tax_withheld = excluded.tax_withheld,
                 fractional_entitlements = excluded.fractional_entitlements, as_of_version = excluded.as_of_version
             ), gone AS (
               DELETE FROM holdings WHERE $5::jsonb IS NOT NULL AND stream_id = $2 AND symbol NOT IN (SELECT symbol FROM p)
             ), idem AS (
               INSERT INTO idempotency (user_id, key, request_hash, event_id, created_at)
               SELECT $7, $8, $9, $10, $4::timestamptz WHERE $7::text IS NOT NULL
             )
             SELECT * FROM ins ORDER BY version`,
            [
              JSON.stringify(drafts.map((d) => ({
                version: d.version, event_id: d.event_id, type: d.event.type, payload: d.event,
                effective_date: d.effective_date, prev_hash: d.prev_hash, hash: d.hash
              }))),
              streamId,
              JSON.stringify(metadata),
              now,
              positions ? JSON.stringify(positions) : null,
              drafts[drafts.length - 1]?.version ?? expectedVersion,
              options?.idempotency?.user_id ?? null,
              options?.idempotency?.key ?? null,
              options?.idempotency?.request_hash ?? null,
              drafts[0]?.event_id ?? null
            ]
          ).pipe(
            Effect.catchTag("SqlError", (e): Effect.Effect<never, ConcurrencyConflict | SqlError.SqlError> =>
              isUniqueViolation(e)
                ? Effect.fail(new ConcurrencyConflict({ stream_id: streamId, expected: expectedVersion }))
                : Effect.fail(e))
          )
          const appended = inserted.map(rowToStored)
          const all = [...history, ...appended]
          if (cache.get(streamId) === history) cache.set(streamId, all)
          return { appended, all }
        })

      const readAll = (from: Checkpoint | undefined, limit: number) =>
        Effect.gen(function*() {
          const rows = yield* sql.unsafe<Record<string, unknown>>(
            `SELECT ${COLUMNS} FROM events
             WHERE txn < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
               AND (txn, position) > ($1::bigint, $2::bigint)
             ORDER BY txn, position LIMIT ${limit}`,
            [from?.tx ?? "0", from?.position ?? 0]
          )
          const events = rows.map(rowToStored)
          const last = events[events.length - 1]
          return { events, next: last ? { tx: last.tx, position: last.position } : from }
        })

      return { readStream, append, readAll }
    })
  )
}
