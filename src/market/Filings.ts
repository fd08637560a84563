/**
 * Company filings and what they carry: income statements (never balance-sheet
 * lines), dividend history with its trailing figures, corporate actions,
 * announcements (filings, not press) and news (no news source is configured:
 * coverage is reported unknown, never as "no news").
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { DataNotFound, type InvalidRequest, type InvalidSymbol, type SourceUnavailable } from "../../domain/Errors.ts"
import { karachiDate } from "../../domain/market/Calendar.ts"
import { dividendRows, fiscalYearEndMonth, type PayoutRecord, trailing } from "../../domain/market/Dividends.ts"
import type { Announcements, CorporateActions, Dividends, Financials, News } from "../../domain/market/Schemas.ts"
import { ANNOUNCEMENTS_DEFAULT_LIMIT } from "../../domain/market/Limits.ts"
import { parseTicker, type Ticker } from "../../domain/market/Ticker.ts"
import { Cursors } from "../http/Cursors.ts"
import { Quotes } from "./Quotes.ts"
import { iso, num, present, storeUnavailable } from "../db/Rows.ts"
import { Sources } from "./Sources.ts"


export interface AnnouncementQuery {
  readonly symbol?: string | undefined
  readonly date_from?: string | undefined
  readonly date_to?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

type Err = InvalidSymbol | DataNotFound | SourceUnavailable
type PageErr = Err | InvalidRequest

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
      const sql = yield* SqlClient.SqlClient
      const cursors = yield* Cursors
      const sources = yield* Sources
      const quotes = yield* Quotes

      const requireListed = Effect.fn("Filings.requireListed")(function*(raw: string) {
        const symbol = yield* parseTicker(raw)
        const rows = yield* sql<{ n: number }>`select count(*)::int as n from securities where symbol = ${symbol}`.pipe(
          storeUnavailable
        )
        if ((rows[0]?.n ?? 0) === 0) return yield* new DataNotFound({ message: `unknown symbol ${symbol}`, symbol })
        return symbol
      })

      const financials = Effect.fn("Filings.financials")(function*(raw: string) {
        const symbol = yield* requireListed(raw)
        const rows = yield* sql.unsafe<Record<string, unknown>>(
          `SELECT period_type, period, fiscal_year, quarter, line, value, units, dataset FROM financial_lines
           WHERE symbol = $1 ORDER BY period_type, fiscal_year DESC NULLS LAST, quarter DESC NULLS LAST, line`,
          [symbol]
        ).pipe(storeUnavailable)
        const fye = yield* sql<{ fiscal_year_end: string | null }>`
          select fiscal_year_end from company_profiles where symbol = ${symbol}`.pipe(storeUnavailable)
        const periods = new Map<string, { period: string; period_type: "annual" | "quarterly"; fiscal_year?: number; quarter?: number; lines: Array<{ line: string; value: number; units: "thousands" | "rupees" }> }>()
        for (const r of rows) {
          const key = `${r["period_type"]}:${r["period"]}`
          const p = periods.get(key) ?? {
            period: String(r["period"]),
            period_type: r["period_type"] as "annual" | "quarterly",
            ...present({ fiscal_year: num(r["fiscal_year"]), quarter: num(r["quarter"]) }),
            lines: []
          }
          p.lines.push({ line: String(r["line"]), value: num(r["value"])!, units: r["units"] as "thousands" | "rupees" })
          periods.set(key, p)
        }
        const fiscalYearEnd = fye[0]?.fiscal_year_end ?? undefined
        return {
          symbol,
          statement: "income" as const,
          units: "money lines in thousands of rupees (000's); EPS in rupees",
          coverage: rows.length > 0 ? "recorded" as const : "unknown" as const,
          periods: [...periods.values()].map((p) => ({ ...p, ...(fiscalYearEnd ? { fiscal_year_end: fiscalYearEnd } : {}) })),
          sources: rows.length > 0 ? yield* sources.of(["company_pages"]) : []
        }
      })

      const dividends = Effect.fn("Filings.dividends")(function*(raw: string) {
        const symbol = yield* requireListed(raw)
        const [rows, cov, facts, profile] = yield* Effect.all([
          sql.unsafe<Record<string, unknown>>(
            `SELECT ${iso("announced_at")} AS announced_at, period_end::text, period_type, details, kind, percent,
                    amount_per_share, sequence, book_closure_from::text, book_closure_to::text
             FROM payouts WHERE symbol = $1`,
            [symbol]
          ),
          sql<{ coverage: string; start: string | null }>`
            select coverage, data_coverage_start::text as start from payout_coverage where symbol = ${symbol}`,
          sql<{ face_value: string | null }>`select face_value from fundamentals where symbol = ${symbol}`,
          sql<{ fiscal_year_end: string | null }>`select fiscal_year_end from company_profiles where symbol = ${symbol}`
        ], { concurrency: 1 }).pipe(storeUnavailable)
        const records: Array<PayoutRecord> = rows.map((r) => ({
          symbol,
          details: String(r["details"]),
          kind: r["kind"] as PayoutRecord["kind"],
          ...present({
            announcedAt: r["announced_at"] as string | null,
            periodEnd: r["period_end"] as string | null,
            periodType: r["period_type"] as string | null,
            percent: num(r["percent"]),
            amountPerShare: num(r["amount_per_share"]),
            sequence: r["sequence"] as string | null,
            bookClosureFrom: r["book_closure_from"] as string | null,
            bookClosureTo: r["book_closure_to"] as string | null
          })
        }))
        const faceValue = num(facts[0]?.face_value)
        const items = dividendRows(records, faceValue, fiscalYearEndMonth(records, profile[0]?.fiscal_year_end ?? undefined))
        const coverage = cov[0]?.coverage === "recorded" ? "recorded" as const : "unknown" as const
        const start = cov[0]?.start ?? undefined
        const quote = yield* quotes.latest(symbol)
        const today = karachiDate(yield* Clock.currentTimeMillis)
        const t = coverage === "recorded" ? trailing(items, today, start, quote?.price) : {}
        return {
          symbol,
          coverage,
          ...(start ? { data_coverage_start: start } : {}),
          ...(faceValue !== undefined ? { face_value: faceValue } : {}),
          ...t,
          items,
          sources: yield* sources.of(coverage === "recorded" ? ["payouts", ...(quote ? [quote.source.dataset] : [])] : [])
        }
      })

      const corporateActions = Effect.fn("Filings.corporateActions")(function*(raw: string) {
        const symbol = yield* requireListed(raw)
        const rows = yield* sql.unsafe<Record<string, unknown>>(
          `SELECT kind, ex_date::text, ratio, details, dataset FROM corporate_actions WHERE symbol = $1
           ORDER BY ex_date DESC NULLS LAST, id`,
          [symbol]
        ).pipe(storeUnavailable)
        return {
          symbol,
          items: rows.map((r) => ({
            kind: String(r["kind"]),
            details: String(r["details"]),
            dataset: String(r["dataset"]),
            ...present({ ex_date: r["ex_date"] as string | null, ratio: num(r["ratio"]) })
          })),
          sources: yield* sources.of([...new Set(rows.map((r) => String(r["dataset"])))])
        }
      })

      const announcements = Effect.fn("Filings.announcements")(function*(q: AnnouncementQuery) {
        const symbol = q.symbol !== undefined ? yield* requireListed(q.symbol) : undefined
        const limit = q.limit ?? ANNOUNCEMENTS_DEFAULT_LIMIT
        const scope = `ann:${symbol ?? ""}:${q.date_from ?? ""}:${q.date_to ?? ""}`
        const after = yield* cursors.decode(scope, q.cursor)
        const conds: Array<string> = []
        const params: Array<unknown> = []
        if (symbol) conds.push(`symbol = $${params.push(symbol)}`)
        if (q.date_from) conds.push(`published_at >= ($${params.push(q.date_from)}::date::timestamp - interval '5 hours')`)
        if (q.date_to) conds.push(`published_at < ($${params.push(q.date_to)}::date::timestamp + interval '19 hours')`)
        const where = conds.length ? `WHERE ${conds.join(" AND ")}` : ""
        const pageConds = [...conds]
        const pageParams = [...params]
        if (after) {
          pageConds.push(`(published_at, id) < ($${pageParams.push(String(after[0]))}::timestamptz, $${pageParams.push(String(after[1]))})`)
        }
        const pageWhere = pageConds.length ? `WHERE ${pageConds.join(" AND ")}` : ""
        const [rows, count] = yield* Effect.all([
          sql.unsafe<Record<string, unknown>>(
            `SELECT id, symbol, company_name, ${iso("published_at")} AS published_at, title, document_url, image_url, revoked
             FROM announcements ${pageWhere} ORDER BY published_at DESC, id DESC LIMIT ${limit + 1}`,
            pageParams
          ),
          sql.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM announcements ${where}`, params)
        ], { concurrency: 1 }).pipe(storeUnavailable)
        const page = rows.slice(0, limit)
        const last = page[page.length - 1]
        return {
          total: count[0]?.n ?? 0,
          next_cursor: rows.length > limit && last ? yield* cursors.encode(scope, [String(last["published_at"]), String(last["id"])]) : null,
          items: page.map((r) => ({
            id: String(r["id"]),
            symbol: String(r["symbol"]),
            published_at: String(r["published_at"]),
            title: String(r["title"]),
            revoked: r["revoked"] === true,
            source_type: "filing" as const,
            ...present({
              company_name: r["company_name"] as string | null,
              document_url: r["document_url"] as string | null,
              image_url: r["image_url"] as string | null
            })
          })),
          sources: yield* sources.of(page.length > 0 ? ["announcements"] : [])
        }
      })

      const news = Effect.fn("Filings.news")(function*(q: AnnouncementQuery) {
        if (q.symbol !== undefined) yield* requireListed(q.symbol)
        yield* cursors.decode(`news:${q.symbol ?? ""}`, q.cursor)
        const rows = yield* sql<{ n: number }>`select count(*)::int as n from news_items`.pipe(storeUnavailable)
        const n = rows[0]?.n ?? 0
        return {
          coverage: n > 0 ? "recorded" as const : "unknown" as const,
          ...(n === 0
            ? {
              note: "No news source is configured: this is unknown, not an absence of news. Company filings are at /v1/announcements."
            }
            : {}),
          total: 0,
          next_cursor: null,
          items: []
        }
      })

      return { financials, dividends, corporateActions, announcements, news, requireListed }
    })
  )
}
