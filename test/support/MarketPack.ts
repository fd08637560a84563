/**
 * Reads the bundled pack's market files for the board and sector tests,
 * decoded with Schema, and shapes them as the pure rules' inputs (the read
 * model does the same from its own store).
 */
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import type { BoardLine } from "../../domain/market/board/Board.ts"
import type { SectorMember, SectorRef } from "../../domain/market/board/Sectors.ts"
import { securityTypeOf } from "../../domain/market/shared/Classify.ts"

const pack = join(import.meta.dirname, "../../data/pack")
const read = <S extends Schema.Top & { readonly DecodingServices: never }>(file: string, schema: S): S["Type"] => {
  const bytes = readFileSync(join(pack, file))
  const text = file.endsWith(".gz") ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8")
  return Schema.decodeUnknownSync(schema)(JSON.parse(text))
}
const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const Num = Schema.Finite

const SummaryRow = Schema.Struct({
  date: Schema.String,
  symbol: Schema.String,
  sectorCode: Schema.String,
  name: Schema.String,
  close: Num,
  prevClose: opt(Num),
  volume: opt(Num),
  exMarkers: Schema.Array(Schema.Literals(["XD", "XB", "XR"]))
})
const ScreenerRow = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sectorCode: opt(Schema.String),
  marketCap: opt(Num),
  peTtm: opt(Num),
  dividendYieldPct: opt(Num)
})
const BoardRow = Schema.Struct({
  symbol: Schema.String,
  ldcp: opt(Num),
  current: opt(Num),
  changePct: opt(Num),
  volume: opt(Num)
})
const UniverseRow = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sectorName: opt(Schema.String),
  isEtf: Schema.Boolean,
  isDebt: Schema.Boolean
})
const SectorRow = Schema.Struct({ code: Schema.String, name: Schema.String })

/** The exchange's whole-market summary of 2021-01-21, one line per security. */
export const marketSummaryLines = (): ReadonlyArray<BoardLine> =>
  read("market_summary_20210121.json.gz", Schema.Array(SummaryRow)).map((r) => ({
    symbol: r.symbol,
    name: r.name,
    sector_code: r.sectorCode,
    price: r.close,
    ...(r.prevClose !== undefined ? { previous_close: r.prevClose } : {}),
    ...(r.volume !== undefined ? { volume: r.volume } : {}),
    ex_markers: r.exMarkers
  }))

export const sectors = (): ReadonlyArray<SectorRef> => read("sectors.json", Schema.Array(SectorRow))

export const universe = () => read("universe.json", Schema.Array(UniverseRow))

/**
 * Sector members on 2026-04-08: the screener's P/E, yield and market cap,
 * with the same day's all-share board for price, previous close, change and
 * volume (a board price of 0 means no trade and is left out).
 */
export const sectorMembers = (): ReadonlyArray<SectorMember> => {
  const board = new Map(read("board_allshr.json.gz", Schema.Array(BoardRow)).map((r) => [r.symbol, r]))
  const listing = new Map(universe().map((u) => [u.symbol, u]))
  return read("screener.json.gz", Schema.Array(ScreenerRow)).map((s) => {
    const q = board.get(s.symbol)
    const u = listing.get(s.symbol)
    return {
      symbol: s.symbol,
      name: s.name,
      ...(s.sectorCode !== undefined ? { sector_code: s.sectorCode } : {}),
      ...(u !== undefined ? { security_type: securityTypeOf(u) } : {}),
      ...(s.marketCap !== undefined ? { market_cap: s.marketCap } : {}),
      ...(s.peTtm !== undefined ? { pe_ttm: s.peTtm } : {}),
      ...(s.dividendYieldPct !== undefined ? { dividend_yield_pct: s.dividendYieldPct } : {}),
      ...(q?.current !== undefined && q.current > 0
        ? {
          price: q.current,
          ...(q.ldcp !== undefined ? { previous_close: q.ldcp } : {}),
          ...(q.changePct !== undefined ? { change_pct: q.changePct } : {}),
          ...(q.volume !== undefined ? { volume: q.volume } : {})
        }
        : {})
    }
  })
}
