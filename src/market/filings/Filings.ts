/**
 * Company filings and what they carry, from the read model: income
 * statements (never balance-sheet lines), dividend history with its trailing
 * figures, corporate actions, announcements (filings, not press) and news
 * (events with their sources; where none is recorded, coverage is reported
 * unknown, never as "no news").
 */
import { Clock, Context, Effect, Layer } from "effect"
import {
  DataNotFound,
  type InvalidRequest,
  type InvalidSymbol,
  type SourceUnavailable
} from "../../../domain/Errors.ts"
import { DAY_MS, karachiDate, karachiInstant } from "../../../domain/Karachi.ts"
import { dividendRows, fiscalYearEndMonth, trailing } from "../../../domain/market/filings/Dividends.ts"
import { faceValueOn } from "../../../domain/market/filings/FaceValues.ts"
import { unknownSymbol } from "../../../domain/market/search/SymbolTable.ts"
import { ANNOUNCEMENTS_DEFAULT_LIMIT } from "../../../domain/market/shared/Limits.ts"
import type {
  Announcements,
  CorporateActions,
  Dividends,
  FinancialPeriod,
  Financials
} from "../../../domain/market/shared/Schemas.ts"
import { parseTicker, type Ticker } from "../../../domain/market/shared/Ticker.ts"
import { warningsField } from "../../../domain/market/shared/Warnings.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { type FilingPosition, filingsNewestFirst } from "../../../domain/market/snapshot/SnapshotParts.ts"
import type { AnnouncementRow } from "../../../domain/market/snapshot/StoreRows.ts"
import { overlaps, recordedWindows, type Window, windowsText } from "../../../domain/news/Coverage.ts"
import { type News, newsEventsOf } from "../../../domain/news/NewsSchemas.ts"
import { defined } from "../../../domain/Objects.ts"
import { companyAliases } from "../../ingest/CompanyAliases.ts"
import { Cursors } from "../../paging/Cursors.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"

