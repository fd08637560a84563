/**
 * Valuation and sector medians against hand computation on the exchange's
 * screener snapshot of 2026-04-08 (CEMENT, sector 0804: 23 securities) and on
 * the HBL company page of 2026-01-27 (data/pack company_pages: price 343.72,
 * FY2024 EPS 38.70, 1,466,852,508 shares, market cap Rs 504,186,544.05
 * thousand).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { peerFigures, position, sectorMedians, trailingPe, valuation, valuationPrice } from "../domain/market/analytics/Valuation.ts"
import { fundamentalsOf, snapshotRows } from "./support/ScreenerFixture.ts"
import { bodyOf, get, TestApp } from "./support/TestApp.ts"

const rows = snapshotRows()
const cement = rows.filter((r) => r.sector_code === "0804")
const priceOf = (r: (typeof rows)[number]) => (r.price === null ? undefined : { price: r.price, as_of: "2026-04-08T10:05:00.000Z" })
const medians = sectorMedians(cement.map((r) => peerFigures(fundamentalsOf(r), priceOf(r))), { sector: "CEMENT", sector_code: "0804" })

describe("CEMENT sector medians, 2026-04-08", () => {
  it("median P/E of the 15 cement lines with a P/E; median yield of 10; market cap of 23", () => {
    assert.strictEqual(cement.length, 23)
    // P/E, ascending: 2.9301 4.1354 4.8700 6.3104 6.7786 6.8147 7.5606 [7.5614] 9.6557 10.4881 10.5326 11.7632 14.1729 34.7752 37.9017
    assert.strictEqual(medians.pe_ttm, 7.5614)
    assert.strictEqual(medians.pe_peers, 15)
    assert.strictEqual(medians.pe_excluded_loss_making, 0)
    assert.strictEqual(medians.yield_peers, 10)
    assert.strictEqual(medians.dividend_yield_pct, 1.9416)
    assert.strictEqual(medians.market_cap_peers, 23)
    assert.strictEqual(medians.market_cap, 25010348743.98)
  })

  it("LUCK against the medians: P/E and market cap above, yield below", () => {
    const luck = cement.find((r) => r.symbol === "LUCK")!
    const v = valuation({ symbol: "LUCK", fundamentals: fundamentalsOf(luck), price: priceOf(luck), medians })
    assert.deepStrictEqual(v.pe_ttm, {
      value: 37.9017,
      as_of: "2026-04-08",
      basis: "exchange_pe_ttm",
      sector_median: 7.5614,
      peers: 15,
      position: "above"
    })
    assert.strictEqual(v.dividend_yield_pct!.position, "below")
    assert.strictEqual(v.market_cap!.value, 615783450000)
    assert.strictEqual(v.market_cap!.position, "above")
    assert.deepStrictEqual(v.unavailable, [])
  })

  it("KOHC has no yield on the screener: absent with the reason, never 0", () => {
    const kohc = cement.find((r) => r.symbol === "KOHC")!
    const v = valuation({ symbol: "KOHC", fundamentals: fundamentalsOf(kohc), price: priceOf(kohc), medians })
    assert.isUndefined(v.dividend_yield_pct)
    assert.deepStrictEqual(v.unavailable, [{ figure: "dividend_yield_pct", reason: "no recorded payouts and no exchange yield figure" }])
    assert.strictEqual(v.pe_ttm!.position, "below")
  })
})

describe("P/E from sourced EPS", () => {
  it("HBL 2026-01-27: 343.72 / 38.70 (FY2024 EPS); market cap from shares × price", () => {
    const f = { eps: 38.7, shares_outstanding: 1466852508, as_of: "2026-01-27" }
    const price = { price: 343.72, as_of: "2026-01-27T10:49:00.000Z" }
    const v = valuation({ symbol: "HBL", fundamentals: f, price })
    assert.strictEqual(v.pe_ttm!.value, Math.round((343.72 / 38.7) * 10_000) / 10_000)
    assert.strictEqual(v.pe_ttm!.basis, "price_over_trailing_eps")
    assert.strictEqual(v.pe_ttm!.as_of, "2026-01-27T10:49:00.000Z")
    // 1,466,852,508 × 343.72 = 504,186,544,049.76; the page states 504,186,544.05 thousand
    assert.strictEqual(v.market_cap!.value, 504186544050)
    assert.strictEqual(v.market_cap!.basis, "shares_outstanding_x_price")
    assert.isUndefined(v.sector_medians)
  })

  it("SYNTHETIC loss-maker (EPS −2.5): no P/E, the reason, and excluded from the median P/E with a count", () => {
    const pe = trailingPe({ eps: -2.5, as_of: "2026-04-08" }, { price: 50, as_of: "2026-04-08" })
    assert.deepStrictEqual(pe, { reason: "loss-maker: trailing EPS is -2.5, so a P/E is not meaningful", loss_making: true })
    const m = sectorMedians([{ pe_ttm: 10 }, { pe_ttm: 20 }, { loss_making: true }])
    assert.strictEqual(m.pe_ttm, 15)
    assert.strictEqual(m.pe_peers, 2)
    assert.strictEqual(m.pe_excluded_loss_making, 1)
  })

  it("no EPS and no exchange P/E: absent with the reason; no usable peer figure gives no median (never 0)", () => {
    const v = valuation({ symbol: "X", fundamentals: { as_of: "2026-04-08" }, medians: sectorMedians([{}, { loss_making: true }]) })
    assert.deepInclude(v.unavailable, { figure: "pe_ttm", reason: "no sourced EPS (and no exchange P/E) for this symbol" })
    assert.isUndefined(v.sector_medians!.pe_ttm)
    assert.isUndefined(v.sector_medians!.dividend_yield_pct)
    assert.strictEqual(v.sector_medians!.pe_peers, 0)
  })

  it("position: at within ±1% of the median", () => {
    assert.strictEqual(position(10.09, 10), "at")
    assert.strictEqual(position(9.91, 10), "at")
    assert.strictEqual(position(10.2, 10), "above")
    assert.strictEqual(position(9.8, 10), "below")
  })
})

/** The pack's screener of 2026-08-04 (alihamza098 data_snapshot.json, timestamp 1785864218.31 = 2026-08-04 17:23 UTC). */
const packDir = join(import.meta.dirname, "../data/pack")
const screener0804 = JSON.parse(gunzipSync(readFileSync(join(packDir, "screener_2026_08_04.json.gz"))).toString("utf8")) as ReadonlyArray<{
  symbol: string
  price: number
  peTtm?: number
  marketCap?: number
  dividendYieldPct?: number
}>
const screenerAsOf = (JSON.parse(readFileSync(join(packDir, "manifest.json"), "utf8")).datasets as ReadonlyArray<{ id: string; asOf: string }>)
  .find((d) => d.id === "screener_2026_08_04")!.asOf

