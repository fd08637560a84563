/**
 * What the in-memory market read model needs from the store:
 *
 * - `market_version`: one counter, bumped by a statement trigger on every
 *   write to a market table (by the service, a script or psql alike). Each
 *   instance polls it and rebuilds its read model when it moves, so several
 *   instances over one PostgreSQL converge on the same data.
 * - `price_series`: the daily prices of each (symbol, series) in columns
 *   (big-endian int4 day numbers and float8 figures, NaN for unknown), a
 *   projection of `daily_prices` that loads in one pass. Statement triggers
 *   on `daily_prices` mark the (symbol, series) pairs they touch in
 *   `price_series_dirty`; the read model re-projects those before it loads.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const MARKET_TABLES = [
  "datasets",
  "sectors",
  "securities",
  "index_membership",
  "index_levels",
  "daily_prices",
  "price_disagreements",
  "quotes",
  "fundamentals",
  "company_profiles",
  "financial_lines",
  "company_ratios",
  "payouts",
  "payout_coverage",
  "corporate_actions",
  "announcements",
  "news_items",
  "service_meta"
]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE market_version (
      id integer PRIMARY KEY CHECK (id = 1),
      version bigint NOT NULL,
      changed_at timestamptz NOT NULL
    )`
  yield* sql`INSERT INTO market_version VALUES (1, 1, now())`
  yield* sql.unsafe(`
    CREATE FUNCTION bump_market_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE market_version SET version = version + 1, changed_at = now() WHERE id = 1;
      RETURN NULL;
    END $$`)
  for (const table of MARKET_TABLES) {
    yield* sql.unsafe(
      `CREATE TRIGGER ${table}_market_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION bump_market_version()`
    )
  }

  yield* sql`
    CREATE TABLE price_series (
      symbol text NOT NULL,
      series text NOT NULL,
      rows integer NOT NULL,
      dates bytea NOT NULL,
      open bytea NOT NULL,
      high bytea NOT NULL,
      low bytea NOT NULL,
      close bytea NOT NULL,
      volume bytea NOT NULL,
      datasets text[] NOT NULL,
      dataset_index bytea NOT NULL,
      flags jsonb NOT NULL,
      PRIMARY KEY (symbol, series)
    )`
  yield* sql`
    CREATE TABLE price_series_dirty (
      symbol text NOT NULL,
      series text NOT NULL,
      PRIMARY KEY (symbol, series)
    )`
  yield* sql.unsafe(`
    CREATE FUNCTION mark_price_series_new() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO price_series_dirty SELECT DISTINCT symbol, series FROM changed ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`
    CREATE TRIGGER daily_prices_dirty_insert AFTER INSERT ON daily_prices
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION mark_price_series_new()`)
  yield* sql.unsafe(`
    CREATE TRIGGER daily_prices_dirty_update AFTER UPDATE ON daily_prices
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION mark_price_series_new()`)
  yield* sql.unsafe(`
    CREATE TRIGGER daily_prices_dirty_delete AFTER DELETE ON daily_prices
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION mark_price_series_new()`)
  yield* sql.unsafe(`
    CREATE FUNCTION mark_price_series_all() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO price_series_dirty SELECT symbol, series FROM price_series ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`
    CREATE TRIGGER daily_prices_dirty_truncate AFTER TRUNCATE ON daily_prices
    FOR EACH STATEMENT EXECUTE FUNCTION mark_price_series_all()`)
  // A store migrated with prices already in it: project them on the first build.
  yield* sql`INSERT INTO price_series_dirty SELECT DISTINCT symbol, series FROM daily_prices ON CONFLICT DO NOTHING`
  // Fundamentals warmed with no recorded quote have no as-of: unknown, not a made-up string.
  yield* sql`ALTER TABLE fundamentals ALTER COLUMN as_of DROP NOT NULL`
  yield* sql`UPDATE fundamentals SET as_of = NULL WHERE as_of = 'unknown'`
})