export interface AnnouncementQuery {
  readonly symbol?: string | undefined
  readonly date_from?: string | undefined
  readonly date_to?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

type Err = InvalidSymbol | DataNotFound | SourceUnavailable
type PageErr = Err | InvalidRequest

/** A listed symbol's data, or 404 DATA_NOT_FOUND. */
export const listed = (snapshot: MarketSnapshot, raw: string) =>
  Effect.flatMap(parseTicker(raw), (symbol) => {
    const data = snapshot.symbols.get(symbol)
    return data !== undefined
      ? Effect.succeed(data)
      : Effect.fail(new DataNotFound({ message: unknownSymbol(snapshot.securities, companyAliases(), symbol), symbol }))
  })

export const financialsOf = (snapshot: MarketSnapshot, data: SymbolData): typeof Financials.Type => {
  const symbol = data.security.symbol
  const fiscalYearEnd = data.profile?.fiscal_year_end
  const periods = new Map<
    string,
    { -readonly [K in keyof typeof FinancialPeriod.Type]: (typeof FinancialPeriod.Type)[K] }
  >()
  const lines = new Map<string, Array<{ line: string; value: number; units: "thousands" | "rupees" }>>()
  for (const r of data.financialLines) {
    const key = `${r.period_type}:${r.period}`
    if (!periods.has(key)) {
      const own: Array<{ line: string; value: number; units: "thousands" | "rupees" }> = []
      lines.set(key, own)
      periods.set(key, {
        period: r.period,
        period_type: r.period_type,
        ...defined({ fiscal_year: r.fiscal_year, quarter: r.quarter, fiscal_year_end: fiscalYearEnd }),
        lines: own
      })
    }
    lines.get(key)!.push({ line: r.line, value: r.value, units: r.units })
  }
  const recorded = data.financialLines.length > 0
  return {
    symbol,
    statement: "income",
    units: "money lines in thousands of rupees (000's); EPS in rupees",
    coverage: recorded ? "recorded" : "unknown",
    periods: [...periods.values()],
    sources: recorded ? sourcesOf(snapshot, data.financialLines.map((l) => l.dataset)) : []
  }
}

/** The warning of a symbol whose payouts the sources do not cover: an empty list is not "no dividend". */
export const noPayoutRecord = (symbol: string) =>
  `no payout record for ${symbol} in the sources (coverage: unknown): the absence of items is not the absence of ` +
  "a dividend; yield_as_published, when given, is the exchange's screener yield"

/** The two yields of an answer that has both, and which one the screens use. */
const TWO_YIELDS =
  "ttm_dividend_yield_pct is computed here (trailing 12-month recorded payouts over price), the yield the screener " +
  "and valuation rank by; yield_as_published is the exchange's screener figure, at its own date and price"

export const dividendsOf = (snapshot: MarketSnapshot, data: SymbolData, today: string): typeof Dividends.Type => {
  const symbol = data.security.symbol
  // Face value: the store's figure, else a sourced record (FaceValues.ts) in force today / on each ex day.
  // Only records whose source was published by today (a point-in-time read's today is its instant's).
  const faceValue = data.fundamentals?.face_value ?? faceValueOn(symbol, today, today)?.rupees
  const faceOn = (d: string) => data.fundamentals?.face_value ?? faceValueOn(symbol, d, today)?.rupees
  const items = dividendRows(data.payouts, faceOn, fiscalYearEndMonth(data.payouts, data.profile?.fiscal_year_end))
  const coverage = data.payoutCoverage?.coverage === "recorded" ? "recorded" as const : "unknown" as const
  const start = data.payoutCoverage?.data_coverage_start
  const quote = data.quote
  const recordEnd = data.payoutDatasets.map((d) => snapshot.datasets.get(d)?.as_of).filter((d): d is string =>
    d !== undefined
  ).sort().at(-1)
  const price = quote !== undefined ? { price: quote.price, date: karachiDate(Date.parse(quote.as_of)) } : undefined
  const t = coverage === "recorded" ? trailing(items, today, start, price, recordEnd?.slice(0, 10)) : {}
  const priced = t.ttm_dividend_yield_pct !== undefined && quote !== undefined
  const f = data.fundamentals
  const fAsOf = f?.as_of ?? (f !== undefined ? snapshot.datasets.get(f.dataset)?.as_of : undefined)
  const published = f?.dividend_yield_pct !== undefined && fAsOf !== undefined
    ? { value: f.dividend_yield_pct, as_of: fAsOf, ...defined({ price: f.price }) }
    : undefined
  return {
    symbol: data.security.symbol,
    coverage,
    ...defined({ data_coverage_start: start, face_value: faceValue }),
    ...t,
    ...(priced ? { price: quote.price } : {}),
    ...defined({ yield_as_published: published }),
    items,
    ...warningsField([
      coverage === "unknown" ? noPayoutRecord(symbol) : undefined,
      priced && published !== undefined ? TWO_YIELDS : undefined
    ]),
    sources: sourcesOf(snapshot, [
      ...(coverage === "recorded" ? data.payoutDatasets : []),
      ...(priced ? [quote.dataset] : []),
      ...(published !== undefined ? [f!.dataset] : [])
    ])
  }
}

export const corporateActionsOf = (snapshot: MarketSnapshot, data: SymbolData): typeof CorporateActions.Type => ({
  symbol: data.security.symbol,
  items: data.actions.map((a) => ({
    kind: a.kind,
    details: a.details,
    dataset: a.dataset,
    ...defined({ xd_date: a.xd_date, ratio: a.ratio })
  })),
  sources: sourcesOf(snapshot, data.actions.map((a) => a.dataset))
})

/** Karachi-day bounds of a news filter, as instants (published_at is UTC). */
const dayStart = (date: string) => new Date(karachiInstant(date)).toISOString()

/** Rows published within the Karachi days date_from..date_to (either may be open). */
const withinDays = <R extends { readonly published_at: string }>(rows: ReadonlyArray<R>, q: AnnouncementQuery) => {
  const from = q.date_from !== undefined ? dayStart(q.date_from) : undefined
  const to = q.date_to !== undefined ? dayStart(q.date_to.slice(0, 10)) : undefined
  const toEnd = to !== undefined ? new Date(Date.parse(to) + DAY_MS).toISOString() : undefined
  return rows.filter((r) =>
    (from === undefined || r.published_at >= from) && (toEnd === undefined || r.published_at < toEnd)
  )
}

/** The page after a (published_at, id) cursor position, newest first; `more` when rows follow it. */
const pageAfter = <R extends { readonly published_at: string; readonly id: string }>(
  all: ReadonlyArray<R>,
  after: ReadonlyArray<unknown> | undefined,
  limit: number
) => {
  const afterAt = after !== undefined ? String(after[0]) : undefined
  const afterId = after !== undefined ? String(after[1]) : ""
  const rest = afterAt === undefined
    ? all
    : all.filter((r) => r.published_at < afterAt || (r.published_at === afterAt && r.id < afterId))
  const page = rest.slice(0, limit)
  const last = page[page.length - 1]
  return { page, next: rest.length > limit && last !== undefined ? [last.published_at, last.id] : undefined }
}

/** Filings whose Karachi date is within date_from..date_to (either may be open). */
const filedWithin = (rows: ReadonlyArray<AnnouncementRow>, q: AnnouncementQuery) => {
  const to = q.date_to?.slice(0, 10)
  return rows.filter((r) =>
    (q.date_from === undefined || r.published_on >= q.date_from) && (to === undefined || r.published_on <= to)
  )
}

/** The page of filings after a cursor position (published_on, published_at or "", id), in `filingsNewestFirst` order. */
const filingsAfter = (
  all: ReadonlyArray<AnnouncementRow>,
  after: ReadonlyArray<unknown> | undefined,
  limit: number
) => {
  const position: FilingPosition | undefined = after !== undefined
    ? { published_on: String(after[0]), published_at: String(after[1]), id: String(after[2]) }
    : undefined
  const rest = position === undefined ? all : all.filter((r) => filingsNewestFirst(r, position) > 0)
  const page = rest.slice(0, limit)
  const last = page[page.length - 1]
  return {
    page,
    next: rest.length > limit && last !== undefined ? [last.published_on, last.published_at ?? "", last.id] : undefined
  }
}

/** Whether any filing is held (of `symbol`, when given), and what to say when none is. */
const filingCoverage = (snapshot: MarketSnapshot, data: SymbolData | undefined) => {
  const known = data !== undefined ? data.announcements.length > 0 : snapshot.announcements.length > 0
  return known
    ? { coverage: "recorded" as const }
    : {
      coverage: "unknown" as const,
      note: data !== undefined
        ? `No filing of ${data.security.symbol} is recorded: unknown, not an absence of filings (the recordings hold slices of the exchange's announcements).`
        : "No filing is recorded: unknown, not an absence of filings."
    }
}

/** An announcement as served (a filing): its Karachi date always, its instant only when the source gave a time. */
export const announcementItem = (r: AnnouncementRow) => ({
  id: r.id,
  symbol: r.symbol,
  published_on: r.published_on,
  title: r.title,
  revoked: r.revoked,
  source_type: "filing" as const,
  ...defined({
    published_at: r.published_at,
    company_name: r.company_name,
    document_url: r.document_url,
    image_url: r.image_url
  })
})

/** GET /v1/news: news events (grouped once per snapshot, which is immutable), newest first, paged. */
const newsOf = (model: typeof MarketReadModel.Service, cursors: typeof Cursors.Service) => {
  const eventsBySnapshot = new WeakMap<
    MarketSnapshot,
    { events: ReturnType<typeof newsEventsOf>; windows: ReadonlyArray<Window> }
  >()
  const news = Effect.fn("Filings.news")(function*(q: AnnouncementQuery) {
    const snapshot = yield* model.snapshot
    const symbol = q.symbol !== undefined ? (yield* listed(snapshot, q.symbol)).security.symbol : undefined
    const limit = q.limit ?? ANNOUNCEMENTS_DEFAULT_LIMIT
    const scope = `news:${symbol ?? ""}:${q.date_from ?? ""}:${q.date_to ?? ""}`
    const after = yield* cursors.decode(scope, q.cursor)
    const grouped = eventsBySnapshot.get(snapshot) ??
      { events: newsEventsOf(snapshot.news), windows: recordedWindows(snapshot.news.map((r) => r.published_at)) }
    eventsBySnapshot.set(snapshot, grouped)
    const { events, windows } = grouped
    const all = withinDays(symbol === undefined ? events : events.filter((e) => e.symbols.includes(symbol)), q)
    const { page, next } = pageAfter(all, after, limit)
    const read = overlaps(windows, q.date_from, q.date_to?.slice(0, 10))
    const known = read && (symbol === undefined || events.some((e) => e.symbols.includes(symbol)))
    return {
      coverage: known ? "recorded" as const : "unknown" as const,
      ...(known ? {} : {
        note: events.length === 0
          ? "No news source is configured: this is unknown, not an absence of news. Company filings are at /v1/announcements."
          : !read
          ? `No news was read for these days: unknown, not an absence of news. News is recorded for ${
            windowsText(windows)
          }. Company filings are at /v1/announcements.`
          : `No recorded news item names ${symbol}: unknown, not an absence of news (the recorded feeds are a sample of the press). Company filings are at /v1/announcements.`
      }),
      total: all.length,
      next_cursor: next !== undefined ? yield* cursors.encode(scope, next) : null,
      items: page.map(({ datasets: _, ...item }) => item),
      sources: page.length > 0 ? sourcesOf(snapshot, page.flatMap((e) => e.datasets)) : []
    }
  })

  return news
}

export class Filings extends Context.Service<Filings, {
  readonly financials: (symbol: string) => Effect.Effect<typeof Financials.Type, Err>
  readonly dividends: (symbol: string) => Effect.Effect<typeof Dividends.Type, Err>
  readonly corporateActions: (symbol: string) => Effect.Effect<typeof CorporateActions.Type, Err>
  readonly announcements: (query: AnnouncementQuery) => Effect.Effect<typeof Announcements.Type, PageErr>
  readonly news: (query: AnnouncementQuery) => Effect.Effect<typeof News.Type, PageErr>
  /** 404 DATA_NOT_FOUND unless the symbol is listed. */
  readonly requireListed: (symbol: string) => Effect.Effect<Ticker, Err>
}>()("psx/market/Filings") {
  static readonly layer = Layer.effect(
    Filings,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      const cursors = yield* Cursors

      const withListed = <A>(raw: string, f: (snapshot: MarketSnapshot, data: SymbolData) => A) =>
        Effect.flatMap(model.snapshot, (snapshot) => Effect.map(listed(snapshot, raw), (data) => f(snapshot, data)))

      const dividends = Effect.fn("Filings.dividends")(function*(raw: string) {
        const today = karachiDate(yield* Clock.currentTimeMillis)
        return yield* withListed(raw, (snapshot, data) => dividendsOf(snapshot, data, today))
      })

      const announcements = Effect.fn("Filings.announcements")(function*(q: AnnouncementQuery) {
        const snapshot = yield* model.snapshot
        const data = q.symbol !== undefined ? yield* listed(snapshot, q.symbol) : undefined
        const limit = q.limit ?? ANNOUNCEMENTS_DEFAULT_LIMIT
        const scope = `ann:${data?.security.symbol ?? ""}:${q.date_from ?? ""}:${q.date_to ?? ""}`
        const after = yield* cursors.decode(scope, q.cursor)
        const all = filedWithin(data?.announcements ?? snapshot.announcements, q)
        const { page, next } = filingsAfter(all, after, limit)
        return {
          ...filingCoverage(snapshot, data),
          total: all.length,
          next_cursor: next !== undefined ? yield* cursors.encode(scope, next) : null,
          items: page.map(announcementItem),
          sources: page.length > 0 ? sourcesOf(snapshot, page.map((r) => r.dataset)) : []
        }
      })

      const news = newsOf(model, cursors)

      return {
        financials: (raw: string) => withListed(raw, financialsOf),
        dividends,
        corporateActions: (raw: string) => withListed(raw, corporateActionsOf),
        announcements,
        news,
        requireListed: (raw: string) =>
          Effect.flatMap(
            model.snapshot,
            (snapshot) =>
              Effect.flatMap(parseTicker(raw), (symbol) =>
                snapshot.symbols.has(symbol)
                  ? Effect.succeed(symbol)
                  : Effect.fail(
                    new DataNotFound({ message: unknownSymbol(snapshot.securities, companyAliases(), symbol), symbol })
                  ))
          )
      }
    })
  )
}
