/**
 * The pack's research datasets from the company-page, screener and news
 * recordings, built with the same parsers the live portal adapter
 * uses. Called by scripts/build-pack.ts; every dataset names its recording
 * and upstream route. Rows already in the pack (same document id, or the same
 * symbol, day and title) are not repeated: they are counted as skipped.
 */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { parseHeadlineDigest } from "../domain/news/Headlines.ts"
import { type FeedItem, newsEvents, parseFeedFile } from "../domain/news/News.ts"
import { newsTagger } from "../domain/news/Tagger.ts"
import type { PackProvenance } from "../domain/pack/Pack.ts"
import {
  announcementKey,
  parseAnnouncementExport,
  parseCompanyPageAnnouncements
} from "../domain/psx/CompanyAnnouncements.ts"
import { parseCompanyPage, parseCompanyPagePayouts } from "../domain/psx/CompanyPage.ts"
import type { Announcement } from "../domain/psx/Filings.ts"
import { parseSalesExport, parseScreenerExport } from "../domain/psx/ScreenerExport.ts"
import { companyAliases } from "../src/ingest/CompanyAliases.ts"
import { filingsInventory } from "./pack-filings.ts"

export interface PackWriter {
  readonly raw: string
  readonly read: (path: string) => string
  readonly add: (p: Omit<PackProvenance, "bytes" | "sha256">, value: unknown) => void
  /** Announcements already in the pack. */
  readonly announcements: ReadonlyArray<Announcement>
}

const RESEARCH = {
  repository: "github.com/umarfarooq2044/psx-research-analyst",
  commit: "9357c118773f732a16d5d6ca027c6d255a878111",
  licence: "MIT per the README (the author's work); data © Pakistan Stock Exchange"
}
const PAGES = {
  repository: "github.com/aabdullah27/Stock-Analysis-PSX",
  commit: "a974d6ee7e7a3076007bea80addc26e9206a1b59",
  licence: "none found (internal test use); data © Pakistan Stock Exchange",
  // Committed 2025-09-21; the pages show quotes as of Fri 19 Sep 2025 4:44-4:49 PM PKT.
  recordedAt: "2025-09",
  asOf: "2025-09-19T11:49:00.000Z"
}
const SCREENER = {
  repository: "github.com/alihamza098/psx-stock-screener",
  commit: "ccc63e9e7be6be1988df973d6d8d249e87eaabef",
  licence: "none found (internal test use); data © Pakistan Stock Exchange"
}
const PAGE_DIR = "aabdullah27__Stock-Analysis-PSX/scraped_data/c03489a1-4481-4640-baaa-2c2d1986431f"
const PAGE_SYMBOLS = ["BOP", "MCB", "MEBL", "TRG"]
const DATE_ONLY =
  "The company page gives each announcement's date, not its time: published_on is that Karachi date and published_at " +
  "is absent."

const merge = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v
  return into
}

const DUPLICATE =
  "a duplicate of one already in the pack or in this recording (same document id, or same symbol, day and title " +
  "where one of the two links no document)"

/** What the pack already holds: document ids, and symbol-day-title keys (`announcementKey`) with the documents seen under each. */
export interface KnownFilings {
  readonly ids: Set<string>
  readonly keys: Map<string, Set<string | undefined>>
}

const knownFrom = (rows: ReadonlyArray<Announcement>): KnownFilings => {
  const known: KnownFilings = { ids: new Set(), keys: new Map() }
  for (const a of rows) remember(known, a)
  return known
}

const remember = (known: KnownFilings, a: Announcement) => {
  known.ids.add(a.id)
  const key = announcementKey(a)
  known.keys.set(key, (known.keys.get(key) ?? new Set()).add(a.documentUrl))
}

/**
 * Announcements not already known by document id, nor by symbol, day and
 * title where one of the two records links no document; the rest counted.
 * Two filings of one day and title with different documents are two filings
 * (MQTM 263780 and 263785). Of two records of one announcement, the one
 * linking a document is kept.
 */
const newFilings = (rows: ReadonlyArray<Announcement>, known: KnownFilings, skipped: Record<string, number>) =>
  [...rows].sort((a, b) => Number(a.documentUrl === undefined) - Number(b.documentUrl === undefined)).filter((a) => {
    const documents = known.keys.get(announcementKey(a))
    const sameFiling = documents !== undefined && (a.documentUrl === undefined || documents.has(undefined))
    if (known.ids.has(a.id) || sameFiling) {
      skipped[DUPLICATE] = (skipped[DUPLICATE] ?? 0) + 1
      return false
    }
    remember(known, a)
    return true
  })

export const buildResearchDatasets = (w: PackWriter) => {
  const known = knownFrom(w.announcements)
  announcements(w, known)
  companyPages(w, known)
  filingsInventory(w, (rows, skipped) => newFilings(rows, known, skipped))
  screener(w)
  news(w)
  headlines(w)
}

