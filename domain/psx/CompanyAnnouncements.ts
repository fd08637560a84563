/**
 * Announcements from the announcements section of a company page
 * (`GET /company/{SYM}`: Financial Results, Board Meetings and Others tabs,
 * each row Date, Title, Document), read from the page itself or from an
 * export of it that put the date at the start of the title
 * ("Oct 27, 2025 Transmission of …").
 *
 * The section gives a date, not a time: `publishedAt` is 00:00 Asia/Karachi
 * of that date (the pack's provenance notes say so). A date an exporter added of its
 * own (e.g. the day it read the page) is never taken for the publication date.
 */
import { csvRecords } from "./Csv.ts"
import { tables } from "./Html.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { type Announcement, contentKey, documentIdOf, documentOf, isRevocation } from "./Filings.ts"
import { karachiDateOfEpoch, parseDate, parseKarachiDateTime } from "./Values.ts"

const datedTitle = /^\s*([A-Za-z]{3,9}\.?\s+\d{1,2},\s*\d{4})(?:\s+([\s\S]*))?$/

/** One announcement of `symbol` dated `date` ("Oct 27, 2025"); undefined when the date cannot be read. */
const announcement = (
  symbol: string,
  date: string,
  title: string,
  doc: { readonly id?: string | undefined; readonly documentUrl?: string; readonly imageUrl?: string }
): Announcement | undefined => {
  const publishedAt = parseDate(date) !== undefined ? parseKarachiDateTime(date) : undefined
  if (publishedAt === undefined) return undefined
  const text = title.replace(/\s+/g, " ").trim()
  return {
    id: doc.id ?? contentKey(symbol, publishedAt, text),
    symbol,
    publishedAt,
    title: text,
    revoked: isRevocation(text),
    ...defined({ documentUrl: doc.documentUrl, imageUrl: doc.imageUrl })
  }
}

/**
 * An export of company-page announcements as CSV with columns `symbol`,
 * `headline` (the date, then the title) and `pdf_url`. Other columns (an
 * exporter's own dates and classifications) are not read.
 */
export const parseAnnouncementExport = (csv: string): Parsed<Announcement> => {
  const out = collector<Announcement>()
  for (const r of csvRecords(csv)) {
    const symbol = (r["symbol"] ?? "").trim().toUpperCase()
    const m = datedTitle.exec(r["headline"] ?? "")
    if (symbol === "") {
      out.skip("no symbol")
      continue
    }
    const pdf = (r["pdf_url"] ?? "").trim()
    const id = /\/download\/document\/(\d+)\.pdf$/.exec(pdf)?.[1]
    if (m !== null && (m[2] ?? "").trim() === "") {
      out.skip("a date but no title")
      continue
    }
    const a = m ? announcement(symbol, m[1]!, m[2]!, { id, ...(id ? { documentUrl: pdf } : {}) }) : undefined
    if (a === undefined) {
      out.skip("no date at the start of the title")
      continue
    }
    out.rows.push(a)
  }
  return out.done()
}

/** The announcements section of a company page of `symbol` (all three tabs). */
export const parseCompanyPageAnnouncements = (symbol: string, html: string): Parsed<Announcement> => {
  const out = collector<Announcement>()
  const start = html.indexOf('id="announcements"')
  if (start < 0) return out.done()
  const end = html.indexOf('id="financials"', start)
  for (const table of tables(html.slice(start, end < 0 ? undefined : end))) {
    for (const [date, title, links] of table.rows) {
      const a = date && title ? announcement(symbol.toUpperCase(), date.text, title.text, { id: documentIdOf(links), ...documentOf(links) }) : undefined
      if (a === undefined) out.skip("unreadable date")
      else out.rows.push(a)
    }
  }
  return out.done()
}

/**
 * The key under which two records of one announcement meet when neither
 * carries a document id: symbol, Karachi date and title (case and spacing
 * ignored).
 */
export const announcementKey = (a: Pick<Announcement, "symbol" | "publishedAt" | "title">) => {
  const karachiDay = karachiDateOfEpoch(Date.parse(a.publishedAt) / 1000)
  return `${a.symbol}|${karachiDay}|${a.title.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()}`
}
