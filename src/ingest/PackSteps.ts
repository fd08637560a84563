/**
 * The pack import as a table of steps: each step reads its datasets from the
 * pack (decoded), writes its tables with idempotent upserts and says what it
 * read, wrote and skipped. Derived rows (quotes from the latest close,
 * corporate actions from ex-markers and payouts) come from recorded rows
 * only; every date a row carries comes from the manifest, never a constant.
 */
import { Effect, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { SourceUnavailable } from "../../domain/Errors.ts"
import type { PackDataset, PackDatasetId } from "../../domain/pack/Datasets.ts"
import { decodeSeries, type PackManifest, type PackProvenance } from "../../domain/pack/Pack.ts"
import { decodeRows, upsert } from "./Bulk.ts"
import { makeProgress, type StepSummary } from "./Progress.ts"
import {
  announcementRow,
  announcementsTable,
  fundamentalsRow,
  fundamentalsTable,
  payoutCoverageRows,
  payoutCoverageTable,
  payoutRows,
  payoutsTable,
  securitiesTable,
  securityRow
} from "./Tables.ts"

export interface StepContext {
  readonly manifest: PackManifest
  /** A dataset of the pack, decoded. */
  readonly read: <K extends PackDatasetId>(id: K) => Effect.Effect<PackDataset<K>, SourceUnavailable>
}

export interface ImportStep {
  readonly name: string
  readonly run: (ctx: StepContext) => Effect.Effect<StepSummary, SourceUnavailable | SqlError.SqlError, SqlClient.SqlClient>
}

const summary = (dataset: string, read: number, written: number, skipped: Record<string, number> = {}): StepSummary => ({
  dataset,
  read,
  written,
  skipped
})

/** The manifest entry of a dataset (decoding guarantees its provenance fields are present). */
const provenance = (manifest: PackManifest, id: string): Effect.Effect<PackProvenance, SourceUnavailable> =>
  Effect.gen(function*() {
    const entry = manifest.datasets.find((d) => d.id === id)
    if (entry !== undefined) return entry
    return yield* new SourceUnavailable({ message: `data pack manifest has no dataset ${id}` })
  })

/** The calendar date of an as-of (an instant's date in UTC, or the date itself). */
const dateOf = (asOf: string) => asOf.slice(0, 10)

const sectors: ImportStep = {
  name: "sectors",
  run: ({ read }) =>
    Effect.gen(function*() {
      const rows = yield* read("sectors")
      yield* upsert({ table: "sectors", columns: { code: "text", name: "text", dataset: "text" }, key: ["code"] },
        rows.map((s) => ({ ...s, dataset: "sectors" })))
      return summary("sectors", rows.length, rows.length)
    })
}

const universe: ImportStep = {
  name: "universe",
  run: ({ read }) =>
    Effect.gen(function*() {
      const sectorRows = yield* read("sectors")
      const rows = yield* read("universe")
      const maps = {
        codeByName: new Map(sectorRows.map((s) => [s.name, s.code])),
        nameByCode: new Map(sectorRows.map((s) => [s.code, s.name]))
      }
      yield* upsert(securitiesTable, rows.map((s) => securityRow(s, maps, "universe")))
      return summary("universe", rows.length, rows.length)
    })
}

const indexMembership: ImportStep = {
  name: "index_membership",
  run: ({ manifest, read }) =>
    Effect.gen(function*() {
      // Membership is known as of the day each recording shows it.
      const sources: ReadonlyArray<readonly ["KSE100" | "ALLSHR", "index_kse100" | "board_allshr"]> = [
        ["KSE100", "index_kse100"],
        ["ALLSHR", "board_allshr"]
      ]
      const rows: Array<Record<string, unknown>> = []
      for (const [index_code, dataset] of sources) {
        const effective_date = dateOf((yield* provenance(manifest, dataset)).asOf)
        for (const c of yield* read(dataset)) {
          rows.push({
            index_code, symbol: c.symbol, effective_date, weight_pct: c.weightPct ?? null,
            free_float_shares: c.freeFloatShares ?? null, market_cap: c.marketCap ?? null, dataset
          })
        }
      }
      yield* upsert({
        table: "index_membership",
        columns: {
          index_code: "text", symbol: "text", effective_date: "date", weight_pct: "numeric",
          free_float_shares: "numeric", market_cap: "numeric", dataset: "text"
        },
        key: ["index_code", "symbol", "effective_date"]
      }, rows)
      return summary("index_membership", rows.length, rows.length)
    })
}

const indexLevels: ImportStep = {
  name: "index_levels",
  run: ({ read }) =>
    Effect.gen(function*() {
      const levels = yield* read("index_levels")
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
      return summary("index_levels", levels.length, levels.length)
    })
}

const GLITCH_FLAG = "source_glitch: differs from the as-traded close on a day many symbols did"

const dailyPrices: ImportStep = {
  name: "daily_prices",
  run: ({ read }) =>
    Effect.gen(function*() {
      const diff = yield* read("price_disagreements")
      const glitch = new Set(diff.glitchDays.flatMap((g) => g.affected.map((s) => `${s}|${g.date}`)))
      const rows: Array<Record<string, unknown>> = []
      const series: ReadonlyArray<readonly ["eod" | "as_traded", "prices_eod" | "prices_as_traded" | "prices_historical_engro"]> = [
        ["eod", "prices_eod"],
        ["as_traded", "prices_as_traded"],
        ["as_traded", "prices_historical_engro"]
      ]
      for (const [kind, dataset] of series) {
        for (const [symbol, enc] of Object.entries(yield* read(dataset))) {
          for (const r of decodeSeries(enc)) {
            rows.push({
              symbol, series: kind, date: r.date, open: r.open ?? null, high: r.high ?? null, low: r.low ?? null,
              close: r.close, volume: r.volume ?? null,
              flag: kind === "eod" && glitch.has(`${symbol}|${r.date}`) ? GLITCH_FLAG : null, dataset
            })
          }
        }
      }
      const marketSummary = yield* read("market_summary_20210121")
      const summaryDays = new Set(marketSummary.map((r) => r.date))
      const haveAsTraded = new Set(
        rows.filter((r) => r["series"] === "as_traded" && summaryDays.has(String(r["date"]))).map((r) => `${r["symbol"]}|${r["date"]}`)
      )
      let skipped = 0
      for (const r of marketSummary) {
        // Recordings agree on that day (verified); keep the first as-traded row.
        if (haveAsTraded.has(`${r.symbol}|${r.date}`)) {
          skipped++
          continue
        }
        rows.push({
          symbol: r.symbol, series: "as_traded", date: r.date, open: r.open ?? null, high: r.high ?? null,
          low: r.low ?? null, close: r.close, volume: r.volume ?? null, flag: null, dataset: "market_summary_20210121"
        })
      }
      const progress = makeProgress("daily prices", rows.length)
      yield* upsert({
        table: "daily_prices",
        columns: {
          symbol: "text", series: "text", date: "date", open: "numeric", high: "numeric", low: "numeric",
          close: "numeric", volume: "numeric", flag: "text", dataset: "text"
        },
        key: ["symbol", "series", "date"],
        batch: 20_000
      }, rows, progress.advance)
      return summary("daily_prices", rows.length, rows.length,
        skipped > 0 ? { [`${[...summaryDays].join(", ")} already in the as-traded recording`]: skipped } : {})
    })
}

const priceDisagreements: ImportStep = {
  name: "price_disagreements",
  run: ({ read }) =>
    Effect.gen(function*() {
      const { disagreements } = yield* read("price_disagreements")
      yield* upsert({
        table: "price_disagreements",
        columns: {
          symbol: "text", factor: "numeric", points: "integer", agreeing: "integer", first_date: "date",
          last_date: "date", dataset: "text"
        },
        key: ["symbol"]
      }, disagreements.map((d) => ({
        symbol: d.symbol, factor: d.factor, points: d.points, agreeing: d.agreeing, first_date: d.from,
        last_date: d.to, dataset: "price_disagreements"
      })))
      return summary("price_disagreements", disagreements.length, disagreements.length)
    })
}

/**
 * The delayed quote is the newest recorded figure: the all-share board
 * snapshot (as of the instant its manifest entry gives), or a later close.
 */
const quotes: ImportStep = {
  name: "quotes (derived)",
  run: ({ manifest, read }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
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
      const board = (yield* read("board_allshr")).filter((c) => c.current !== undefined)
      const boardAsOf = (yield* provenance(manifest, "board_allshr")).asOf
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
          boardAsOf
        ]
      )
      const [count] = yield* decodeRows(Schema.Struct({ n: Schema.Int }))(sql`select count(*)::int as n from quotes`)
      return summary("quotes (derived)", count?.n ?? 0, count?.n ?? 0)
    })
}

