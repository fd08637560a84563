/**
 * Parsers for company filings: `POST /announcements` (market-wide or one
 * symbol), `POST /company/payouts` (one company) and `POST /payouts`
 * (market-wide payouts). Announcements are filings, not independent press.
 */
import { type Cell, tables } from "./Html.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { parseFinancialResult, parsePayoutDetails, type PayoutPart, type PeriodType } from "./PayoutNotation.ts"
import { parseDate, parseKarachiDateTime, parseRange } from "./Values.ts"

export interface Announcement {
  /** The portal's document id when the row links one, else a stable key from its content. */
  readonly id: string
  readonly symbol: string
  readonly companyName?: string
  /** The Karachi date the exchange shows for the filing (YYYY-MM-DD). */
  readonly publishedOn: string
  /** The instant (ISO, UTC), only when the source gives a time of day; a date alone stays a date. */
  readonly publishedAt?: string
  readonly title: string
  readonly documentUrl?: string
  readonly imageUrl?: string
  /** The portal marks the row REVOKED (its own tag in the title cell); never read from the title's words. */
  readonly revoked: boolean
}

export const PORTAL = "https://dps.psx.com.pk"

/** A stable id from a row's content, for rows that link no document. */
export const contentKey = (...parts: ReadonlyArray<string>) => {
  // FNV-1a over the row's content: stable across runs, no I/O.
  let h = 0x811c9dc5
  for (const ch of parts.join("|")) {
    h ^= ch.codePointAt(0)!
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return `row-${h.toString(16)}`
}

/**
 * When a filing was published: its Karachi date, and its instant only when
 * the source gives a time of day ("3:28 PM", in `time` or after the date).
 * Undefined when the date cannot be read.
 */
export const publication = (
  date: string | undefined,
  time?: string
): { publishedOn: string; publishedAt?: string } | undefined => {
  const publishedOn = parseDate(date)
  if (publishedOn === undefined) return undefined
  const timed = /\d{1,2}:\d{2}\s*[AP]M/i.test(time ?? date ?? "")
  const publishedAt = timed ? parseKarachiDateTime(date, time) : undefined
  return publishedAt !== undefined ? { publishedOn, publishedAt } : { publishedOn }
}

/** The portal's REVOKED marker in a title cell. */
export const REVOKED = "REVOKED"

/** A title cell's text without the portal's markers, and whether it carries the REVOKED one. */
export const titleOf = (cell: Cell | undefined): { title: string; revoked: boolean } => {
  let title = cell?.text ?? ""
  for (const tag of cell?.tags ?? []) {
    const at = title.toUpperCase().lastIndexOf(tag)
    if (at >= 0) title = (title.slice(0, at) + title.slice(at + tag.length)).replace(/\s+/g, " ").trim()
  }
  return { title, revoked: (cell?.tags ?? []).includes(REVOKED) }
}

/** Rows of DATE, TIME, SYMBOL, NAME, TITLE, links. Rows without a readable date or symbol are skipped and counted. */
export const parseAnnouncements = (html: string): Parsed<Announcement> => {
  const out = collector<Announcement>()
  const table = tables(html).find((t) => t.headers.some((h) => /^TITLE$/i.test(h.text))) ?? tables(html)[0]
  if (!table) return out.done()
  for (const row of table.rows) {
    if (row.length < 5) {
      out.skip("short row")
      continue
    }
    const [date, time, sym, name, title, links] = row
    const published = publication(date?.text, time?.text)
    const symbol = (sym?.text ?? "").trim().toUpperCase()
    if (published === undefined) {
      out.skip("unreadable date")
      continue
    }
    if (symbol === "") {
      out.skip("no symbol")
      continue
    }
    const { title: text, revoked } = titleOf(title)
    out.rows.push({
      ...documentOf(links),
      id: documentIdOf(links) ?? contentKey(symbol, published.publishedAt ?? published.publishedOn, text),
      symbol,
      ...published,
      title: text,
      revoked,
      ...defined({ companyName: name?.text || undefined })
    })
  }
  return out.done()
}

/** The portal's document id of a row's links cell (its PDF, else its image), when it links one. */
export const documentIdOf = (links: Cell | undefined): string | undefined => {
  const pdf = links?.links.find((l) => l.endsWith(".pdf"))
  const image = links?.inner["data-images"]
  return pdf ? /(\d+)(?:-\d+)?\.pdf$/.exec(pdf)?.[1] : image ? /^(\d+)/.exec(image)?.[1] : undefined
}

/** The absolute document and image addresses of a row's links cell. */
export const documentOf = (links: Cell | undefined): { documentUrl?: string; imageUrl?: string } => {
  const pdf = links?.links.find((l) => l.endsWith(".pdf"))
  const image = links?.inner["data-images"]
  return defined({
    documentUrl: pdf ? (pdf.startsWith("http") ? pdf : PORTAL + pdf) : undefined,
    imageUrl: image ? `${PORTAL}/download/image/${image}` : undefined
  })
}

export interface PayoutRow {
  readonly symbol: string
  readonly announcedAt?: string
  readonly periodEnd?: string
  readonly periodType?: PeriodType
  /** The Details cell as published. */
  readonly details: string
  readonly parts: ReadonlyArray<PayoutPart>
  readonly bookClosureFrom?: string
  readonly bookClosureTo?: string
}

/** `POST /company/payouts` for `symbol`: Date, Financial Results, Details, Book Closure. */
export const parseCompanyPayouts = (symbol: string, html: string): Parsed<PayoutRow> => {
  const out = collector<PayoutRow>()
  const table = tables(html)[0]
  if (!table) return out.done()
  for (const row of table.rows) {
    const [date, result, details, closure] = row
    const parts = parsePayoutDetails(details?.text ?? "")
    if (parts.length === 0) {
      out.skip("unreadable details")
      continue
    }
    const range = parseRange(closure?.text)
    const period = parseFinancialResult(result?.text ?? "")
    const announcedAt = parseKarachiDateTime(date?.text)
    // A period that ends after the payout was announced is a typo on the
    // portal (BOP: "31/12/2025(HYR)" announced Aug 2025): unknown, not a guess.
    const impossible = period.periodEnd !== undefined && announcedAt !== undefined &&
      period.periodEnd > announcedAt.slice(0, 10)
    if (impossible) out.skip("period end after its announcement")
    out.rows.push({
      symbol: symbol.toUpperCase(),
      details: details?.text ?? "",
      parts,
      ...defined({
        announcedAt,
        periodEnd: impossible ? undefined : period.periodEnd,
        periodType: period.periodType,
        bookClosureFrom: range.from,
        bookClosureTo: range.to
      })
    })
  }
  return out.done()
}

/** `POST /payouts` (market-wide): SYMBOL, company, SECTOR, Details, announced, Book Closure. */
export const parseMarketPayouts = (html: string): Parsed<PayoutRow & { readonly sectorName?: string }> => {
  const out = collector<PayoutRow & { readonly sectorName?: string }>()
  const table = tables(html)[0]
  if (!table) return out.done()
  for (const row of table.rows) {
    const [sym, , sector, details, announced, closure] = row
    const symbol = (sym?.text ?? "").trim().toUpperCase()
    const parts = parsePayoutDetails(details?.text ?? "")
    if (symbol === "" || parts.length === 0) {
      out.skip(symbol === "" ? "no symbol" : "unreadable details")
      continue
    }
    const range = parseRange(closure?.text)
    out.rows.push({
      symbol,
      details: details?.text ?? "",
      parts,
      ...defined({
        sectorName: sector?.text || undefined,
        announcedAt: parseKarachiDateTime(announced?.text),
        bookClosureFrom: range.from,
        bookClosureTo: range.to
      })
    })
  }
  return out.done()
}
