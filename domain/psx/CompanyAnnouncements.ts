/**
 * Announcements from the announcements section of a company page
 * (`GET /company/{SYM}`: Financial Results, Board Meetings and Others tabs,
 * each row Date, Title, Document), read from the page itself or from an
 * export of it that put the date at the start of the title
 * ("Oct 27, 2025 Transmission of …").
 *
 * The section gives a date, not a time: `publishedOn` is that Karachi date
 * and `publishedAt` is absent (never an invented midnight). A date an
 * exporter added of its own (e.g. the day it read the page) is never taken
 * for the publication date. `revoked` is set only by the portal's own
 * REVOKED marker in the title cell; an export carries none.
 */
import { Schema } from "effect"
import { karachiInstant } from "../Karachi.ts"
import { csvRecords } from "./Csv.ts"
import { type Announcement, contentKey, documentIdOf, documentOf, titleOf } from "./Filings.ts"
import { tables } from "./Html.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { parseDate } from "./Values.ts"

const datedTitle = /^\s*([A-Za-z]{3,9}\.?\s+\d{1,2},\s*\d{4})(?:\s+([\s\S]*))?$/

/** One announcement of `symbol` dated `date` ("Oct 27, 2025"); undefined when the date cannot be read. */
const announcement = (
  symbol: string,
  date: string,
  title: { readonly title: string; readonly revoked: boolean },
  doc: { readonly id?: string | undefined; readonly documentUrl?: string; readonly imageUrl?: string }
): Announcement | undefined => {
  const publishedOn = parseDate(date)
  if (publishedOn === undefined) return undefined
  const text = title.title.replace(/\s+/g, " ").trim()
  return {
    // A row without a document keeps the key it had when its time was stored as 00:00 Karachi (a key, never served).
    id: doc.id ?? contentKey(symbol, new Date(karachiInstant(publishedOn, 0, 0)).toISOString(), text),
    symbol,
    publishedOn,
    title: text,
    revoked: title.revoked,
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
    const a = m
      ? announcement(symbol, m[1]!, { title: m[2]!, revoked: false }, { id, ...(id ? { documentUrl: pdf } : {}) })
      : undefined
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
  const start = html.indexOf("id=\"announcements\"")
  if (start < 0) return out.done()
  const end = html.indexOf("id=\"financials\"", start)
  for (const table of tables(html.slice(start, end < 0 ? undefined : end))) {
    for (const [date, title, links] of table.rows) {
      const a = date && title
        ? announcement(symbol.toUpperCase(), date.text, titleOf(title), {
          id: documentIdOf(links),
          ...documentOf(links)
        })
        : undefined
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
export const announcementKey = (a: Pick<Announcement, "symbol" | "publishedOn" | "title">) =>
  `${a.symbol}|${a.publishedOn}|${a.title.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()}`

const InventoryFiling = Schema.Struct({ title: Schema.String, date: Schema.String, url: Schema.String })
const FilingsInventory = Schema.Struct({
  entries: Schema.Record(
    Schema.String,
    Schema.Struct({
      ticker: Schema.String,
      interim: Schema.NullOr(InventoryFiling),
      annual: Schema.NullOr(InventoryFiling)
    })
  )
})

/**
 * A filings inventory (`{entries: {SYM: {ticker, interim, annual}}}`, each
 * filing `{title, date: "May 29, 2026", url: …/download/document/{id}.pdf}`):
 * the latest interim and annual report an app found among a company's PSX
 * announcements. Dated by the exchange's day only. A filing without a
 * readable date or document is skipped and counted; a null is "none found",
 * not a filing.
 */
export const parseFilingsInventory = (json: unknown): Parsed<Announcement> => {
  const out = collector<Announcement>()
  const inventory = Schema.decodeUnknownOption(FilingsInventory)(json)
  if (inventory._tag === "None") {
    out.skip("not a filings inventory")
    return out.done()
  }
  for (const entry of Object.values(inventory.value.entries)) {
    for (const filing of [entry.interim, entry.annual]) {
      if (filing === null) continue
      const id = /^https:\/\/dps\.psx\.com\.pk\/download\/document\/(\d+)\.pdf$/.exec(filing.url.trim())?.[1]
      const a = id !== undefined
        ? announcement(entry.ticker.trim().toUpperCase(), filing.date, { title: filing.title, revoked: false }, {
          id,
          documentUrl: filing.url.trim()
        })
        : undefined
      if (a === undefined) out.skip(id === undefined ? "no document address" : "unreadable date")
      else out.rows.push(a)
    }
  }
  return out.done()
}
