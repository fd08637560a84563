/**
 * Sector ids and medians on the real screener and all-share board of
 * 2026-04-08 (data/pack: screener.json.gz, board_allshr.json.gz,
 * sectors.json, universe.json).
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { SectorBoard } from "../domain/market/board/BoardSchemas.ts"
import {
  resolveSector,
  sectorBoard,
  sectorFigures,
  type SectorMember,
  sectorPeers,
  sectorSlug,
  sectorValuation,
  TRACKED_INDEX,
  untrackedIndexNote
} from "../domain/market/board/Sectors.ts"
import { median } from "../domain/market/shared/Stats.ts"
import { sectorMembers, sectors, universe } from "./support/MarketPack.ts"

const all = sectors()
const members = sectorMembers()
const listed = new Set(universe().map((u) => u.symbol))
const board = sectorBoard(all, members, listed)
const of = (code: string) => board.find((s) => s.code === code)!

describe("sector ids", () => {
  it("the PSX code and the slug both resolve, in any case; an unknown id does not", () => {
    assert.strictEqual(resolveSector(all, "0807")?.name, "COMMERCIAL BANKS")
    assert.strictEqual(resolveSector(all, "commercial-banks")?.code, "0807")
    assert.strictEqual(resolveSector(all, "Commercial Banks")?.code, "0807")
    assert.strictEqual(sectorSlug("INV. BANKS / INV. COS. / SECURITIES COS."), "inv-banks-inv-cos-securities-cos")
    assert.strictEqual(resolveSector(all, "oil-and-gas-exploration-companies")?.code, "0820")
    assert.isUndefined(resolveSector(all, "0899"))
    assert.isUndefined(resolveSector(all, "---"))
    assert.strictEqual(new Set(all.map((s) => sectorSlug(s.name))).size, all.length, "slugs are unique")
  })
})

describe("sector medians on real data", () => {
  it("CEMENT: median P/E over the 15 positive P/Es; 6 lines without one (0 on the portal: a loss or no figure) left out", () => {
    const cement = of("0804")
    assert.strictEqual(cement.name, "CEMENT")
    assert.deepStrictEqual(
      [
        cement.constituents,
        cement.ordinary_constituents,
        cement.pe_peers,
        cement.without_pe,
        cement.loss_makers_excluded
      ],
      [23, 21, 15, 6, 0]
    )
    assert.strictEqual(cement.median_pe, 7.5614)
    assert.deepStrictEqual([cement.median_dividend_yield_pct, cement.yield_peers], [1.9416, 10])
    // The rights lines FLYNGR1 and JVDCR1 (empty name on the listing) are not ordinary constituents.
    const lines = members.filter((m) => m.sector_code === "0804")
    assert.includeMembers(lines.map((m) => m.symbol), ["FLYNGR1", "JVDCR1"])
    const pes = lines.filter((m) => !["FLYNGR1", "JVDCR1"].includes(m.symbol) && (m.pe_ttm ?? 0) > 0).map((m) =>
      m.pe_ttm!
    )
    assert.strictEqual(median(pes), cement.median_pe)
  })

  it("a sector with no usable figure gets no median, never 0: JUTE has no P/E and no yield", () => {
    const jute = of("0814")
    assert.deepStrictEqual([jute.pe_peers, jute.yield_peers], [0, 0])
    assert.notProperty(jute, "median_pe")
    assert.notProperty(jute, "median_dividend_yield_pct")
    const etfs = of("0837")
    assert.deepStrictEqual([etfs.constituents, "median_change_pct" in etfs], [0, false])
  })

  it("loss-makers are left out of the median P/E and counted (the loss-makers are SYNTHETIC; the rest is CEMENT's real P/Es)", () => {
    const cement = members.filter((m) => m.sector_code === "0804" && (m.pe_ttm ?? 0) > 0)
    const synthetic: Array<SectorMember> = [
      { symbol: "SYNTH-LOSS-PE", name: "SYNTHETIC loss-maker (negative P/E)", pe_ttm: -3.2 },
      { symbol: "SYNTH-LOSS-EPS", name: "SYNTHETIC loss-maker (negative EPS)", pe_ttm: 5, eps: -1.5 }
    ]
    const v = sectorValuation([...cement, ...synthetic])
    assert.deepStrictEqual([v.median_pe, v.pe_peers, v.loss_makers_excluded, v.without_pe], [7.5614, 15, 2, 0])
  })

  it("COMMERCIAL BANKS: median change and breadth from the same day's board, adding up", () => {
    const banks = of("0807")
    const b = banks.breadth
    assert.strictEqual(b.advancers + b.decliners + b.unchanged, b.priced)
    assert.strictEqual(b.priced + b.not_priced, banks.ordinary_constituents)
    const changes = members.filter((m) => m.sector_code === "0807" && (m.volume ?? 0) > 0 && m.change_pct !== undefined)
      .map((m) => m.change_pct!)
    assert.strictEqual(banks.median_change_pct, median(changes))
    assert.deepStrictEqual([banks.median_pe, banks.pe_peers, banks.median_dividend_yield_pct], [6.7534, 19, 8.2921])
  })

  it("the board covers every sector and encodes with its schema", () => {
    assert.strictEqual(board.length, all.length)
    Schema.decodeUnknownSync(SectorBoard)({
      items: board.map((s) => ({ ...s, id: s.id })),
      medians: "median",
      sources: []
    })
  })
})

describe("peers and indices", () => {
  it("peers are the sector's ordinary lines, largest market cap first", () => {
    const peers = sectorPeers(members.filter((m) => m.sector_code === "0820"), listed)
    assert.deepStrictEqual(peers.map((p) => p.symbol).length, 4)
    for (let i = 1; i < peers.length; i++) assert.isAtLeast(peers[i - 1]!.market_cap!, peers[i]!.market_cap!)
    const one = sectorFigures({ code: "0820", name: "OIL & GAS EXPLORATION COMPANIES" }, peers, listed)
    assert.deepStrictEqual([one.id, one.pe_peers, one.without_pe], ["oil-and-gas-exploration-companies", 4, 0])
  })

  it("only KSE-100 membership is tracked; other indices say so", () => {
    assert.strictEqual(TRACKED_INDEX, "KSE100")
    assert.include(untrackedIndexNote("KMI30"), "Only KSE-100 membership is tracked")
  })
})
