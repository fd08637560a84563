/**
 * Exports of the portal's figures written by other tools, as recorded: a
 * `/screener` snapshot and annual Sales per symbol. Zeros are decided per
 * field as on the portal's own page (`screenerFigures` in Listing.ts: a 0
 * free float, market cap, P/E, yield… is left out); a field an exporter
 * added of its own is not read.
 */
import type { StatementLine } from "./CompanyPage.ts"
import { screenerFigures, type ScreenerRow } from "./Listing.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"

const symbolPattern = /^[A-Z0-9][A-Z0-9.\-]{0,15}$/
const finite = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined)
const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined)
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** The export's field of each screener figure. */
const EXPORT_FIELDS = {
  marketCap: "mcap",
  price: "price",
  changePct: "change",
  changeYearPct: "yearChange",
  peTtm: "pe",
  dividendYieldPct: "divYield",
  freeFloatShares: "freeFloat",
  volume30dAvg: "volume"
} as const

/**
 * A `/screener` snapshot as JSON (`{timestamp, data: [...]}`): its rows, and the instant it was taken (epoch
 * seconds in the export). Its numbers are the screener cells' raw `data-order` values (market cap in
 * rupees, price in rupees, P/E TTM, dividend yield %, free-float shares,
 * 30-day average volume) and whose `listedIn` is the portal's index list.
 */
export const parseScreenerExport = (json: unknown): Parsed<ScreenerRow> & { readonly takenAt?: string } => {
  const out = collector<ScreenerRow>()
  if (!isRecord(json) || !Array.isArray(json["data"])) return out.done()
  const ts = finite(json["timestamp"])
  for (const item of json["data"]) {
    const symbol = isRecord(item) ? (text(item["symbol"]) ?? "").toUpperCase() : ""
    if (!isRecord(item) || !symbolPattern.test(symbol)) {
      out.skip("bad symbol")
      continue
    }
    out.rows.push({
      symbol,
      listedIn: (text(item["listedIn"]) ?? "").split(",").map((s) => s.trim()).filter((s) => s !== ""),
      ...defined({
        name: text(item["name"]),
        sectorCode: text(item["sectorCode"])
      }),
      ...screenerFigures((name) => finite(item[EXPORT_FIELDS[name]]), out.skip)
    })
  }
  const done = out.done()
  return ts !== undefined ? { ...done, takenAt: new Date(Math.round(ts * 1000)).toISOString() } : done
}

export interface SalesLine extends StatementLine {
  readonly symbol: string
}

/**
 * Annual Sales lines (thousands of rupees), one per symbol and fiscal-year label, from an export of the
 * FINANCIALS table of `/company/{SYM}` (`{SYM: {"2025": 401177969, …}}`, keyed by the portal's fiscal-year label).
 */
export const parseSalesExport = (json: unknown): Parsed<SalesLine> => {
  const out = collector<SalesLine>()
  if (!isRecord(json)) return out.done()
  for (const [raw, years] of Object.entries(json)) {
    const symbol = raw.trim().toUpperCase()
    if (!symbolPattern.test(symbol) || !isRecord(years)) {
      out.skip("bad symbol")
      continue
    }
    for (const [label, v] of Object.entries(years)) {
      const value = finite(v)
      if (!/^\d{4}$/.test(label) || value === undefined) {
        out.skip("unreadable year or value")
        continue
      }
      out.rows.push({
        symbol,
        period: label,
        periodType: "annual",
        fiscalYear: Number(label),
        line: "Sales",
        value,
        units: "thousands"
      })
    }
  }
  return out.done()
}