describe("one date per valuation", () => {
  it("the newer of the quote and the exchange row's own price; a tie goes to the quote", () => {
    const f = { pe_ttm: 10, price: 100, as_of: "2026-08-04T17:23:38.308Z" }
    assert.deepStrictEqual(valuationPrice(f, { price: 90, as_of: "2026-05-25T11:00:00.000Z" }), { price: 100, as_of: f.as_of })
    assert.deepStrictEqual(valuationPrice(f, { price: 110, as_of: "2026-08-05T11:00:00.000Z" }), { price: 110, as_of: "2026-08-05T11:00:00.000Z" })
    assert.deepStrictEqual(valuationPrice({ pe_ttm: 10, as_of: f.as_of }, { price: 90, as_of: "2026-05-25" }), { price: 90, as_of: "2026-05-25" })
  })

  it("SYNTHETIC: an older exchange row is carried forward to a newer price with its own EPS, shares and dividends", () => {
    // Row of 2026-04-08: price 50, P/E 10 (EPS 5), cap 5bn (100m shares), yield 4% (Rs 2). Quote 2026-05-25: 60.
    const f = { pe_ttm: 10, market_cap: 5e9, dividend_yield_pct: 4, price: 50, as_of: "2026-04-08" }
    const v = valuation({ symbol: "X", fundamentals: f, price: { price: 60, as_of: "2026-05-25T11:00:00.000Z" } })
    assert.deepStrictEqual(
      [v.pe_ttm, v.market_cap?.value, v.dividend_yield_pct?.value, v.dividend_yield_pct?.exchange_as_of],
      [{ value: 12, as_of: "2026-05-25T11:00:00.000Z", basis: "exchange_pe_ttm", exchange_as_of: "2026-04-08" }, 6e9, 3.3333, "2026-04-08"]
    )
  })
})

layer(TestApp({ withPack: true, now: "2026-06-15T06:00:00.000Z" }), { timeout: 300_000, excludeTestServices: true })("MEBL valuation over the pack", (it) => {
  it.effect("MEBL: P/E, yield and market cap with the price PSX computed them at (573.7 on 2026-08-04), not beside the close of 2026-05-25", () =>
    Effect.gen(function*() {
      const row = screener0804.find((r) => r.symbol === "MEBL")!
      assert.strictEqual(screenerAsOf, "2026-08-04T17:23:38.308Z")
      // The recording: price 573.7, P/E 11.44196250498604, market cap 1,032,978,203,852.4, yield 6.298899350218805.
      const v = bodyOf(yield* get("/v1/stocks/MEBL/valuation"))
      assert.deepStrictEqual([v.price, v.price_as_of], [row.price, screenerAsOf])
      // The yield is the trailing 12 months of recorded payouts at the same price (MEBL's face value is Rs 10, a sourced
      // record): XD days 2025-08-26 (70%), 2025-11-04 (70%), 2026-03-24 (70%) and 2026-05-05 (75%): Rs 28.5 a share.
      assert.deepStrictEqual(
        [v.pe_ttm?.value, v.market_cap?.value, v.dividend_yield_pct?.value, v.dividend_yield_pct?.basis],
        [Math.round(row.peTtm! * 10_000) / 10_000, Math.round(row.marketCap!), Math.round((28.5 / row.price!) * 100 * 10_000) / 10_000, "trailing_12m_payouts"]
      )
      for (const f of [v.pe_ttm, v.dividend_yield_pct, v.market_cap]) {
        assert.strictEqual(f?.as_of, v.price_as_of, "every figure is of the price's date")
        assert.notProperty(f, "exchange_as_of")
      }
    }))
  it.effect("the screener's MEBL row has the same P/E and yield at the same price, dated by valuation_as_of beside the quote's own date", () =>
    Effect.gen(function*() {
      const row = screener0804.find((r) => r.symbol === "MEBL")!
      const page = bodyOf(yield* get("/v1/screener?sectors=COMMERCIAL%20BANKS&limit=100"))
      const mebl = page.items.find((r) => r.symbol === "MEBL")!
      // The row's price is the last close (2026-05-25, 490.2 in the recorded eod series); its valuation figures are
      // at the exchange screener's own price of 2026-08-04 (573.7), so the row says so instead of mixing two dates.
      assert.deepStrictEqual([mebl.price, mebl.price_as_of?.slice(0, 10), mebl.valuation_as_of], [490.2, "2026-05-25", screenerAsOf])
      assert.deepStrictEqual(
        [mebl.pe_ttm, mebl.dividend_yield_pct],
        [Math.round(row.peTtm! * 10_000) / 10_000, Math.round((28.5 / row.price!) * 100 * 10_000) / 10_000]
      )
    }))
})

