/**
 * Comparison on the exchange's screener snapshot of 2026-04-08
 * (test/fixtures/screener): head to head by bands for two symbols, winner per
 * metric for three or more, and the typed failures the routes map to 400/404.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  band,
  compare,
  COMPARE_MAX_SYMBOLS,
  MEASURES,
  parseCompareSymbols
} from "../../domain/market/analytics/Compare.ts"
import { snapshotFigures } from "../support/ScreenerFixture.ts"

const figures = new Map(snapshotFigures().map((f) => [f.symbol, f]))
const lookup = (s: string) => figures.get(s)
const run = (raw: string) => {
  const r = compare(raw, lookup)
  if ("reason" in r) return assert.fail(r.message)
  return r.comparison
}
const measure = (name: string) => MEASURES.find((m) => m.measure === name)!

describe("two symbols: scored head to head", () => {
  it("MEBL vs ABL: ABL wins P/E (6.09 band 4 against 10.50 band 3); yield and market cap tie in band; the rest unknown", () => {
    const c = run("mebl, ABL")
    assert.strictEqual(c.mode, "head_to_head")
    assert.deepStrictEqual(c.symbols, ["MEBL", "ABL"])
    const h = c.head_to_head!
    const byName = new Map(h.measures.map((m) => [m.measure, m]))
    assert.deepStrictEqual(byName.get("pe_ttm")!.values.map((v) => v.band), [3, 4])
    assert.strictEqual(byName.get("pe_ttm")!.winner, "ABL")
    // yields 6.30 and 8.75 are both in 6..10; market caps 934.6bn and 213.4bn both ≥ 100bn
    assert.strictEqual(byName.get("dividend_yield_pct")!.outcome, "tie")
    assert.strictEqual(byName.get("market_cap")!.outcome, "tie")
    // no price series in the snapshot: performance, drawdown, volatility and value traded are unknown, never scored
    for (const m of ["performance_20d_pct", "drawdown_20d_pct", "volatility_20d_pct", "avg_value_traded_30d"]) {
      assert.strictEqual(byName.get(m)!.outcome, "unknown", m)
      assert.isUndefined(byName.get(m)!.winner)
    }
    assert.deepStrictEqual(h.totals, [{ symbol: "MEBL", points: 0 }, { symbol: "ABL", points: 1 }])
    assert.strictEqual(h.leader, "ABL")
  })

  it("LUCK vs DGKC: one measure each (P/E 37.90 band 0 against 6.78 band 4; market cap 615.8bn against 74.6bn), no leader", () => {
    const h = run("LUCK,DGKC").head_to_head!
    assert.deepStrictEqual(h.totals, [{ symbol: "LUCK", points: 1 }, { symbol: "DGKC", points: 1 }])
    assert.isUndefined(h.leader)
    assert.strictEqual(h.measures.find((m) => m.measure === "market_cap")!.winner, "LUCK")
    assert.strictEqual(h.measures.find((m) => m.measure === "pe_ttm")!.winner, "DGKC")
  })

  it("bands: x..y holds x ≤ value < y, whichever way is better", () => {
    const pe = measure("pe_ttm"), dy = measure("dividend_yield_pct"), cap = measure("market_cap")
    assert.deepStrictEqual([7.99, 8, 11.99, 12, 18, 30, 100].map((v) => band(pe, v)), [4, 3, 3, 2, 1, 0, 0])
    assert.deepStrictEqual([0, 0.99, 1, 3, 6, 10, 14].map((v) => band(dy, v)), [0, 0, 1, 2, 3, 4, 4])
    assert.deepStrictEqual([0.5e9, 1e9, 5e9, 25e9, 100e9].map((v) => band(cap, v)), [0, 1, 2, 3, 4])
  })
})

describe("three or more symbols: winner per metric", () => {
  it("LUCK, DGKC, FCCL, MLCF: lowest P/E MLCF (4.87), highest yield FCCL (2.23; MLCF unknown), largest cap LUCK", () => {
    const c = run("LUCK,DGKC,FCCL,MLCF")
    assert.strictEqual(c.mode, "per_metric")
    const w = new Map(c.metrics!.map((m) => [m.measure, m.winners]))
    assert.deepStrictEqual(w.get("pe_ttm"), ["MLCF"])
    assert.deepStrictEqual(w.get("dividend_yield_pct"), ["FCCL"])
    assert.deepStrictEqual(w.get("market_cap"), ["LUCK"])
    assert.deepStrictEqual(w.get("performance_20d_pct"), [])
    assert.isUndefined(
      c.metrics!.find((m) => m.measure === "dividend_yield_pct")!.values.find((v) => v.symbol === "MLCF")!.value
    )
  })
})

describe("failures", () => {
  it("duplicate, too few, too many, malformed and unknown symbols", () => {
    assert.deepInclude(parseCompareSymbols("LUCK,luck"), { reason: "duplicate_symbol", symbol: "LUCK" })
    assert.deepInclude(parseCompareSymbols("LUCK"), { reason: "too_few" })
    const eleven = ["ABL", "BAFL", "BAHL", "BIPL", "BOK", "HMB", "MCB", "NBP", "SCBPL", "UBL", "MEBL"]
    assert.strictEqual(eleven.length, COMPARE_MAX_SYMBOLS + 1)
    assert.deepInclude(parseCompareSymbols(eleven.join(",")), { reason: "too_many" })
    assert.strictEqual(run(eleven.slice(0, COMPARE_MAX_SYMBOLS).join(",")).metrics!.length, MEASURES.length)
    assert.deepInclude(parseCompareSymbols("LUCK,,DGKC"), { reason: "invalid_symbol" })
    assert.deepInclude(parseCompareSymbols("LUCK,$X"), { reason: "invalid_symbol", symbol: "$X" })
    assert.deepInclude(compare("LUCK,NOSUCH", lookup), { reason: "unknown_symbol", symbol: "NOSUCH" })
  })
})
