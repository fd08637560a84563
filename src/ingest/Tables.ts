/**
 * How source records become rows of the market tables, shared by the pack
 * import and the live portal refresh: one place per table.
 */
import { searchKey, securityTypeOf } from "../../domain/market/shared/Classify.ts"
import type { NewsEvent } from "../../domain/news/News.ts"
import type { CompanyPage } from "../../domain/psx/CompanyPage.ts"
import type { Announcement, PayoutRow } from "../../domain/psx/Filings.ts"
import type { ListedSymbol, ScreenerRow } from "../../domain/psx/Listing.ts"
import type { BoardRow } from "../../domain/psx/Prices.ts"
import type { UpsertSpec } from "./Bulk.ts"

export const securitiesTable: UpsertSpec = {
  table: "securities",
  columns: {
    symbol: "text",
    name: "text",
    sector_code: "text",
    sector_name: "text",
    is_etf: "boolean",
    is_debt: "boolean",
    security_type: "text",
    search_text: "text",
    dataset: "text"
  },
  key: ["symbol"]
}

export const securityRow = (
  s: ListedSymbol & { readonly sectorCode?: string },
  sectors: { readonly codeByName: ReadonlyMap<string, string>; readonly nameByCode: ReadonlyMap<string, string> },
  dataset: string
) => {
  const sectorCode = s.sectorCode ?? (s.sectorName ? sectors.codeByName.get(s.sectorName) : undefined)
  return {
    symbol: s.symbol,
    name: s.name,
    sector_code: sectorCode ?? null,
    sector_name: s.sectorName ?? (sectorCode ? sectors.nameByCode.get(sectorCode) ?? null : null),
    is_etf: s.isEtf,
    is_debt: s.isDebt,
    security_type: securityTypeOf(s),
    search_text: searchKey(`${s.symbol} ${s.name}`),
    dataset
  }
}

export const fundamentalsTable: UpsertSpec = {
  table: "fundamentals",
  columns: {
    symbol: "text",
    market_cap: "numeric",
    price: "numeric",
    change_pct: "numeric",
    change_year_pct: "numeric",
    pe_ttm: "numeric",
    dividend_yield_pct: "numeric",
    free_float_shares: "numeric",
    volume_30d_avg: "numeric",
    shares_outstanding: "numeric",
    face_value: "numeric",
    eps: "numeric",
    listed_in: "text[]",
    as_of: "text",
    dataset: "text"
  },
  key: ["symbol"]
}

/** Every screener snapshot, one row per symbol and snapshot (migration 0007). */
export const fundamentalsSnapshotsTable: UpsertSpec = {
  table: "fundamentals_snapshots",
  columns: {
    symbol: "text",
    market_cap: "numeric",
    price: "numeric",
    change_pct: "numeric",
    change_year_pct: "numeric",
    pe_ttm: "numeric",
    dividend_yield_pct: "numeric",
    free_float_shares: "numeric",
    volume_30d_avg: "numeric",
    listed_in: "text[]",
    as_of: "text",
    dataset: "text"
  },
  key: ["symbol", "dataset"]
}

export const fundamentalsRow = (s: ScreenerRow, asOf: string, dataset: string) => ({
  symbol: s.symbol,
  market_cap: s.marketCap ?? null,
  price: s.price ?? null,
  change_pct: s.changePct ?? null,
  change_year_pct: s.changeYearPct ?? null,
  pe_ttm: s.peTtm ?? null,
  dividend_yield_pct: s.dividendYieldPct ?? null,
  free_float_shares: s.freeFloatShares ?? null,
  volume_30d_avg: s.volume30dAvg ?? null,
  shares_outstanding: null,
  face_value: null,
  eps: null,
  listed_in: s.listedIn,
  as_of: asOf,
  dataset
})

export const quotesTable: UpsertSpec = {
  table: "quotes",
  columns: {
    symbol: "text",
    price: "numeric",
    previous_close: "numeric",
    open: "numeric",
    high: "numeric",
    low: "numeric",
    change: "numeric",
    change_pct: "numeric",
    volume: "numeric",
    as_of: "timestamptz",
    basis: "text",
    dataset: "text"
  },
  key: ["symbol"]
}

