/**
 * The status of every dataset (provenance, coverage, age) and of the live
 * crawl, each symbol's sources per data area, all read from the read model;
 * and the fundamentals prefetch (FundamentalsPrefetch.ts), a write in SQL.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { DataNotFound, InvalidSymbol, SourceUnavailable } from "../../../domain/Errors.ts"
import { karachiDate, wholeDays } from "../../../domain/Karachi.ts"
import { recordedIn } from "../../../domain/market/shared/RecordParts.ts"
import type { FreshnessAnswer, IngestResult, SymbolSources } from "../../../domain/market/shared/Schemas.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import type { DatasetRow } from "../../../domain/market/snapshot/StoreRows.ts"
import { newsEventsOf } from "../../../domain/news/NewsSchemas.ts"
import { defined } from "../../../domain/Objects.ts"
import { AppConfig } from "../../config/AppConfig.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import { crawlProgress } from "../../ingest/LivePrefetch.ts"
import { listed } from "../filings/Filings.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { FundamentalsPrefetch } from "./FundamentalsPrefetch.ts"
import { sourcesOf } from "./Provenance.ts"

const AREAS = [
  "universe",
  "quote",
  "prices",
  "fundamentals",
  "profile",
  "financials",
  "dividends",
  "corporate_actions",
  "announcements",
  "index_membership",
  "news"
]

/** A symbol's news coverage: the events tagged with it, per dataset, with their first and last publication days. */
const newsCoverage = (snapshot: MarketSnapshot, symbol: string) => {
  const byDataset = new Map<string, { dataset: string; rows: number; first?: string; last?: string }>()
  for (const e of newsEventsOf(snapshot.news.filter((n) => n.symbol === symbol))) {
    const day = karachiDate(Date.parse(e.published_at))
    for (const dataset of e.datasets) {
      const c = byDataset.get(dataset) ?? { dataset, rows: 0 }
      byDataset.set(dataset, {
        dataset,
        rows: c.rows + 1,
        first: c.first === undefined || day < c.first ? day : c.first,
        last: c.last === undefined || day > c.last ? day : c.last
      })
    }
  }
  return [...byDataset.values()]
}

/** One dataset's provenance and age (a month-only as-of counts from the 1st). */
const datasetStatus = (d: DatasetRow, now: number) => {
  const asOfMs = Date.parse(d.as_of.length === 7 ? `${d.as_of}-01` : d.as_of)
  return {
    dataset: d.id,
    title: d.title,
    source: d.source,
    upstream: d.upstream,
    rows: d.rows,
    as_of: d.as_of,
    retrieved_at: d.retrieved_at,
    loaded_at: d.loaded_at,
    recorded_in: recordedIn(d.repository, d.commit),
    licence: d.licence,
    ...defined({ symbols: d.coverage_symbols, first_date: d.coverage_first, last_date: d.coverage_last }),
    ...(Number.isFinite(asOfMs) ? { age_days: wholeDays(asOfMs, now) } : {}),
    ...defined({ notes: d.notes })
  }
}

/** What one data area of a symbol holds: coverage, row count, first and last dates, sources. */
const areaSources = (snapshot: MarketSnapshot, data: SymbolData, area: string) => {
  const mine = area === "news" ? newsCoverage(snapshot, data.security.symbol) : data.areas.get(area) ?? []
  const firsts = mine.flatMap((r) => (r.first !== undefined ? [r.first] : [])).sort()
  const lasts = mine.flatMap((r) => (r.last !== undefined ? [r.last] : [])).sort()
  return {
    area,
    coverage: mine.length > 0 ? "recorded" as const : "unknown" as const,
    rows: mine.reduce((n, r) => n + r.rows, 0),
    ...defined({ first_date: firsts[0] }),
    ...(lasts.length > 0 ? { last_date: lasts[lasts.length - 1]! } : {}),
    sources: sourcesOf(snapshot, mine.map((r) => r.dataset))
  }
}

export class DatasetStatus extends Context.Service<DatasetStatus, {
  /** The answer of GET /v1/freshness. */
  readonly status: Effect.Effect<typeof FreshnessAnswer.Type, SourceUnavailable>
  readonly symbolSources: (
    symbol: string
  ) => Effect.Effect<typeof SymbolSources.Type, InvalidSymbol | DataNotFound | SourceUnavailable>
  readonly prefetchFundamentals: (n: number) => Effect.Effect<typeof IngestResult.Type, SourceUnavailable>
}>()("psx/market/DatasetStatus") {
  static readonly layer = Layer.effect(
    DatasetStatus,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const model = yield* MarketReadModel
      const config = yield* AppConfig
      const prefetch = yield* FundamentalsPrefetch

      const status = Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const snapshot = yield* model.snapshot
        // The crawl's own state is not market data (it is not in the read model): one small query, portal mode only.
        const crawl = config.source === "portal"
          ? yield* crawlProgress(now).pipe(Effect.provideService(SqlClient.SqlClient, sql), storeUnavailable)
          : undefined
        return {
          now: new Date(now).toISOString(),
          source_mode: config.source,
          ...defined({ crawl, data_pack: snapshot.dataPack }),
          datasets: [...snapshot.datasets.values()].map((d) => datasetStatus(d, now))
        }
      })

      const symbolSources = Effect.fn("DatasetStatus.symbolSources")(function*(raw: string) {
        const snapshot = yield* model.snapshot
        const data = yield* listed(snapshot, raw)
        const areas = AREAS.map((area) => areaSources(snapshot, data, area))
        return {
          symbol: data.security.symbol,
          areas,
          notice:
            "Market data © Pakistan Stock Exchange; redistribution is restricted by the exchange's legal notice. " +
            "Each source names the recording it was read from and when."
        }
      })

      const prefetchFundamentals = prefetch.prefetch

      return { status, symbolSources, prefetchFundamentals }
    })
  )
}