const fundamentals: ImportStep = {
  name: "fundamentals",
  run: ({ manifest, read }) =>
    Effect.gen(function*() {
      const screener = yield* read("screener")
      const asOf = (yield* provenance(manifest, "screener")).asOf
      const rows = screener.map((s) => fundamentalsRow(s, asOf, "screener"))
      yield* upsert(fundamentalsTable, rows)
      return summary("fundamentals", screener.length, rows.length)
    })
}

const companyPages: ImportStep = {
  name: "company_pages",
  run: ({ manifest, read }) =>
    Effect.gen(function*() {
      const pages = yield* read("company_pages")
      const asOf = (yield* provenance(manifest, "company_pages")).asOf
      const entries = Object.entries(pages)
      yield* upsert({
        table: "company_profiles",
        columns: {
          symbol: "text", description: "text", fiscal_year_end: "text", shares: "numeric",
          free_float_shares: "numeric", free_float_pct: "numeric", market_cap: "numeric", circuit_low: "numeric",
          circuit_high: "numeric", week52_low: "numeric", week52_high: "numeric", as_of: "timestamptz", dataset: "text"
        },
        key: ["symbol"]
      }, entries.map(([symbol, p]) => ({
        symbol, description: p.description ?? null, fiscal_year_end: p.fiscalYearEnd ?? null, shares: p.shares ?? null,
        free_float_shares: p.freeFloatShares ?? null, free_float_pct: p.freeFloatPct ?? null,
        market_cap: p.marketCapThousands !== undefined ? p.marketCapThousands * 1000 : null,
        circuit_low: p.circuitLow ?? null, circuit_high: p.circuitHigh ?? null, week52_low: p.week52Low ?? null,
        week52_high: p.week52High ?? null, as_of: asOf, dataset: "company_pages"
      })))
      const lines = entries.flatMap(([symbol, p]) =>
        p.statements.map((s) => ({
          symbol, period_type: s.periodType, period: s.period, fiscal_year: s.fiscalYear ?? null,
          quarter: s.quarter ?? null, line: s.line, value: s.value, units: s.units, dataset: "company_pages"
        }))
      )
      yield* upsert({
        table: "financial_lines",
        columns: {
          symbol: "text", period_type: "text", period: "text", fiscal_year: "integer", quarter: "integer",
          line: "text", value: "numeric", units: "text", dataset: "text"
        },
        key: ["symbol", "period_type", "period", "line"]
      }, lines)
      const ratios = entries.flatMap(([symbol, p]) => p.ratios.map((r) => ({ symbol, ...r, dataset: "company_pages" })))
      yield* upsert({
        table: "company_ratios",
        columns: { symbol: "text", period: "text", name: "text", value: "numeric", dataset: "text" },
        key: ["symbol", "period", "name"]
      }, ratios)
      return summary("company_pages", entries.length, lines.length + ratios.length)
    })
}

