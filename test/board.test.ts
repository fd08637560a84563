/**
 * Breadth, movers and sector tone on the exchange's real market summary of
 * 21 Jan 2021 (data/pack/market_summary_20210121.json.gz: 547 lines with
 * the XD/XB/XR markers of that day).
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  breadth,
  lineKind,
  MIN_VALUE_TRADED,
  moverExclusions,
  moverRules,
  movers,
  sectorTone,
  symbolsOf,
  valueTraded
} from "../domain/market/board/Board.ts"
import { Movers, moversDescription } from "../domain/market/board/BoardSchemas.ts"
import { median } from "../domain/market/shared/Stats.ts"
import { marketSummaryLines, sectors } from "./support/MarketPack.ts"

const lines = marketSummaryLines()
const listed = symbolsOf(lines)
const line = (symbol: string) => lines.find((l) => l.symbol === symbol)!
const board = movers(lines, 10)
const listedMovers = [...board.gainers, ...board.losers, ...board.most_active].map((m) => m.symbol)
const gainersAndLosers = [...board.gainers, ...board.losers].map((m) => m.symbol)

describe("breadth", () => {
  it("advancers, decliners and unchanged add up to the securities priced that day", () => {
    const b = breadth(lines)
    assert.deepStrictEqual(b, { advancers: 204, decliners: 150, unchanged: 18, priced: 372, not_priced: 1 })
    assert.strictEqual(b.advancers + b.decliners + b.unchanged, b.priced)
    // Priced: every line that is not a futures contract or debt, traded (volume > 0) and has a previous close.
    const priced = lines.filter((l) =>
      !["derivative", "debt"].includes(lineKind(l, listed)) && (l.volume ?? 0) > 0 && l.previous_close !== undefined
    )
    assert.strictEqual(priced.length, b.priced)
    assert.strictEqual(priced.filter((l) => l.price! > l.previous_close!).length, b.advancers)
  })

  it("futures contracts (sector 40) and debt (sector 36) are not counted; UVIC did not trade", () => {
    assert.strictEqual(lines.filter((l) => lineKind(l, listed) === "derivative").length, 169)
    assert.strictEqual(lines.filter((l) => lineKind(l, listed) === "debt").length, 5)
    assert.strictEqual(169 + 5 + 372 + 1, lines.length)
    assert.deepStrictEqual(moverExclusions(line("UVIC"), listed), ["placeholder", "value_under_1m"])
  })
})

describe("movers leave out what is not a move", () => {
  it("XD lines: TSPL (+3.8%, Rs 1.6M) and SHSML are out of gainers and losers, still in most active when large enough", () => {
    assert.deepStrictEqual(line("TSPL").ex_markers, ["XD"])
    assert.deepStrictEqual(moverExclusions(line("TSPL"), listed), ["ex_marked"])
    assert.deepStrictEqual(moverExclusions(line("AABS"), listed), ["ex_marked", "value_under_1m"])
    for (const s of ["TSPL", "SHSML", "AABS", "ALNRS", "HABSM", "JSML", "SIEM", "TICL"]) {
      assert.notInclude(gainersAndLosers, s)
    }
  })

  it("XR lines: GGGL (+7.5%, Rs 11.8M) would rank among the top ten gainers, LOADS (+7.4%) just below; both are left out", () => {
    const gggl = line("GGGL")
    assert.deepStrictEqual([gggl.ex_markers, line("LOADS").ex_markers], [["XR"], ["XR"]])
    assert.isAbove((gggl.price! - gggl.previous_close!) / gggl.previous_close! * 100, board.gainers[9]!.change_pct)
    for (const s of ["LOADS", "GGGL", "GHGL", "AMBL"]) assert.notInclude(gainersAndLosers, s)
  })

  it("XB lines: PAKD (ex-bonus, +4.0%) is left out (and traded only Rs 437k)", () => {
    assert.deepStrictEqual(line("PAKD").ex_markers, ["XB"])
    assert.deepStrictEqual(moverExclusions(line("PAKD"), listed), ["ex_marked", "value_under_1m"])
    assert.notInclude(listedMovers, "PAKD")
    assert.strictEqual(board.excluded.ex_marked, 6, "ex-marked lines that passed every other rule")
  })

  it("rights lines: BRRR (+35.8%), SHELR (name cut to 'Shell Pakistan(') and GLPLR are recognised and left out", () => {
    const brrr = line("BRRR")
    assert.isAbove(brrr.price! / brrr.previous_close!, 1.35)
    for (const s of ["BRRR", "SHELR", "GLPLR", "ASCR1"]) {
      assert.strictEqual(lineKind(line(s), listed), "right", s)
      assert.notInclude(listedMovers, s)
    }
    assert.strictEqual(line("SHELR").name, "Shell Pakistan(")
    assert.strictEqual(lineKind({ symbol: "SHEL-R" }, listed), "right", "the -R form")
    assert.strictEqual(board.excluded.right, 4)
  })

  it("preference lines: POWERPS, EPCLPS and ASLPS ('Aisha StelCoP/S')", () => {
    for (const s of ["POWERPS", "EPCLPS", "ASLPS"]) assert.strictEqual(lineKind(line(s), listed), "preference", s)
    assert.strictEqual(board.excluded.preference, 3)
  })

  it("value traded under Rs 1 million: ADOS (-5.5%, Rs 37.6k) is not a top loser", () => {
    const ados = line("ADOS")
    assert.deepStrictEqual(valueTraded(ados), { value: 37560, basis: "volume_x_price" })
    assert.isBelow((ados.price! - ados.previous_close!) / ados.previous_close! * 100, board.losers[9]!.change_pct)
    assert.notInclude(listedMovers, "ADOS")
    for (const m of [...board.gainers, ...board.losers, ...board.most_active]) {
      assert.isAtLeast(m.value_traded, MIN_VALUE_TRADED)
    }
    assert.strictEqual(board.excluded.value_under_1m, 147)
  })

  it("what remains: the day's real top gainer, loser and most active", () => {
    assert.deepStrictEqual(board.gainers.slice(0, 3).map((m) => m.symbol), ["CTM", "SSML", "SMBL"])
    assert.deepStrictEqual(board.losers.slice(0, 3).map((m) => m.symbol), ["SILK", "SMTM", "THCCL"])
    assert.deepStrictEqual(board.most_active.slice(0, 2).map((m) => [m.symbol, m.value_traded]), [[
      "TRG",
      1_901_084_250
    ], ["NETSOL", 1_180_201_800]])
    assert.isTrue(board.gainers.every((m) => m.change_pct > 0) && board.losers.every((m) => m.change_pct < 0))
    assert.deepStrictEqual(board.excluded.derivative, 169)
    assert.deepStrictEqual(board.excluded.placeholder, 1)
    Schema.decodeUnknownSync(Movers)({ ...board, rules: moversDescription })
  })

  it("the OpenAPI description names how every exclusion is detected", () => {
    for (const rule of Object.values(moverRules)) assert.include(moversDescription, rule)
    assert.include(moversDescription, "sector code 40")
  })
})

describe("sector tone", () => {
  it("per sector: breadth adding up and the median change of its priced lines", () => {
    const names = new Map(sectors().map((s) => [s.code, s.name]))
    const tone = sectorTone(lines, names)
    const banks = tone.find((t) => t.sector_code === "0807")!
    assert.strictEqual(banks.sector, "COMMERCIAL BANKS")
    const bankChanges = lines
      .filter((l) => l.sector_code === "0807" && (l.volume ?? 0) > 0)
      .map((l) => Math.round((l.price! - l.previous_close!) / l.previous_close! * 100 * 10_000) / 10_000)
    assert.strictEqual(banks.median_change_pct, median(bankChanges))
    assert.strictEqual(banks.advancers + banks.decliners + banks.unchanged, banks.priced)
    const total = tone.reduce((n, t) => n + t.priced, 0)
    assert.strictEqual(total, breadth(lines).priced, "every priced line sits in one sector")
  })
})
