/**
 * Every recorded screener snapshot, kept with its date: `fundamentals` holds
 * each symbol's newest figures (what is served, with its as-of and dataset);
 * `fundamentals_snapshots` keeps one row per symbol and snapshot, so an older
 * snapshot is never lost when a newer one arrives. Not read by the market
 * read model, so it does not bump `market_version`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE fundamentals_snapshots (
      symbol text NOT NULL,
      as_of text NOT NULL,
      market_cap numeric,
      price numeric,
      change_pct numeric,
      change_year_pct numeric,
      pe_ttm numeric,
      dividend_yield_pct numeric,
      free_float_shares numeric,
      volume_30d_avg numeric,
      listed_in text[] NOT NULL DEFAULT '{}',
      dataset text NOT NULL,
      PRIMARY KEY (symbol, dataset)
    )`
})
