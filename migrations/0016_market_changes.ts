/**
 * Which symbols each market write touched, so a read model can update the
 * few symbols a small write changed instead of rebuilding everything.
 *
 * `market_changes` gets one row per (version, table, symbol) a statement
 * touched (its transition tables give the symbols), stamped with the market
 * version the statement's bump set (the log trigger fires after the bump
 * trigger, and the bumped row stays locked until commit). A table without a
 * symbol column, and a TRUNCATE, log a NULL symbol: "anything may have
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
  yield* sql.unsafe(`
    CREATE FUNCTION log_market_symbols() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO market_changes (version, tbl, symbol)
        SELECT DISTINCT (SELECT version FROM market_version WHERE id = 1), TG_TABLE_NAME, symbol FROM changed;
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`
    CREATE FUNCTION log_market_table() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO market_changes (version, tbl, symbol) VALUES ((SELECT version FROM market_version WHERE id = 1), TG_TABLE_NAME, NULL);
      RETURN NULL;
    END $$`)
  // Trigger names sort after `<table>_market_version`, so each fires after the bump.
  for (const table of SYMBOL_TABLES) {
    for (const [event, ref] of [["INSERT", "NEW"], ["UPDATE", "NEW"], ["DELETE", "OLD"]] as const) {
      yield* sql.unsafe(
        `CREATE TRIGGER ${table}_market_version_log_${event.toLowerCase()} AFTER ${event} ON ${table}
         REFERENCING ${ref} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION log_market_symbols()`
      )
    }
    yield* sql.unsafe(
      `CREATE TRIGGER ${table}_market_version_log_truncate AFTER TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION log_market_table()`
    )
  }
  for (const table of OTHER_TABLES) {
    yield* sql.unsafe(
      `CREATE TRIGGER ${table}_market_version_log AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION log_market_table()`
    )
  }
})
