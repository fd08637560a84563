/**
 * peers and sector medians count only the lines that trade
 * (PeerRule.ts: a trade in the 20 sessions up to the latest recorded
 * session), and a 0 P/E on the exchange's screener is unknown, not a loss.
 * Expected figures are worked from the pack's recordings, read here apart
 * from the service: the screener of 2026-08-04 (alihamza098
 * data_snapshot.json → screener_2026_08_04.json.gz) and the daily closes
 * (I-Zaifa per-symbol CSVs → prices_eod.json.gz; ENGRO from mtauha's
 * historical_engro.html → prices_historical_engro.json.gz).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { PEER_SESSIONS, peerWindowStart } from "../domain/market/board/PeerRule.ts"
import { bodyOf, get, SharedTestApp } from "./support/TestApp.ts"

const pack = (file: string): any =>
  JSON.parse(gunzipSync(readFileSync(join(import.meta.dirname, "../data/pack", file))).toString("utf8"))

interface ScreenerRow {
  readonly symbol: string
  readonly sectorCode?: string
  readonly marketCap?: number
  readonly peTtm?: number
  readonly dividendYieldPct?: number
}
const screener: ReadonlyArray<ScreenerRow> = pack("screener_2026_08_04.json.gz")

/** Each recorded series' last day with a volume above 0: dates are the start plus day steps ("d"), volumes "v". */
const lastTrades = new Map<string, string>()
for (const file of ["prices_eod.json.gz", "prices_historical_engro.json.gz"]) {
  for (
    const [symbol, s] of Object.entries(
      pack(file) as Record<string, { s: string; d: Array<number>; v: Array<number | null> }>
    )
  ) {
    let t = Date.parse(s.s), last: string | undefined
    s.d.forEach((step, i) => {
      t += step * 86_400_000
      if ((s.v[i] ?? 1) !== 0) last = new Date(t).toISOString().slice(0, 10)
    })
    if (last !== undefined && (lastTrades.get(symbol) ?? "") < last) lastTrades.set(symbol, last)
  }
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b), m = s.length >> 1
  return Math.round((s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) * 10_000) / 10_000
}

// Monday 25 May 2026 is the pack's latest session. Counting back 20 sessions (1 May is Labour Day): 25, 22–18,
// 15–11, 8–4 May, then 30, 29, 28 and 27 April.
const WINDOW = "2026-04-27"
const trading = (symbol: string) => (lastTrades.get(symbol) ?? "") >= WINDOW
const sector = (code: string) => screener.filter((r) => r.sectorCode === code)

describe("the peer window", () => {
  it("20 sessions up to 2026-05-25 start on 2026-04-27", () => {
    assert.strictEqual(PEER_SESSIONS, 20)
    assert.strictEqual(peerWindowStart("2026-05-25"), WINDOW)
  })
})

