/**
 * Point-in-time reads: every market row says when the
 * service had retrieved it, and a row is never overwritten without its
 * earlier version kept.
 *
 * `known_at`, `market_history` and `market_instants` are described at `functions`.
 * Works the same on PGlite and PostgreSQL (plain plpgsql triggers).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Each market table whose rows are kept with history, and its key columns. */
export const HISTORY_TABLES: Readonly<Record<string, ReadonlyArray<string>>> = {
  datasets: ["id"],
  sectors: ["code"],
  securities: ["symbol"],
  index_membership: ["index_code", "symbol", "effective_date"],
  index_levels: ["code"],
  index_closes: ["code", "date"],
  daily_prices: ["symbol", "series", "date"],
  price_disagreements: ["symbol"],
  quotes: ["symbol"],
  fundamentals: ["symbol"],
  company_profiles: ["symbol"],
  financial_lines: ["symbol", "period_type", "period", "line"],
  company_ratios: ["symbol", "period", "name"],
  payouts: ["id"],
  payout_coverage: ["symbol"],
  corporate_actions: ["id"],
  announcements: ["id"],
  news_items: ["id"]
}

/**
 * - `known_at` on every market table (not `service_meta`): the instant the
 *   row's figures were retrieved from upstream. Written by the upserts
 *   (src/ingest/Bulk.ts, Changes.ts) from the session setting
 *   `psx.retrieved_at` when the writer set one (the live crawler: the
 *   instant it fetched the page), else from the row's dataset
 *   (`datasets.known_at`); a statement that names neither gets the
 *   column's default, `market_known_now()` (the setting, else now()).
 * - `datasets.known_at` is its `retrieved_at` read by `market_retrieval`:
 *   an ISO instant is itself; a date-only retrieval (a recording known to
 *   the day) is known from the end of that Karachi day (the next day's
 *   00:00 Asia/Karachi), a month-only one from the end of that Karachi
 *   month. A time of day is never invented: the end of the period is the
 *   earliest instant at which the service certainly had it.
 * - `market_history`: a row trigger (BEFORE UPDATE OR DELETE) copies the
 *   OLD row, as jsonb, with its table, key, symbol and `known_at`, and
 *   `superseded_at`: the new version's `known_at` for an update, the
 *   writer's instant for a delete. An update that changes nothing but
 *   bookkeeping (`known_at`, `warmed_at`) keeps the row's `known_at` and
 *   writes no history, so a re-upsert of the same figures costs no history.
 *   A version is known over [known_at, superseded_at); a new version whose
 *   retrieval is older than its predecessor's (a recording imported after
 *   a live read) clips the kept versions of that key, so at most one
 *   version of a key is known at any instant.
 * - `market_instants`: every instant at which what was known changed (a
 *   `known_at` or a `superseded_at`), so a reader can name the state an
 *   instant reflects (the newest instant at or before it) and the earliest
 *   retrieval. `price_series_known`: per price series, the newest
 *   `known_at` of its rows, so a reader knows which projected series are
 *   whole at an instant without scanning `daily_prices`.
 */
const functions = [
  `CREATE FUNCTION market_retrieval(retrieved text) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT CASE
      WHEN retrieved ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN ((retrieved::date + 1)::timestamp AT TIME ZONE 'Asia/Karachi')
      WHEN retrieved ~ '^\\d{4}-\\d{2}$' THEN (((retrieved || '-01')::date + interval '1 month')::timestamp AT TIME ZONE 'Asia/Karachi')
      ELSE retrieved::timestamptz
    END $$`,
  `CREATE FUNCTION market_known_now() RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('psx.retrieved_at', true), '')::timestamptz, now()) $$`,
  `CREATE FUNCTION dataset_known_at() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.known_at := market_retrieval(NEW.retrieved_at);
      RETURN NEW;
    END $$`,
  `CREATE FUNCTION keep_market_history() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      old_row jsonb := to_jsonb(OLD) - 'known_at';
      k text;
      at timestamptz;
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF (old_row - 'warmed_at') = (to_jsonb(NEW) - 'known_at' - 'warmed_at') THEN
          NEW.known_at := OLD.known_at;
          RETURN NEW;
        END IF;
        IF NEW.known_at IS NOT DISTINCT FROM OLD.known_at AND TG_TABLE_NAME <> 'datasets' THEN
          NEW.known_at := market_known_now();
        END IF;
        at := NEW.known_at;
      ELSE
        at := market_known_now();
      END IF;
      SELECT string_agg(coalesce(old_row ->> a, ''), '|' ORDER BY o) INTO k FROM unnest(TG_ARGV) WITH ORDINALITY AS u(a, o);
      IF at < OLD.known_at THEN
        UPDATE market_history SET superseded_at = at WHERE tbl = TG_TABLE_NAME AND key = k AND superseded_at > at;
      END IF;
      INSERT INTO market_history (tbl, key, symbol, row, known_at, superseded_at)
        VALUES (TG_TABLE_NAME, k, old_row ->> 'symbol', old_row, OLD.known_at, at);
      INSERT INTO market_instants VALUES (at) ON CONFLICT DO NOTHING;
      IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
      RETURN NEW;
    END $$`,
  `CREATE FUNCTION note_market_instants() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO market_instants SELECT DISTINCT known_at FROM changed ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`,
  `CREATE FUNCTION note_price_series_known() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO price_series_known SELECT symbol, series, max(known_at) FROM changed GROUP BY symbol, series
        ON CONFLICT (symbol, series) DO UPDATE SET known_max = greatest(price_series_known.known_max, excluded.known_max);
      RETURN NULL;
    END $$`
]

