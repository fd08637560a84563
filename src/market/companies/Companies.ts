/**
 * The company universe from the read model: the paged list, one
 * company's profile with its quote, ratios and trailing dividend figures,
 * and the full-company payload (peers, sector medians, dividends, filings,
 * financials, derived).
 *
 * Paging is keyset on the symbol (stable under inserts); `limit=1` reads
 * `total` cheaply. Default page 50, maximum 200.
 */
import { Clock, Context, Effect, Layer } from "effect"
import {
  type DataNotFound,
  InvalidRequest,
  type InvalidSymbol,
  type SourceUnavailable
} from "../../../domain/Errors.ts"
import type { TechnicalsFigures } from "../../../domain/market/analytics/TechnicalsSchema.ts"
import { isTradingPeer } from "../../../domain/market/board/PeerRule.ts"
import { addDays, karachiDate, nextSessionBounds, quoteIsFresh } from "../../../domain/market/calendar/Calendar.ts"
import { seriesBasis } from "../../../domain/market/prices/Restated.ts"
import { week52Start } from "../../../domain/market/shared/Figures.ts"
import { COMPANIES_DEFAULT_LIMIT } from "../../../domain/market/shared/Limits.ts"
import type { CompaniesPage, Company, Quote, Stock } from "../../../domain/market/shared/Schemas.ts"
import { median } from "../../../domain/market/shared/Stats.ts"
import { indexAtOrBefore, type PriceSeries } from "../../../domain/market/snapshot/Series.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { defined } from "../../../domain/Objects.ts"
import { Cursors } from "../../paging/Cursors.ts"
import { Analytics } from "../analytics/Analytics.ts"
import { announcementItem, dividendsOf, financialsOf, listed } from "../filings/Filings.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { quoteRecord } from "../quotes/Quotes.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"

export interface CompaniesQuery {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly sector?: string | undefined
  readonly security_type?: string | undefined
  readonly inside_kse100?: boolean | undefined
}

type Err = InvalidSymbol | DataNotFound | SourceUnavailable

const FILINGS_IN_STOCK = 10
const PEERS_IN_STOCK = 20

/** The quote embedded in other records: the last known one, `stale` judged now. */
const embeddedQuote = (snapshot: MarketSnapshot, data: SymbolData, now: number): Quote | undefined =>
  data.quote !== undefined
    ? quoteRecord(snapshot, data, data.quote, !quoteIsFresh(Date.parse(data.quote.as_of), now))
    : undefined

/** The company record (SPEC: profile, quote, ratios, trailing dividend figures). */
export const companyOf = (snapshot: MarketSnapshot, data: SymbolData, now: number) => {
  const s = data.security
  const f = data.fundamentals
  const div = dividendsOf(snapshot, data, karachiDate(now))
  const quote = embeddedQuote(snapshot, data, now)
  const ratios = f !== undefined
    ? {
      ...defined({
        as_of: f.as_of ?? snapshot.datasets.get(f.dataset)?.as_of,
        price: f.price,
        pe_ttm: f.pe_ttm,
        eps: f.eps,
        dividend_yield_pct: f.dividend_yield_pct,
        market_cap: f.market_cap,
        free_float_shares: f.free_float_shares,
        shares_outstanding: f.shares_outstanding,
        face_value: f.face_value
      })
    }
    : undefined
  const datasets = [
    s.dataset,
    ...(f ? [f.dataset] : []),
    ...(data.profile?.description !== undefined ? [data.profile.dataset] : [])
  ]
  const company: typeof Company.Type = {
    symbol: s.symbol,
    name: s.name,
    security_type: s.security_type,
    listed_in: f?.listed_in ?? [],
    inside_kse100: data.kse100 !== undefined,
    dividend_coverage: div.coverage,
    ...defined({
      sector: s.sector_name,
      sector_code: s.sector_code,
      kse100_weight_pct: data.kse100?.weight_pct,
      description: data.profile?.description,
      fiscal_year_end: data.profile?.fiscal_year_end,
      quote,
      ratios,
      ttm_dividend_per_share: div.ttm_dividend_per_share,
      ttm_dividend_yield_pct: div.ttm_dividend_yield_pct,
      delisted_on: s.delisted_on
    }),
    sources: [...sourcesOf(snapshot, datasets), ...div.sources.filter((x) => !datasets.includes(x.dataset))]
  }
  return { company, div }
}

