/**
 * The market tables as the service knew them at an instant T (point-in-time
 * reads, migration 0026): each table's current rows retrieved by T
 * (`known_at <= T`), plus the superseded versions kept in `market_history`
 * that were retrieved by T and superseded after it. The migration keeps at
 * most one version of a key known at any instant, so the union needs no
 * de-duplication. The rows are read with MarketStore's own queries, each
 * table replaced by that subquery (`Source`), and decoded with the same row
 * Schemas, so an as-of snapshot is built by the same domain code.
 *
 * Prices: a projected series (`price_series`) is whole at T when none of its
 * rows was retrieved after T (`price_series_known`) and none of its
 * superseded rows was still current at T; only the other series are
 * aggregated again, from their rows as known at T, with the projection's own
 * aggregate (PriceProjection.ts).
 *
 * Owns: the SQL of point-in-time reads. T reaches SQL only as the ISO text of
 * a Date (`toISOString`), so it is inlined safely.
 */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import * as R from "../../../domain/market/snapshot/StoreRows.ts"
import { HISTORY_TABLES } from "../../../migrations/0026_market_history.ts"
import { iso, makeReader, type Reader } from "../../db/Rows.ts"
import { consistentOn, loadEveryFrom, type Source } from "./MarketStore.ts"
import { projection, projectAll, seriesInChunks } from "./PriceProjection.ts"

/** An instant as SQL text (from a Date's ISO form only). */
const instant = (at: number) => `'${new Date(at).toISOString()}'::timestamptz`

/** A history table's rows as known at `at`, as a parenthesised subquery of the table's row type. */
export const rowsAsOf = (table: string, at: number) => {
  const t = instant(at)
  return `(SELECT * FROM ${table} WHERE known_at <= ${t}
    UNION ALL
    SELECT r.* FROM market_history h CROSS JOIN LATERAL jsonb_populate_record(NULL::${table}, h.row) r
     WHERE h.tbl = '${table}' AND h.known_at <= ${t} AND h.superseded_at > ${t})`
}

/** Every market table as known at `at` (a table kept without history, `service_meta`, as it is). */
export const asOfSource = (at: number): Source => (table) =>
  HISTORY_TABLES[table] === undefined ? table : `${rowsAsOf(table, at)} AS ${table}`

const Pair = Schema.Struct({ symbol: Schema.String, series: Schema.String })

/** The price series as known at `at`: projected ones that are whole then, the others aggregated again. */
const seriesAsOf = (rows: Reader, at: number) =>
  Effect.gen(function*() {
    const t = instant(at)
    const moved = yield* rows(
      Pair,
      `SELECT symbol, series FROM price_series_known WHERE known_max > ${t}
       UNION SELECT symbol, row ->> 'series' FROM market_history
        WHERE tbl = 'daily_prices' AND superseded_at > ${t} AND known_at <= ${t}`
    )
    const movedKeys = new Set(moved.map((m) => `${m.symbol}|${m.series}`))
    const whole = (yield* seriesInChunks(rows)).filter((s) => !movedKeys.has(`${s.symbol}|${s.series}`))
    if (moved.length === 0) return whole
    const pairs = `(SELECT * FROM unnest($1::text[], $2::text[]) AS d(symbol, series))`
    const source = `(SELECT v.* FROM ${rowsAsOf("daily_prices", at)} v JOIN ${pairs} m ON m.symbol = v.symbol AND m.series = v.series)`
    const again = yield* rows(
      R.PriceSeriesRow,
      `SELECT symbol, series, rows::float8 AS rows, dates, open, high, low, close, volume, datasets, dataset_index, flags
       FROM (${projection(source, pairs)}) s`,
      [moved.map((m) => m.symbol), moved.map((m) => m.series)]
    )
    return [...whole, ...again]
  })

/** The state an instant reflects: the store's version, the newest change known by it, and the earliest retrieval. */
export interface AsOfState {
  readonly version: number
  /** The newest instant at or before T at which what was known changed (undefined: nothing was known by T). */
  readonly state: string | undefined
  /** The earliest retrieval the store holds (undefined: an empty store). */
  readonly earliest: string | undefined
}

const StateRow = Schema.Struct({
  version: Schema.Finite,
  state: Schema.NullOr(Schema.String),
  earliest: Schema.NullOr(Schema.String)
})

const stateAt = (rows: Reader, at: number) =>
  Effect.map(
    rows(
      StateRow,
      `SELECT (SELECT version::float8 FROM market_version) AS version,
        (SELECT ${iso("max(at)")} FROM market_instants WHERE at <= ${instant(at)}) AS state,
        (SELECT ${iso("min(at)")} FROM market_instants) AS earliest`
    ),
    ([r]): AsOfState => ({ version: r?.version ?? 0, state: r?.state ?? undefined, earliest: r?.earliest ?? undefined })
  )

/** The point-in-time reads of one store. */
export const makePointInTimeStore = (sql: SqlClient.SqlClient, mode: string) => {
  const rows = makeReader(sql)
  const consistent = consistentOn(sql, mode)
  return {
    /** The state `at` reflects (cheap: three index lookups). */
    stateAt: (at: number): Effect.Effect<AsOfState, SourceUnavailable> => stateAt(rows, at),
    /** Every market row as known at `at`, with the state it reflects (read in one consistent view on PostgreSQL). */
    load: (at: number) =>
      Effect.gen(function*() {
        yield* projectAll(sql, rows)
        return yield* consistent(Effect.gen(function*() {
          const state = yield* stateAt(rows, at)
          const loaded = yield* loadEveryFrom(rows, Effect.succeed(state.version), asOfSource(at), seriesAsOf(rows, at))
          return { state, rows: loaded }
        }))
      })
  }
}
