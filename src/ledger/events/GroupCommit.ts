/**
 * Group commit: single-event appends to different streams that queue while
 * a commit is in flight go to the store together, in one statement and one
 * transaction, so one WAL flush serves several writers.
 *
 * Each append keeps its own guarantees: its event row is inserted only if
 * its version is still free (`ON CONFLICT (stream_id, version) DO NOTHING`;
 * a taken version is that caller's ConcurrencyConflict, not the batch's),
 * and its holdings rows are written only when its event was. At most one
 * append per stream goes in a statement; rows are inserted in stream order,
 * so concurrent batches wait on each other in one order. A deadlock the
 * server still reports is a conflict for the whole batch (the callers
 * retry). Appends of several events, with an idempotency claim, or that
 * replace a whole projection take the single-append statement instead.
 *
 * Several committers, each taking at most `batch` appends: when every writer
 * wakes at once from one commit, their next appends split into smaller
 * statements on several connections, so the store works on some while the
 * service decides the others (one batch of everything kept the two in lock
 * step: `npm run bench:ledger`, 0.41-0.45x to 0.44-0.46x pgbench's commit rate).
 */
import { Deferred, Effect, Queue } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Position } from "../../../domain/ledger/Decider.ts"
import { isDeadlock } from "../../db/SqlErrors.ts"

/** One stream's event row and the holdings rows it changes. */
export interface GroupedAppend {
  readonly row: {
    readonly stream_id: string
    readonly version: number
    readonly event_id: string
    readonly type: string
    readonly payload_json: string
    readonly metadata_json: string
    readonly recorded_at: string
    readonly effective_date: string
    readonly last_effective: string
    readonly prev_hash: string
    readonly hash: string
  }
  readonly positions: ReadonlyArray<Position>
}

/** The event's position, or "conflict" when its version was taken. */
export type GroupedResult = { readonly position: string } | "conflict"

const STATEMENT = `WITH ins AS (
  INSERT INTO events (stream_id, version, event_id, type, payload_json, metadata_json, recorded_at, effective_date,
                      last_effective, prev_hash, hash)
  SELECT stream_id, version, event_id, type, payload_json, metadata_json, recorded_at, effective_date, last_effective, prev_hash, hash
  FROM jsonb_to_recordset($1::jsonb) AS t(stream_id text, version int, event_id text, type text, payload_json text,
    metadata_json text, recorded_at timestamptz, effective_date date, last_effective date, prev_hash text, hash text)
  ORDER BY stream_id
  ON CONFLICT (stream_id, version) DO NOTHING
  RETURNING stream_id, position
), p AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS t(stream_id text, as_of_version int, symbol text, quantity numeric,
    cost numeric, realized_pnl numeric, dividends_gross numeric, dividends_net numeric, tax_withheld numeric,
    fractional_entitlements numeric)
), up AS (
  INSERT INTO holdings (stream_id, symbol, quantity, cost, realized_pnl, dividends_gross, dividends_net, tax_withheld,
                        fractional_entitlements, as_of_version)
  SELECT stream_id, symbol, quantity, cost, realized_pnl, dividends_gross, dividends_net, tax_withheld, fractional_entitlements,
         as_of_version
  FROM p WHERE stream_id IN (SELECT stream_id FROM ins) ORDER BY stream_id, symbol
  ON CONFLICT (stream_id, symbol) DO UPDATE SET quantity = excluded.quantity, cost = excluded.cost,
    realized_pnl = excluded.realized_pnl, dividends_gross = excluded.dividends_gross,
    dividends_net = excluded.dividends_net, tax_withheld = excluded.tax_withheld,
    fractional_entitlements = excluded.fractional_entitlements, as_of_version = excluded.as_of_version
)
SELECT stream_id, position::text AS position FROM ins`

interface Pending {
  readonly append: GroupedAppend
  readonly done: Deferred.Deferred<GroupedResult, SqlError.SqlError>
}

/** Starts `options.workers` committers in the current scope; answers the function that appends through them. */
export const makeGroupCommit = (options: { readonly workers: number; readonly batch: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const queue = yield* Queue.unbounded<Pending>()

    const commit = (batch: ReadonlyArray<Pending>) =>
      Effect.gen(function*() {
        const rows = yield* sql.unsafe<{ stream_id: string; position: string }>(STATEMENT, [
          JSON.stringify(batch.map((p) => p.append.row)),
          JSON.stringify(batch.flatMap((p) =>
            p.append.positions.map((pos) => ({
              ...pos,
              stream_id: p.append.row.stream_id,
              as_of_version: p.append.row.version
            }))
          ))
        ])
        const inserted = new Map(rows.map((r) => [r.stream_id, r.position]))
        for (const p of batch) {
          const position = inserted.get(p.append.row.stream_id)
          yield* Deferred.succeed(p.done, position === undefined ? "conflict" : { position })
        }
      }).pipe(
        Effect.catchTag("SqlError", (e) =>
          Effect.forEach(batch, (p) =>
            isDeadlock(e) ? Deferred.succeed(p.done, "conflict") : Deferred.fail(p.done, e), { discard: true }))
      )

    /** Takes what is queued and commits it, one append per stream per statement. */
    const worker = Effect.forever(Effect.gen(function*() {
      let batch: ReadonlyArray<Pending> = yield* Queue.takeBetween(queue, 1, options.batch)
      while (batch.length > 0) {
        const seen = new Set<string>()
        const now: Array<Pending> = []
        const later: Array<Pending> = []
        for (const p of batch) {
          const stream = p.append.row.stream_id
          if (seen.has(stream)) later.push(p)
          else {
            seen.add(stream)
            now.push(p)
          }
        }
        yield* commit(now)
        batch = later
      }
    }))
    for (let i = 0; i < options.workers; i++) yield* Effect.forkScoped(worker)

    // Untraced: EventStore.append, its only caller, is the span (a span and a call-site trace here cost ~4% of an append).
    return Effect.fnUntraced(function*(append: GroupedAppend) {
      const done = yield* Deferred.make<GroupedResult, SqlError.SqlError>()
      yield* Queue.offer(queue, { append, done })
      return yield* Deferred.await(done)
    })
  })
