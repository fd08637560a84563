/**
 * The store's log of which symbols each market write touched
 * (`market_changes`, migration 0016): what moved since a snapshot's version,
 * and pruning rows older than a day. The read model asks it to decide
 * between updating a few symbols and a whole build.
 */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { type Reader, storeUnavailable } from "../../db/Rows.ts"

/** What moved since a version: the tables and symbols (`null`: anything in that table), or that the log no longer reaches back. */
export interface Changes {
  readonly version: number
  readonly reachable: boolean
  readonly touched: ReadonlyArray<{ readonly tbl: string; readonly symbol: string | null }>
}

/** A day's log is kept; an older snapshot rebuilds whole. */
const PRUNE_AFTER = "1 day"
const CHANGES_LIMIT = 2_000

export const changesSince = (rows: Reader, since: number, version: number) =>
  Effect.gen(function*() {
    const [pruned] = yield* rows(
      Schema.Struct({ through: Schema.Finite }),
      `SELECT through::float8 AS through FROM market_changes_pruned`
    )
    const touched = yield* rows(
      Schema.Struct({ tbl: Schema.String, symbol: Schema.NullOr(Schema.String) }),
      `SELECT DISTINCT tbl, symbol FROM market_changes WHERE version > $1 AND version <= $2 LIMIT ${CHANGES_LIMIT}`,
      [since, version]
    )
    return {
      version,
      reachable: (pruned?.through ?? 0) <= since && touched.length < CHANGES_LIMIT,
      touched
    } satisfies Changes
  })

export const pruneChanges = (sql: SqlClient.SqlClient) =>
  sql.unsafe(`WITH gone AS (DELETE FROM market_changes WHERE at < now() - interval '${PRUNE_AFTER}' RETURNING version)
    UPDATE market_changes_pruned SET through = GREATEST(through, (SELECT coalesce(max(version), 0) FROM gone)) WHERE id = 1`)
    .pipe(
      Effect.asVoid,
      storeUnavailable
    )
