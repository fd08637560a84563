/**
 * Parsers for the portal's listing pages: `/symbols` (the universe),
 * `/screener` (fundamentals snapshot), `/indices/{CODE}` (constituents with
 * weights) and `/sector-summary/sectorwise` (sector names; first table only).
 */
import { cellNumber, tables } from "./Html.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { nonZero, parseNumber, positive } from "./Values.ts"

export interface ListedSymbol {
  readonly symbol: string
  readonly name: string
  readonly sectorName?: string
  readonly isEtf: boolean
  readonly isDebt: boolean
}

const symbolPattern = /^[A-Z0-9][A-Z0-9.\-]{0,15}$/

/** `GET /symbols`: a JSON array of {symbol, name, sectorName, isETF, isDebt}. */
export const parseSymbols = (json: unknown): Parsed<ListedSymbol> => {
  const out = collector<ListedSymbol>()
  if (!Array.isArray(json)) return out.done()
  const seen = new Set<string>()
  for (const item of json) {
    const symbol = typeof item?.symbol === "string" ? item.symbol.trim().toUpperCase() : ""
    if (!symbolPattern.test(symbol)) {
      out.skip("bad symbol")
      continue
    }
    if (seen.has(symbol)) {
      out.skip("duplicate symbol")
      continue
    }
    seen.add(symbol)
    const sectorName = typeof item.sectorName === "string" && item.sectorName.trim() !== ""
      ? item.sectorName.trim()
      : undefined
    out.rows.push({
      symbol,
      name: typeof item.name === "string" ? item.name.trim() : symbol,
      ...(sectorName ? { sectorName } : {}),
      isEtf: item.isETF === true,
      isDebt: item.isDebt === true
    })
  }
  return out.done()
}

export interface ScreenerRow {
  readonly symbol: string
  readonly name?: string
  readonly sectorCode?: string
  readonly listedIn: ReadonlyArray<string>
  readonly marketCap?: number
  readonly price?: number
  readonly changePct?: number
  readonly changeYearPct?: number
  readonly peTtm?: number
  readonly dividendYieldPct?: number
  readonly freeFloatShares?: number
  readonly volume30dAvg?: number
}

const byName = (headers: ReadonlyArray<{ attrs: Readonly<Record<string, string>>; text: string }>) => {
  const index: Record<string, number> = {}
  headers.forEach((h, i) => {
    const key = h.attrs["data-name"] ?? h.text.toLowerCase()
    index[key] = i
  })
  return index
}

type ScreenerFigure =
  | "marketCap"
  | "price"
  | "changePct"
  | "changeYearPct"
  | "peTtm"
  | "dividendYieldPct"
  | "freeFloatShares"
  | "volume30dAvg"

/** The portal's screener column (`data-name`) of each figure. */
const SCREENER_COLUMNS: Readonly<Record<ScreenerFigure, string>> = {
  marketCap: "marketCap",
  price: "close",
  changePct: "percentChange",
  changeYearPct: "changeYear",
  peTtm: "peRatio",
  dividendYieldPct: "dividendYield",
  freeFloatShares: "freeFloat",
  volume30dAvg: "volume30Avg"
}

/**
 * The screener's figures with its zeros decided per field (shared by the page
 * and its JSON export). The portal writes 0 where it has no figure:
 * - a price, market cap or free float of 0 is unknown (no line is priced at 0
 *   or floats no share: 81 lines of the August snapshot show free float 0.0);
 * - a P/E, dividend yield or change over a year of 0 cannot be told from "no
 *   figure" (a loss-maker, a non-payer, a line listed under a year ago);
 * - a 30-day average volume of 0 is unknown too: 53 lines show it beside a
 *   change on the day, so they traded (AASM +10.79%, 30-day volume 0);
 * - the day's change of 0 is a fact (the close equals the previous close) and is kept.
 * Each 0 left out is counted.
 */
export const screenerFigures = (
  figure: (name: ScreenerFigure) => number | undefined,
  skip: (reason: string) => void
) => {
  const read = (name: ScreenerFigure, rule: (n: number | undefined) => number | undefined) => {
    const v = figure(name)
    if (v === 0 && rule(v) === undefined) skip(`${name} of 0 (no figure)`)
    return rule(v)
  }
  const kept = (n: number | undefined) => n
  return defined({
    marketCap: read("marketCap", positive),
    price: read("price", positive),
    changePct: read("changePct", kept),
    changeYearPct: read("changeYearPct", nonZero),
    peTtm: read("peTtm", nonZero),
    dividendYieldPct: read("dividendYieldPct", nonZero),
    freeFloatShares: read("freeFloatShares", positive),
    volume30dAvg: read("volume30dAvg", nonZero)
  })
}

