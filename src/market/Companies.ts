/**
 * The company universe: search, the paged list, one company's profile with
 * its quote, ratios and trailing dividend figures, and the full-company
 * payload (peers, sector medians, dividends, filings, financials, derived).
 *
 * Paging is keyset on the symbol (stable under inserts); `limit=1` reads
 * `total` with one count. Default page 50, maximum 200.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  DataNotFound,
  InvalidRequest,
  type InvalidSymbol,
  type SourceUnavailable
} from "../../domain/Errors.ts"
import { circuitBounds, karachiDate } from "../../domain/market/Calendar.ts"
import { searchKey } from "../../domain/market/Classify.ts"
import { median } from "../../domain/market/Stats.ts"
import type { CompaniesPage, Company, SearchResult, Stock } from "../../domain/market/Schemas.ts"
import { COMPANIES_DEFAULT_LIMIT, SEARCH_MAX } from "../../domain/market/Limits.ts"
import { parseTicker } from "../../domain/market/Ticker.ts"
import { Cursors } from "../http/Cursors.ts"
import { Filings } from "./Filings.ts"
import { Prices } from "./Prices.ts"
import { Quotes } from "./Quotes.ts"
import { makeReadCache } from "./ReadCache.ts"
import { num, present, storeUnavailable } from "../db/Rows.ts"
import { Sources } from "./Sources.ts"


export interface CompaniesQuery {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly sector?: string | undefined
  readonly security_type?: string | undefined
  readonly inside_kse100?: boolean | undefined
}

type Err = InvalidSymbol | DataNotFound | SourceUnavailable

const KSE100 = `EXISTS (SELECT 1 FROM index_membership m WHERE m.index_code = 'KSE100' AND m.symbol = s.symbol)`

export class Companies extends Context.Service<Companies, {
  readonly search: (q: string) => Effect.Effect<typeof SearchResult.Type, InvalidRequest | SourceUnavailable>
  readonly list: (q: CompaniesQuery) => Effect.Effect<typeof CompaniesPage.Type, InvalidRequest | SourceUnavailable>
  readonly company: (symbol: string) => Effect.Effect<typeof Company.Type, Err>
  readonly stock: (symbol: string) => Effect.Effect<typeof Stock.Type, Err>
}>()("psx/market/Companies") {
  static readonly layer = Layer.effect(
    Companies,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cursors = yield* Cursors
      const sources = yield* Sources
      const quotes = yield* Quotes
      const filings = yield* Filings
      const prices = yield* Prices
      const cached = makeReadCache(3_000)

      const search = Effect.fn("Companies.search")(function*(raw: string) {
        const q = raw.trim()
        if (q === "") return yield* new InvalidRequest({ message: "query field `q` must not be empty" })
        if (q.length > 100) return yield* new InvalidRequest({ message: "query field `q` is longer than 100 characters" })
        const key = searchKey(q)
        const ticker = q.toUpperCase()
        if (key === "") return { query: q, items: [], total: 0, sources: [] }
        const words = key.split(" ")
        const params: Array<unknown> = [ticker, `${ticker}%`]
        const nameConds = words.map((w) => `(' ' || search_text) LIKE $${params.push(`% ${w}%`)}`).join(" AND ")
        const rows = yield* sql.unsafe<Record<string, unknown>>(
          `SELECT symbol, name, sector_name,
                  CASE WHEN symbol = $1 THEN 0 WHEN symbol LIKE $2 THEN 1 ELSE 2 END AS rank
           FROM securities
           WHERE symbol = $1 OR symbol LIKE $2 OR (${nameConds})
           ORDER BY rank, security_type <> 'equity', length(symbol), symbol
           LIMIT ${SEARCH_MAX}`,
          params
        ).pipe(storeUnavailable)
        const items = rows.map((r) => ({
          symbol: String(r["symbol"]),
          name: String(r["name"]),
          ...present({ sector: r["sector_name"] as string | null }),
          match: (["exact_ticker", "ticker_prefix", "name"] as const)[num(r["rank"]) ?? 2]!
        }))
        return { query: q, items, total: items.length, sources: yield* sources.of(["universe"]) }
      })

      const list = Effect.fn("Companies.list")(function*(q: CompaniesQuery) {
        const limit = q.limit ?? COMPANIES_DEFAULT_LIMIT
        const scope = `companies:${q.sector ?? ""}:${q.security_type ?? ""}:${q.inside_kse100 ?? ""}`
        const after = yield* cursors.decode(scope, q.cursor)
        const conds: Array<string> = []
        const params: Array<unknown> = []
        if (q.sector) conds.push(`(upper(s.sector_name) = upper($${params.push(q.sector)}) OR s.sector_code = $${params.length})`)
        if (q.security_type) conds.push(`s.security_type = $${params.push(q.security_type)}`)
        if (q.inside_kse100 !== undefined) conds.push(q.inside_kse100 ? KSE100 : `NOT ${KSE100}`)
        const where = conds.length ? `WHERE ${conds.join(" AND ")}` : ""
        const pageConds = [...conds]
        const pageParams = [...params]
        if (after) pageConds.push(`s.symbol > $${pageParams.push(String(after[0]))}`)
        const pageWhere = pageConds.length ? `WHERE ${pageConds.join(" AND ")}` : ""
        const [rows, count] = yield* Effect.all([
          sql.unsafe<Record<string, unknown>>(
            `SELECT s.symbol, s.name, s.sector_name, s.sector_code, s.security_type, ${KSE100} AS kse100
             FROM securities s ${pageWhere} ORDER BY s.symbol LIMIT ${limit + 1}`,
            pageParams
          ),
          sql.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM securities s ${where}`, params)
        ], { concurrency: 1 }).pipe(storeUnavailable)
        const page = rows.slice(0, limit)
        return {
          total: count[0]?.n ?? 0,
          next_cursor: rows.length > limit ? yield* cursors.encode(scope, [String(page[page.length - 1]!["symbol"])]) : null,
          items: page.map((r) => ({
            symbol: String(r["symbol"]),
            name: String(r["name"]),
            security_type: r["security_type"] as "equity",
            inside_kse100: r["kse100"] === true,
            ...present({ sector: r["sector_name"] as string | null, sector_code: r["sector_code"] as string | null })
          })),
          sources: yield* sources.of(["universe", "index_kse100"])
        }
      })

      const loadCompany = (symbol: string) =>
        sql.unsafe<Record<string, unknown>>(
          `SELECT s.symbol, s.name, s.sector_name, s.sector_code, s.security_type,
                  f.market_cap, f.pe_ttm, f.eps, f.dividend_yield_pct, f.free_float_shares, f.shares_outstanding,
                  f.face_value, f.listed_in, f.as_of AS f_as_of, f.dataset AS f_dataset,
                  p.description, p.fiscal_year_end,
                  (SELECT weight_pct FROM index_membership m WHERE m.index_code = 'KSE100' AND m.symbol = s.symbol
                    ORDER BY effective_date DESC LIMIT 1) AS kse100_weight,
                  ${KSE100} AS kse100
           FROM securities s
           LEFT JOIN fundamentals f ON f.symbol = s.symbol
           LEFT JOIN company_profiles p ON p.symbol = s.symbol
           WHERE s.symbol = $1`,
          [symbol]
        ).pipe(storeUnavailable)

      /** The company record and the dividend history it summarises (the full payload reuses both). */
      const companyAndDividends = Effect.fn("Companies.company")(function*(raw: string) {
        const symbol = yield* parseTicker(raw)
        const r = (yield* loadCompany(symbol))[0]
        if (r === undefined) return yield* new DataNotFound({ message: `unknown symbol ${symbol}`, symbol })
        const quote = yield* quotes.latest(symbol)
        const div = yield* filings.dividends(symbol)
        const fDataset = r["f_dataset"] as string | null
        const ratios = fDataset
          ? {
            as_of: String(r["f_as_of"]),
            ...present({
              pe_ttm: num(r["pe_ttm"]),
              eps: num(r["eps"]),
              dividend_yield_pct: num(r["dividend_yield_pct"]),
              market_cap: num(r["market_cap"]),
              free_float_shares: num(r["free_float_shares"]),
              shares_outstanding: num(r["shares_outstanding"]),
              face_value: num(r["face_value"])
            })
          }
          : undefined
        const datasets = ["universe", ...(fDataset ? [fDataset] : []), ...(r["description"] ? ["company_pages"] : [])]
        const record = {
          symbol,
          name: String(r["name"]),
          security_type: String(r["security_type"]),
          listed_in: (r["listed_in"] as ReadonlyArray<string> | null) ?? [],
          inside_kse100: r["kse100"] === true,
          dividend_coverage: div.coverage,
          ...present({
            sector: r["sector_name"] as string | null,
            sector_code: r["sector_code"] as string | null,
            kse100_weight_pct: num(r["kse100_weight"]),
            description: r["description"] as string | null,
            fiscal_year_end: r["fiscal_year_end"] as string | null,
            quote,
            ratios,
            ttm_dividend_per_share: div.ttm_dividend_per_share,
            ttm_dividend_yield_pct: div.ttm_dividend_yield_pct
          }),
          sources: [...(yield* sources.of(datasets)), ...div.sources.filter((s) => !datasets.includes(s.dataset))]
        }
        return { company: record, div }
      })

      const company = (raw: string) => Effect.map(companyAndDividends(raw), (r) => r.company)

      const stock = Effect.fn("Companies.stock")(function*(raw: string) {
        const { company: c, div } = yield* companyAndDividends(raw)
        const symbol = c.symbol
        const [peerRows, ann, fin, ratioRows] = yield* Effect.all([
          c.sector
            ? sql.unsafe<Record<string, unknown>>(
              `SELECT s.symbol, s.name, f.pe_ttm, f.dividend_yield_pct FROM securities s
               LEFT JOIN fundamentals f ON f.symbol = s.symbol
               WHERE s.sector_name = $1 AND s.security_type = 'equity' ORDER BY f.market_cap DESC NULLS LAST, s.symbol`,
              [c.sector]
            ).pipe(storeUnavailable)
            : Effect.succeed([]),
          filings.announcements({ symbol, limit: 10 }).pipe(Effect.catchIf((e) => e instanceof InvalidRequest, Effect.die)),
          filings.financials(symbol),
          sql<{ period: string; name: string; value: string }>`
            select period, name, value from company_ratios where symbol = ${symbol} order by period desc`.pipe(storeUnavailable)
        ], { concurrency: 1 })
        const peers = peerRows.map((p) => ({
          symbol: String(p["symbol"]),
          name: String(p["name"]),
          ...present({ pe_ttm: num(p["pe_ttm"]), dividend_yield_pct: num(p["dividend_yield_pct"]) })
        }))
        // Medians, never means; loss-makers (no positive P/E) are left out of the P/E median.
        const pes = peers.map((p) => p.pe_ttm).filter((v): v is number => v !== undefined && v > 0)
        const yields = peers.map((p) => p.dividend_yield_pct).filter((v): v is number => v !== undefined)
        const medPe = median(pes)
        const medYield = median(yields)
        const today = karachiDate(yield* Clock.currentTimeMillis)
        const last = c.quote
        const from52 = last ? new Date(Date.parse(last.as_of) - 365 * 86_400_000).toISOString().slice(0, 10) : today
        const closes = last ? yield* prices.closes(symbol, from52) : []
        const hi = closes.length ? Math.max(...closes.map((x) => x.close)) : undefined
        const lo = closes.length ? Math.min(...closes.map((x) => x.close)) : undefined
        const latestRatio = (name: string) => {
          const r = ratioRows.find((x) => x.name === name)
          return r ? num(r.value) : undefined
        }
        // Bounds for the next session, from the last close.
        const bounds = last ? circuitBounds(last.price, karachiDate(Date.parse(last.as_of) + 86_400_000)) : undefined
        return {
          ...c,
          peers: peers.filter((p) => p.symbol !== symbol).slice(0, 20),
          ...(c.sector
            ? {
              sector_medians: {
                ...present({ pe_ttm: medPe, dividend_yield_pct: medYield }),
                pe_peers: pes.length,
                yield_peers: yields.length
              }
            }
            : {}),
          dividends: div.items,
          filings: ann.items,
          financials: fin.periods,
          derived: present({
            market_cap: c.ratios?.market_cap,
            week52: hi !== undefined && lo !== undefined && closes.length > 0
              ? { high: hi, low: lo, from: closes[0]!.date, to: closes[closes.length - 1]!.date, basis: "close" as const }
              : undefined,
            circuit_breaker: bounds && last
              ? { lower: bounds.lower, upper: bounds.upper, previous_close: last.price, rule: bounds.rule }
              : undefined,
            net_margin_pct: latestRatio("Net Profit Margin (%)"),
            eps_growth_pct: latestRatio("EPS Growth (%)")
          })
        }
      })

      return {
        search,
        list: (q: CompaniesQuery) => cached(`list:${JSON.stringify(q)}`, list(q)),
        company: (symbol: string) => cached(`company:${symbol.trim().toUpperCase()}`, company(symbol)),
        stock: (symbol: string) => cached(`stock:${symbol.trim().toUpperCase()}`, stock(symbol))
      }
    })
  )
}
