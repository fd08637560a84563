/**
 * The research package of one symbol (SPEC 4.2, served at /v1/stocks/{symbol}/research
 * and its two aliases): a pure function of the read-model snapshot, the
 * figures derived from it, and the instant it is generated at.
 *
 * Contents: the profile; the delayed quote with `stale` and its age, both
 * judged at `generated_at`; the analytics and technicals; the valuation
 * against the sector medians; the dividend history; the 10 newest filings
 * and news items; the data caveats (`Research.researchCaveats`); the sources
 * of every part with their as-of.
 */
import type { ResearchPackage } from "../../../domain/market/analytics/AnalyticsSchemas.ts"
import { researchCaveats } from "../../../domain/market/analytics/Research.ts"
import { valuation } from "../../../domain/market/analytics/Valuation.ts"
import { karachiDate, quoteIsFresh } from "../../../domain/market/calendar/Calendar.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { newsEventsOf } from "../../../domain/news/NewsSchemas.ts"
import { defined } from "../../../domain/Objects.ts"
import { announcementItem, dividendsOf } from "../filings/Filings.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { quoteRecord } from "../quotes/Quotes.ts"
import type { DayFigures, SymbolFigures } from "../readmodel/SnapshotFigures.ts"

export const RESEARCH_FILINGS = 10
export const RESEARCH_NEWS = 10
/** How long one research package is dated for. */
export const RESEARCH_WINDOW_MS = 300_000

/**
 * The instant a symbol's package generated at `now` is dated, and until when that package holds.
 *
 * `generated_at` is the start of a 5-minute window, offset per symbol by
 * 0–299 s (`researchInstant`): the package of a symbol is the same within its
 * window, so an answer is encoded at most once per window, and the symbols'
 * windows turn over spread out rather than all at once.
 */
export const researchInstant = (now: number, symbol: string): { readonly at: number; readonly until: number } => {
  let h = 0
  const seconds = RESEARCH_WINDOW_MS / 1_000
  for (let i = 0; i < symbol.length; i++) h = (h * 31 + symbol.charCodeAt(i)) % seconds
  const offset = h * 1_000
  const at = Math.floor((now - offset) / RESEARCH_WINDOW_MS) * RESEARCH_WINDOW_MS + offset
  return { at, until: at + RESEARCH_WINDOW_MS }
}

/** The symbol's news, one item per event (several sources of one story are one event), newest first. */
const newsEvents = (snapshot: MarketSnapshot, symbol: string) =>
  newsEventsOf(snapshot.news.filter((n) => n.symbol === symbol)).slice(0, RESEARCH_NEWS)

const newsItem = (n: ReturnType<typeof newsEvents>[number], symbol: string) => ({
  id: n.id,
  title: n.title,
  published_at: n.published_at,
  published_at_basis: n.published_at_basis,
  republished: n.republished,
  symbol,
  url: n.url,
  ...defined({ event_date: n.event_date })
})

/** Who the company is: name, type, listing, sector and profile. */
const profileOf = (data: SymbolData) => {
  const s = data.security, profile = data.profile
  return {
    symbol: s.symbol,
    name: s.name,
    security_type: s.security_type,
    listed_in: data.fundamentals?.listed_in ?? [],
    inside_kse100: data.kse100 !== undefined,
    ...defined({
      sector: s.sector_name,
      sector_code: s.sector_code,
      kse100_weight_pct: data.kse100?.weight_pct,
      description: profile?.description,
      fiscal_year_end: profile?.fiscal_year_end
    })
  }
}

/** The package of one listed symbol, dated `at` (from `researchInstant`); `day` must be the figures of at's Karachi day. */
export const researchOf = (
  snapshot: MarketSnapshot,
  data: SymbolData,
  figures: SymbolFigures,
  day: DayFigures,
  at: number
): ResearchPackage => {
  const s = data.security
  const symbol = s.symbol
  const q = data.quote
  const quoteStale = q !== undefined ? !quoteIsFresh(Date.parse(q.as_of), at) : undefined
  const quote = q !== undefined ? quoteRecord(snapshot, data, q, quoteStale!) : undefined
  const inputs = day.valuation.get(symbol)
  const value = valuation({ symbol, ...(inputs !== undefined ? inputs : {}) })
  const dividends = dividendsOf(snapshot, data, karachiDate(at))
  const filings = data.announcements.slice(0, RESEARCH_FILINGS).map(announcementItem)
  const events = newsEvents(snapshot, symbol)
  const news = events.map((n) => newsItem(n, symbol))
  const { analytics, technicals } = figures
  const profile = data.profile
  const datasets = [
    s.dataset,
    ...(data.fundamentals !== undefined ? [data.fundamentals.dataset] : []),
    ...(profile?.description !== undefined || profile?.fiscal_year_end !== undefined ? [profile.dataset] : []),
    ...(data.kse100 !== undefined ? [data.kse100.dataset] : []),
    ...(q !== undefined ? [q.dataset] : []),
    ...(data.prices?.datasets ?? []),
    ...(inputs?.datasets ?? []),
    ...dividends.sources.map((x) => x.dataset),
    ...data.announcements.slice(0, RESEARCH_FILINGS).map((a) => a.dataset),
    ...events.flatMap((n) => n.datasets)
  ]
  return {
    symbol,
    generated_at: new Date(at).toISOString(),
    profile: profileOf(data),
    ...(quote !== undefined
      ? { quote, quote_age_seconds: Math.max(0, Math.floor((at - Date.parse(quote.as_of)) / 1_000)) }
      : {}),
    ...defined({ analytics, technicals }),
    valuation: value,
    dividends,
    filings,
    news,
    caveats: researchCaveats({
      analytics,
      technicals,
      quoteStale,
      dividendCoverage: dividends.coverage,
      newsCoverage: events.length > 0 ? "recorded" : "unknown"
    }),
    sources: sourcesOf(snapshot, datasets)
  }
}
