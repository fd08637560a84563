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
import { projectAll, seriesInChunks, seriesOf } from "./PriceProjection.ts"

const f8 = (c: string) => `${c}::float8 AS ${c.split(".").pop()}`

/** Every row, or only those of some symbols (`$1`). */
export type Scope = { readonly symbols?: ReadonlyArray<string> }
/** A reader over one scope: `where` is the filter on a table's symbol column ("" for every row). */
const scoped = (rows: Reader, scope: Scope) => {
  const where = scope.symbols === undefined ? "" : " WHERE symbol = ANY($1::text[])"
  const params = scope.symbols === undefined ? [] : [scope.symbols]
  return <S extends Schema.Codec<any, any>>(schema: S, query: (where: string) => string) =>
    rows(schema, query(where), params)
}
type ScopedReader = ReturnType<typeof scoped>

/**
 * Where a query reads a market table from: the table itself (the read model), or a subquery of its
 * rows as known at an instant, aliased as the table (PointInTimeStore.ts).
 */
export type Source = (table: string) => string
const live: Source = (table) => table

/** The small whole tables: the data pack installed, datasets, sectors, index levels and closes. */
const catalogueRows = (rows: Reader, from: Source = live) =>
  Effect.gen(function*() {
    const dataPack = yield* rows(
      Schema.Struct({ v: Schema.String }),
      `SELECT value #>> '{}' AS v FROM ${from("service_meta")} WHERE key = 'data_pack'`
    )
    return {
      dataPack: dataPack[0]?.v,
      datasets: yield* rows(
        R.DatasetRow,
        `SELECT id, title, source, upstream, repository, commit, licence, recorded_at, as_of,
              retrieved_at, ${
          iso("loaded_at")
        } AS loaded_at, rows::float8 AS rows, notes, coverage_symbols::float8 AS coverage_symbols,
              coverage_first::text, coverage_last::text
       FROM ${from("datasets")} ORDER BY id`
      ),
      sectors: yield* rows(R.SectorRow, `SELECT code, name, dataset FROM ${from("sectors")}`),
      indexLevels: yield* rows(
        R.IndexLevelRow,
        `SELECT code, name, ${f8("level")}, ${f8("previous")}, as_of::text, previous_date::text, dataset FROM ${
          from("index_levels")
        }`
      ),
      indexCloses: yield* rows(
        R.IndexCloseRow,
        `SELECT code, date::text, ${f8("close")}, dataset FROM ${from("index_closes")} ORDER BY code, date`
      )
    }
  })

/** Listed securities and index membership. */
const listingRows = (rows: ScopedReader, from: Source = live) =>
  Effect.gen(function*() {
    return {
      securities: yield* rows(
        R.SecurityRow,
        (w) =>
          `SELECT symbol, name, sector_code, sector_name, security_type, search_text, dataset, delisted_on::text FROM ${
            from("securities")
          }${w}`
      ),
      membership: yield* rows(
        R.MembershipRow,
        (w) =>
          `SELECT index_code, symbol, effective_date::text, ${f8("weight_pct")}, dataset FROM ${
            from("index_membership")
          }${w}`
      )
    }
  })

/** Prices and company figures: disagreements between price sources, quotes, fundamentals and profiles. */
const quoteRows = (rows: ScopedReader, from: Source = live) =>
  Effect.gen(function*() {
    return {
      disagreements: yield* rows(
        R.DisagreementRow,
        (w) =>
          `SELECT symbol, ${f8("factor")}, ${f8("points")}, ${
            f8("agreeing")
          }, first_date::text, last_date::text, dataset
       FROM ${from("price_disagreements")}${w}`
      ),
      quotes: yield* rows(
        R.QuoteRow,
        (w) =>
          `SELECT symbol, ${f8("price")}, ${f8("previous_close")}, ${f8("open")}, ${f8("high")}, ${f8("low")}, ${
            f8("change")
          },
              ${f8("change_pct")}, ${f8("volume")}, ${iso("as_of")} AS as_of, basis, dataset FROM ${from("quotes")}${w}`
      ),
      fundamentals: yield* rows(
        R.FundamentalsRow,
        (w) =>
          `SELECT symbol, ${
            [
              "market_cap",
              "price",
              "change_pct",
              "change_year_pct",
              "pe_ttm",
              "dividend_yield_pct",
              "free_float_shares",
              "volume_30d_avg",
              "shares_outstanding",
              "face_value",
              "eps"
            ].map(f8).join(", ")
          }, listed_in, as_of, dataset FROM ${from("fundamentals")}${w}`
      ),
      profiles: yield* rows(
        R.ProfileRow,
        (w) =>
          `SELECT symbol, description, fiscal_year_end, ${
            ["shares", "free_float_shares", "free_float_pct", "market_cap", "week52_low", "week52_high"].map(f8).join(
              ", "
            )
          }, ${iso("as_of")} AS as_of, dataset FROM ${from("company_profiles")}${w}`
      )
    }
  })