layer(SharedTestApp("2026-06-15T06:00:00.000Z"), { timeout: 300_000, excludeTestServices: true })(
  "peers and medians over the pack",
  (it) => {
    it.effect("FERTILIZER: median yield 6.7199 over the four trading lines with a yield, not 4.8544 over seven (ENGRO and FFBL no longer trade; AGL shows 0: no figure)", () =>
      Effect.gen(function*() {
        const lines = sector("0809")
        assert.deepStrictEqual(lines.map((r) => r.symbol).sort(), [
          "AGL",
          "AHCL",
          "EFERT",
          "ENGRO",
          "FATIMA",
          "FFBL",
          "FFC"
        ])
        assert.deepStrictEqual([lastTrades.get("ENGRO"), lastTrades.get("FFBL")], ["2025-01-03", "2024-12-20"])
        // The screener shows a yield of 0 (dropped by the pack: no key) for AGL, ENGRO and FFBL, all priced with a market cap.
        const yieldOf = (r: ScreenerRow) => r.dividendYieldPct ?? 0
        assert.strictEqual(
          median(lines.map(yieldOf)),
          4.8544,
          "the old figure: seven lines, ENGRO and FFBL as 0% payers"
        )
        const live = lines.filter((r) => trading(r.symbol))
        assert.deepStrictEqual(live.map((r) => r.symbol).sort(), ["AGL", "AHCL", "EFERT", "FATIMA", "FFC"])
        // AGL's 0 is no figure (as a 0 P/E is): 4.8544 (FATIMA), [6.1573 (EFERT), 7.2824 (FFC)], 7.8431 (AHCL)
        // → (6.1573 + 7.2824) / 2 = 6.71985 → 6.7199.
        assert.strictEqual(
          median(live.flatMap((r) => (r.dividendYieldPct !== undefined ? [r.dividendYieldPct] : []))),
          6.7199
        )

        const v = bodyOf(yield* get("/v1/sectors/fertilizer/valuation"))
        assert.deepStrictEqual(
          [
            v.median_dividend_yield_pct,
            v.yield_peers,
            v.not_trading,
            v.median_pe,
            v.pe_peers,
            v.loss_makers_excluded,
            v.without_pe
          ],
          // P/E: AHCL 2.9238, FFC 10.6257, EFERT 12.1244, FATIMA 12.1873 → (10.6257 + 12.1244) / 2; AGL shows 0: unknown.
          [6.7199, 4, 2, median(live.flatMap((r) => (r.peTtm ? [r.peTtm] : []))), 4, 0, 1]
        )
        const peers = bodyOf(yield* get("/v1/sectors/fertilizer/peers")).peers.map((p) => p.symbol)
        const byCap = [...live].sort((a, b) => b.marketCap! - a.marketCap!).map((r) => r.symbol)
        assert.deepStrictEqual(peers, byCap)

        const ffc = bodyOf(yield* get("/v1/stocks/FFC/valuation"))
        assert.deepInclude(ffc.sector_medians!, {
          dividend_yield_pct: 6.7199,
          yield_peers: 4,
          not_trading: 2,
          pe_excluded_loss_making: 0
        })
        const stock = bodyOf(yield* get("/v1/stocks/FFC"))
        assert.deepStrictEqual(stock.peers.map((p) => p.symbol).sort(), ["AGL", "AHCL", "EFERT", "FATIMA"])
        assert.deepInclude(stock.sector_medians!, { dividend_yield_pct: 6.7199, yield_peers: 4 })
      }))

    it.effect("COMMERCIAL BANKS: BAFL's 0 P/E on the screener is unknown, not a loss; the median P/E is of the trading banks' positive P/Es", () =>
      Effect.gen(function*() {
        const banks = sector("0807")
        const bafl = banks.find((r) => r.symbol === "BAFL")!
        assert.isUndefined(bafl.peTtm, "the recording shows pe 0 for BAFL (the pack keeps no figure)")
        assert.isTrue(trading("BAFL"))
        const pes = banks.filter((r) => trading(r.symbol) && r.peTtm !== undefined && r.peTtm > 0).map((r) => r.peTtm!)
        const v = bodyOf(yield* get("/v1/sectors/commercial-banks/valuation"))
        assert.deepStrictEqual([v.median_pe, v.pe_peers, v.loss_makers_excluded], [median(pes), pes.length, 0])
        assert.isAtLeast(v.without_pe, 1)
        const b = bodyOf(yield* get("/v1/stocks/BAFL/valuation"))
        assert.strictEqual(b.sector_medians?.pe_excluded_loss_making, 0)
        assert.isUndefined(b.pe_ttm)
        assert.deepInclude(b.unavailable, {
          figure: "pe_ttm",
          reason: "no sourced EPS (and no exchange P/E) for this symbol"
        })
      }))
  }
)

describe("a line with no recorded trade is no peer", () => {
  it("NIB (merged into MCB in 2017) has no recorded close; SMBL last traded 2023-11-24", () => {
    assert.isFalse(lastTrades.has("NIB"))
    assert.strictEqual(lastTrades.get("SMBL"), "2023-11-24")
  })
})
