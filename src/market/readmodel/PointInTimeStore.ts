/**
 * The market tables at an instant T, by either clock (AsOf.ts). The market
 * clock's sources are MarketClock.ts's; the recorded clock's (migration
 * 0026): each table's current rows retrieved by T
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
import type { AsOfClock } from "./AsOf.ts"
import { instant, marketSource, versionsKnownAt } from "./MarketClock.ts"
import { knownRowsAt, type SeriesEvidence } from "./MarketClockRows.ts"
import { consistentOn, loadEveryFrom, type Source } from "./MarketStore.ts"
import { projectAll, projection, seriesInChunks } from "./PriceProjection.ts"

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

const PAIRS = `(SELECT * FROM unnest($1::text[], $2::text[]) AS d(symbol, series))`

/** The projected series (tens of megabytes, the same for every instant). */
type Projected = Effect.Effect<ReadonlyArray<R.PriceSeriesRow>, SourceUnavailable>

/** The recorded clock's series at `at`: the projected ones whole then, the others aggregated again. */
const recordedSeries = (rows: Reader, projected: Projected, at: number) => {
  const t = instant(at)
  return seriesAsOf(
    rows,
    projected,
    `SELECT symbol, series FROM price_series_known WHERE known_max > ${t}
     UNION SELECT symbol, row ->> 'series' FROM market_history
      WHERE tbl = 'daily_prices' AND superseded_at > ${t} AND known_at <= ${t}`,
    `(SELECT v.* FROM ${rowsAsOf("daily_prices", at)} v JOIN ${PAIRS} m ON m.symbol = v.symbol AND m.series = v.series)`
  )
}

/**
 * The market clock's series at `at`, before MarketClockRows.ts cuts them at T: the projected ones, and those
 * with a version superseded after T aggregated again from the versions public by T.
 */
const marketSeries = (rows: Reader, projected: Projected, at: number) =>
  seriesAsOf(
    rows,
    projected,
    `SELECT DISTINCT row ->> 'symbol' AS symbol, row ->> 'series' AS series FROM market_history
      WHERE tbl = 'daily_prices' AND superseded_at > ${instant(at)}`,
    versionsKnownAt("daily_prices", at, `(v.symbol, v.series) IN (SELECT symbol, series FROM ${PAIRS} pr)`)
  )

/** The price series: the projected ones but `movedQuery`'s pairs, which are aggregated again from `source`. */
const seriesAsOf = (rows: Reader, projected: Projected, movedQuery: string, source: string) =>
  Effect.gen(function*() {
    const moved = yield* rows(Pair, movedQuery)
    const movedKeys = new Set(moved.map((m) => `${m.symbol}|${m.series}`))
    const whole = (yield* projected).filter((s) => !movedKeys.has(`${s.symbol}|${s.series}`))
    if (moved.length === 0) return whole
    const pairs = PAIRS
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

const EvidenceRow = Schema.Struct({
  symbol: Schema.String,
  series: Schema.String,
  at: Schema.Finite,
  restated: Schema.Boolean
})

/** Each series' newest retrieval, and the symbols the store found restated (MarketClockRows.ts). */
const seriesEvidence = (rows: Reader): Effect.Effect<SeriesEvidence, SourceUnavailable> =>
  Effect.map(
    rows(
      EvidenceRow,
      `SELECT k.symbol, k.series, extract(epoch FROM k.known_max)::float8 * 1000 AS at,
        k.symbol IN (SELECT symbol FROM price_disagreements UNION SELECT symbol FROM market_history WHERE tbl = 'price_disagreements') AS restated
       FROM price_series_known k`
    ),
    (found) => ({
      retrieved: new Map(found.map((r) => [`${r.symbol}|${r.series}`, r.at])),
      restated: new Set(found.filter((r) => r.restated).map((r) => r.symbol))
    })
  )

/** Every market row at `at` by `clock` (the version and state read in the same view). */
const rowsAt = (rows: Reader, at: number, clock: AsOfClock) =>
  Effect.gen(function*() {
    const state = yield* stateAt(rows, at)
    const projected = seriesInChunks(rows)
    if (clock === "recorded") {
      return {
        state,
        rows: yield* loadEveryFrom(
          rows,
          Effect.succeed(state.version),
          asOfSource(at),
          recordedSeries(rows, projected, at)
        )
      }
    }
    const chosen = yield* loadEveryFrom(
      rows,
      Effect.succeed(state.version),
      marketSource(at),
      marketSeries(rows, projected, at)
    )
    return { state, rows: knownRowsAt(chosen, yield* seriesEvidence(rows), at) }
  })

/** The point-in-time reads of one store. */
export const makePointInTimeStore = (sql: SqlClient.SqlClient, mode: string) => {
  const rows = makeReader(sql)
  const consistent = consistentOn(sql, mode)
  return {
    /** The state `at` reflects (cheap: three index lookups). */
    stateAt: (at: number): Effect.Effect<AsOfState, SourceUnavailable> => stateAt(rows, at),
    /** Every market row at `at` by `clock`, with the state it reflects (read in one consistent view on PostgreSQL). */
    load: (at: number, clock: AsOfClock) => Effect.andThen(projectAll(sql, rows), consistent(rowsAt(rows, at, clock)))
  }
}
