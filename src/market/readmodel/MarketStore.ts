/**
 * The market tables as the read model needs them: every row of every market
 * table, decoded with the row Schemas (a row that does not fit is a
 * SOURCE_UNAVAILABLE failure, logged, never a cast), the market version
 * counter, and the columnar price projection kept up to date.
 *
 * Owns: all SQL of the market read side. Does not own: writing market data
 * (ingest does), or answering requests (the read model does, with no SQL).
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import * as R from "../../../domain/market/snapshot/StoreRows.ts"
import { Database } from "../../db/Database.ts"
import { iso, makeReader, type Reader, storeUnavailable } from "../../db/Rows.ts"
import { type Changes, changesSince, pruneChanges } from "./ChangeLog.ts"

const SERIES_CHUNK = 64
const PROJECT_BATCH = 64

const f8 = (c: string) => `${c}::float8 AS ${c.split(".").pop()}`

/** Every row, or only those of some symbols (`$1`). */
export type Scope = { readonly symbols?: ReadonlyArray<string> }
/** A reader over one scope: `where` is the filter on a table's symbol column ("" for every row). */
const scoped = (rows: Reader, scope: Scope) => {
  const where = scope.symbols === undefined ? "" : " WHERE symbol = ANY($1::text[])"
  const params = scope.symbols === undefined ? [] : [scope.symbols]
  return <S extends Schema.Codec<any, any>>(schema: S, query: (where: string) => string) => rows(schema, query(where), params)
}
type ScopedReader = ReturnType<typeof scoped>

// One batch of dirty pairs per transaction: short, so a single-connection store keeps serving others between them.
const projectBatch = (sql: SqlClient.SqlClient, rows: Reader) => Effect.gen(function*() {
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
  const bytes = (expr: string) => `string_agg(${expr}, ''::bytea ORDER BY p.date)`
  const fig = (c: string) => bytes(`float8send(coalesce(p.${c}::float8, 'NaN'))`)
  yield* sql.unsafe(
    `INSERT INTO price_series (symbol, series, rows, dates, open, high, low, close, volume, datasets, dataset_index, flags)
     SELECT p.symbol, p.series, count(*)::int,
            ${bytes("int4send(p.date - DATE '1970-01-01')")},
            ${fig("open")}, ${fig("high")}, ${fig("low")}, ${fig("close")}, ${fig("volume")},
            g.datasets,
            ${bytes("int2send((array_position(g.datasets, p.dataset) - 1)::int2)")},
            coalesce(jsonb_object_agg((p.date - DATE '1970-01-01')::text, p.flag) FILTER (WHERE p.flag IS NOT NULL), '{}'::jsonb)
     FROM daily_prices p
     JOIN (SELECT x.symbol, x.series, array_agg(DISTINCT x.dataset ORDER BY x.dataset) AS datasets
             FROM daily_prices x JOIN ${pairs} d ON d.symbol = x.symbol AND d.series = x.series
            GROUP BY x.symbol, x.series) g ON g.symbol = p.symbol AND g.series = p.series
     GROUP BY p.symbol, p.series, g.datasets`,
    [symbols, series]
  )
  return dirty.length
}).pipe(sql.withTransaction, storeUnavailable)