/** A delayed board reading as a quote (rows without a current price are not quotes). */
export const boardQuoteRow = (r: BoardRow, asOf: string, dataset: string) =>
  r.current === undefined
    ? undefined
    : {
      symbol: r.symbol,
      price: r.current,
      previous_close: r.ldcp ?? null,
      open: r.open ?? null,
      high: r.high ?? null,
      low: r.low ?? null,
      change: r.change ?? null,
      change_pct: r.changePct ?? null,
      volume: r.volume ?? null,
      as_of: asOf,
      basis: "board_snapshot",
      dataset
    }

export const datasetsTable: UpsertSpec = {
  table: "datasets",
  columns: {
    id: "text",
    title: "text",
    source: "text",
    upstream: "text",
    path: "text",
    repository: "text",
    commit: "text",
    licence: "text",
    recorded_at: "text",
    as_of: "text",
    retrieved_at: "text",
    loaded_at: "timestamptz",
    rows: "integer",
    skipped: "jsonb",
    notes: "text",
    pack_version: "text"
  },
  key: ["id"]
}

export const payoutsTable: UpsertSpec = {
  table: "payouts",
  columns: {
    id: "text",
    symbol: "text",
    announced_at: "timestamptz",
    period_end: "date",
    period_type: "text",
    details: "text",
    kind: "text",
    percent: "numeric",
    amount_per_share: "numeric",
    sequence: "text",
    book_closure_from: "date",
    book_closure_to: "date",
    dataset: "text"
  },
  key: ["id"]
}

const hashId = (...parts: ReadonlyArray<unknown>) => {
  let h = 0x811c9dc5
  for (const ch of parts.map(String).join("|")) {
    h ^= ch.codePointAt(0)!
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, "0")
}

/** One row per part of a payout ("25%(F) (D) 10%(B)" is two), with a stable id from its content. */
export const payoutRows = (payouts: ReadonlyArray<PayoutRow>, dataset: string) =>
  payouts.flatMap((p) =>
    p.parts.map((part, i) => ({
      id: hashId(p.symbol, p.announcedAt, p.details, p.bookClosureFrom, i),
      symbol: p.symbol,
      announced_at: p.announcedAt ?? null,
      period_end: p.periodEnd ?? null,
      period_type: p.periodType ?? null,
      details: p.details,
      kind: part.kind,
      percent: part.percent ?? null,
      amount_per_share: part.amountPerShare ?? null,
      sequence: part.sequence ?? null,
      book_closure_from: p.bookClosureFrom ?? null,
      book_closure_to: p.bookClosureTo ?? null,
      dataset
    }))
  )

export const payoutCoverageTable: UpsertSpec = {
  table: "payout_coverage",
  columns: { symbol: "text", coverage: "text", data_coverage_start: "date", dataset: "text" },
  key: ["symbol"]
}

/** A symbol whose payouts were recorded, from its earliest recorded row (kept if an earlier start is already stored by the caller). */
export const payoutCoverageRows = (payouts: ReadonlyArray<PayoutRow>, dataset: string) => {
  const coverage = new Map<string, string>()
  for (const p of payouts) {
    const d = p.bookClosureFrom ?? p.announcedAt?.slice(0, 10)
    if (d === undefined) continue
    const prev = coverage.get(p.symbol)
    if (prev === undefined || d < prev) coverage.set(p.symbol, d)
  }
  return [...coverage].map(([symbol, start]) => ({ symbol, coverage: "recorded", data_coverage_start: start, dataset }))
}

export const announcementsTable: UpsertSpec = {
  table: "announcements",
  columns: {
    id: "text",
    symbol: "text",
    company_name: "text",
    published_on: "date",
    published_at: "timestamptz",
    title: "text",
    document_url: "text",
    image_url: "text",
    revoked: "boolean",
    dataset: "text"
  },
  key: ["id"]
}

export const announcementRow = (a: Announcement, dataset: string) => ({
  id: a.id,
  symbol: a.symbol,
  company_name: a.companyName ?? null,
  published_on: a.publishedOn,
  published_at: a.publishedAt ?? null,
  title: a.title,
  document_url: a.documentUrl ?? null,
  image_url: a.imageUrl ?? null,
  revoked: a.revoked,
  dataset
})

export const sectorsTable: UpsertSpec = {
  table: "sectors",
  columns: { code: "text", name: "text", dataset: "text" },
  key: ["code"]
}

export const indexMembershipTable: UpsertSpec = {
  table: "index_membership",
  columns: {
    index_code: "text",
    symbol: "text",
    effective_date: "date",
    weight_pct: "numeric",
    free_float_shares: "numeric",
    market_cap: "numeric",
    dataset: "text"
  },
  key: ["index_code", "symbol", "effective_date"]
}

