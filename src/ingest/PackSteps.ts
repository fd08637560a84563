/**
 * The pack import as a table of steps: each step reads its datasets from the
 * pack (decoded), writes its tables with idempotent upserts and says what it
 * read, wrote and skipped. Derived rows (quotes from the latest close,
 * corporate actions from ex-markers and payouts) come from recorded rows
 * only; every date a row carries comes from the manifest, never a constant.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeSeries } from "../../domain/pack/Pack.ts"
import { decodeRows, upsert } from "./Bulk.ts"
import { companySteps } from "./CompanySteps.ts"
import { dateOf, type ImportStep, provenance, summary } from "./ImportStep.ts"
import { makeProgress } from "./Progress.ts"
import {
  dailyPricesTable,
  indexClosesTable,
  indexLevelsTable,
  indexMembershipTable,
  priceDisagreementsTable,
  sectorsTable,
  securitiesTable,
  securityRow
} from "./Tables.ts"

export type { ImportStep, StepContext } from "./ImportStep.ts"

const sectors: ImportStep = {
  name: "sectors",
  run: ({ read }) =>
    Effect.gen(function*() {
      const rows = yield* read("sectors")
      yield* upsert(sectorsTable, rows.map((s) => ({ ...s, dataset: "sectors" })))
      return summary("sectors", rows.length, rows.length)
    })
}

const universe: ImportStep = {
  name: "universe",
  run: ({ read }) =>
    Effect.gen(function*() {
      const sectorRows = yield* read("sectors")
      const rows = yield* read("universe")
      // Listed after the April listing: the first recording that shows them is their provenance.
      const since = yield* read("universe_2026_08_04")
      const maps = {
        codeByName: new Map(sectorRows.map((s) => [s.name, s.code])),
        nameByCode: new Map(sectorRows.map((s) => [s.code, s.name]))
      }
      yield* upsert(securitiesTable, [
        ...rows.map((s) => securityRow(s, maps, "universe")),
        ...since.map((s) => securityRow(s, maps, "universe_2026_08_04"))
      ])
      return summary("universe", rows.length + since.length, rows.length + since.length)
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
            index_code,
            symbol: c.symbol,
            effective_date,
            weight_pct: c.weightPct ?? null,
            free_float_shares: c.freeFloatShares ?? null,
            market_cap: c.marketCap ?? null,
            dataset
          })
        }
      }
      // The screener's index lists give KSE-100 membership on the day of the snapshot (no weights).
      const listed = "screener_2026_08_04"
      const listedOn = dateOf((yield* provenance(manifest, listed)).asOf)
      for (const r of yield* read(listed)) {
        if (!r.listedIn.includes("KSE100")) continue
        rows.push({
          index_code: "KSE100",
          symbol: r.symbol,
          effective_date: listedOn,
          weight_pct: null,
          free_float_shares: r.freeFloatShares ?? null,
          market_cap: r.marketCap ?? null,
          dataset: listed
        })
      }
      yield* upsert(indexMembershipTable, rows)
      return summary("index_membership", rows.length, rows.length)
    })
}

const indexLevels: ImportStep = {
  name: "index_levels",
  run: ({ read }) =>
    Effect.gen(function*() {
      const levels = yield* read("index_levels")
      yield* upsert(
        indexLevelsTable,
        levels.map((l) => ({
          code: l.code,
          name: l.name,
          level: l.level,
          previous: l.previous ?? null,
          as_of: l.date,
          previous_date: l.previousDate ?? null,
          dataset: "index_levels"
        }))
      )
      return summary("index_levels", levels.length, levels.length)
    })
}

const indexCloses: ImportStep = {
  name: "index_closes",
  run: ({ read }) =>
    Effect.gen(function*() {
      const rows = Object.entries(yield* read("index_history_kse100")).flatMap(([code, enc]) =>
        decodeSeries(enc).map((r) => ({ code, date: r.date, close: r.close, dataset: "index_history_kse100" }))
      )
      yield* upsert(indexClosesTable, rows)
      return summary("index_closes", rows.length, rows.length)
    })
}

const GLITCH_FLAG =
  "source_glitch: the two recordings disagree on a day many symbols did, and this source's row is the wrong one"
const UNDECIDED_FLAG =
  "source_glitch: the two recordings disagree on a day many symbols did; which is wrong is undecided"

/** `symbol|date|series` of every row a glitch verdict flags (packs without a verdict: the eod rows). */
const glitchFlags = (days: ReadonlyArray<import("../../domain/pack/Restatements.ts").GlitchDay>) => {
  const out = new Map<string, string>()
  for (const g of days) {
    const w = g.wrong ?? { as_traded: [], eod: g.affected, undecided: [] }
    for (const s of w.as_traded) out.set(`${s}|${g.date}|as_traded`, GLITCH_FLAG)
    for (const s of w.eod) out.set(`${s}|${g.date}|eod`, GLITCH_FLAG)
    for (const s of w.undecided) for (const k of ["as_traded", "eod"]) out.set(`${s}|${g.date}|${k}`, UNDECIDED_FLAG)
  }
  return out
}