const announcements = (w: PackWriter, known: KnownFilings) => {
  const path = "umarfarooq2044__psx-research-analyst/exports/csv_20260131_0144/announcements.csv"
  const parsed = parseAnnouncementExport(w.read(path))
  const skipped = merge({}, parsed.skipped)
  const rows = newFilings(parsed.rows, known, skipped)
  w.add({
    id: "announcements_company_pages",
    file: "announcements_company_pages.json.gz",
    title: "Company announcements (filings) from the company pages of 331 symbols (786 … MUGHAL plus six large caps)",
    source: "PSX data portal GET /company/{SYMBOL}, announcements section (Financial Results, Board Meetings, Others)",
    upstream: "https://dps.psx.com.pk/company/{SYMBOL}",
    path,
    ...RESEARCH,
    recordedAt: "2026-01-22",
    asOf: "2026-01-22",
    rows: rows.length,
    skipped,
    notes:
      `${DATE_ONLY} The date is the one at the start of each exported title; the export's announcement_date column ` +
      "(mostly the day it was read) is not used. Symbols after MUGHAL were not exported: their coverage is unknown."
  }, rows)
}

const companyPages = (w: PackWriter, known: KnownFilings) => {
  const pages = Object.fromEntries(PAGE_SYMBOLS.map((s) => [s, w.read(`${PAGE_DIR}/${s}_psx.html`)]))
  const parsed = Object.fromEntries(Object.entries(pages).map(([s, html]) => [s, parseCompanyPage(html)]))
  const unreadable = Object.values(parsed).reduce((n, p) => n + p.unreadable, 0)
  const base = {
    ...PAGES,
    source: "PSX data portal GET /company/{SYMBOL}",
    upstream: "https://dps.psx.com.pk/company/{SYMBOL} (BOP, MCB, MEBL, TRG)",
    path: PAGE_SYMBOLS.map((s) => `${PAGE_DIR}/${s}_psx.html`).join("; ")
  }
  w.add({
    ...base,
    id: "company_pages_2025_09",
    file: "company_pages_2025_09.json",
    title:
      "Company pages of BOP, MCB, MEBL and TRG: profile, equity, income statement lines (annual and quarterly, EPS), ratios",
    rows: PAGE_SYMBOLS.length,
    skipped: unreadable > 0 ? { unreadable } : {},
    notes:
      "Financials are 'in thousands (000's) except EPS' (EPS in rupees); annual 2021-2024 and the last four quarters. " +
      "MCB's page is as of 4:44 PM, the others 4:49 PM."
  }, parsed)
  const payouts = PAGE_SYMBOLS.map((s) => parseCompanyPagePayouts(s, pages[s]!))
  w.add({
    ...base,
    id: "payouts_company_pages_2025_09",
    file: "payouts_company_pages_2025_09.json",
    title: "Payouts of BOP, MCB, MEBL and TRG (the last 10 on each company page) with book closures",
    rows: payouts.reduce((n, p) => n + p.rows.length, 0),
    skipped: payouts.reduce((acc, p) => merge(acc, p.skipped), {}),
    notes: "The page lists each company's last 10 payouts; 'NIL' rows (no dividend) carry no payout and are skipped."
  }, payouts.flatMap((p) => p.rows.map((r) => ({ ...r, source: "company_page" }))))
  const skipped: Record<string, number> = {}
  const anns = PAGE_SYMBOLS.flatMap((s) => {
    const p = parseCompanyPageAnnouncements(s, pages[s]!)
    merge(skipped, p.skipped)
    return newFilings(p.rows, known, skipped)
  })
  w.add({
    ...base,
    id: "announcements_company_pages_2025_09",
    file: "announcements_company_pages_2025_09.json",
    title: "Company announcements (filings) on the company pages of BOP, MCB, MEBL and TRG",
    rows: anns.length,
    skipped,
    notes: DATE_ONLY
  }, anns)
}

const screener = (w: PackWriter) => {
  const sales = parseSalesExport(JSON.parse(w.read("alihamza098__psx-stock-screener/financials.json")))
  w.add({
    id: "financials_sales",
    file: "financials_sales.json.gz",
    title: "Annual Sales per fiscal year (thousands of rupees) for 408 companies",
    source: "PSX data portal GET /company/{SYMBOL}, FINANCIALS table, Sales row (annual)",
    upstream: "https://dps.psx.com.pk/company/{SYMBOL}",
    path: "alihamza098__psx-stock-screener/financials.json",
    ...SCREENER,
    recordedAt: "2026-08-04",
    asOf: "2026-08-04",
    rows: sales.rows.length,
    skipped: sales.skipped,
    notes:
      "Annual only; in thousands of rupees; periods are the portal's fiscal-year labels (a June year-end is labelled by " +
      "the year it ends). Companies whose table has no Sales row (banks, insurers, modarabas) are absent, not zero."
  }, sales.rows)
  const snapshot = parseScreenerExport(JSON.parse(w.read("alihamza098__psx-stock-screener/data_snapshot.json")))
  if (snapshot.takenAt === undefined) throw new Error("data_snapshot.json: no timestamp, so no as-of")
  w.add({
    id: "screener_2026_08_04",
    file: "screener_2026_08_04.json.gz",
    title:
      "Screener snapshot at the 2026-08-04 close: market cap, price, change, P/E (TTM), dividend yield, free float, " +
      "30-day volume, index lists (KSE-100 membership that day)",
    source: "PSX data portal GET /screener (the cells' data-order values, exported as JSON)",
    upstream: "https://dps.psx.com.pk/screener",
    path: "alihamza098__psx-stock-screener/data_snapshot.json",
    ...SCREENER,
    recordedAt: snapshot.takenAt,
    asOf: snapshot.takenAt,
    rows: snapshot.rows.length,
    skipped: snapshot.skipped,
    notes:
      "Taken 2026-08-04 17:23 UTC, after that day's close. A 0 P/E or 0 yield is left out (it cannot be told from 'no " +
      "figure'); the export's revenue column is not the screener's and is not used. Membership of KSE-100 is the portal's " +
      "index list on that day; weights are not in the screener."
  }, snapshot.rows)
}

