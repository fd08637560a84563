/**
 * Every dataset the crawler reads from the PSX portal: what it fetches, how
 * often it is due, and how its rows reach the market tables (the same rows
 * and table specs as the pack import, ./Tables.ts). A dataset is a kind and
 * a key (a symbol, or `*` for a market-wide page). Each run says what it
 * read, wrote and left unchanged; a failure (SOURCE_UNAVAILABLE) writes
 * nothing, so the last good figures stay.
 */
import { Effect } from "effect"
import { karachiDate } from "../../domain/market/calendar/Calendar.ts"
import type { PayoutRow } from "../../domain/psx/Filings.ts"
import { parseKarachiDateTime } from "../../domain/psx/Values.ts"
import { addWritten, upsertChanged, type Written } from "./Changes.ts"
import type { Outcome, PortalDataset } from "./DatasetDefinition.ts"
import { applyListing } from "./Delistings.ts"
import { news } from "./NewsDataset.ts"
import { boardClose, boardQuotes, writeEod, writeHistorical } from "./PortalPrices.ts"
import { payoutCoverageUpsert, readSectorMaps, writeMembership } from "./PortalStore.ts"
import {
  announcementRow,
  announcementsTable,
  companyProfileRow,
  companyProfilesTable,
  companyRatioRows,
  companyRatiosTable,
  financialLineRows,
  financialLinesTable,
  fundamentalsRow,
  fundamentalsTable,
  payoutCoverageRows,
  payoutRows,
  payoutsTable,
  sectorsTable,
  securitiesTable,
  securityRow
} from "./Tables.ts"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const iso = (ms: number) => new Date(ms).toISOString()
const outcome = (read: number, w: Written, skipped: Readonly<Record<string, number>> = {}, asOf?: string): Outcome => ({
  read,
  ...w,
  skipped,
  ...(asOf !== undefined ? { asOf } : {})
})

const sectors: PortalDataset = {
  kind: "sectors",
  title: "Sectors (live)",
  route: "/sector-summary/sectorwise",
  scope: "market",
  everyMs: DAY,
  table: "sectors",
  run: (_key, { portal }) =>
    Effect.map(portal.sectors, (parsed) =>
      Effect.gen(function*() {
        const w = yield* upsertChanged(sectorsTable, parsed.rows.map((s) => ({ ...s, dataset: "portal_sectors" })))
        return outcome(parsed.rows.length, w, parsed.skipped)
      }))
}

const symbols: PortalDataset = {
  kind: "symbols",
  title: "Listed securities (live)",
  route: "/symbols",
  scope: "market",
  everyMs: DAY,
  table: "securities",
  run: (_key, { portal, now }) =>
    Effect.map(portal.symbols, (parsed) =>
      Effect.gen(function*() {
        const maps = yield* readSectorMaps
        const w = yield* upsertChanged(securitiesTable, parsed.rows.map((s) => securityRow(s, maps, "portal_symbols")))
        // Whatever left the listing is marked delisted (first day seen gone), never deleted.
        const listing = yield* applyListing(parsed.rows.map((s) => s.symbol), karachiDate(now))
        return outcome(parsed.rows.length, addWritten(w, listing), { ...parsed.skipped, ...listing.skipped })
      }))
}

const screener: PortalDataset = {
  kind: "screener",
  title: "Screener snapshot (live)",
  route: "/screener",
  scope: "market",
  everyMs: DAY,
  table: "fundamentals",
  run: (_key, { portal, now }) =>
    Effect.map(portal.screener, (parsed) =>
      Effect.gen(function*() {
        const rows = parsed.rows.map((s) => fundamentalsRow(s, iso(now).slice(0, 10), "portal_screener"))
        const w = yield* upsertChanged({
          ...fundamentalsTable,
          compare: Object.keys(fundamentalsTable.columns).filter((c) => c !== "as_of" && c !== "symbol")
        }, rows)
        return outcome(parsed.rows.length, w, parsed.skipped)
      }))
}

const kse100: PortalDataset = {
  kind: "kse100",
  title: "KSE-100 constituents (live)",
  route: "/indices/KSE100",
  scope: "market",
  everyMs: DAY,
  table: "index_membership",
  dateColumn: "effective_date",
  run: (_key, { portal, now }) =>
    Effect.map(portal.indexConstituents("KSE100"), (parsed) =>
      Effect.gen(function*() {
        const w = yield* writeMembership("KSE100", parsed.rows, now, "portal_kse100")
        return outcome(parsed.rows.length, w, parsed.skipped)
      }))
}

const marketWatch: PortalDataset = {
  kind: "market_watch",
  title: "Delayed market watch (live): quotes, and after the close the day's prices",
  route: "/market-watch",
  scope: "market",
  everyMs: 5 * MINUTE,
  table: "quotes",
  run: (_key, { portal, now }) =>
    Effect.map(portal.marketWatch, (parsed) =>
      Effect.gen(function*() {
        const quotes = yield* boardQuotes(parsed.rows, now)
        const closes = yield* boardClose(parsed.rows, now)
        return outcome(
          parsed.rows.length,
          addWritten(quotes.written, closes),
          { ...parsed.skipped, ...closes.skipped },
          quotes.asOf
        )
      }))
}

