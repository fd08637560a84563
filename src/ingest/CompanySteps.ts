/**
 * The pack's company steps: fundamentals, company pages (profile, income
 * statement lines, ratios), annual sales, payouts, corporate actions derived
 * from payouts and ex-markers, announcements and news. Where two datasets
 * hold the same row (a payout, an announcement, a statement line), the key
 * makes it one row: the later dataset in the step's list (the newer
 * recording) wins.
 */
import { Effect } from "effect"
import { lastBuyDate, xdDate } from "../../domain/market/calendar/Calendar.ts"
import { repairExDate } from "../../domain/market/filings/Dividends.ts"
import { upsert } from "./Bulk.ts"
import { type ImportStep, provenance, summary } from "./ImportStep.ts"
import {
  announcementRow,
  announcementsTable,
  companyProfileRow,
  companyProfilesTable,
  fundamentalsRow,
  fundamentalsSnapshotsTable,
  fundamentalsTable,
  newsRows,
  newsTable,
  payoutCoverageRows,
  payoutCoverageTable,
  payoutRows,
  payoutsTable
} from "./Tables.ts"

const SCREENER_DATASETS: ReadonlyArray<"screener" | "screener_2026_08_04"> = ["screener", "screener_2026_08_04"]

/**
 * Every screener snapshot is kept with its date (fundamentals_snapshots);
 * the served projection holds each symbol's newest one, and says which
 * (its as_of and dataset).
 */
const fundamentals: ImportStep = {
  name: "fundamentals",
  run: ({ manifest, read }) =>
    Effect.gen(function*() {
      const newest = new Map<string, ReturnType<typeof fundamentalsRow>>()
      let n = 0
      for (const dataset of SCREENER_DATASETS) {
        const asOf = (yield* provenance(manifest, dataset)).asOf
        const rows = (yield* read(dataset)).map((s) => fundamentalsRow(s, asOf, dataset))
        n += rows.length
        yield* upsert(
          fundamentalsSnapshotsTable,
          rows.map(({ shares_outstanding: _s, face_value: _f, eps: _e, ...r }) => r)
        )
        for (const r of rows) if ((newest.get(r.symbol)?.as_of ?? "") < r.as_of) newest.set(r.symbol, r)
      }
      yield* upsert(fundamentalsTable, [...newest.values()])
      return summary("fundamentals", n, newest.size)
    })
}

const PAGE_DATASETS: ReadonlyArray<"company_pages" | "company_pages_2025_09"> = [
  "company_pages",
  "company_pages_2025_09"
]

const financialLinesTable = {
  table: "financial_lines",
  columns: {
    symbol: "text",
    period_type: "text",
    period: "text",
    fiscal_year: "integer",
    quarter: "integer",
    line: "text",
    value: "numeric",
    units: "text",
    dataset: "text"
  },
  key: ["symbol", "period_type", "period", "line"]
}

const companyPages: ImportStep = {
  name: "company_pages",
  run: ({ manifest, read }) =>
    Effect.gen(function*() {
      let pagesRead = 0
      let written = 0
      for (const dataset of PAGE_DATASETS) {
        const pages = yield* read(dataset)
        const asOf = (yield* provenance(manifest, dataset)).asOf
        const entries = Object.entries(pages)
        pagesRead += entries.length
        yield* upsert(companyProfilesTable, entries.map(([symbol, p]) => companyProfileRow(symbol, p, asOf, dataset)))
        const lines = entries.flatMap(([symbol, p]) =>
          p.statements.map((s) => ({
            symbol,
            period_type: s.periodType,
            period: s.period,
            fiscal_year: s.fiscalYear ?? null,
            quarter: s.quarter ?? null,
            line: s.line,
            value: s.value,
            units: s.units,
            dataset
          }))
        )
        yield* upsert(financialLinesTable, lines)
        const ratios = entries.flatMap(([symbol, p]) => p.ratios.map((r) => ({ symbol, ...r, dataset })))
        yield* upsert({
          table: "company_ratios",
          columns: { symbol: "text", period: "text", name: "text", value: "numeric", dataset: "text" },
          key: ["symbol", "period", "name"]
        }, ratios)
        written += lines.length + ratios.length
      }
      return summary("company_pages", pagesRead, written)
    })
}

/** Annual sales (thousands of rupees); a company page's own Sales line for the same year is the same figure. */
const financialsSales: ImportStep = {
  name: "financials_sales",
  run: ({ read }) =>
    Effect.gen(function*() {
      const rows = yield* read("financials_sales")
      yield* upsert(
        financialLinesTable,
        rows.map((s) => ({
          symbol: s.symbol,
          period_type: s.periodType,
          period: s.period,
          fiscal_year: s.fiscalYear ?? null,
          quarter: s.quarter ?? null,
          line: s.line,
          value: s.value,
          units: s.units,
          dataset: "financials_sales"
        }))
      )
      return summary("financials_sales", rows.length, rows.length)
    })
}

const PAYOUT_DATASETS: ReadonlyArray<"payouts" | "payouts_company_pages_2025_09"> = [
  "payouts",
  "payouts_company_pages_2025_09"
]

const allPayouts = ({ read }: Parameters<ImportStep["run"]>[0]) =>
  Effect.forEach(PAYOUT_DATASETS, (dataset) => Effect.map(read(dataset), (rows) => ({ dataset, rows })))

