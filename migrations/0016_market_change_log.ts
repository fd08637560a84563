/**
 * Which symbols each market write touched, so a read model can update the
 * few symbols a small write changed instead of rebuilding everything.
 *
 * The statement triggers of 0006 are replaced by ones that see the rows a
 * statement changed (transition tables): a statement that changed no row
 * moves nothing; one that did bumps `market_version` and logs one row per
 * (version, table, symbol) it touched in `market_changes`. A table without
 * a symbol column, and a TRUNCATE, log a NULL symbol: "anything may have
 * changed there". Rows older than a day are pruned by the readers
 * (`market_changes_pruned` keeps the newest version pruned); a reader whose
 * snapshot is older than that rebuilds whole.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { MARKET_TABLES } from "./0006_market_version.ts"

/** Market tables without a symbol column: a write there logs "anything may have changed". */
const OTHER_TABLES: ReadonlyArray<string> = ["datasets", "sectors", "index_levels", "service_meta"]
/** Market tables whose rows belong to one symbol each. */
const SYMBOL_TABLES = MARKET_TABLES.filter((t) => !OTHER_TABLES.includes(t))

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE market_changes (
      version bigint NOT NULL,
      tbl text NOT NULL,
      symbol text,
      at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX market_changes_version ON market_changes (version)`
  // The newest version pruned from the log: a snapshot older than this cannot be updated from it.
  yield* sql`CREATE TABLE market_changes_pruned (id integer PRIMARY KEY CHECK (id = 1), through bigint NOT NULL)`
  yield* sql`INSERT INTO market_changes_pruned VALUES (1, 0)`
  // A statement that changed no row (an UPDATE or DELETE matching nothing) no longer moves the version.
  yield* sql.unsafe(`
    CREATE FUNCTION log_market_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE v bigint;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM changed) THEN RETURN NULL; END IF;
      UPDATE market_version SET version = version + 1, changed_at = now() WHERE id = 1 RETURNING version INTO v;
      IF TG_ARGV[0] = 'symbol' THEN
        INSERT INTO market_changes (version, tbl, symbol) SELECT DISTINCT v, TG_TABLE_NAME, symbol FROM changed;
      ELSE
        INSERT INTO market_changes (version, tbl, symbol) VALUES (v, TG_TABLE_NAME, NULL);
      END IF;
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`
    CREATE FUNCTION log_market_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE v bigint;
    BEGIN
      UPDATE market_version SET version = version + 1, changed_at = now() WHERE id = 1 RETURNING version INTO v;
      INSERT INTO market_changes (version, tbl, symbol) VALUES (v, TG_TABLE_NAME, NULL);
      RETURN NULL;
    END $$`)
  for (const table of MARKET_TABLES) {
    const scope = SYMBOL_TABLES.includes(table) ? "symbol" : "table"
    yield* sql.unsafe(`DROP TRIGGER ${table}_market_version ON ${table}`)
    for (const [event, ref] of [["INSERT", "NEW"], ["UPDATE", "NEW"], ["DELETE", "OLD"]] as const) {
      yield* sql.unsafe(
        `CREATE TRIGGER ${table}_market_log_${event.toLowerCase()} AFTER ${event} ON ${table}
         REFERENCING ${ref} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION log_market_rows('${scope}')`
      )
    }
    yield* sql.unsafe(
      `CREATE TRIGGER ${table}_market_log_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION log_market_truncate()`
    )
  }
})
