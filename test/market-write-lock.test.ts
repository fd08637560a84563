/**
 * The market write lock (src/ingest/MarketWrite.ts), on PostgreSQL where two
 * writers hold separate connections: the interleaving that deadlocked the
 * leader's crawl against `refresh` (an upsert that locks a row without
 * changing it, then a change that bumps `market_version`, against a writer
 * that bumped it first and then wants that row) now queues instead.
 * The embedded store has one connection, so its writers never interleave.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Schema } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { SourceUnavailable } from "../domain/Errors.ts"
import { storeUnavailable } from "../src/db/Rows.ts"
import {
  describeStoreError,
  isDeadlock,
  isStoreUnavailable,
  isTransientConflict,
  isUniqueViolation,
  retryTransient
} from "../src/db/SqlErrors.ts"
import { marketTransaction } from "../src/ingest/MarketWrite.ts"
import { pollUntil } from "./support/Eventually.ts"
import { isRealPostgres, TestDatabase } from "./support/TestDatabase.ts"

const waiting = Schema.Struct({ query: Schema.String })

/** The statement a backend of this database is blocked on, if one is. */
const blockedStatement = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`
    SELECT query FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`
  return (yield* Schema.decodeUnknownEffect(Schema.Array(waiting))(rows))[0]?.query
})

describe.skipIf(!isRealPostgres)("market write lock (PostgreSQL)", () => {
  layer(TestDatabase, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a writer that bumped the version first waits at the lock, not on a row the other holds: no deadlock", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO sectors (code, name, dataset) VALUES ('T1', 't1', 'test'), ('T2', 't2', 'test'), ('T3', 't3', 'test')`
        const holdsRow = yield* Deferred.make<void>()
        const go = yield* Deferred.make<void>()
        // The refresh: locks T1 with an upsert that changes nothing (no version bump yet), then changes T2.
        const refresh = yield* Effect.forkChild(marketTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO sectors (code, name, dataset) VALUES ('T1', 't1', 'test')
                     ON CONFLICT (code) DO UPDATE SET name = excluded.name WHERE sectors.name IS DISTINCT FROM excluded.name`
          yield* Deferred.succeed(holdsRow, undefined)
          yield* Deferred.await(go)
          yield* sql`UPDATE sectors SET name = 'refreshed' WHERE code = 'T2'`
        })))
        yield* Deferred.await(holdsRow)
        // The leader's crawl: changes T3 (bumps the version), then wants T1.
        const crawl = yield* Effect.forkChild(marketTransaction(Effect.gen(function*() {
          yield* sql`UPDATE sectors SET name = 'crawled-3' WHERE code = 'T3'`
          yield* sql`UPDATE sectors SET name = 'crawled-1' WHERE code = 'T1'`
        })))
        const blocked = yield* pollUntil(
          "the crawl's transaction waits on a lock",
          blockedStatement,
          (q) => q !== undefined
        )
        assert.match(
          blocked!,
          /FROM market_version WHERE id = 1 FOR UPDATE/,
          "it waits for the market lock before touching any row"
        )
        yield* Deferred.succeed(go, undefined)
        yield* Fiber.join(refresh)
        yield* Fiber.join(crawl)
        const names = yield* sql<
          { code: string; name: string }
        >`SELECT code, name FROM sectors WHERE code LIKE 'T_' ORDER BY code`
        assert.deepStrictEqual(names.map((r) => `${r.code}=${r.name}`), [
          "T1=crawled-1",
          "T2=refreshed",
          "T3=crawled-3"
        ])
      }))

    it.effect("writers that take rows in opposite orders deadlock (40P01); the loser is retried and its error names the SQLSTATE", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // A table without the market triggers (they would serialize the two writers on market_version).
        yield* sql`CREATE TABLE lock_probe (code text PRIMARY KEY, name text NOT NULL)`
        yield* sql`INSERT INTO lock_probe VALUES ('U1', 'u1'), ('U2', 'u2')`
        const holds = { U1: yield* Deferred.make<void>(), U2: yield* Deferred.make<void>() }
        const seen: Array<string> = []
        const attempts = { U1: 0, U2: 0 }
        // Each takes its row, waits (first attempt only) until the other holds its own, then wants the other's.
        const writer = (mine: "U1" | "U2", theirs: "U1" | "U2") =>
          retryTransient(
            sql.withTransaction(Effect.gen(function*() {
              attempts[mine]++
              yield* sql`UPDATE lock_probe SET name = ${`${mine}-by-${mine}`} WHERE code = ${mine}`
              if (attempts[mine] === 1) {
                yield* Deferred.succeed(holds[mine], undefined)
                yield* Deferred.await(holds[theirs])
              }
              yield* sql`UPDATE lock_probe SET name = ${`${theirs}-by-${mine}`} WHERE code = ${theirs}`
            })).pipe(Effect.tapError((e) => Effect.sync(() => seen.push(describeStoreError(e)))))
          )
        yield* Effect.all([writer("U1", "U2"), writer("U2", "U1")], { concurrency: 2 })
        assert.strictEqual(attempts.U1 + attempts.U2, 3, "PostgreSQL aborted one, which was run again")
        assert.strictEqual(seen.length, 1)
        assert.match(seen[0]!, /^DeadlockError SQLSTATE 40P01: deadlock detected/)
      }))
  })
})

layer(TestDatabase, { timeout: 60_000 })("store errors (both stores)", (it) => {
  it.effect("a duplicate key is classified by its SQLSTATE (23505), not by its wording", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE unique_probe (k text PRIMARY KEY)`
      yield* sql`INSERT INTO unique_probe VALUES ('a')`
      const e = yield* Effect.flip(sql`INSERT INTO unique_probe VALUES ('a')`)
      assert.isTrue(isUniqueViolation(e))
      assert.isFalse(isDeadlock(e))
      assert.isFalse(isTransientConflict(e))
      assert.match(describeStoreError(e), /^UniqueViolation SQLSTATE 23505: duplicate key value/)
    }))
  it.effect("a read that fails is mapped once by what the store said: a constraint or syntax error is a defect (500), not a 503", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const syntax = yield* Effect.flip(sql.unsafe("SELEC 1"))
      assert.isFalse(isStoreUnavailable(syntax), describeStoreError(syntax))
      const exit = yield* Effect.exit(storeUnavailable(sql.unsafe("SELECT * FROM no_such_table_here")))
      assert.isTrue(
        Exit.isFailure(exit) && Cause.hasDies(exit.cause),
        "an undefined table (42P01) is this code's fault: a defect"
      )
      // A store that cannot answer (the driver's ConnectionError) is the one 503.
      const away = new SqlError.SqlError({
        reason: new SqlError.ConnectionError({ cause: new Error("connection refused"), message: "away" })
      })
      assert.isTrue(isStoreUnavailable(away))
      const mapped = yield* Effect.flip(storeUnavailable(Effect.fail(away)))
      assert.instanceOf(mapped, SourceUnavailable)
    }))
})
