/**
 * One lock order for every transaction that writes market tables, in any
 * number of processes: the `market_version` row first, then the rows.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { retryTransient } from "../db/SqlErrors.ts"

/**
 * Runs `write` as one transaction whose first statement takes the market write lock; retried when it loses a deadlock.
 *
 * Each market table's statement trigger bumps `market_version` (migrations
 * 0006, 0016), so every writer ends up locking that one row, but only
 * after its statement has locked the rows it wrote (an upsert locks a
 * conflicting row even when it changes nothing). Two writers taking the same
 * rows in different orders (the leader's crawl and `refresh`, or two
 * instances) then wait for each other: PostgreSQL's 40P01. Taking the
 * version row first makes market writes queue on it instead; a deadlock
 * or serialization failure that still happens (a writer outside this
 * module) is retried a few times.
 *
 * Readers are not affected: they read `market_version` without locking it.
 */
export const marketTransaction = <A, E, R>(write: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const locked = Effect.gen(function*() {
      // Waits for the market writer before this one to commit.
      yield* sql`SELECT version FROM market_version WHERE id = 1 FOR UPDATE`
      return yield* write
    })
    return yield* retryTransient(sql.withTransaction(locked))
  })

/**
 * Marks the market rows the current transaction writes as retrieved at `instant` (an ISO instant;
 * migration 0026's `psx.retrieved_at`, read by the upserts and the history trigger). Local to the
 * transaction: another writer on the same connection afterwards is not marked.
 */
export const retrievedAt = (instant: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`SELECT set_config('psx.retrieved_at', ${instant}, true)`
  })
