/**
 * Dataset freshness and coverage, per-symbol provenance, and warming of the
 * fundamentals projection.
 *
 * The fundamentals projection has one row per listed equity: the screener
 * snapshot and company-page facts as recorded, plus the latest delayed price.
 * A row is stale when it was never warmed or was warmed more than a day ago.
 * Warming rebuilds up to `n` such rows (oldest first) from what the store
 * holds; nothing is estimated, so a symbol with no recorded figures gets a
 * row with only what is known.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { DataNotFound, InvalidSymbol, SourceUnavailable } from "../../domain/Errors.ts"
import type { Freshness as FreshnessRecord, IngestResult, SymbolSources } from "../../domain/market/Schemas.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { Filings } from "./Filings.ts"
import { num, present, storeUnavailable } from "../db/Rows.ts"
import { Sources } from "./Sources.ts"

export class Freshness extends Context.Service<Freshness, {
  readonly freshness: Effect.Effect<typeof FreshnessRecord.Type, SourceUnavailable>
  readonly symbolSources: (symbol: string) => Effect.Effect<typeof SymbolSources.Type, InvalidSymbol | DataNotFound | SourceUnavailable>
  readonly warmFundamentals: (n: number) => Effect.Effect<typeof IngestResult.Type, SourceUnavailable>
}>()("psx/market/Freshness") {
  static readonly layer = Layer.effect(
    Freshness,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sources = yield* Sources
      const filings = yield* Filings
      const config = yield* AppConfig

      const freshness = Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sources.all
        const installed = yield* sql<{ v: string }>`select value #>> '{}' as v from service_meta where key = 'data_pack'`.pipe(
          storeUnavailable
        )
        return {
          now: new Date(now).toISOString(),
          source_mode: config.source,
          ...(installed[0] ? { data_pack: installed[0].v } : {}),
          datasets: rows.map((d) => {
            const asOfMs = Date.parse(d.as_of.length === 7 ? `${d.as_of}-01` : d.as_of)
            return {
              dataset: d.id,
              title: d.title,
              source: d.source,
              upstream: d.upstream,
              rows: d.rows,
              as_of: d.as_of,
              retrieved_at: d.retrieved_at,
              recorded_in: `${d.repository}@${d.commit}`,
              licence: d.licence,
              ...present({
                symbols: d.coverage_symbols,
                first_date: d.coverage_first,
                last_date: d.coverage_last,
                age_days: Number.isFinite(asOfMs) ? Math.floor((now - asOfMs) / 86_400_000) : undefined,
                notes: d.notes
              })
            }
          })
        }
      })

      const symbolSources = Effect.fn("Freshness.symbolSources")(function*(raw: string) {
        const symbol = yield* filings.requireListed(raw)
        const rows = yield* sql.unsafe<Record<string, unknown>>(
          `SELECT 'prices' AS area, dataset, count(*)::int AS n, min(date)::text AS first, max(date)::text AS last
             FROM daily_prices WHERE symbol = $1 GROUP BY dataset
           UNION ALL SELECT 'quote', dataset, 1, as_of::date::text, as_of::date::text FROM quotes WHERE symbol = $1
           UNION ALL SELECT 'fundamentals', dataset, 1, NULL, NULL FROM fundamentals WHERE symbol = $1
           UNION ALL SELECT 'profile', dataset, 1, NULL, NULL FROM company_profiles WHERE symbol = $1
           UNION ALL SELECT 'financials', dataset, count(*)::int, NULL, NULL FROM financial_lines WHERE symbol = $1 GROUP BY dataset
           UNION ALL SELECT 'dividends', dataset, count(*)::int, min(book_closure_from)::text, max(book_closure_from)::text
             FROM payouts WHERE symbol = $1 GROUP BY dataset
           UNION ALL SELECT 'corporate_actions', dataset, count(*)::int, min(ex_date)::text, max(ex_date)::text
             FROM corporate_actions WHERE symbol = $1 GROUP BY dataset
           UNION ALL SELECT 'announcements', dataset, count(*)::int, min(published_at)::date::text, max(published_at)::date::text
             FROM announcements WHERE symbol = $1 GROUP BY dataset
           UNION ALL SELECT 'index_membership', dataset, 1, effective_date::text, effective_date::text
             FROM index_membership WHERE symbol = $1
           UNION ALL SELECT 'universe', dataset, 1, NULL, NULL FROM securities WHERE symbol = $1`,
          [symbol]
        ).pipe(storeUnavailable)
        const areas = ["universe", "quote", "prices", "fundamentals", "profile", "financials", "dividends", "corporate_actions", "announcements", "index_membership", "news"]
        const out = []
        for (const area of areas) {
          const mine = rows.filter((r) => r["area"] === area)
          const firsts = mine.map((r) => r["first"]).filter((x): x is string => typeof x === "string").sort()
          const lasts = mine.map((r) => r["last"]).filter((x): x is string => typeof x === "string").sort()
          out.push({
            area,
            coverage: mine.length > 0 ? "recorded" as const : "unknown" as const,
            rows: mine.reduce((n, r) => n + (num(r["n"]) ?? 0), 0),
            ...present({ first_date: firsts[0], last_date: lasts[lasts.length - 1] }),
            sources: yield* sources.of([...new Set(mine.map((r) => String(r["dataset"])))])
          })
        }
        return {
          symbol,
          areas: out,
          notice: "Market data © Pakistan Stock Exchange; redistribution is restricted by the exchange's legal notice. " +
            "Each source names the recording it was read from and when."
        }
      })

      const warmFundamentals = Effect.fn("Freshness.warmFundamentals")(function*(n: number) {
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        const stale = `s.security_type = 'equity' AND (f.symbol IS NULL OR f.warmed_at IS NULL OR f.warmed_at < $1::timestamptz - interval '1 day')`
        const batch = yield* sql.unsafe<{ symbol: string }>(
          `SELECT s.symbol FROM securities s LEFT JOIN fundamentals f ON f.symbol = s.symbol
           WHERE ${stale} ORDER BY f.warmed_at NULLS FIRST, s.symbol LIMIT ${n}`,
          [now]
        ).pipe(storeUnavailable)
        const symbols = batch.map((b) => b.symbol)
        if (symbols.length > 0) {
          yield* sql.unsafe(
            `INSERT INTO fundamentals (symbol, price, as_of, dataset, warmed_at)
             SELECT s.symbol, q.price, coalesce(q.as_of::date::text, 'unknown'), coalesce(q.dataset, 'universe'), $2::timestamptz
             FROM securities s LEFT JOIN quotes q ON q.symbol = s.symbol
             WHERE s.symbol = ANY($1::text[])
             ON CONFLICT (symbol) DO UPDATE SET warmed_at = excluded.warmed_at`,
            [symbols, now]
          ).pipe(storeUnavailable)
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
          source: config.source === "portal" ? "portal" : "data pack (recorded screener, company facts, latest delayed quote)",
          symbols
        }
      })

      return { freshness, symbolSources, warmFundamentals }
    })
  )
}