const news = (w: PackWriter) => {
  const folder = "fahadalipersonal313-ai__psx-engine"
  const files = [
    "news_raw_24h.json",
    ...readdirSync(join(w.raw, folder, "news_raw_24h.history")).sort().map((f) => `news_raw_24h.history/${f}`)
  ]
  const items: Array<FeedItem> = []
  const skipped: Record<string, number> = {}
  const tag = newsTagger(companyAliases())
  for (const f of files) {
    const p = parseFeedFile(JSON.parse(w.read(`${folder}/${f}`)), tag)
    items.push(...p.rows)
    merge(skipped, p.skipped)
  }
  const events = newsEvents(items)
  const newest = events.flatMap((e) => e.sources.map((s) => s.publishedAt)).sort().pop()
  if (newest === undefined) throw new Error("news: no items, so no as-of")
  w.add({
    id: "news",
    file: "news.json.gz",
    title: "News items (Business Recorder, Dawn, Google News) as events with their sources, June-August 2026",
    source:
      "Publishers' RSS feeds (brecorder.com, dawn.com, news.google.com), fetched every few hours; not the exchange",
    upstream: "https://www.brecorder.com; https://www.dawn.com/business; https://news.google.com/rss",
    path: `${folder}/news_raw_24h.json; ${folder}/news_raw_24h.history/*.json (${files.length} fetches)`,
    repository: "github.com/fahadalipersonal313-ai/psx-engine",
    commit: "ff8b3103c4ab030593a5c53772d60a9ab6390948",
    licence: "none found (internal use); headlines © their publishers",
    recordedAt: "2026-08-07",
    asOf: newest,
    rows: events.length,
    skipped,
    notes:
      `${items.length} feed items from ${files.length} overlapping fetches → ${events.length} events. published_at is the ` +
      "publisher's time; no feed gives the date of the event itself, so event_date is absent. The same story from two " +
      "outlets or republished (same address, or same headline and text within 72 hours, and within 12 hours of the same " +
      "publisher's last copy) is one event with several sources. Symbols are the companies the headline or summary names " +
      "(domain/news/company-aliases.json); the recording author's search keyword for each item is kept apart as " +
      "sourceKeywords and is never a tag. Fetches cover 2026-06-16..06-24 and 2026-07-14..08-07."
  }, events)
}

const HEADLINES = "umarfarooq2044__psx-research-analyst/reports"

/** The umarfarooq2044 hourly headline digests: items timed at the first digest that lists them (fetch time, not publication). */
const headlines = (w: PackWriter) => {
  const files = readdirSync(join(w.raw, HEADLINES)).filter((f) => /^hourly_news_\d{8}_\d{4}\.csv$/.test(f)).sort()
  const items: Array<FeedItem> = []
  const skipped: Record<string, number> = {}
  const tag = newsTagger(companyAliases())
  for (const f of files) {
    const p = parseHeadlineDigest(w.read(`${HEADLINES}/${f}`), tag)
    items.push(...p.rows)
    merge(skipped, p.skipped)
  }
  const events = newsEvents(items)
  const newest = items.map((i) => i.publishedAt).sort().pop()
  if (newest === undefined) throw new Error("news_headlines: no items, so no as-of")
  w.add({
    id: "news_headlines",
    file: "news_headlines.json.gz",
    title:
      "Business and world headlines (The News, Investing.com, Dawn, MarketWatch, Express Tribune), 31 Jan-3 Feb 2026",
    source: "The recording author's hourly headline digests of publishers' RSS feeds; not the exchange",
    upstream: "publishers' RSS feeds (thenews.com.pk, investing.com, dawn.com, marketwatch.com, tribune.com.pk)",
    path: `${HEADLINES}/hourly_news_*.csv (${files.length} digests)`,
    ...RESEARCH,
    recordedAt: "2026-02-03",
    asOf: newest,
    rows: events.length,
    skipped,
    notes:
      `${items.length} digest rows from ${files.length} digests → ${events.length} events. A digest's Time is when it was ` +
      "fetched (the author's clock, taken as Pakistan time), not when the story was published: published_at is the first " +
      "digest listing the item, published_at_basis 'first_seen' (published no later than that). A headline the digests " +
      "later reworded keeps its first wording. The author's sentiment and impact columns are not used. Symbols are the " +
      "companies the headline names (domain/news/company-aliases.json)."
  }, events)
}
