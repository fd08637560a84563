/**
 * The append-only event store on PostgreSQL.
 *
 * Owns: appending with an expected stream version (a conflict is a typed
 * `ConcurrencyConflict`), the per-stream SHA-256 hash chain over the exact
 * stored bytes (format 2, domain/ledger/Chain.ts: payload and metadata are
 * stored as canonical JSON text and hashed verbatim, the actor and both
 * request ids included), writing the projection rows and idempotency claim
 * the caller computed in the same statement as the events (one round trip,
 * atomic), and reading streams, pages of a stream and the whole ledger. Does
 * not own: deciding what to append (the decider) or how positions are
 * computed (the projection).
 *
 * Single-event appends that queue while a commit is in flight are committed
 * together (GroupCommit.ts), each still checked against its own version.
 * A commit writes the event rows (two indexes: (stream_id, version), which is
 * the expected-version check, and (txn, position), the catch-up order), the
 * holdings rows of the symbols it changed and, with an Idempotency-Key, the
 * claim. The head is the stream's last row: its version, hash and the
 * stream's latest effective date up to it (`last_effective`).
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
import { LRUCache } from "lru-cache"
import { createHash, hash as cryptoHash, randomUUID } from "node:crypto"
import { canonicalJson, chainInputV2 } from "../../../domain/ledger/Chain.ts"
import type { Position } from "../../../domain/ledger/Decider.ts"
import { effectiveDate, type LedgerEvent, type StoredEvent } from "../../../domain/ledger/Events.ts"
import { isUniqueViolation } from "../../db/SqlErrors.ts"
import { holdingsUpsert } from "../portfolio/Projection.ts"
import {
  type CachedStream,
  type Checkpoint,
  type Head,
  type IdempotencyClaim,
  STREAM_CACHE,
  streamReads,
  writeStateReads
} from "./EventReads.ts"
import { makeGroupCommit } from "./GroupCommit.ts"
import type { EventRow } from "./StoredRows.ts"

type GroupCommit = Effect.Success<ReturnType<typeof makeGroupCommit>>

export { type Checkpoint, EMPTY_HEAD, type Head, type IdempotencyClaim, streamHasEventsSql } from "./EventReads.ts"
export { COLUMNS, decodeStored } from "./StoredRows.ts"

export class ConcurrencyConflict extends Data.TaggedError("ConcurrencyConflict")<{
  readonly stream_id: string
  readonly expected: number
}> {}

/** Who appended and in answer to what; covered by the hash (format 2). */
export interface EventMetadata {
  readonly actor_key_id?: string | undefined
  /** The id this server gave the request (echoed as `x-request-id`). */
  readonly request_id?: string | undefined
  /** The `X-Request-Id` the client sent, kept apart: it is the client's claim, not the server's record. */
  readonly client_request_id?: string | undefined
  readonly causation_id?: string | undefined
  readonly idempotency_key?: string | undefined
  /** The market record an event follows (an accepted entitlement's payout and its dataset). */
  readonly source?: string | undefined
}

/** SHA-256 hex of a text (the one-shot `crypto.hash` where the runtime has it). */
export const sha256: (text: string) => string = typeof cryptoHash === "function"
  ? (text) => cryptoHash("sha256", text, "hex")
  : (text) => createHash("sha256").update(text).digest("hex")

export interface AppendOptions {
  /** The positions the append changed (or, with `replaceAll`, every position of the stream); same statement. */
  readonly positions?: ReadonlyArray<Position> | undefined
  /** `positions` is the stream's whole state: holdings rows of other symbols are deleted. */
  readonly replaceAll?: boolean | undefined
  /** An Idempotency-Key to claim for the first appended event, in the same statement. */
  readonly idempotency?: { readonly user_id: string; readonly key: string; readonly request_hash: string } | undefined
  /** The events' ids, chosen by the caller (an import whose reversals name events of the same batch); random otherwise. */
  readonly eventIds?: ReadonlyArray<string> | undefined
}

/** One page of a stream, newest first. */
export interface StreamPage {
  readonly events: ReadonlyArray<StoredEvent>
  /** The same events as stored (with their metadata), for the ledger listing's export lines. */
  readonly rows: ReadonlyArray<EventRow>
  /** The stream's length (its head version). */
  readonly total: number
}

/** The events of a JSON array ($1) into stream $2 with metadata $3 at $4: the rows inserted, with their positions. */
const INSERT_EVENTS = `INSERT INTO events (stream_id, version, event_id, type, payload_json, metadata_json, recorded_at,
                      effective_date, last_effective, prev_hash, hash)
  SELECT $2, version, event_id, type, payload_json, $3, $4::timestamptz, effective_date, last_effective, prev_hash, hash
  FROM jsonb_to_recordset($1::jsonb) AS t(version int, event_id text, type text, payload_json text,
    effective_date date, last_effective date, prev_hash text, hash text)
  RETURNING position, version`