export const indexLevelsTable: UpsertSpec = {
  table: "index_levels",
  columns: {
    code: "text",
    name: "text",
    level: "numeric",
    previous: "numeric",
    as_of: "date",
    previous_date: "date",
    dataset: "text"
  },
  key: ["code"]
}

/** An index's daily closes (migration 0022). */
export const indexClosesTable: UpsertSpec = {
  table: "index_closes",
  columns: { code: "text", date: "date", close: "numeric", dataset: "text" },
  key: ["code", "date"]
}

export const priceDisagreementsTable: UpsertSpec = {
  table: "price_disagreements",
  columns: {
    symbol: "text",
    factor: "numeric",
    points: "integer",
    agreeing: "integer",
    first_date: "date",
    last_date: "date",
    dataset: "text"
  },
  key: ["symbol"]
}

export const dailyPricesTable: UpsertSpec = {
  table: "daily_prices",
  columns: {
    symbol: "text",
    series: "text",
    date: "date",
    open: "numeric",
    high: "numeric",
    low: "numeric",
    close: "numeric",
    volume: "numeric",
    flag: "text",
    dataset: "text"
  },
  key: ["symbol", "series", "date"],
  batch: 20_000
}

export const companyProfilesTable: UpsertSpec = {
  table: "company_profiles",
  columns: {
    symbol: "text",
    description: "text",
    fiscal_year_end: "text",
    shares: "numeric",
    free_float_shares: "numeric",
    free_float_pct: "numeric",
    market_cap: "numeric",
    circuit_low: "numeric",
    circuit_high: "numeric",
    week52_low: "numeric",
    week52_high: "numeric",
    as_of: "timestamptz",
    dataset: "text"
  },
  key: ["symbol"]
}

export const companyProfileRow = (symbol: string, p: CompanyPage, asOf: string, dataset: string) => ({
  symbol,
  description: p.description ?? null,
  fiscal_year_end: p.fiscalYearEnd ?? null,
  shares: p.shares ?? null,
  free_float_shares: p.freeFloatShares ?? null,
  free_float_pct: p.freeFloatPct ?? null,
  market_cap: p.marketCapThousands !== undefined ? p.marketCapThousands * 1000 : null,
  circuit_low: p.circuitLow ?? null,
  circuit_high: p.circuitHigh ?? null,
  week52_low: p.week52Low ?? null,
  week52_high: p.week52High ?? null,
  as_of: asOf,
  dataset
})

export const financialLinesTable: UpsertSpec = {
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

export const financialLineRows = (symbol: string, p: CompanyPage, dataset: string) =>
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

export const companyRatiosTable: UpsertSpec = {
  table: "company_ratios",
  columns: { symbol: "text", period: "text", name: "text", value: "numeric", dataset: "text" },
  key: ["symbol", "period", "name"]
}

export const companyRatioRows = (symbol: string, p: CompanyPage, dataset: string) =>
  p.ratios.map((r) => ({ symbol, period: r.period, name: r.name, value: r.value, dataset }))

export const corporateActionsTable: UpsertSpec = {
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
}
export const newsTable: UpsertSpec = {
  table: "news_items",
  columns: {
    id: "text",
    symbol: "text",
    title: "text",
    url: "text",
    published_at: "timestamptz",
    event_date: "date",
    republished: "boolean",
    dataset: "text",
    source_keywords: "text"
  },
  key: ["id"]
}

/**
 * A news event as rows: one per source and symbol tag (`<event id>/<source
 * index>[/<symbol>]`), each with that source's own title, address and time;
 * a source after the first is a republication. The event's date is not known
 * from a feed, so `event_date` stays NULL. The recording's search keywords
 * (not tags) ride on every row of the event. `newsEventsOf` (domain/news)
 * groups the rows back into events.
 */
export const newsRows = (events: ReadonlyArray<NewsEvent>, dataset: string) =>
  events.flatMap((e) =>
    e.sources.flatMap((s, i) =>
      (e.symbols.length > 0 ? e.symbols : [undefined]).map((symbol) => ({
        id: `${e.id}/${i}${symbol !== undefined ? `/${symbol}` : ""}`,
        symbol: symbol ?? null,
        title: s.title,
        url: s.url,
        published_at: s.publishedAt,
        event_date: null,
        republished: i > 0,
        dataset,
        source_keywords: e.sourceKeywords !== undefined ? e.sourceKeywords.join(" ") : null
      }))
    )
  )
