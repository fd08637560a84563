/**
 * An index's daily closes (KSE-100 from 2010), one row per index and day,
 * each naming its dataset like a price row. A market table: a write bumps
 * `market_version` and logs "anything may have changed" (no symbol column),
 * so the read model reloads it whole, as it does `index_levels`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE index_closes (
      code text NOT NULL,
      date date NOT NULL,
      close numeric NOT NULL CHECK (close > 0),
      dataset text NOT NULL,
      PRIMARY KEY (code, date)
    )`
  for (const [event, ref] of [["INSERT", "NEW"], ["UPDATE", "NEW"], ["DELETE", "OLD"]] as const) {
    yield* sql.unsafe(
      `CREATE TRIGGER index_closes_market_log_${event.toLowerCase()} AFTER ${event} ON index_closes
       REFERENCING ${ref} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION log_market_rows('table')`
    )
  }
  yield* sql.unsafe(
    `CREATE TRIGGER index_closes_market_log_truncate AFTER TRUNCATE ON index_closes FOR EACH STATEMENT EXECUTE FUNCTION log_market_truncate()`
  )
})