/** The sector's lines that count as peers (PeerRule.ts) with their P/E and yield, largest market cap first. */
const peersOf = (snapshot: MarketSnapshot, sector: string | undefined) =>
  (sector !== undefined ? snapshot.sectorMembers.get(sector) ?? [] : []).flatMap((p) => {
    const peer = snapshot.symbols.get(p)
    if (peer === undefined || !isTradingPeer(snapshot, peer)) return []
    const f = peer.fundamentals
    return {
      symbol: p,
      name: peer.security.name,
      ...defined({ pe_ttm: f?.pe_ttm, dividend_yield_pct: f?.dividend_yield_pct }),
      ...(f?.pe_ttm !== undefined || f?.dividend_yield_pct !== undefined
        ? defined({ as_of: f.as_of ?? snapshot.datasets.get(f.dataset)?.as_of })
        : {})
    }
  })

/**
 * Medians, never means; loss-makers (no positive P/E) are left out of the P/E median; a yield shown as 0 by the
 * exchange is no figure (the pack keeps none), so it is left out too, never entered as 0 (Sectors.ts).
 */
const sectorMedians = (peers: ReturnType<typeof peersOf>) => {
  const pes = peers.map((p) => p.pe_ttm).filter((v): v is number => v !== undefined && v > 0)
  const yields = peers.map((p) => p.dividend_yield_pct).filter((v): v is number => v !== undefined && v > 0)
  return {
    ...defined({ pe_ttm: median(pes), dividend_yield_pct: median(yields) }),
    pe_peers: pes.length,
    yield_peers: yields.length
  }
}

/** The one 52-week window (Figures.ts week52Start) of clean closes, ending on the quote's Karachi day, as /analytics uses it. */
const week52Closes = (s: PriceSeries, quoteAsOf: string) => {
  const from = week52Start(karachiDate(Date.parse(quoteAsOf)))
  let hi = -Infinity, lo = Infinity, first: string | undefined, lastDate: string | undefined
  for (let i = indexAtOrBefore(s, addDays(from, -1)) + 1; i < s.dates.length; i++) {
    if (s.flag[i] !== undefined) continue
    const close = s.close[i]!
    if (close > hi) hi = close
    if (close < lo) lo = close
    first ??= s.dates[i]
    lastDate = s.dates[i]
  }
  return first !== undefined && lastDate !== undefined
    ? { high: hi, low: lo, from: first, to: lastDate, basis: "close" as const }
    : undefined
}

/** The full-company payload; `technicals` are the symbol's memoised figures (Analytics). */
export const stockOf = (
  snapshot: MarketSnapshot,
  data: SymbolData,
  now: number,
  technicals?: TechnicalsFigures | undefined
): typeof Stock.Type => {
  const { company: c, div } = companyOf(snapshot, data, now)
  const peers = peersOf(snapshot, c.sector)
  const last = c.quote
  const s = data.prices
  const week52 = last !== undefined && s !== undefined ? week52Closes(s, last.as_of) : undefined
  const ratio = (name: string) => data.ratios.find((r) => r.name === name)?.value
  // Bounds of the next trading session after the quote's day, from its close (the session they apply to is served).
  const bounds = last ? nextSessionBounds(last.price, karachiDate(Date.parse(last.as_of))) : undefined
  return {
    ...c,
    peers: peers.filter((p) => p.symbol !== c.symbol).slice(0, PEERS_IN_STOCK),
    ...(c.sector !== undefined ? { sector_medians: sectorMedians(peers) } : {}),
    dividends: div.items,
    filings: data.announcements.slice(0, FILINGS_IN_STOCK).map(announcementItem),
    financials: financialsOf(snapshot, data).periods,
    derived: {
      ...defined({ market_cap: c.ratios?.market_cap }),
      ...(week52 !== undefined && s !== undefined
        ? { week52, price_series: seriesBasis(s.series, data.restatement) }
        : {}),
      ...(bounds && last ?
        {
          circuit_breaker: {
            lower: bounds.lower,
            upper: bounds.upper,
            session: bounds.session,
            previous_close: last.price,
            rule: bounds.rule
          }
        } :
        {}),
      ...defined({ net_margin_pct: ratio("Net Profit Margin (%)"), eps_growth_pct: ratio("EPS Growth (%)") })
    },
    ...defined({ technicals })
  }
}

