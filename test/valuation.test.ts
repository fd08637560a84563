/**
 * Valuation and sector medians against hand computation on the exchange's
 * screener snapshot of 2026-04-08 (CEMENT, sector 0804: 23 securities) and on
 * the HBL company page of 2026-01-27 (data/pack company_pages: price 343.72,
 * FY2024 EPS 38.70, 1,466,852,508 shares, market cap Rs 504,186,544.05
 * thousand).
 */
import { assert, describe, it } from "@effect/vitest"
import { peerFigures, position, sectorMedians, trailingPe, valuation } from "../domain/market/Valuation.ts"
import { fundamentalsOf, snapshotRows } from "./support/ScreenerFixture.ts"

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
