/**
 * The portal crawler's state, so a crawl resumes after a restart and picks
 * the stalest work first: one row per dataset (kind and key: a symbol, or
 * `*` for a market-wide page) with when it was last tried, when it last
 * succeeded, what the last attempt changed and its last error. Not a
 * market table: writing it does not bump `market_version`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE crawl_state (
      kind text NOT NULL,
      key text NOT NULL,
      attempted_at timestamptz NOT NULL,
      succeeded_at timestamptz,
      read integer NOT NULL DEFAULT 0,
      written integer NOT NULL DEFAULT 0,
      unchanged integer NOT NULL DEFAULT 0,
      failures integer NOT NULL DEFAULT 0,
      last_error text,
      last_error_at timestamptz,
      PRIMARY KEY (kind, key)
    )`
  yield* sql`CREATE INDEX crawl_state_stalest ON crawl_state (kind, succeeded_at NULLS FIRST)`
})
