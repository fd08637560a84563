/**
 * What `GET /v1/ingest/fundamentals?n=` does, chosen where the service is
 * composed: `pack` fetches nothing; it takes the n equities whose fundamentals
 * row is missing or was checked over a day ago (oldest first), creates missing
 * rows from the latest recorded quote (price and date; neither without one)
 * and stamps the batch as checked (`warmed_at`), never changing a recorded
 * figure. `live` fetches company pages and payouts through the crawler in
 * portal mode (LivePrefetch.ts) and works as `pack` otherwise.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import type { IngestResult } from "../../../domain/market/shared/Schemas.ts"
import { AppConfig } from "../../config/AppConfig.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import { makeLivePrefetch } from "../../ingest/LivePrefetch.ts"
import { marketTransaction } from "../../ingest/MarketWrite.ts"
import { PortalCrawler } from "../../ingest/PortalCrawler.ts"

/** Pack mode's prefetch: the n stalest equities get a row from their latest recorded quote or a new check stamp. */
const prefetchFromPack = (sql: SqlClient.SqlClient, source: string) =>
  Effect.fn("FundamentalsPrefetch.fromPack")(function*(n: number) {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const stale =
      `s.security_type = 'equity' AND (f.symbol IS NULL OR f.warmed_at IS NULL OR f.warmed_at < $1::timestamptz - interval '1 day')`
    const batch = yield* sql.unsafe<{ symbol: string }>(
      `SELECT s.symbol FROM securities s LEFT JOIN fundamentals f ON f.symbol = s.symbol
     WHERE ${stale} ORDER BY f.warmed_at NULLS FIRST, s.symbol LIMIT ${n}`,
      [now]
    ).pipe(storeUnavailable)
    const symbols = batch.map((b) => b.symbol)
    if (symbols.length > 0) {
      yield* marketTransaction(sql.unsafe(
        `INSERT INTO fundamentals (symbol, price, as_of, dataset, warmed_at)
       SELECT s.symbol, q.price, q.as_of::date::text, coalesce(q.dataset, 'universe'), $2::timestamptz
       FROM securities s LEFT JOIN quotes q ON q.symbol = s.symbol
       WHERE s.symbol = ANY($1::text[])
       ON CONFLICT (symbol) DO UPDATE SET warmed_at = excluded.warmed_at`,
        [symbols, now]
      )).pipe(Effect.provideService(SqlClient.SqlClient, sql), storeUnavailable)
    }
    const counts = yield* sql.unsafe<{ remaining: number; universe: number }>(
      `SELECT count(*) FILTER (WHERE ${stale})::int AS remaining, count(*) FILTER (WHERE s.security_type = 'equity')::int AS universe
     FROM securities s LEFT JOIN fundamentals f ON f.symbol = s.symbol`,
      [now]
    ).pipe(storeUnavailable)
    return {
      warmed: symbols.length,
      batch: n,
      remaining: counts[0]?.remaining ?? 0,
      universe: counts[0]?.universe ?? 0,
      source: source === "portal"
        ? "portal (recorded screener and company facts; rows created from the latest delayed quote)"
        : "data pack: nothing newer to fetch; missing rows created from the latest recorded quote, existing rows stamped as checked",
      symbols
    }
  })

export class FundamentalsPrefetch extends Context.Service<FundamentalsPrefetch, {
  /** Prefetches the n stalest or missing symbols (n ≤ 40, checked by the route). */
  readonly prefetch: (n: number) => Effect.Effect<typeof IngestResult.Type, SourceUnavailable>
}>()("psx/market/FundamentalsPrefetch") {
  /** For a process with no crawler (pack mode, the stdio MCP server, tests of the pack). */
  static readonly pack = Layer.effect(
    FundamentalsPrefetch,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      return { prefetch: prefetchFromPack(sql, config.source) }
    })
  )

  /** With the crawler: live fetches in portal mode, the pack prefetch otherwise. */
  static readonly live = Layer.effect(
    FundamentalsPrefetch,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const pack = prefetchFromPack(sql, config.source)
      const live = yield* makeLivePrefetch(yield* PortalCrawler)
      return {
        prefetch: (n: number) =>
          config.source === "portal"
            ? live(n).pipe(Effect.provideService(SqlClient.SqlClient, sql), storeUnavailable)
            : pack(n)
      }
    })
  )
}