/** The events, then the stream's positions and the idempotency claim ($12: the version of the append's first event). */
const APPEND = `WITH ins AS (
  ${INSERT_EVENTS}
), ${holdingsUpsert("$5", "$2", "$6")}, gone AS (
  DELETE FROM holdings WHERE $11::boolean AND stream_id = $2 AND symbol NOT IN (SELECT symbol FROM p)
), idem AS (
  INSERT INTO idempotency (user_id, key, request_hash, event_id, version, created_at)
  SELECT $7, $8, $9, $10, $12, $4::timestamptz WHERE $7::text IS NOT NULL
)
SELECT position::text AS position FROM ins ORDER BY version`

const omitEvent = <A extends { readonly event: unknown }>({ event: _, ...row }: A) => row

/** Events hashed into the chain after `from`: the rows an append inserts. */
const draftsOf = (
  streamId: string,
  from: Head,
  events: ReadonlyArray<LedgerEvent>,
  metadataJson: string,
  now: string,
  eventIds?: ReadonlyArray<string>
) => {
  let prev = from.hash
  let lastEffective = from.last_effective ?? ""
  const drafts = events.map((event, i) => {
    const version = from.version + i + 1
    const event_id = eventIds?.[i] ?? randomUUID()
    const effective_date = effectiveDate(event, now.slice(0, 10))
    const payload_json = canonicalJson(event)
    const hash = sha256(
      chainInputV2(prev, {
        stream_id: streamId,
        version,
        event_id,
        effective_date,
        recorded_at: now,
        payload_json,
        metadata_json: metadataJson
      })
    )
    if (effective_date > lastEffective) lastEffective = effective_date
    const draft = {
      version,
      event_id,
      type: event.type,
      payload_json,
      effective_date,
      last_effective: lastEffective,
      prev_hash: prev,
      hash,
      event
    }
    prev = hash
    return draft
  })
  return {
    drafts,
    head: { version: from.version + drafts.length, hash: prev, last_effective: lastEffective } satisfies Head
  }
}

/**
 * Events sent to the store in one statement at most: a larger append (an import) is written in statements of this
 * many within one transaction, so the store never parses the whole file's events at once (the embedded store's
 * memory grows to its largest statement and never shrinks).
 */
export const APPEND_CHUNK = 500

/**
 * Several events, an idempotency record or a replacement: one APPEND statement, the first events of a large append
 * inserted before it in the same transaction; a unique violation is a conflict.
 */
const appendMany = (
  sql: SqlClient.SqlClient,
  streamId: string,
  drafts: ReturnType<typeof draftsOf>["drafts"],
  metadataJson: string,
  now: string,
  nextVersion: number,
  options: AppendOptions | undefined,
  conflict: () => ConcurrencyConflict
) => {
  const rows = drafts.map(omitEvent)
  const last = Math.max(0, rows.length - APPEND_CHUNK)
  const appendLast = sql.unsafe<{ position: string }>(APPEND, [
    JSON.stringify(rows.slice(last)),
    streamId,
    metadataJson,
    now,
    options?.positions ? JSON.stringify(options.positions) : null,
    nextVersion,
    options?.idempotency?.user_id ?? null,
    options?.idempotency?.key ?? null,
    options?.idempotency?.request_hash ?? null,
    drafts[0]?.event_id ?? null,
    options?.replaceAll === true,
    nextVersion - drafts.length + 1
  ])
  const written = last === 0 ? appendLast : sql.withTransaction(Effect.gen(function*() {
    const positions: Array<{ readonly position: string }> = []
    for (let start = 0; start < last; start += APPEND_CHUNK) {
      const chunk = JSON.stringify(rows.slice(start, Math.min(start + APPEND_CHUNK, last)))
      const inserted = yield* sql.unsafe<{ position: string; version: number }>(
        `WITH ins AS (${INSERT_EVENTS}) SELECT position::text AS position FROM ins ORDER BY version`,
        [chunk, streamId, metadataJson, now]
      )
      positions.push(...inserted)
    }
    return [...positions, ...(yield* appendLast)]
  }))
  return written.pipe(
    Effect.catchTag(
      "SqlError",
      (e): Effect.Effect<never, ConcurrencyConflict | SqlError.SqlError> =>
        isUniqueViolation(e) ? Effect.fail(conflict()) : Effect.fail(e)
    )
  )
}

