/**
 * The event store's reads: a whole stream (its known prefix from the
 * byte-bounded cache, only newer rows read), a page of it, one event, its
 * head, its positions and idempotency claims, and pages of the whole ledger
 * for catch-up readers.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { LRUCache } from "lru-cache"
import { GENESIS } from "../../../domain/ledger/Chain.ts"
import type { StoredEvent } from "../../../domain/ledger/Events.ts"
import { readHoldings } from "../portfolio/Projection.ts"
import { COLUMNS, decodeStored, eventRows, rowBytes, toStored } from "./StoredRows.ts"

/** A checkpoint of a catch-up reader of the whole ledger. */
export interface Checkpoint {
  readonly tx: string
  readonly position: number
}

/** Where a stream's next append continues from. */
export interface Head {
  readonly version: number
  readonly hash: string
  /** The latest effective date among its events (absent for an empty stream). */
  readonly last_effective?: string | undefined
}

/** What an Idempotency-Key claimed: the hash of the request that used it and the event it recorded. */
export interface IdempotencyClaim {
  readonly request_hash: string
  readonly event_id: string
  readonly version: number | null
}

/**
 * A SQL condition: the stream whose id `streamIdSql` evaluates to has an event. For a statement over another
 * table that must check it under its own row locks (the anonymous-user sweep re-checks it in its DELETE), so the
 * events table is still queried only by this module's text.
 */
export const streamHasEventsSql = (streamIdSql: string) =>
  `EXISTS (SELECT 1 FROM events e WHERE e.stream_id = ${streamIdSql})`

/** The head of a stream with no events. */
export const EMPTY_HEAD: Head = { version: 0, hash: GENESIS }

/** A stream's known prefix as the cache keeps it, with the bytes of the rows it was decoded from. */
export interface CachedStream {
  readonly events: ReadonlyArray<StoredEvent>
  readonly bytes: number
}

/**
 * The stream cache's bounds: 64 MiB of rows (a few long streams cannot hold the process's memory), and at most
 * 50,000 streams (each entry's own overhead is not in its bytes).
 */
export const STREAM_CACHE = { max: 50_000, maxSize: 64 * 1024 * 1024 } as const

export const streamReads = (sql: SqlClient.SqlClient, cache: LRUCache<string, CachedStream>) => {
  const selectRows = (where: string, params: ReadonlyArray<unknown>) =>
    Effect.flatMap(sql.unsafe(`SELECT ${COLUMNS} FROM events ${where}`, params), eventRows)

  const readStream = Effect.fn("EventStore.readStream")(function*(streamId: string) {
    // Streams are append-only: a cached prefix stays true; only newer versions are read.
    const known = cache.get(streamId) ?? { events: [], bytes: 0 }
    const after = known.events.length > 0 ? known.events[known.events.length - 1]!.version : 0
    const rows = yield* selectRows(`WHERE stream_id = $1 AND version > $2 ORDER BY version`, [streamId, after])
    if (rows.length === 0) return known.events
    const fresh = yield* decodeStored(rows)
    const all = { events: [...known.events, ...fresh], bytes: known.bytes + rows.reduce((n, r) => n + rowBytes(r), 0) }
    cache.set(streamId, all, { size: all.bytes })
    return all.events
  })

  const head = Effect.fn("EventStore.head")(function*(streamId: string) {
    const rows = yield* sql.unsafe<{ version: number; hash: string; last_effective: string }>(
      `SELECT version, hash, last_effective::text AS last_effective FROM events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1`,
      [streamId]
    )
    const last = rows[0]
    return last ? { version: last.version, hash: last.hash, last_effective: last.last_effective } : EMPTY_HEAD
  })

  const readPage = Effect.fn("EventStore.readPage")(
    function*(streamId: string, beforeVersion: number | undefined, limit: number) {
      const rows = yield* selectRows(
        `WHERE stream_id = $1 AND version < $2 ORDER BY version DESC LIMIT ${Math.max(1, Math.floor(limit))}`,
        [streamId, beforeVersion ?? 2_147_483_647]
      )
      const total = beforeVersion === undefined ? (rows[0]?.version ?? 0) : (yield* head(streamId)).version
      return { events: yield* decodeStored(rows), rows, total }
    }
  )

  const readEvent = Effect.fn("EventStore.readEvent")(
    function*(streamId: string, eventId: string, version?: number | null) {
      const rows = typeof version === "number"
        ? yield* selectRows(`WHERE stream_id = $1 AND version = $2 AND event_id = $3`, [streamId, version, eventId])
        : yield* selectRows(`WHERE stream_id = $1 AND event_id = $2`, [streamId, eventId])
      return rows[0] ? toStored(rows[0]) : undefined
    }
  )

  const readAllRows = Effect.fn("EventStore.readAllRows")(function*(from: Checkpoint | undefined, limit: number) {
    const rows = yield* selectRows(
      `WHERE txn < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
         AND (txn, position) > ($1::bigint, $2::bigint)
       ORDER BY txn, position LIMIT ${Math.max(1, Math.floor(limit))}`,
      [from?.tx ?? "0", from?.position ?? 0]
    )
    const last = rows[rows.length - 1]
    return { rows, next: last ? { tx: last.tx, position: Number(last.position) } : from }
  })

  const readAll = Effect.fn("EventStore.readAll")(function*(from: Checkpoint | undefined, limit: number) {
    const page = yield* readAllRows(from, limit)
    return { events: yield* decodeStored(page.rows), next: page.next }
  })

  return { readStream, readPage, readEvent, head, readAllRows, readAll }
}

/** What a write is decided from beside the head: the stream's stored positions, and an Idempotency-Key's claim. */
export const writeStateReads = (sql: SqlClient.SqlClient) => {
  const positions = Effect.fn("EventStore.positions")((streamId: string) =>
    readHoldings(streamId).pipe(Effect.provideService(SqlClient.SqlClient, sql))
  )

  const idempotencyClaim = Effect.fn("EventStore.idempotencyClaim")(function*(userId: string, key: string) {
    const rows = yield* sql<IdempotencyClaim>`
      SELECT request_hash, event_id, version FROM idempotency WHERE user_id = ${userId} AND key = ${key}`
    return rows[0]
  })

  return { positions, idempotencyClaim }
}
