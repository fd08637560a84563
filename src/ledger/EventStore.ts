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
import { Clock, Context, Data, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash, hash as cryptoHash, randomUUID } from "node:crypto"
import { chainInput, GENESIS } from "../../domain/ledger/Chain.ts"
import { effectiveDate, LedgerEvent, type StoredEvent } from "../../domain/ledger/Events.ts"
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

/** An event row as selected with `COLUMNS`, decoded (never cast): the payload must be a ledger event. */
const StoredRow = Schema.Struct({
  position: Schema.FiniteFromString,
  stream_id: Schema.String,
  version: Schema.Int,
  event_id: Schema.String,
  recorded_at: Schema.String,
  effective_date: Schema.String,
  payload: LedgerEvent,
  prev_hash: Schema.String,
  hash: Schema.String,
  tx: Schema.String
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(StoredRow))

/** Stored events from rows selected with `COLUMNS`; a row that does not decode is a defect of the store. */
export const decodeStored = (rows: ReadonlyArray<unknown>) =>
  decodeRows(rows).pipe(
    Effect.map((decoded) => decoded.map(({ payload, ...r }): StoredEvent & { readonly tx: string } => ({ ...r, event: payload }))),
    Effect.orDie
  )

/** A unique-key violation (SQLSTATE 23505), however the driver words it. */
export const isUniqueViolation = (e: SqlError.SqlError) => {
  const reason: unknown = e.reason
  const cause = typeof reason === "object" && reason !== null && "cause" in reason ? String(reason.cause) : ""
  return /23505|duplicate key|unique/i.test(`${e.message} ${cause} ${JSON.stringify(reason ?? {})}`)
}

/** The columns `rowToStored` reads. */
export const COLUMNS = `position::text AS position, stream_id, version, event_id, payload, ${iso("recorded_at")} AS recorded_at,
  effective_date::text AS effective_date, prev_hash, hash, txn::text AS tx`

/** Where a stream's next append continues from. */
export interface Head {
  readonly version: number
  readonly hash: string
  /** The latest effective date among its events (absent for an empty stream). */
  readonly last_effective?: string | undefined
}
export const EMPTY_HEAD: Head = { version: 0, hash: GENESIS }

export interface AppendOptions {
  /** The stream's positions after the append; written in the same statement. */
  readonly positions?: ReadonlyArray<Position> | undefined
  /** An Idempotency-Key to claim for the first appended event, in the same statement. */
  readonly idempotency?: { readonly user_id: string; readonly key: string; readonly request_hash: string } | undefined
}

const HeadRows = Schema.Array(Schema.Struct({ version: Schema.Int, head_hash: Schema.String, last_effective: Schema.String }))

export class EventStore extends Context.Service<EventStore, {
  /** Every event of a stream in version order. */
  readonly readStream: (streamId: string) => Effect.Effect<ReadonlyArray<StoredEvent>, SqlError.SqlError>
  /** One event of a stream by id. */
  readonly readEvent: (streamId: string, eventId: string) => Effect.Effect<StoredEvent | undefined, SqlError.SqlError>
  /** The stream's head (one row, whatever the stream's length). */
  readonly head: (streamId: string) => Effect.Effect<Head, SqlError.SqlError>
  /**
   * Appends `events` after `head` (the version and hash the caller decided
   * against). The events, the new head, the projection rows and the
   * idempotency claim are written by one statement, so they commit or fail
   * together; a lost race on the version or the key is a ConcurrencyConflict.
   * Its cost does not depend on the stream's length.
   */
  readonly append: (
    streamId: string,
    head: Head,
    events: ReadonlyArray<LedgerEvent>,
    metadata: EventMetadata,
    options?: AppendOptions
  ) => Effect.Effect<{ readonly appended: ReadonlyArray<StoredEvent>; readonly head: Head }, ConcurrencyConflict | SqlError.SqlError>
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
          const rows = yield* sql.unsafe(
            `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version`,
            [streamId, after]
          ).pipe(Effect.flatMap(decodeStored))
          if (rows.length === 0) return known
          const all = [...known, ...rows]
          if (cache.size > 1_000) cache.clear()
          cache.set(streamId, all)
          return all
        })

      const readEvent = (streamId: string, eventId: string) =>
        sql.unsafe(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND event_id = $2`, [streamId, eventId]).pipe(
          Effect.flatMap(decodeStored),
          Effect.map((rows) => rows[0])
        )

      const head = (streamId: string) =>
        sql.unsafe(
          `SELECT version, head_hash, last_effective::text AS last_effective FROM stream_heads WHERE stream_id = $1`,
          [streamId]
        ).pipe(
          Effect.flatMap((rows) => Effect.orDie(Schema.decodeUnknownEffect(HeadRows)(rows))),
          Effect.map((rows): Head => rows[0] ? { version: rows[0].version, hash: rows[0].head_hash, last_effective: rows[0].last_effective } : EMPTY_HEAD)
        )

      const append = (
        streamId: string,
        from: Head,
        events: ReadonlyArray<LedgerEvent>,
        metadata: EventMetadata,
        options?: AppendOptions
      ) =>
        Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis).toISOString()
          let prev = from.hash
          let lastEffective = from.last_effective ?? ""
          const drafts: Array<StoredEvent> = events.map((event, i) => {
            const version = from.version + i + 1
            const event_id = randomUUID()
            const effective_date = effectiveDate(event, now.slice(0, 10))
            const hash = sha256(chainInput(prev, { stream_id: streamId, version, event_id, effective_date, recorded_at: now, payload: event }))
            const draft = { position: 0, stream_id: streamId, version, event_id, recorded_at: now, effective_date, event, prev_hash: prev, hash }
            prev = hash
            if (effective_date > lastEffective) lastEffective = effective_date
            return draft
          })
          const positions = options?.positions
          const next: Head = { version: from.version + drafts.length, hash: prev, last_effective: lastEffective }
          const inserted = yield* sql.unsafe(
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
             ), heads AS (
               INSERT INTO stream_heads (stream_id, version, head_hash, last_effective)
               VALUES ($2, $6, $11, $12::date)
               ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version, head_hash = excluded.head_hash,
                 last_effective = excluded.last_effective
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
              next.version,
              options?.idempotency?.user_id ?? null,
              options?.idempotency?.key ?? null,
              options?.idempotency?.request_hash ?? null,
              drafts[0]?.event_id ?? null,
              next.hash,
              lastEffective
            ]
          ).pipe(
            Effect.catchTag("SqlError", (e): Effect.Effect<never, ConcurrencyConflict | SqlError.SqlError> =>
              isUniqueViolation(e)
                ? Effect.fail(new ConcurrencyConflict({ stream_id: streamId, expected: from.version }))
                : Effect.fail(e)),
            Effect.flatMap(decodeStored)
          )
          return { appended: inserted, head: next }
        })
      const readAll = (from: Checkpoint | undefined, limit: number) =>
        Effect.gen(function*() {
          const events = yield* sql.unsafe(
            `SELECT ${COLUMNS} FROM events
             WHERE txn < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
               AND (txn, position) > ($1::bigint, $2::bigint)
             ORDER BY txn, position LIMIT ${limit}`,
            [from?.tx ?? "0", from?.position ?? 0]
          ).pipe(Effect.flatMap(decodeStored))
          const last = events[events.length - 1]
          return { events, next: last ? { tx: last.tx, position: last.position } : from }
        })

      return { readStream, readEvent, head, append, readAll }
    })
  )
}