const marketPayouts: PortalDataset = {
  kind: "payouts",
  title: "Announced payouts (live)",
  route: "POST /payouts",
  scope: "market",
  everyMs: DAY,
  table: "payouts",
  dateColumn: "book_closure_from",
  run: (_key, { portal }) =>
    Effect.map(portal.marketPayouts, (parsed) =>
      Effect.gen(function*() {
        const w = yield* upsertChanged(payoutsTable, payoutRows(parsed.rows, "portal_payouts"))
        yield* payoutCoverageUpsert(payoutCoverageRows(parsed.rows, "portal_payouts"))
        return outcome(parsed.rows.length, w, parsed.skipped)
      }))
}

const announcements: PortalDataset = {
  kind: "announcements",
  title: "Company announcements (live)",
  route: "POST /announcements",
  scope: "market",
  everyMs: DAY,
  table: "announcements",
  run: (_key, { portal }) =>
    Effect.map(portal.announcements(), (parsed) =>
      Effect.gen(function*() {
        const w = yield* upsertChanged(
          announcementsTable,
          parsed.rows.map((a) => announcementRow(a, "portal_announcements"))
        )
        return outcome(parsed.rows.length, w, parsed.skipped)
      }))
}

const eod: PortalDataset = {
  kind: "eod",
  title: "Daily prices, exchange timeseries (live)",
  route: "/timeseries/eod/{SYM}",
  scope: "symbol",
  everyMs: DAY,
  table: "daily_prices",
  dateColumn: "date",
  run: (symbol, { portal }) =>
    Effect.map(portal.eod(symbol), (parsed) =>
      Effect.gen(function*() {
        const w = yield* writeEod(symbol, parsed.rows)
        return outcome(parsed.rows.length, w, { ...parsed.skipped, ...w.skipped })
      }))
}

const historical: PortalDataset = {
  kind: "historical",
  title: "Daily open, high and low, exchange history page (live)",
  route: "POST /historical",
  scope: "symbol",
  everyMs: 7 * DAY,
  table: "daily_prices",
  dateColumn: "date",
  includeDelisted: true,
  run: (symbol, { portal }) =>
    Effect.map(portal.historical(symbol), (parsed) =>
      Effect.gen(function*() {
        const w = yield* writeHistorical(symbol, parsed.rows)
        return outcome(parsed.rows.length, w, { ...parsed.skipped, ...w.skipped })
      }))
}

/** "Fri, Sep 19, 2025 4:49 PM" → the instant (Karachi), when the page states one. */
const pageAsOf = (text: string | undefined) => parseKarachiDateTime(text?.replace(/^[A-Za-z]{3},\s*/, ""))

/**
 * The company page's payout table: the same rows as `POST /company/payouts` (same ids), so a payout that
 * route already stored is left as it is, and one only the page lists (the route answered nothing) is added.
 */
const pagePayouts = (rows: ReadonlyArray<PayoutRow>, dataset: string) =>
  Effect.gen(function*() {
    const w = yield* upsertChanged({
      ...payoutsTable,
      compare: Object.keys(payoutsTable.columns).filter((c) => c !== "id" && c !== "dataset")
    }, payoutRows(rows, dataset))
    yield* payoutCoverageUpsert(payoutCoverageRows(rows, dataset))
    return w
  })

const company: PortalDataset = {
  kind: "company",
  title: "Company pages (live): profile, equity, income statements, ratios",
  route: "/company/{SYM}",
  scope: "symbol",
  everyMs: 7 * DAY,
  table: "company_profiles",
  run: (symbol, { portal, now }) =>
    Effect.map(portal.companyPage(symbol), (page) =>
      Effect.gen(function*() {
        const asOf = pageAsOf(page.asOfText) ?? iso(now)
        const dataset = "portal_company"
        const profile = yield* upsertChanged({
          ...companyProfilesTable,
          compare: Object.keys(companyProfilesTable.columns).filter((c) => c !== "as_of" && c !== "symbol")
        }, [companyProfileRow(symbol, page, asOf, dataset)])
        const lines = yield* upsertChanged(financialLinesTable, financialLineRows(symbol, page, dataset))
        const ratios = yield* upsertChanged(companyRatiosTable, companyRatioRows(symbol, page, dataset))
        const payouts = yield* pagePayouts(page.payouts.rows, dataset)
        const read = 1 + page.statements.length + page.ratios.length + page.payouts.rows.length
        const skipped = {
          ...page.payouts.skipped,
          ...(page.unreadable > 0 ? { "unreadable value": page.unreadable } : {})
        }
        return outcome(read, addWritten(profile, addWritten(lines, addWritten(ratios, payouts))), skipped, asOf)
      }))
}

const companyPayouts: PortalDataset = {
  kind: "company_payouts",
  title: "Payouts per company (live)",
  route: "POST /company/payouts",
  scope: "symbol",
  everyMs: 7 * DAY,
  table: "payouts",
  dateColumn: "book_closure_from",
  run: (symbol, { portal }) =>
    Effect.map(portal.companyPayouts(symbol), (parsed) =>
      Effect.gen(function*() {
        const w = yield* upsertChanged(payoutsTable, payoutRows(parsed.rows, "portal_company_payouts"))
        yield* payoutCoverageUpsert(payoutCoverageRows(parsed.rows, "portal_company_payouts"))
        return outcome(parsed.rows.length, w, parsed.skipped)
      }))
}

/** In order: sectors before the universe (names → codes), market-wide pages before per-symbol ones. */
export const portalDatasets: ReadonlyArray<PortalDataset> = [
  sectors,
  symbols,
  screener,
  kse100,
  marketWatch,
  marketPayouts,
  announcements,
  eod,
  historical,
  company,
  companyPayouts,
  news
]

export const datasetKinds = portalDatasets.map((d) => d.kind)
