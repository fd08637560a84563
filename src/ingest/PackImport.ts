/**
 * Imports the bundled data pack into the store: idempotent upserts in
 * batches, provenance for every dataset, a progress display, and a summary
 * of rows read, written and skipped (with reasons).
 *
 * Owns: turning pack datasets into table rows. Derived rows (quotes from the
 * latest close, corporate actions from ex-markers and payouts) are computed
 * here from recorded rows only; nothing is estimated.
 */
import { Clock, Context, Effect, Layer, Ref } from "effect"
import { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../domain/Errors.ts"
import { decodeSeries, type EncodedSeries, type PackManifest } from "../../domain/pack/Pack.ts"
import type { Announcement, PayoutRow } from "../../domain/psx/Filings.ts"
import type { CompanyPage } from "../../domain/psx/CompanyPage.ts"
import type { IndexConstituent, ListedSymbol, ScreenerRow, Sector } from "../../domain/psx/Listing.ts"
import type { PriceRow, SummaryRow } from "../../domain/psx/Prices.ts"
import { DataPack } from "../sources/DataPack.ts"
import { upsert } from "./Bulk.ts"
import {
  announcementRow,
  announcementsTable,
  datasetsTable,
  fundamentalsRow,
  fundamentalsTable,
  payoutCoverageRows,
  payoutCoverageTable,
  payoutRows,
  payoutsTable,
  securitiesTable,
  securityRow
} from "./Tables.ts"
import { makeProgress, type StepSummary } from "./Progress.ts"

export type ImportState = "not_started" | "importing" | "installed" | "failed"

export interface ImportSummary {
  readonly packVersion: string
  readonly imported: boolean
  readonly steps: ReadonlyArray<StepSummary>
  readonly seconds: number
}

interface Disagreements {
  readonly disagreements: ReadonlyArray<{
    symbol: string
    factor: number
    points: number
    agreeing: number
    from: string
    to: string
  }>
  readonly glitchDays: ReadonlyArray<{ date: string; symbols: number; affected: ReadonlyArray<string> }>
}

const KSE100_EFFECTIVE = "2026-04-01"

export class PackImport extends Context.Service<PackImport, {
  /** The pack version the store holds, if any. */
  readonly installedVersion: Effect.Effect<string | undefined>
  /** Imports the pack unless the store already holds this version (or `force`). */
  readonly run: (options?: { readonly force?: boolean }) => Effect.Effect<ImportSummary, SourceUnavailable>
  /** Where this process stands with the pack. */
  readonly state: Effect.Effect<ImportState>
}>()("psx/ingest/PackImport") {
  static readonly layer = Layer.effect(
    PackImport,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pack = yield* DataPack
      const state = yield* Ref.make<ImportState>("not_started")

      const installedVersion = sql<{ value: string }>`select value #>> '{}' as value from service_meta where key = 'data_pack'`
        .pipe(Effect.map((rows) => rows[0]?.value), Effect.orDie)

      const importAll = (manifest: PackManifest) =>
        Effect.gen(function*() {
          const steps: Array<StepSummary> = []
          const get = <A>(id: string) => pack.dataset(id) as Effect.Effect<A, SourceUnavailable>
          const step = (dataset: string, read: number, written: number, skipped: Record<string, number> = {}) => {
            const s = { dataset, read, written, skipped }
            steps.push(s)
            return Effect.logInfo({ msg: "imported", ...s })
          }
          const now = new Date(yield* Clock.currentTimeMillis).toISOString()

          // Provenance first: every row below names one of these.
          yield* upsert(datasetsTable, manifest.datasets.map((d) => ({
            id: d.id, title: d.title, source: d.source, upstream: d.upstream, path: d.path,
            repository: d.repository, commit: d.commit, licence: d.licence, recorded_at: d.recordedAt,
            as_of: d.asOf, retrieved_at: now, rows: d.rows, skipped: d.skipped, notes: d.notes ?? null,
            pack_version: manifest.version
          })))

          const sectors = yield* get<ReadonlyArray<Sector>>("sectors")
          yield* upsert({ table: "sectors", columns: { code: "text", name: "text", dataset: "text" }, key: ["code"] },
            sectors.map((s) => ({ ...s, dataset: "sectors" })))
          yield* step("sectors", sectors.length, sectors.length)

          const universe = yield* get<ReadonlyArray<ListedSymbol & { sectorCode?: string }>>("universe")
          const codeByName = new Map(sectors.map((s) => [s.name, s.code]))
          const nameByCode = new Map(sectors.map((s) => [s.code, s.name]))
          yield* upsert(securitiesTable, universe.map((s) => securityRow(s, { codeByName, nameByCode }, "universe")))
          yield* step("universe", universe.length, universe.length)

          const kse100 = yield* get<ReadonlyArray<IndexConstituent>>("index_kse100")
          const allshr = yield* get<ReadonlyArray<IndexConstituent>>("board_allshr")
          const membership = [
            ...kse100.map((c) => ({ index_code: "KSE100", effective_date: KSE100_EFFECTIVE, c, dataset: "index_kse100" })),
            ...allshr.map((c) => ({ index_code: "ALLSHR", effective_date: "2026-04-08", c, dataset: "board_allshr" }))
          ].map(({ c, ...rest }) => ({
            ...rest,
            symbol: c.symbol,
            weight_pct: c.weightPct ?? null,
            free_float_shares: c.freeFloatShares ?? null,
            market_cap: c.marketCap ?? null
          }))
          yield* upsert({
            table: "index_membership",
            columns: {
              index_code: "text", symbol: "text", effective_date: "date", weight_pct: "numeric",
              free_float_shares: "numeric", market_cap: "numeric", dataset: "text"
            },
            key: ["index_code", "symbol", "effective_date"]
          }, membership)
          yield* step("index_membership", membership.length, membership.length)

          const levels = yield* get<ReadonlyArray<{ code: string; name: string; date: string; level: number; previous?: number; previousDate?: string }>>(
            "index_levels"
          )
          yield* upsert({
            table: "index_levels",
            columns: {
              code: "text", name: "text", level: "numeric", previous: "numeric", as_of: "date",
              previous_date: "date", dataset: "text"
            },
            key: ["code"]
          }, levels.map((l) => ({
            code: l.code, name: l.name, level: l.level, previous: l.previous ?? null, as_of: l.date,
            previous_date: l.previousDate ?? null, dataset: "index_levels"
          })))
          yield* step("index_levels", levels.length, levels.length)

          // ---------------------------------------------------------- prices
          const diff = yield* get<Disagreements>("price_disagreements")
          const glitch = new Map<string, Set<string>>()
          for (const g of diff.glitchDays) for (const s of g.affected) glitch.set(s, (glitch.get(s) ?? new Set()).add(g.date))
          const priceRows: Array<Record<string, unknown>> = []
          const addSeries = (series: "as_traded" | "eod", dataset: string, data: Record<string, EncodedSeries>) => {
            for (const [symbol, enc] of Object.entries(data)) {
              for (const r of decodeSeries(enc)) {
                const flagged = series === "eod" && glitch.get(symbol)?.has(r.date)
                priceRows.push({
                  symbol, series, date: r.date, open: r.open ?? null, high: r.high ?? null, low: r.low ?? null,
                  close: r.close, volume: r.volume ?? null,
                  flag: flagged ? "source_glitch: differs from the as-traded close on a day many symbols did" : null,
                  dataset
                })
              }
            }
          }
          addSeries("eod", "prices_eod", yield* get<Record<string, EncodedSeries>>("prices_eod"))
          addSeries("as_traded", "prices_as_traded", yield* get<Record<string, EncodedSeries>>("prices_as_traded"))
          addSeries("as_traded", "prices_historical_engro", yield* get<Record<string, EncodedSeries>>("prices_historical_engro"))
          const summary = yield* get<ReadonlyArray<SummaryRow>>("market_summary_20210121")
          const haveAsTraded = new Set(priceRows.filter((r) => r["series"] === "as_traded" && r["date"] === "2021-01-21").map((r) => r["symbol"]))
          let summarySkipped = 0
          for (const r of summary) {
            // Recordings agree on that day (verified); keep the first as-traded row.
            if (haveAsTraded.has(r.symbol)) {
              summarySkipped++
              continue
            }
            priceRows.push({
              symbol: r.symbol, series: "as_traded", date: r.date, open: r.open ?? null, high: r.high ?? null,
              low: r.low ?? null, close: r.close, volume: r.volume ?? null, flag: null, dataset: "market_summary_20210121"
            })
          }
          const progress = makeProgress("daily prices", priceRows.length)
          yield* upsert({
            table: "daily_prices",
            columns: {
              symbol: "text", series: "text", date: "date", open: "numeric", high: "numeric", low: "numeric",
              close: "numeric", volume: "numeric", flag: "text", dataset: "text"
            },
            key: ["symbol", "series", "date"],
            batch: 20_000
          }, priceRows, progress.advance)
          yield* step("daily_prices", priceRows.length, priceRows.length,
            summarySkipped > 0 ? { "2021-01-21 already in the as-traded recording": summarySkipped } : {})

          yield* upsert({
            table: "price_disagreements",
            columns: {
              symbol: "text", factor: "numeric", points: "integer", agreeing: "integer", first_date: "date",
              last_date: "date", dataset: "text"
            },
            key: ["symbol"]
          }, diff.disagreements.map((d) => ({
            symbol: d.symbol, factor: d.factor, points: d.points, agreeing: d.agreeing, first_date: d.from,
            last_date: d.to, dataset: "price_disagreements"
          })))
          yield* step("price_disagreements", diff.disagreements.length, diff.disagreements.length)

          // ---------------------------------------------------------- quotes
          // The delayed quote is the newest recorded figure: the all-share
          // board snapshot, or a later daily close.
          yield* sql`
            INSERT INTO quotes (symbol, price, previous_close, open, high, low, change, change_pct, volume, as_of, basis, dataset)
            SELECT p.symbol, p.close, prev.close, p.open, p.high, p.low,
              p.close - prev.close, round((p.close / prev.close - 1) * 100, 4), p.volume,
              (p.date::timestamp + interval '11 hours') AT TIME ZONE 'UTC', 'daily_close', p.dataset
            FROM (
              SELECT DISTINCT ON (symbol) * FROM daily_prices WHERE flag IS NULL
              ORDER BY symbol, date DESC, series = 'as_traded' DESC
            ) p
            LEFT JOIN LATERAL (
              SELECT close FROM daily_prices q
              WHERE q.symbol = p.symbol AND q.series = p.series AND q.date < p.date
              ORDER BY q.date DESC LIMIT 1
            ) prev ON true
            ON CONFLICT (symbol) DO UPDATE SET price = excluded.price, previous_close = excluded.previous_close,
              open = excluded.open, high = excluded.high, low = excluded.low, change = excluded.change,
              change_pct = excluded.change_pct, volume = excluded.volume, as_of = excluded.as_of,
              basis = excluded.basis, dataset = excluded.dataset`
          const board = allshr.filter((c) => c.current !== undefined)
          yield* sql.unsafe(
            `INSERT INTO quotes (symbol, price, previous_close, change, change_pct, volume, as_of, basis, dataset)
             SELECT symbol, current, ldcp, change, change_pct, volume, $2::timestamptz, 'board_snapshot', 'board_allshr'
             FROM jsonb_to_recordset($1::jsonb) AS t(symbol text, current numeric, ldcp numeric, change numeric, change_pct numeric, volume numeric)
             ON CONFLICT (symbol) DO UPDATE SET price = excluded.price, previous_close = excluded.previous_close,
               open = NULL, high = NULL, low = NULL, change = excluded.change, change_pct = excluded.change_pct,
               volume = excluded.volume, as_of = excluded.as_of, basis = excluded.basis, dataset = excluded.dataset
             WHERE quotes.as_of < excluded.as_of`,
            [
              JSON.stringify(board.map((c) => ({
                symbol: c.symbol, current: c.current, ldcp: c.ldcp ?? null, change: c.change ?? null,
                change_pct: c.changePct ?? null, volume: c.volume ?? null
              }))),
              manifest.datasets.find((d) => d.id === "board_allshr")?.asOf ?? "2026-04-08T10:05:00.000Z"
            ]
          )
          const quoteCount = yield* sql<{ n: number }>`select count(*)::int as n from quotes`
          yield* step("quotes (derived)", quoteCount[0]?.n ?? 0, quoteCount[0]?.n ?? 0)

          // ---------------------------------------------------- fundamentals
          const screener = yield* get<ReadonlyArray<ScreenerRow>>("screener")
          const screenerAsOf = manifest.datasets.find((d) => d.id === "screener")?.asOf ?? "2026-04-08"
          const fundamentals = screener.map((s) => fundamentalsRow(s, screenerAsOf, "screener"))
          yield* upsert(fundamentalsTable, fundamentals)
          yield* step("fundamentals", screener.length, fundamentals.length)

          // ------------------------------------------------- company pages
          const pages = yield* get<Record<string, CompanyPage>>("company_pages")
          const pageAsOf = manifest.datasets.find((d) => d.id === "company_pages")?.asOf ?? now
          let lines = 0
          for (const [symbol, p] of Object.entries(pages)) {
            yield* upsert({
              table: "company_profiles",
              columns: {
                symbol: "text", description: "text", fiscal_year_end: "text", shares: "numeric",
                free_float_shares: "numeric", free_float_pct: "numeric", market_cap: "numeric", circuit_low: "numeric",
                circuit_high: "numeric", week52_low: "numeric", week52_high: "numeric", as_of: "timestamptz", dataset: "text"
              },
              key: ["symbol"]
            }, [{
              symbol, description: p.description ?? null, fiscal_year_end: p.fiscalYearEnd ?? null, shares: p.shares ?? null,
              free_float_shares: p.freeFloatShares ?? null, free_float_pct: p.freeFloatPct ?? null,
              market_cap: p.marketCapThousands !== undefined ? p.marketCapThousands * 1000 : null,
              circuit_low: p.circuitLow ?? null, circuit_high: p.circuitHigh ?? null, week52_low: p.week52Low ?? null,
              week52_high: p.week52High ?? null, as_of: pageAsOf, dataset: "company_pages"
            }])
            yield* upsert({
              table: "financial_lines",
              columns: {
                symbol: "text", period_type: "text", period: "text", fiscal_year: "integer", quarter: "integer",
                line: "text", value: "numeric", units: "text", dataset: "text"
              },
              key: ["symbol", "period_type", "period", "line"]
            }, p.statements.map((s) => ({
              symbol, period_type: s.periodType, period: s.period, fiscal_year: s.fiscalYear ?? null,
              quarter: s.quarter ?? null, line: s.line, value: s.value, units: s.units, dataset: "company_pages"
            })))
            yield* upsert({
              table: "company_ratios",
              columns: { symbol: "text", period: "text", name: "text", value: "numeric", dataset: "text" },
              key: ["symbol", "period", "name"]
            }, p.ratios.map((r) => ({ symbol, ...r, dataset: "company_pages" })))
            lines += p.statements.length + p.ratios.length
          }
          yield* step("company_pages", Object.keys(pages).length, lines)

          // -------------------------------------------------------- payouts
          const payouts = yield* get<ReadonlyArray<PayoutRow>>("payouts")
          const payoutRowsOut = payoutRows(payouts, "payouts")
          yield* upsert(payoutsTable, payoutRowsOut)
          yield* upsert(payoutCoverageTable, payoutCoverageRows(payouts, "payouts"))
          yield* step("payouts", payouts.length, payoutRowsOut.length)

          // ---------------------------------------------- corporate actions
          const actions = [
            ...summary.flatMap((r) =>
              r.exMarkers.map((m) => ({
                id: `ex-${r.symbol}-${r.date}-${m}`, symbol: r.symbol,
                kind: m === "XD" ? "ex_dividend" : m === "XB" ? "ex_bonus" : "ex_right",
                ex_date: r.date, ratio: null,
                details: `${m} marker on the exchange's market summary for ${r.date}`, dataset: "market_summary_20210121"
              }))
            ),
            ...payoutRowsOut.filter((p) => p.kind !== "cash").map((p) => ({
              id: `payout-${p.id}`, symbol: p.symbol, kind: p.kind, ex_date: p.book_closure_from,
              ratio: p.percent !== null ? p.percent / 100 : null,
              details: `${p.details} (book closure ${p.book_closure_from ?? "?"} to ${p.book_closure_to ?? "?"})`,
              dataset: "payouts"
            })),
            ...payoutRowsOut.filter((p) => p.kind === "cash").map((p) => ({
              id: `payout-${p.id}`, symbol: p.symbol, kind: "cash_dividend", ex_date: p.book_closure_from, ratio: null,
              details: `${p.details} (book closure ${p.book_closure_from ?? "?"} to ${p.book_closure_to ?? "?"})`,
              dataset: "payouts"
            })),
            ...diff.disagreements.map((d) => ({
              id: `restated-${d.symbol}`, symbol: d.symbol, kind: "restatement", ex_date: null, ratio: d.factor,
              details: `The exchange's eod series is ${d.factor} × the as-traded closes over ${d.points} shared days ` +
                `(${d.from} to ${d.to}): a split or consolidation after 2023-05-26 whose notice is not recorded; date unknown.`,
              dataset: "price_disagreements"
            }))
          ]
          yield* upsert({
            table: "corporate_actions",
            columns: { id: "text", symbol: "text", kind: "text", ex_date: "date", ratio: "numeric", details: "text", dataset: "text" },
            key: ["id"]
          }, actions)
          yield* step("corporate_actions (derived)", actions.length, actions.length)

          // --------------------------------------------------- announcements
          const anns = yield* get<ReadonlyArray<Announcement>>("announcements")
          yield* upsert(announcementsTable, anns.map((a) => announcementRow(a, "announcements")))
          yield* step("announcements", anns.length, anns.length)

          // Coverage per dataset, for /v1/freshness.
          yield* sql`
            UPDATE datasets d SET coverage_symbols = c.symbols, coverage_first = c.first, coverage_last = c.last
            FROM (
              SELECT dataset, count(DISTINCT symbol)::int AS symbols, min(date) AS first, max(date) AS last FROM daily_prices GROUP BY dataset
              UNION ALL SELECT dataset, count(DISTINCT symbol)::int, NULL, NULL FROM securities GROUP BY dataset
              UNION ALL SELECT dataset, count(DISTINCT symbol)::int, NULL, NULL FROM fundamentals GROUP BY dataset
              UNION ALL SELECT dataset, count(DISTINCT symbol)::int, min(effective_date), max(effective_date) FROM index_membership GROUP BY dataset
              UNION ALL SELECT dataset, count(DISTINCT symbol)::int, min(book_closure_from), max(book_closure_from) FROM payouts GROUP BY dataset
              UNION ALL SELECT dataset, count(DISTINCT symbol)::int, min(published_at)::date, max(published_at)::date FROM announcements GROUP BY dataset
              UNION ALL SELECT dataset, count(DISTINCT code)::int, min(as_of), max(as_of) FROM index_levels GROUP BY dataset
              UNION ALL SELECT dataset, count(DISTINCT symbol)::int, NULL, NULL FROM company_profiles GROUP BY dataset
            ) c WHERE c.dataset = d.id`

          yield* sql`
            INSERT INTO service_meta (key, value, updated_at) VALUES ('data_pack', ${JSON.stringify(manifest.version)}::jsonb, now())
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`
          return steps
        })

      const run = Effect.fn("PackImport.run")(function*(options?: { readonly force?: boolean }) {
        const started = yield* Clock.currentTimeMillis
        const manifest = yield* pack.manifest
        const installed = yield* installedVersion
        if (installed === manifest.version && options?.force !== true) {
          yield* Ref.set(state, "installed")
          return { packVersion: manifest.version, imported: false, steps: [], seconds: 0 } satisfies ImportSummary
        }
        yield* Effect.logInfo({ msg: "importing the data pack", version: manifest.version, installed: installed ?? null })
        // Not one transaction: on the embedded store an open transaction
        // blocks every other connection, and the import takes seconds. Each
        // batch is an idempotent upsert, and the version marker is written
        // last, so an interrupted import is simply run again.
        yield* Ref.set(state, "importing")
        const steps = yield* importAll(manifest).pipe(
          Effect.provideService(SqlClient.SqlClient, sql),
          Effect.catchTag("SqlError", (e) => Effect.die(e)),
          Effect.onExit((exit) => Ref.set(state, exit._tag === "Success" ? "installed" : "failed"))
        )
        const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
        yield* Effect.logInfo({
          msg: "data pack imported",
          version: manifest.version,
          seconds,
          rows: steps.reduce((n, s) => n + s.written, 0)
        })
        return { packVersion: manifest.version, imported: true, steps, seconds } satisfies ImportSummary
      })

      return { installedVersion, run, state: Ref.get(state) }
    })
  )
}