/** `GET /screener`, numbers read from `data-order`; zeros as `screenerFigures` decides. */
export const parseScreener = (html: string): Parsed<ScreenerRow> => {
  const out = collector<ScreenerRow>()
  const table = tables(html)[0]
  if (!table) return out.done()
  const h = byName(table.headers)
  for (const row of table.rows) {
    const cell = (name: string) => (h[name] === undefined ? undefined : row[h[name]!])
    const symbol = (cell("symbol")?.attrs["data-order"] ?? cell("symbol")?.text ?? "").trim().toUpperCase()
    if (!symbolPattern.test(symbol)) {
      out.skip("bad symbol")
      continue
    }
    const num = (name: string) => {
      const c = cell(name)
      const v = parseNumber(cellNumber(c))
      if (c !== undefined && v === undefined && c.text !== "") out.skip(`unreadable ${name}`)
      return v
    }
    const listed = (cell("listed")?.text ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
    out.rows.push({
      symbol,
      listedIn: listed,
      ...defined({
        name: cell("symbol")?.inner["data-title"],
        sectorCode: cell("sector")?.text || undefined,
        ...screenerFigures((name) => num(SCREENER_COLUMNS[name]), out.skip)
      })
    })
  }
  return out.done()
}

/**
 * Securities a later screener shows that a listing lacks (listed since), as
 * listed securities: symbol, name and sector code as the screener gives them,
 * nothing else. The portal's screener lists neither ETFs nor debt (none of the
 * April listing's 9 ETFs and 282 debt lines is in its screener), so a line it
 * shows is neither. A row without a name is left out and counted.
 */
export const listedFromScreener = (
  listing: ReadonlyArray<ListedSymbol>,
  screener: ReadonlyArray<ScreenerRow>
): Parsed<ListedSymbol & { readonly sectorCode?: string }> => {
  const out = collector<ListedSymbol & { readonly sectorCode?: string }>()
  const known = new Set(listing.map((s) => s.symbol))
  for (const r of screener) {
    if (known.has(r.symbol)) continue
    if (r.name === undefined) {
      out.skip("no name")
      continue
    }
    out.rows.push({
      symbol: r.symbol,
      name: r.name,
      isEtf: false,
      isDebt: false,
      ...defined({ sectorCode: r.sectorCode })
    })
  }
  return out.done()
}

export interface IndexConstituent {
  readonly symbol: string
  readonly name?: string
  readonly ldcp?: number
  readonly current?: number
  readonly change?: number
  readonly changePct?: number
  readonly weightPct?: number
  readonly indexPoints?: number
  readonly volume?: number
  readonly freeFloatShares?: number
  readonly marketCap?: number
}

/**
 * `GET /indices/{CODE}`: constituents with index weight; free float and market cap are read from `data-order` (units,
 * not millions). A price, free float or market cap of 0 is unknown; a volume, change or (rounded) weight of 0 is kept.
 */
export const parseIndexConstituents = (html: string): Parsed<IndexConstituent> => {
  const out = collector<IndexConstituent>()
  const table = tables(html).find((t) => t.headers.some((c) => /IDX WTG/i.test(c.text)))
  if (!table) return out.done()
  const col = (re: RegExp) => table.headers.findIndex((c) => re.test(c.text))
  const idx = {
    symbol: col(/^SYMBOL$/i),
    name: col(/^NAME$/i),
    ldcp: col(/^LDCP$/i),
    current: col(/^CURRENT$/i),
    change: col(/^CHANGE$/i),
    changePct: col(/^CHANGE \(%\)$/i),
    weight: col(/IDX WTG/i),
    points: col(/IDX POINT/i),
    volume: col(/^VOLUME$/i),
    ff: col(/FREEFLOAT/i),
    mcap: col(/MARKET CAP/i)
  }
  for (const row of table.rows) {
    const symbol = (row[idx.symbol]?.attrs["data-order"] ?? row[idx.symbol]?.text ?? "").trim().toUpperCase()
    if (!symbolPattern.test(symbol)) {
      out.skip("bad symbol")
      continue
    }
    const n = (i: number) => (i < 0 ? undefined : parseNumber(cellNumber(row[i])))
    out.rows.push({
      symbol,
      ...defined({
        name: row[idx.name]?.text || undefined,
        ldcp: positive(n(idx.ldcp)),
        current: positive(n(idx.current)),
        change: n(idx.change),
        changePct: n(idx.changePct),
        weightPct: n(idx.weight),
        indexPoints: n(idx.points),
        volume: n(idx.volume),
        freeFloatShares: positive(n(idx.ff)),
        marketCap: positive(n(idx.mcap))
      })
    })
  }
  return out.done()
}

export interface Sector {
  readonly code: string
  readonly name: string
}

/** `/sector-summary/sectorwise`: the first table only (code, name). */
export const parseSectors = (html: string): Parsed<Sector> => {
  const out = collector<Sector>()
  const table = tables(html)[0]
  if (!table) return out.done()
  for (const row of table.rows) {
    const code = row[0]?.text.trim() ?? ""
    const name = row[1]?.text.trim() ?? ""
    if (!/^\d{3,4}$/.test(code) || name === "") {
      out.skip("bad sector row")
      continue
    }
    out.rows.push({ code, name })
  }
  return out.done()
}
