/**
 * The columnar price projection (`price_series`, migration 0006): projecting
 * the daily prices of dirty (symbol, series) pairs into it, and reading it
 * back in chunks. `projection` is the one aggregate that makes a series'
 * columns, over `daily_prices` or over its rows as known at an instant
 * (PointInTimeStore.ts).
 */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import * as R from "../../../domain/market/snapshot/StoreRows.ts"
import { type Reader, storeUnavailable } from "../../db/Rows.ts"

const SERIES_CHUNK = 64
const PROJECT_BATCH = 64

/** The projection's columns (`rows`, `dates`, figures as float8 bytes, datasets and flags) per pair of `pairs`, from `source`. */
export const projection = (source: string, pairs: string) => {
  const bytes = (expr: string) => `string_agg(${expr}, ''::bytea ORDER BY p.date)`
  const fig = (c: string) => `${bytes(`float8send(coalesce(p.${c}::float8, 'NaN'))`)} AS ${c}`
  return `SELECT p.symbol, p.series, count(*)::int AS rows,
            ${bytes("int4send(p.date - DATE '1970-01-01')")} AS dates,
            ${fig("open")}, ${fig("high")}, ${fig("low")}, ${fig("close")}, ${fig("volume")},
            g.datasets,
            ${bytes("int2send((array_position(g.datasets, p.dataset) - 1)::int2)")} AS dataset_index,
            coalesce(jsonb_object_agg((p.date - DATE '1970-01-01')::text, p.flag) FILTER (WHERE p.flag IS NOT NULL), '{}'::jsonb) AS flags
     FROM ${source} p
     JOIN (SELECT x.symbol, x.series, array_agg(DISTINCT x.dataset ORDER BY x.dataset) AS datasets
             FROM ${source} x JOIN ${pairs} d ON d.symbol = x.symbol AND d.series = x.series
            GROUP BY x.symbol, x.series) g ON g.symbol = p.symbol AND g.series = p.series
     GROUP BY p.symbol, p.series, g.datasets`
}

// One batch of dirty pairs per transaction: short, so a single-connection store keeps serving others between them.
export const projectBatch = (sql: SqlClient.SqlClient, rows: Reader) =>
  Effect.gen(function*() {
    const dirty = yield* rows(
      Schema.Struct({ symbol: Schema.String, series: Schema.String }),
      `DELETE FROM price_series_dirty WHERE (symbol, series) IN
       (SELECT symbol, series FROM price_series_dirty ORDER BY symbol, series LIMIT ${PROJECT_BATCH} FOR UPDATE SKIP LOCKED)
     RETURNING symbol, series`
    )
    if (dirty.length === 0) return 0
    const symbols = dirty.map((d) => d.symbol)
    const series = dirty.map((d) => d.series)
    const pairs = `(SELECT * FROM unnest($1::text[], $2::text[]) AS d(symbol, series))`
    yield* sql.unsafe(`DELETE FROM price_series p USING ${pairs} d WHERE p.symbol = d.symbol AND p.series = d.series`, [
      symbols,
      series
    ])
    yield* sql.unsafe(
      `INSERT INTO price_series (symbol, series, rows, dates, open, high, low, close, volume, datasets, dataset_index, flags)
     ${projection("daily_prices", pairs)}`,
      [symbols, series]
    )
    return dirty.length
  }).pipe(sql.withTransaction, storeUnavailable)

// The price projection is tens of megabytes: read it in chunks so no single reply (and the driver's
// receive buffer, which keeps the size of the largest reply) is that large.
export const seriesInChunks = (rows: Reader) =>
  Effect.gen(function*() {
    const out: Array<R.PriceSeriesRow> = []
    let after = ""
    while (true) {
      const chunk = yield* rows(
        R.PriceSeriesRow,
        `SELECT symbol, series, rows::float8 AS rows, dates, open, high, low, close, volume, datasets, dataset_index, flags
       FROM price_series WHERE symbol || '|' || series > '${after.replaceAll("'", "''")}'
       ORDER BY symbol || '|' || series LIMIT ${SERIES_CHUNK}`
      )
      out.push(...chunk)
      const last = chunk[chunk.length - 1]
      if (chunk.length < SERIES_CHUNK || last === undefined) return out
      after = `${last.symbol}|${last.series}`
    }
  })

/** The price series of some symbols (few: one query). */
export const seriesOf = (rows: Reader, symbols: ReadonlyArray<string>) =>
  rows(
    R.PriceSeriesRow,
    `SELECT symbol, series, rows::float8 AS rows, dates, open, high, low, close, volume, datasets, dataset_index, flags
     FROM price_series WHERE symbol = ANY($1::text[]) ORDER BY symbol, series`,
    [symbols]
  )

/** Re-projects every dirty price series, a batch per transaction; how many. */
export const projectAll = (sql: SqlClient.SqlClient, rows: Reader) =>
  Effect.gen(function*() {
    let total = 0
    while (true) {
      const n = yield* projectBatch(sql, rows)
      total += n
      if (n < PROJECT_BATCH) return total
    }
  })