const payouts: ImportStep = {
  name: "payouts",
  run: ({ read }) =>
    Effect.gen(function*() {
      const rows = yield* read("payouts")
      const out = payoutRows(rows, "payouts")
      yield* upsert(payoutsTable, out)
      yield* upsert(payoutCoverageTable, payoutCoverageRows(rows, "payouts"))
      return summary("payouts", rows.length, out.length)
    })
}

const closure = (p: { readonly details: string; readonly book_closure_from: string | null; readonly book_closure_to: string | null }) =>
  `${p.details} (book closure ${p.book_closure_from ?? "?"} to ${p.book_closure_to ?? "?"})`

const corporateActions: ImportStep = {
  name: "corporate_actions (derived)",
  run: ({ read }) =>
    Effect.gen(function*() {
      const marketSummary = yield* read("market_summary_20210121")
      const payoutOut = payoutRows(yield* read("payouts"), "payouts")
      const { disagreements } = yield* read("price_disagreements")
      const actions = [
        ...marketSummary.flatMap((r) =>
          r.exMarkers.map((m) => ({
            id: `ex-${r.symbol}-${r.date}-${m}`, symbol: r.symbol,
            kind: m === "XD" ? "ex_dividend" : m === "XB" ? "ex_bonus" : "ex_right",
            ex_date: r.date, ratio: null,
            details: `${m} marker on the exchange's market summary for ${r.date}`, dataset: "market_summary_20210121"
          }))
        ),
        ...payoutOut.map((p) => ({
          id: `payout-${p.id}`, symbol: p.symbol, kind: p.kind === "cash" ? "cash_dividend" : p.kind,
          ex_date: p.book_closure_from, ratio: p.kind !== "cash" && p.percent !== null ? p.percent / 100 : null,
          details: closure(p), dataset: "payouts"
        })),
        ...disagreements.map((d) => ({
          id: `restated-${d.symbol}`, symbol: d.symbol, kind: "restatement", ex_date: null, ratio: d.factor,
          details: `The exchange's eod series is ${d.factor} × the as-traded closes over ${d.points} shared days ` +
            `(${d.from} to ${d.to}): a split or consolidation after ${d.to} whose notice is not recorded; date unknown.`,
          dataset: "price_disagreements"
        }))
      ]
      yield* upsert({
        table: "corporate_actions",
        columns: { id: "text", symbol: "text", kind: "text", ex_date: "date", ratio: "numeric", details: "text", dataset: "text" },
        key: ["id"]
      }, actions)
      return summary("corporate_actions (derived)", actions.length, actions.length)
    })
}

const announcements: ImportStep = {
  name: "announcements",
  run: ({ read }) =>
    Effect.gen(function*() {
      const rows = yield* read("announcements")
      yield* upsert(announcementsTable, rows.map((a) => announcementRow(a, "announcements")))
      return summary("announcements", rows.length, rows.length)
    })
}

/** In order: later steps derive from rows earlier steps wrote. */
export const importSteps: ReadonlyArray<ImportStep> = [
  sectors,
  universe,
  indexMembership,
  indexLevels,
  dailyPrices,
  priceDisagreements,
  quotes,
  fundamentals,
  companyPages,
  payouts,
  corporateActions,
  announcements
]
