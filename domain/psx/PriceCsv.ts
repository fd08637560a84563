/**
 * The recorded CSV files of prices, read by their header, never by column
 * position: each reader knows a few layouts (the exact set of column names)
 * and reads a row's cells by name. A header it does not know reads no row and
 * says so (`layout` absent), so the pack build stops naming the file
 * (`unknownHeader` in Csv.ts) instead of reading a close out of an open.
 *
 * Zeros: a price of 0 (open, high, low, close, previous close) is the
 * recording's blank on a day without a trade and is left out; a volume of 0
 * is that day's fact (no share traded) and is kept.
 */
import { type CsvLayoutRead, csvTable, layoutOf } from "./Csv.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { dailyRows, type PriceRow } from "./Prices.ts"
import { parseDate, parseNumber, positive } from "./Values.ts"

/** The price layouts recorded, by the column names of their header. */
export const PRICE_CSV_LAYOUTS = {
  /** An index's daily closes (I-Zaifa's `macro_kse100.csv`). */
  closes: ["date", "close"],
  /** `/timeseries/eod` as I-Zaifa recorded it: `date` a UTC timestamp. */
  close_volume: ["date", "close", "volume"],
  /** I-Zaifa's `/historical` fallback (786R). */
  ohlcv: ["date", "open", "high", "low", "close", "volume"],
  /** ChubsB's as-traded rows with the exchange's change columns (`Date_` at midnight UTC). */
  ohlcv_change: ["Date_", "Open", "High", "Low", "Close", "Change", "ChangeP", "Volume"]
} as const

export type PriceCsvLayout = keyof typeof PRICE_CSV_LAYOUTS

export interface PriceCsv extends Parsed<PriceRow>, CsvLayoutRead {
  readonly layout?: PriceCsvLayout
}

/** A cell of a record by its column's name, case and a trailing `_` ignored (`Date_` is `date`). */
const cellsOf = (header: ReadonlyArray<string>) => {
  const column = new Map(header.map((h) => [h.toLowerCase().replace(/_$/, ""), h]))
  return (r: Readonly<Record<string, string>>, name: string) => {
    const h = column.get(name)
    return h === undefined ? undefined : r[h]
  }
}

/** Reads a price cell: a 0 is the recording's blank on a day without a trade, left out and counted by `skip`. */
const priceCell = (skip: (reason: string) => void) => (raw: string | undefined, name: string) => {
  const v = parseNumber(raw)
  if (v === 0) skip(`${name} of 0 (no figure)`)
  return positive(v)
}

/** Daily rows of a recorded price CSV in any known layout; dates are calendar dates (a timestamp's Karachi date). */
export const parsePriceCsv = (csv: string): PriceCsv => {
  const { header, records } = csvTable(csv)
  const out = dailyRows()
  const layout = layoutOf(PRICE_CSV_LAYOUTS, header)
  if (layout === undefined) return { ...out.done(), header }
  const cell = cellsOf(header)
  const readPrice = priceCell(out.skip)
  const price = (r: Readonly<Record<string, string>>, name: string) => readPrice(cell(r, name), name)
  for (const r of records) {
    const date = parseDate(cell(r, "date"))
    const close = price(r, "close")
    if (date === undefined || close === undefined) {
      out.skip("unreadable row")
      continue
    }
    out.add({
      date,
      close,
      ...defined({
        open: price(r, "open"),
        high: price(r, "high"),
        low: price(r, "low"),
        volume: parseNumber(cell(r, "volume"))
      })
    })
  }
  return { ...out.done(), layout, header }
}

/** `Date_` → `Change` of an `ohlcv_change` CSV (ChubsB): the exchange's close-to-close change, by the column's name. */
export const changeColumn = (csv: string): ReadonlyMap<string, number> => {
  const { header, records } = csvTable(csv)
  const out = new Map<string, number>()
  if (layoutOf(PRICE_CSV_LAYOUTS, header) !== "ohlcv_change") return out
  const cell = cellsOf(header)
  for (const r of records) {
    const date = parseDate(cell(r, "date"))
    const change = parseNumber(cell(r, "change"))
    if (date !== undefined && change !== undefined) out.set(date, change)
  }
  return out
}

export interface SummaryRow extends PriceRow {
  readonly symbol: string
  readonly sectorCode: string
  readonly name: string
  readonly prevClose?: number
  /** Ex-markers PSX appends to the short name on the ex-day: XD cash, XB bonus, XR right. */
  readonly exMarkers: ReadonlyArray<"XD" | "XB" | "XR">
}

/** The daily market summary's CSV rendering, by its header. */
export const MARKET_SUMMARY_LAYOUTS = {
  summary: ["date", "symbol", "sector_code", "company_name", "open", "high", "low", "close", "volume", "prev_close"]
} as const

/** The ex-markers at the end of a market-summary short name, and the name without them. */
const splitMarkers = (rawName: string) => {
  const markers: Array<"XD" | "XB" | "XR"> = []
  let name = rawName
  for (;;) {
    const m = /(XD|XB|XR)$/.exec(name)
    if (!m) break
    markers.unshift(m[1] === "XD" ? "XD" : m[1] === "XB" ? "XB" : "XR")
    name = name.slice(0, -2)
  }
  return { name: name.trim(), markers }
}

/** The daily market summary (one row per symbol); an unknown header reads no row. */
export const parseMarketSummary = (csv: string): Parsed<SummaryRow> & CsvLayoutRead => {
  const out = collector<SummaryRow>()
  const { header, records } = csvTable(csv)
  const layout = layoutOf(MARKET_SUMMARY_LAYOUTS, header)
  if (layout === undefined) return { ...out.done(), header }
  const seen = new Set<string>()
  const cell = (r: Readonly<Record<string, string>>, name: string) => (r[name] ?? "").trim()
  const readPrice = priceCell(out.skip)
  const price = (r: Readonly<Record<string, string>>, name: string) => readPrice(cell(r, name), name)
  for (const r of records) {
    const date = parseDate(cell(r, "date"))
    const symbol = cell(r, "symbol").toUpperCase()
    const close = price(r, "close")
    if (date === undefined || symbol === "" || close === undefined) {
      out.skip("unreadable row")
      continue
    }
    if (seen.has(symbol)) {
      out.skip("duplicate row")
      continue
    }
    seen.add(symbol)
    const { name, markers } = splitMarkers(cell(r, "company_name"))
    out.rows.push({
      date,
      symbol,
      sectorCode: cell(r, "sector_code"),
      name,
      close,
      exMarkers: markers,
      ...defined({
        open: price(r, "open"),
        high: price(r, "high"),
        low: price(r, "low"),
        volume: parseNumber(cell(r, "volume")),
        prevClose: price(r, "prev_close")
      })
    })
  }
  return { ...out.done(), layout, header }
}
