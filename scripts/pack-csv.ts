/**
 * Every recorded CSV file the pack build reads, and the reader of each. Each
 * is read by its header (domain/psx/PriceCsv.ts): a header its reader does
 * not know stops the build with the file's name. scripts/cut-fixtures.ts
 * keeps every file's header line in test/fixtures/psx/csv-headers.json so a
 * test checks them all without the recordings.
 */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { type CsvLayoutRead, csvTable, layoutOf, unknownHeader } from "../domain/psx/Csv.ts"
import { parseMarketSummary, parsePriceCsv } from "../domain/psx/PriceCsv.ts"

export const EOD_DIR = "I-Zaifa__psx-analyzer/data/csv/symbols"
export const AS_TRADED_DIR = "ChubsB__KSE-100-Data"
export const KSE100_CLOSES = "I-Zaifa__psx-analyzer/data/csv/macro_kse100.csv"
export const MARKET_SUMMARY = "nmnbkhr__psx_ohlcv/market_summary_2021-01-21.csv"
export const ANNOUNCEMENT_EXPORT = "umarfarooq2044__psx-research-analyst/exports/csv_20260131_0144/announcements.csv"

/**
 * The announcement export's layout (read by CompanyAnnouncements.ts, which takes symbol, headline and pdf_url by
 * name; the other columns are the exporter's own).
 */
const ANNOUNCEMENT_EXPORT_LAYOUTS = {
  export: [
    "id",
    "symbol",
    "announcement_date",
    "headline",
    "content",
    "pdf_url",
    "announcement_type",
    "sentiment_score",
    "processed",
    "created_at"
  ]
} as const

export type CsvReader = "price" | "market_summary" | "announcement_export"

/** Every CSV the build reads (paths as in the recordings), with its reader, given the recordings' folder. */
export const packCsvFiles = (raw: string): ReadonlyArray<{ readonly path: string; readonly reader: CsvReader }> => {
  const inDir = (dir: string) =>
    readdirSync(join(raw, dir)).filter((f) => f.endsWith(".csv")).sort().map((f) => `${dir}/${f}`)
  return [
    ...inDir(EOD_DIR).map((path) => ({ path, reader: "price" as const })),
    ...inDir(AS_TRADED_DIR).map((path) => ({ path, reader: "price" as const })),
    { path: KSE100_CLOSES, reader: "price" },
    { path: MARKET_SUMMARY, reader: "market_summary" },
    { path: ANNOUNCEMENT_EXPORT, reader: "announcement_export" }
  ]
}

/** The announcement export's header and the layout it names (its rows are read by CompanyAnnouncements.ts). */
const exportHeader = (text: string): CsvLayoutRead => {
  const header = csvTable(text.slice(0, text.search(/\r?\n/) + 1 || undefined)).header
  const layout = layoutOf(ANNOUNCEMENT_EXPORT_LAYOUTS, header)
  return layout === undefined ? { header } : { header, layout }
}

/** Reads a recorded CSV with its reader; a header the reader does not know throws, naming the file. */
export function readPackCsv(path: string, text: string, reader: "price"): ReturnType<typeof parsePriceCsv>
export function readPackCsv(path: string, text: string, reader: "market_summary"): ReturnType<typeof parseMarketSummary>
export function readPackCsv(path: string, text: string, reader: CsvReader): CsvLayoutRead
export function readPackCsv(path: string, text: string, reader: CsvReader): CsvLayoutRead {
  const read = reader === "price"
    ? parsePriceCsv(text)
    : reader === "market_summary"
    ? parseMarketSummary(text)
    : exportHeader(text)
  const problem = unknownHeader(path, read)
  if (problem !== undefined) throw new Error(`${problem}; the pack build reads CSV files by their header only`)
  return read
}