// The price projection is tens of megabytes: read it in chunks so no single reply (and the driver's
// receive buffer, which keeps the size of the largest reply) is that large.
const seriesInChunks = (rows: Reader) => Effect.gen(function*() {
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

/** The small whole tables: the data pack installed, datasets, sectors, index levels and closes. */
const catalogueRows = (rows: Reader) => Effect.gen(function*() {
  const dataPack = yield* rows(Schema.Struct({ v: Schema.String }), `SELECT value #>> '{}' AS v FROM service_meta WHERE key = 'data_pack'`)
  return {
    dataPack: dataPack[0]?.v,
    datasets: yield* rows(
      R.DatasetRow,
      `SELECT id, title, source, upstream, repository, commit, licence, recorded_at, as_of,
              retrieved_at, ${iso("loaded_at")} AS loaded_at, rows::float8 AS rows, notes, coverage_symbols::float8 AS coverage_symbols,
              coverage_first::text, coverage_last::text
       FROM datasets ORDER BY id`
    ),
    sectors: yield* rows(R.SectorRow, `SELECT code, name, dataset FROM sectors`),
    indexLevels: yield* rows(
      R.IndexLevelRow,
      `SELECT code, name, ${f8("level")}, ${f8("previous")}, as_of::text, previous_date::text, dataset FROM index_levels`
    ),
    indexCloses: yield* rows(R.IndexCloseRow, `SELECT code, date::text, ${f8("close")}, dataset FROM index_closes ORDER BY code, date`)
  }
})

/** Listed securities and index membership. */
const listingRows = (rows: ScopedReader) => Effect.gen(function*() {
  return {
    securities: yield* rows(
      R.SecurityRow,
      (w) => `SELECT symbol, name, sector_code, sector_name, security_type, search_text, dataset, delisted_on::text FROM securities${w}`
    ),
    membership: yield* rows(
      R.MembershipRow,
      (w) => `SELECT index_code, symbol, effective_date::text, ${f8("weight_pct")}, dataset FROM index_membership${w}`
    )
  }
})

/** Prices and company figures: disagreements between price sources, quotes, fundamentals and profiles. */
const quoteRows = (rows: ScopedReader) => Effect.gen(function*() {
  return {
    disagreements: yield* rows(
      R.DisagreementRow,
      (w) => `SELECT symbol, ${f8("factor")}, ${f8("points")}, ${f8("agreeing")}, first_date::text, last_date::text, dataset
       FROM price_disagreements${w}`
    ),
    quotes: yield* rows(
      R.QuoteRow,
      (w) => `SELECT symbol, ${f8("price")}, ${f8("previous_close")}, ${f8("open")}, ${f8("high")}, ${f8("low")}, ${f8("change")},
              ${f8("change_pct")}, ${f8("volume")}, ${iso("as_of")} AS as_of, basis, dataset FROM quotes${w}`
    ),
    fundamentals: yield* rows(
      R.FundamentalsRow,
      (w) => `SELECT symbol, ${
        ["market_cap", "price", "change_pct", "change_year_pct", "pe_ttm", "dividend_yield_pct", "free_float_shares",
          "volume_30d_avg", "shares_outstanding", "face_value", "eps"].map(f8).join(", ")
      }, listed_in, as_of, dataset FROM fundamentals${w}`
    ),
    profiles: yield* rows(
      R.ProfileRow,
      (w) => `SELECT symbol, description, fiscal_year_end, ${
        ["shares", "free_float_shares", "free_float_pct", "market_cap", "week52_low", "week52_high"].map(f8).join(", ")
      }, ${iso("as_of")} AS as_of, dataset FROM company_profiles${w}`
    )
  }
})

/** What companies report and announce: financial lines, ratios, payouts, corporate actions and announcements. */
const companyRows = (rows: ScopedReader) => Effect.gen(function*() {
  return {
    financialLines: yield* rows(
      R.FinancialLineRow,
      (w) => `SELECT symbol, period_type, period, fiscal_year::float8 AS fiscal_year, quarter::float8 AS quarter, line,
              ${f8("value")}, units, dataset
       FROM financial_lines${w} ORDER BY symbol, period_type, fiscal_year DESC NULLS LAST, quarter DESC NULLS LAST, line`
    ),
    ratios: yield* rows(R.RatioRow, (w) => `SELECT symbol, period, name, ${f8("value")}, dataset FROM company_ratios${w}`),
    payouts: yield* rows(
      R.PayoutRow,
      (w) => `SELECT id, symbol, ${iso("announced_at")} AS announced_at, period_end::text, period_type, details, kind,
              ${f8("percent")}, ${f8("amount_per_share")}, sequence, book_closure_from::text, book_closure_to::text, dataset
       FROM payouts${w} ORDER BY symbol, id`
    ),
    payoutCoverage: yield* rows(
      R.PayoutCoverageRow,
      (w) => `SELECT symbol, coverage, data_coverage_start::text, dataset FROM payout_coverage${w}`
    ),
    actions: yield* rows(
      R.ActionRow,
      (w) => `SELECT id, symbol, kind, ex_date::text, ${f8("ratio")}, details, dataset FROM corporate_actions${w}`
    ),
    announcements: yield* rows(
      R.AnnouncementRow,
      (w) => `SELECT id, symbol, company_name, published_on::text, ${iso("published_at")} AS published_at, title, document_url, image_url,
       revoked, dataset FROM announcements${w}`
    )
  }
})

/** News, whole (a story may carry no symbol). */
const newsRows = (rows: Reader) =>
  rows(
    R.NewsRow,
    `SELECT id, symbol, title, url, ${iso("published_at")} AS published_at, event_date::text, republished, dataset, source_keywords FROM news_items`
  )

/** The price series of some symbols (few: one query). */
const seriesOf = (rows: Reader, symbols: ReadonlyArray<string>) =>
  rows(
    R.PriceSeriesRow,
    `SELECT symbol, series, rows::float8 AS rows, dates, open, high, low, close, volume, datasets, dataset_index, flags
     FROM price_series WHERE symbol = ANY($1::text[]) ORDER BY symbol, series`,
    [symbols]
  )

/** Every market row (the whole snapshot's input). */
const loadEvery = (rows: Reader, version: Effect.Effect<number, SourceUnavailable>) =>
  Effect.gen(function*() {
    const every = scoped(rows, {})
    return {
      version: yield* version,
      ...(yield* catalogueRows(rows)),
      ...(yield* listingRows(every)),
      ...(yield* quoteRows(every)),
      ...(yield* companyRows(every)),
      news: yield* newsRows(rows),
      series: yield* seriesInChunks(rows)
    } satisfies R.StoreRows
  })

/** Some symbols' rows, with the small whole tables and the news (`membership` left empty). */
const loadSome = (rows: Reader, version: number, symbols: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const some = scoped(rows, { symbols })
    const listing = yield* listingRows(some)
    return {
      version,
      ...(yield* catalogueRows(rows)),
      securities: listing.securities,
      membership: [],
      ...(yield* quoteRows(some)),
      ...(yield* companyRows(some)),
      news: yield* newsRows(rows),
      series: yield* seriesOf(rows, symbols)
    } satisfies R.StoreRows
  })

/** Re-projects every dirty price series, a batch per transaction; how many. */
const projectAll = (sql: SqlClient.SqlClient, rows: Reader) =>
  Effect.gen(function*() {
    let total = 0
    while (true) {
      const n = yield* projectBatch(sql, rows)
      total += n
      if (n < PROJECT_BATCH) return total
    }
  })

/**
 * On PostgreSQL, one consistent view of every table (a concurrent ingest shows in the next build, whole). The
 * embedded store has one connection: a transaction there would hold every other request for the whole load, so
 * its tables are read one short query at a time; a write in between moves the version, and the next poll
 * rebuilds.
 */
const consistentOn = (sql: SqlClient.SqlClient, mode: string) =>
<A>(effect: Effect.Effect<A, SourceUnavailable>): Effect.Effect<A, SourceUnavailable> =>
  mode !== "postgres" ? effect : effect.pipe(
    sql.withTransaction,
    Effect.provideService(SqlClient.BeginTransaction, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"),
    storeUnavailable
  )

export class MarketStore extends Context.Service<MarketStore, {
  /** The store's market version (bumped by a trigger on every market write). */
  readonly version: Effect.Effect<number, SourceUnavailable>
  /** Re-projects the price series whose daily prices changed; returns how many. */
  readonly projectPrices: Effect.Effect<number, SourceUnavailable>
  /** Every market row, decoded. */
  readonly load: Effect.Effect<R.StoreRows, SourceUnavailable>
  /** The current version and what moved since `version` (the change log). */
  readonly changesSince: (version: number) => Effect.Effect<Changes, SourceUnavailable>
  /** The rows of some symbols only, with the small whole tables and the news (`membership` left empty). */
  readonly loadSymbols: (version: number, symbols: ReadonlyArray<string>) => Effect.Effect<R.StoreRows, SourceUnavailable>
  /** Drops change-log rows older than a day. */
  readonly prune: Effect.Effect<void, SourceUnavailable>
}>()("psx/market/MarketStore") {
  static readonly layer = Layer.effect(
    MarketStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const consistent = consistentOn(sql, (yield* Database).mode)
      const rows = makeReader(sql)
      const version = rows(Schema.Struct({ version: Schema.Finite }), `SELECT version::float8 AS version FROM market_version`).pipe(
        Effect.map((r) => r[0]?.version ?? 0),
        Effect.withSpan("MarketStore.version")
      )
      return {
        version,
        projectPrices: projectAll(sql, rows).pipe(Effect.withSpan("MarketStore.projectPrices")),
        load: consistent(loadEvery(rows, version)).pipe(Effect.withSpan("MarketStore.load")),
        changesSince: Effect.fn("MarketStore.changesSince")((since: number) => Effect.flatMap(version, (v) => changesSince(rows, since, v))),
        loadSymbols: Effect.fn("MarketStore.loadSymbols")((v: number, symbols: ReadonlyArray<string>) => consistent(loadSome(rows, v, symbols))),
        prune: pruneChanges(sql).pipe(Effect.withSpan("MarketStore.prune"))
      }
    })
  )
}