const dailyPrices: ImportStep = {
  name: "daily_prices",
  run: ({ read }) =>
    Effect.gen(function*() {
      const diff = yield* read("price_disagreements")
      const glitch = glitchFlags(diff.glitchDays)
      const rows: Array<Record<string, unknown>> = []
      const series: ReadonlyArray<
        readonly ["eod" | "as_traded", "prices_eod" | "prices_as_traded" | "prices_historical_engro"]
      > = [
        ["eod", "prices_eod"],
        ["as_traded", "prices_as_traded"],
        ["as_traded", "prices_historical_engro"]
      ]
      for (const [kind, dataset] of series) {
        for (const [symbol, enc] of Object.entries(yield* read(dataset))) {
          for (const r of decodeSeries(enc)) {
            rows.push({
              symbol,
              series: kind,
              date: r.date,
              open: r.open ?? null,
              high: r.high ?? null,
              low: r.low ?? null,
              close: r.close,
              volume: r.volume ?? null,
              flag: glitch.get(`${symbol}|${r.date}|${kind}`) ?? null,
              dataset
            })
          }
        }
      }
      const marketSummary = yield* read("market_summary_20210121")
      const summaryDays = new Set(marketSummary.map((r) => r.date))
      const haveAsTraded = new Set(
        rows.filter((r) => r["series"] === "as_traded" && summaryDays.has(String(r["date"]))).map((r) =>
          `${r["symbol"]}|${r["date"]}`
        )
      )
      let skipped = 0
      for (const r of marketSummary) {
        // Recordings agree on that day (verified); keep the first as-traded row.
        if (haveAsTraded.has(`${r.symbol}|${r.date}`)) {
          skipped++
          continue
        }
        rows.push({
          symbol: r.symbol,
          series: "as_traded",
          date: r.date,
          open: r.open ?? null,
          high: r.high ?? null,
          low: r.low ?? null,
          close: r.close,
          volume: r.volume ?? null,
          flag: null,
          dataset: "market_summary_20210121"
        })
      }
      const progress = makeProgress("daily prices", rows.length)
      yield* upsert(dailyPricesTable, rows, progress.advance)
      return summary(
        "daily_prices",
        rows.length,
        rows.length,
        skipped > 0 ? { [`${[...summaryDays].join(", ")} already in the as-traded recording`]: skipped } : {}
      )
    })
}

const priceDisagreements: ImportStep = {
  name: "price_disagreements",
  run: ({ read }) =>
    Effect.gen(function*() {
      const { disagreements } = yield* read("price_disagreements")
      yield* upsert(
        priceDisagreementsTable,
        disagreements.map((d) => ({
          symbol: d.symbol,
          factor: d.factor,
          points: d.points,
          agreeing: d.agreeing,
          first_date: d.from,
          last_date: d.to,
          dataset: "price_disagreements"
        }))
      )
      return summary("price_disagreements", disagreements.length, disagreements.length)
    })
}

/**
 * The delayed quote is the newest recorded figure: the all-share board
 * snapshot (as of the instant its manifest entry gives), or a later close.
 * Each is known from its source's retrieval (the close's row, the board's dataset).
 */
const quotes: ImportStep = {
  name: "quotes (derived)",
  run: ({ manifest, read }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        INSERT INTO quotes (symbol, price, previous_close, open, high, low, change, change_pct, volume, as_of, basis, dataset, known_at)
        SELECT p.symbol, p.close, prev.close, p.open, p.high, p.low,
          p.close - prev.close, round((p.close / prev.close - 1) * 100, 4), p.volume,
          (p.date::timestamp + interval '11 hours') AT TIME ZONE 'UTC', 'daily_close', p.dataset, p.known_at
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
          basis = excluded.basis, dataset = excluded.dataset, known_at = excluded.known_at`
      const board = (yield* read("board_allshr")).filter((c) => c.current !== undefined)
      const boardAsOf = (yield* provenance(manifest, "board_allshr")).asOf
      yield* sql.unsafe(
        `INSERT INTO quotes (symbol, price, previous_close, change, change_pct, volume, as_of, basis, dataset, known_at)
         SELECT symbol, current, ldcp, change, change_pct, volume, $2::timestamptz, 'board_snapshot', 'board_allshr',
           (SELECT known_at FROM datasets WHERE id = 'board_allshr')
         FROM jsonb_to_recordset($1::jsonb) AS t(symbol text, current numeric, ldcp numeric, change numeric, change_pct numeric, volume numeric)
         ON CONFLICT (symbol) DO UPDATE SET price = excluded.price, previous_close = excluded.previous_close,
           open = NULL, high = NULL, low = NULL, change = excluded.change, change_pct = excluded.change_pct,
           volume = excluded.volume, as_of = excluded.as_of, basis = excluded.basis, dataset = excluded.dataset,
           known_at = excluded.known_at
         WHERE quotes.as_of < excluded.as_of`,
        [
          JSON.stringify(board.map((c) => ({
            symbol: c.symbol,
            current: c.current,
            ldcp: c.ldcp ?? null,
            change: c.change ?? null,
            change_pct: c.changePct ?? null,
            volume: c.volume ?? null
          }))),
          boardAsOf
        ]
      )
      const [count] = yield* decodeRows(Schema.Struct({ n: Schema.Int }))(sql`select count(*)::int as n from quotes`)
      return summary("quotes (derived)", count?.n ?? 0, count?.n ?? 0)
    })
}

/** In order: later steps derive from rows earlier steps wrote. */
export const importSteps: ReadonlyArray<ImportStep> = [
  sectors,
  universe,
  indexMembership,
  indexLevels,
  indexCloses,
  dailyPrices,
  priceDisagreements,
  quotes,
  ...companySteps
]