/** The listed companies a list query's filters keep (a delisted one is still served by symbol, not listed). */
const listedMatching = (snapshot: MarketSnapshot, q: CompaniesQuery) => {
  const sector = q.sector?.toUpperCase()
  return snapshot.securities.filter((s) =>
    s.delisted_on === undefined &&
    (sector === undefined || s.sector_name?.toUpperCase() === sector || s.sector_code === q.sector) &&
    (q.security_type === undefined || s.security_type === q.security_type) &&
    (q.inside_kse100 === undefined || snapshot.symbols.get(s.symbol)?.kse100 !== undefined === q.inside_kse100)
  )
}

export class Companies extends Context.Service<Companies, {
  readonly list: (q: CompaniesQuery) => Effect.Effect<typeof CompaniesPage.Type, InvalidRequest | SourceUnavailable>
  readonly company: (symbol: string) => Effect.Effect<typeof Company.Type, Err>
  readonly stock: (symbol: string) => Effect.Effect<typeof Stock.Type, Err>
}>()("psx/market/Companies") {
  static readonly layer = Layer.effect(
    Companies,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      const cursors = yield* Cursors
      const analytics = yield* Analytics

      const list = Effect.fn("Companies.list")(function*(q: CompaniesQuery) {
        const snapshot = yield* model.snapshot
        const limit = q.limit ?? COMPANIES_DEFAULT_LIMIT
        const scope = `companies:${q.sector ?? ""}:${q.security_type ?? ""}:${q.inside_kse100 ?? ""}`
        const after = yield* cursors.decode(scope, q.cursor)
        const all = listedMatching(snapshot, q)
        const afterSymbol = after !== undefined ? String(after[0]) : undefined
        const rest = afterSymbol === undefined ? all : all.filter((s) => s.symbol > afterSymbol)
        const page = rest.slice(0, limit)
        return {
          total: all.length,
          next_cursor: rest.length > limit ? yield* cursors.encode(scope, [page[page.length - 1]!.symbol]) : null,
          items: page.map((s) => ({
            symbol: s.symbol,
            name: s.name,
            security_type: s.security_type,
            inside_kse100: snapshot.symbols.get(s.symbol)?.kse100 !== undefined,
            ...defined({ sector: s.sector_name, sector_code: s.sector_code })
          })),
          // The listing each security came from (those listed after April: the screener that first showed them).
          sources: sourcesOf(snapshot, [...new Set(["universe", ...page.map((s) => s.dataset)]), "index_kse100"])
        }
      })

      const withListed = <A>(raw: string, f: (snapshot: MarketSnapshot, data: SymbolData, now: number) => A) =>
        Effect.gen(function*() {
          const snapshot = yield* model.snapshot
          const data = yield* listed(snapshot, raw)
          return f(snapshot, data, yield* Clock.currentTimeMillis)
        })

      return {
        list,
        company: (raw: string) => withListed(raw, (s, d, now) => companyOf(s, d, now).company),
        stock: (raw: string) => withListed(raw, (s, d, now) => stockOf(s, d, now, analytics.technicalsOf(s, d)))
      }
    })
  )
}