/** Appends a stream's events: one alone through the group commit, several (or with an idempotency record) in one statement. */
const makeAppend = (sql: SqlClient.SqlClient, groupCommit: GroupCommit) =>
  Effect.fn("EventStore.append")(function*(
    streamId: string,
    from: Head,
    events: ReadonlyArray<LedgerEvent>,
    metadata: EventMetadata,
    options?: AppendOptions
  ) {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const metadataJson = canonicalJson(metadata)
    const { drafts, head: next } = draftsOf(streamId, from, events, metadataJson, now, options?.eventIds)
    const positions = options?.positions
    const idem = options?.idempotency
    // Made only when a race is lost: an error captures a stack trace, which costs more than the rest of an append.
    const conflict = () => new ConcurrencyConflict({ stream_id: streamId, expected: from.version })
    const single = drafts.length === 1 && idem === undefined && options?.replaceAll !== true
    const rows: ReadonlyArray<{ readonly position: string }> = single
      ? yield* Effect.flatMap(
        groupCommit({
          row: { ...omitEvent(drafts[0]!), stream_id: streamId, metadata_json: metadataJson, recorded_at: now },
          positions: positions ?? []
        }),
        (r) => (r === "conflict" ? Effect.fail(conflict()) : Effect.succeed([r]))
      )
      : yield* appendMany(sql, streamId, drafts, metadataJson, now, next.version, options, conflict)
    const appended = drafts.map((d, i): StoredEvent => ({
      position: Number(rows[i]?.position ?? 0),
      stream_id: streamId,
      version: d.version,
      event_id: d.event_id,
      recorded_at: now,
      effective_date: d.effective_date,
      event: d.event,
      prev_hash: d.prev_hash,
      hash: d.hash
    }))
    return { appended, head: next }
  })

export class EventStore extends Context.Service<EventStore, {
  /** Every event of a stream in version order (the known prefix from a byte-bounded cache; only newer rows are read). */
  readonly readStream: (streamId: string) => Effect.Effect<ReadonlyArray<StoredEvent>, SqlError.SqlError>
  /** A page of a stream, newest first, below `beforeVersion`: read from the store, never the whole stream. */
  readonly readPage: (
    streamId: string,
    beforeVersion: number | undefined,
    limit: number
  ) => Effect.Effect<StreamPage, SqlError.SqlError>
  /** One event of a stream by id; with its version (an idempotency claim records it), one index lookup. */
  readonly readEvent: (
    streamId: string,
    eventId: string,
    version?: number | null
  ) => Effect.Effect<StoredEvent | undefined, SqlError.SqlError>
  /** The stream's head: its last row (one index lookup, whatever the stream's length). */
  readonly head: (streamId: string) => Effect.Effect<Head, SqlError.SqlError>
  /** The stream's positions as its projection holds them (written with each append), by symbol. */
  readonly positions: (streamId: string) => Effect.Effect<ReadonlyArray<Position>, SqlError.SqlError>
  /** The claim a user's Idempotency-Key made (the request's hash and the event it recorded), if any. */
  readonly idempotencyClaim: (
    userId: string,
    key: string
  ) => Effect.Effect<IdempotencyClaim | undefined, SqlError.SqlError>
  /**
   * Appends `events` after `head` (the version and hash the caller decided
   * against). The events, the projection rows and the idempotency claim are
   * written by one statement, so they commit or fail together; a lost race on
   * the version or the key is a ConcurrencyConflict. Its cost does not depend
   * on the stream's length.
   */
  readonly append: (
    streamId: string,
    head: Head,
    events: ReadonlyArray<LedgerEvent>,
    metadata: EventMetadata,
    options?: AppendOptions
  ) => Effect.Effect<
    { readonly appended: ReadonlyArray<StoredEvent>; readonly head: Head },
    ConcurrencyConflict | SqlError.SqlError
  >
  /** A page of the whole ledger's rows as stored, for catch-up readers and the export, after `from`. */
  readonly readAllRows: (from: Checkpoint | undefined, limit: number) => Effect.Effect<{
    readonly rows: ReadonlyArray<EventRow>
    readonly next: Checkpoint | undefined
  }, SqlError.SqlError>
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
      // Four committers of at most four appends: while some commit, the next gather what queues behind them.
      const groupCommit = yield* makeGroupCommit({ workers: 4, batch: 4 })
      const cache = new LRUCache<string, CachedStream>(STREAM_CACHE)

      const append = makeAppend(sql, groupCommit)
      return { ...streamReads(sql, cache), ...writeStateReads(sql), append }
    })
  )
}