/** What companies report and announce: financial lines, ratios, payouts, corporate actions and announcements. */
const companyRows = (rows: ScopedReader, from: Source = live) =>
  Effect.gen(function*() {
    return {
      financialLines: yield* rows(
        R.FinancialLineRow,
        (w) =>
          `SELECT symbol, period_type, period, fiscal_year::float8 AS fiscal_year, quarter::float8 AS quarter, line,
              ${f8("value")}, units, dataset
       FROM ${
            from("financial_lines")
          }${w} ORDER BY symbol, period_type, fiscal_year DESC NULLS LAST, quarter DESC NULLS LAST, line`
      ),
      ratios: yield* rows(R.RatioRow, (w) =>
        `SELECT symbol, period, name, ${f8("value")}, dataset FROM ${from("company_ratios")}${w}`),
      payouts: yield* rows(
        R.PayoutRow,
        (w) =>
          `SELECT id, symbol, ${iso("announced_at")} AS announced_at, period_end::text, period_type, details, kind,
              ${f8("percent")}, ${
            f8("amount_per_share")
          }, sequence, book_closure_from::text, book_closure_to::text, dataset
       FROM ${from("payouts")}${w} ORDER BY symbol, id`
      ),
      payoutCoverage: yield* rows(
        R.PayoutCoverageRow,
        (w) =>
          `SELECT symbol, coverage, data_coverage_start::text, dataset FROM ${from("payout_coverage")}${w}`
      ),
      actions: yield* rows(
        R.ActionRow,
        (w) =>
          `SELECT id, symbol, kind, ex_date::text, ${f8("ratio")}, details, dataset FROM ${
            from("corporate_actions")
          }${w}`
      ),
      announcements: yield* rows(
        R.AnnouncementRow,
        (w) =>
          `SELECT id, symbol, company_name, published_on::text, ${
            iso("published_at")
          } AS published_at, title, document_url, image_url,
       revoked, dataset FROM ${from("announcements")}${w}`
      )
    }
  })

/** News, whole (a story may carry no symbol). */
const newsRows = (rows: Reader, from: Source = live) =>
  rows(
    R.NewsRow,
    `SELECT id, symbol, title, url, ${
      iso("published_at")
    } AS published_at, event_date::text, republished, dataset, source_keywords FROM ${from("news_items")}`
  )

/** Every market row (the whole snapshot's input), each table read from `from`, with these price series. */
export const loadEveryFrom = <E>(
  rows: Reader,
  version: Effect.Effect<number, SourceUnavailable>,
  from: Source,
  series: Effect.Effect<ReadonlyArray<R.PriceSeriesRow>, E>
) =>
  Effect.gen(function*() {
    const every = scoped(rows, {})
    return {
      version: yield* version,
      ...(yield* catalogueRows(rows, from)),
      ...(yield* listingRows(every, from)),
      ...(yield* quoteRows(every, from)),
      ...(yield* companyRows(every, from)),
      news: yield* newsRows(rows, from),
      series: yield* series
    } satisfies R.StoreRows
  })

/** Every market row as the store holds it now. */
const loadEvery = (rows: Reader, version: Effect.Effect<number, SourceUnavailable>) =>
  loadEveryFrom(rows, version, live, seriesInChunks(rows))

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

/**
 * On PostgreSQL, one consistent view of every table (a concurrent ingest shows in the next build, whole). The
 * embedded store has one connection: a transaction there would hold every other request for the whole load, so
 * its tables are read one short query at a time; a write in between moves the version, and the next poll
 * rebuilds.
 */
export const consistentOn =
  (sql: SqlClient.SqlClient, mode: string) =>
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
  readonly loadSymbols: (
    version: number,
    symbols: ReadonlyArray<string>
  ) => Effect.Effect<R.StoreRows, SourceUnavailable>
  /** Drops change-log rows older than a day. */
  readonly prune: Effect.Effect<void, SourceUnavailable>
}>()("psx/market/MarketStore") {
  static readonly layer = Layer.effect(
    MarketStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const consistent = consistentOn(sql, (yield* Database).mode)
      const rows = makeReader(sql)
      const version = rows(
        Schema.Struct({ version: Schema.Finite }),
        `SELECT version::float8 AS version FROM market_version`
      ).pipe(
        Effect.map((r) => r[0]?.version ?? 0),
        Effect.withSpan("MarketStore.version")
      )
      return {
        version,
        projectPrices: projectAll(sql, rows).pipe(Effect.withSpan("MarketStore.projectPrices")),
        load: consistent(loadEvery(rows, version)).pipe(Effect.withSpan("MarketStore.load")),
        changesSince: Effect.fn("MarketStore.changesSince")((since: number) =>
          Effect.flatMap(version, (v) => changesSince(rows, since, v))
        ),
        loadSymbols: Effect.fn("MarketStore.loadSymbols")((v: number, symbols: ReadonlyArray<string>) =>
          consistent(loadSome(rows, v, symbols))
        ),
        prune: pruneChanges(sql).pipe(Effect.withSpan("MarketStore.prune"))
      }
    })
  )
}