/** Every existing row gets its dataset's retrieval (or now, without one), before any trigger watches. */
const backfill = (sql: SqlClient.SqlClient, table: string) =>
  Effect.gen(function*() {
    yield* sql.unsafe(`ALTER TABLE ${table} ADD COLUMN known_at timestamptz`)
    if (table === "datasets") yield* sql.unsafe(`UPDATE datasets SET known_at = market_retrieval(retrieved_at)`)
    else {
      yield* sql.unsafe(`UPDATE ${table} t SET known_at = d.known_at FROM datasets d WHERE d.id = t.dataset`)
      yield* sql.unsafe(`UPDATE ${table} SET known_at = now() WHERE known_at IS NULL`)
    }
    yield* sql.unsafe(`ALTER TABLE ${table} ALTER COLUMN known_at SET DEFAULT market_known_now()`)
    yield* sql.unsafe(`ALTER TABLE ${table} ALTER COLUMN known_at SET NOT NULL`)
    yield* sql.unsafe(`INSERT INTO market_instants SELECT DISTINCT known_at FROM ${table} ON CONFLICT DO NOTHING`)
  })

/** The triggers of one table: history of what it supersedes, and the instants it adds. */
const watch = (sql: SqlClient.SqlClient, table: string, key: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const args = key.map((k) => `'${k}'`).join(", ")
    yield* sql.unsafe(`CREATE TRIGGER ${table}_history BEFORE UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION keep_market_history(${args})`)
    for (const event of ["INSERT", "UPDATE"]) {
      yield* sql.unsafe(`CREATE TRIGGER ${table}_instants_${event.toLowerCase()} AFTER ${event} ON ${table}
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION note_market_instants()`)
    }
  })

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const f of functions) yield* sql.unsafe(f)
  yield* sql`
    CREATE TABLE market_history (
      tbl text NOT NULL,
      key text NOT NULL,
      symbol text,
      row jsonb NOT NULL,
      known_at timestamptz NOT NULL,
      superseded_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX market_history_superseded ON market_history (tbl, superseded_at)`
  yield* sql`CREATE INDEX market_history_key ON market_history (tbl, key)`
  yield* sql`CREATE TABLE market_instants (at timestamptz PRIMARY KEY)`
  yield* sql`
    CREATE TABLE price_series_known (
      symbol text NOT NULL,
      series text NOT NULL,
      known_max timestamptz NOT NULL,
      PRIMARY KEY (symbol, series)
    )`
  for (const table of Object.keys(HISTORY_TABLES)) yield* backfill(sql, table)
  yield* sql`INSERT INTO price_series_known SELECT symbol, series, max(known_at) FROM daily_prices GROUP BY symbol, series`
  // Named to run before datasets_history (triggers of one event run in name order).
  yield* sql.unsafe(`CREATE TRIGGER datasets_a_known_at BEFORE INSERT OR UPDATE ON datasets
    FOR EACH ROW EXECUTE FUNCTION dataset_known_at()`)
  for (const [table, key] of Object.entries(HISTORY_TABLES)) yield* watch(sql, table, key)
  for (const event of ["INSERT", "UPDATE"]) {
    yield* sql.unsafe(`CREATE TRIGGER daily_prices_known_${event.toLowerCase()} AFTER ${event} ON daily_prices
      REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION note_price_series_known()`)
  }
})
