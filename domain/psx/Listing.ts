/**
 * Parsers for the portal's listing pages: `/symbols` (the universe),
 * `/screener` (fundamentals snapshot), `/indices/{CODE}` (constituents with
 * weights) and `/sector-summary/sectorwise` (sector names; first table only).
 */
import { cellNumber, tables } from "./Html.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { parseNumber } from "./Values.ts"

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
    const sectorName = typeof item.sectorName === "string" && item.sectorName.trim() !== "" ? item.sectorName.trim() : undefined
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

/**
 * `GET /screener`, numbers read from `data-order`. The portal writes 0 where
 * it has no figure (P/E of a loss-maker, yield of a non-payer); such a 0
 * cannot be told from "unknown", so it is left out, never served as 0.
 */
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
    const pe = num("peRatio")
    const dy = num("dividendYield")
    const listed = (cell("listed")?.text ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
    out.rows.push({
      symbol,
      listedIn: listed,
      ...defined({
        name: cell("symbol")?.inner["data-title"],
        sectorCode: cell("sector")?.text || undefined,
        marketCap: num("marketCap"),
        price: num("close"),
        changePct: num("percentChange"),
        changeYearPct: num("changeYear"),
        peTtm: pe === 0 ? undefined : pe,
        dividendYieldPct: dy === 0 ? undefined : dy,
        freeFloatShares: num("freeFloat"),
        volume30dAvg: num("volume30Avg")
      })
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

/** `GET /indices/{CODE}`: constituents with index weight; free float and market cap are read from `data-order` (units, not millions). */
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
        ldcp: n(idx.ldcp),
        current: n(idx.current),
        change: n(idx.change),
        changePct: n(idx.changePct),
        weightPct: n(idx.weight),
        indexPoints: n(idx.points),
        volume: n(idx.volume),
        freeFloatShares: n(idx.ff),
        marketCap: n(idx.mcap)
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