const payouts: ImportStep = {
  name: "payouts",
  run: (ctx) =>
    Effect.gen(function*() {
      const sets = yield* allPayouts(ctx)
      const out = sets.flatMap(({ dataset, rows }) => payoutRows(rows, dataset))
      // One row per payout: the same payout from two recordings has the same id; the later dataset wins.
      const unique = [...new Map(out.map((r) => [r.id, r])).values()]
      yield* upsert(payoutsTable, unique)
      // Coverage starts at the earliest payout any recording holds for the symbol.
      const coverage = new Map(
        sets.flatMap(({ dataset, rows }) => payoutCoverageRows(rows, dataset)).sort((a, b) =>
          a.data_coverage_start < b.data_coverage_start ? 1 : -1
        ).map((c) => [c.symbol, c])
      )
      yield* upsert(payoutCoverageTable, [...coverage.values()])
      const read = sets.reduce((n, s) => n + s.rows.length, 0)
      return summary(
        "payouts",
        read,
        unique.length,
        out.length > unique.length ? { "same payout in two recordings": out.length - unique.length } : {}
      )
    })
}

const MARKERS: Record<"cash" | "bonus" | "right", string> = { cash: "XD", bonus: "XB", right: "XR" }

/**
 * A payout as a corporate action dated the day the stock trades ex: the
 * trading day after the last buy date, which the settlement cycle in force
 * sets before the book closure starts (domain/market/calendar/Calendar.ts).
 */
const payoutAction = (p: ReturnType<typeof payoutRows>[number]) => {
  const start = p.book_closure_from !== null
    ? repairExDate(p.book_closure_from, p.announced_at ?? undefined).ex_date
    : undefined
  const lastBuy = start !== undefined ? lastBuyDate(start) : undefined
  const exDay = start !== undefined ? xdDate(start) ?? null : null
  const kind = p.kind === "cash" ? "cash_dividend" : p.kind
  return {
    id: `payout-${p.id}`,
    symbol: p.symbol,
    kind,
    ex_date: exDay,
    ratio: p.kind !== "cash" && p.percent !== null ? p.percent / 100 : null,
    details: `${p.details} (book closure ${p.book_closure_from ?? "?"} to ${p.book_closure_to ?? "?"}` +
      (lastBuy !== undefined && exDay !== null
        ? `; last buy date ${lastBuy}; trades ${MARKERS[p.kind]} from ${exDay})`
        : "; no sourced settlement rule or book closure for that date: ex day unknown)"),
    dataset: p.dataset
  }
}

const corporateActions: ImportStep = {
  name: "corporate_actions (derived)",
  run: (ctx) =>
    Effect.gen(function*() {
      const marketSummary = yield* ctx.read("market_summary_20210121")
      const payoutOut = (yield* allPayouts(ctx)).flatMap(({ dataset, rows }) => payoutRows(rows, dataset))
      const { disagreements } = yield* ctx.read("price_disagreements")
      const actions = [
        ...marketSummary.flatMap((r) =>
          r.exMarkers.map((m) => ({
            id: `ex-${r.symbol}-${r.date}-${m}`,
            symbol: r.symbol,
            kind: m === "XD" ? "ex_dividend" : m === "XB" ? "ex_bonus" : "ex_right",
            ex_date: r.date,
            ratio: null,
            details: `${m} marker on the exchange's market summary for ${r.date}`,
            dataset: "market_summary_20210121"
          }))
        ),
        ...[...new Map(payoutOut.map((p) => [p.id, payoutAction(p)])).values()],
        ...disagreements.map((d) => ({
          id: `restated-${d.symbol}`,
          symbol: d.symbol,
          kind: "restatement",
          ex_date: null,
          ratio: d.factor,
          details: `The exchange's eod series is ${d.factor} × the as-traded closes over ${d.points} shared days ` +
            `(${d.from} to ${d.to}): a split or consolidation after ${d.to} whose notice is not recorded; date unknown.`,
          dataset: "price_disagreements"
        }))
      ]
      yield* upsert({
        table: "corporate_actions",
        columns: {
          id: "text",
          symbol: "text",
          kind: "text",
          ex_date: "date",
          ratio: "numeric",
          details: "text",
          dataset: "text"
        },
        key: ["id"]
      }, actions)
      return summary("corporate_actions (derived)", actions.length, actions.length)
    })
}

const ANNOUNCEMENT_DATASETS: ReadonlyArray<
  | "announcements"
  | "announcements_company_pages"
  | "announcements_company_pages_2025_09"
  | "announcements_filings_inventory"
> = [
  "announcements",
  "announcements_company_pages",
  "announcements_company_pages_2025_09",
  "announcements_filings_inventory"
]

/** The pack builder already left out announcements an earlier dataset holds (by document id, or symbol, day and title). */
const announcements: ImportStep = {
  name: "announcements",
  run: ({ read }) =>
    Effect.gen(function*() {
      let n = 0
      for (const dataset of ANNOUNCEMENT_DATASETS) {
        const rows = yield* read(dataset)
        yield* upsert(announcementsTable, rows.map((a) => announcementRow(a, dataset)))
        n += rows.length
      }
      return summary("announcements", n, n)
    })
}

const news: ImportStep = {
  name: "news",
  run: ({ read }) =>
    Effect.gen(function*() {
      let events = 0
      let written = 0
      for (const dataset of ["news", "news_headlines"] as const) {
        const got = yield* read(dataset)
        const rows = newsRows(got, dataset)
        yield* upsert(newsTable, rows)
        events += got.length
        written += rows.length
      }
      return summary("news", events, written)
    })
}

/** In order: corporate actions derive from the payouts. */
export const companySteps: ReadonlyArray<ImportStep> = [
  fundamentals,
  companyPages,
  financialsSales,
  payouts,
  corporateActions,
  announcements,
  news
]
