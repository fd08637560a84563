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
import {
  peerFigures,
  position,
  sectorMedians,
  trailingPe,
  valuation,
  valuationPrice
} from "../domain/market/analytics/Valuation.ts"
import { fundamentalsOf, snapshotRows } from "./support/ScreenerFixture.ts"
import { bodyOf, get, SharedTestApp } from "./support/TestApp.ts"

const rows = snapshotRows()
const cement = rows.filter((r) => r.sector_code === "0804")
const priceOf = (
  r: (typeof rows)[number]
) => (r.price === null ? undefined : { price: r.price, as_of: "2026-04-08T10:05:00.000Z" })
const medians = sectorMedians(cement.map((r) => peerFigures(fundamentalsOf(r), priceOf(r))), {
  sector: "CEMENT",
  sector_code: "0804"
})

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
    assert.deepStrictEqual(v.unavailable, [{
      figure: "dividend_yield_pct",
      reason: "no recorded payouts and no exchange yield figure"
    }])
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
    assert.deepStrictEqual(pe, {
      reason: "loss-maker: trailing EPS is -2.5, so a P/E is not meaningful",
      loss_making: true
    })
    const m = sectorMedians([{ pe_ttm: 10 }, { pe_ttm: 20 }, { loss_making: true }])
    assert.strictEqual(m.pe_ttm, 15)
    assert.strictEqual(m.pe_peers, 2)
    assert.strictEqual(m.pe_excluded_loss_making, 1)
  })

  it("no EPS and no exchange P/E: absent with the reason; no usable peer figure gives no median (never 0)", () => {
    const v = valuation({
      symbol: "X",
      fundamentals: { as_of: "2026-04-08" },
      medians: sectorMedians([{}, { loss_making: true }])
    })
    assert.deepInclude(v.unavailable, {
      figure: "pe_ttm",
      reason: "no sourced EPS (and no exchange P/E) for this symbol"
    })
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
const screener0804 = JSON.parse(
  gunzipSync(readFileSync(join(packDir, "screener_2026_08_04.json.gz"))).toString("utf8")
) as ReadonlyArray<{
  symbol: string
  price: number
  peTtm?: number
  marketCap?: number
  dividendYieldPct?: number
}>
const screenerAsOf = (JSON.parse(readFileSync(join(packDir, "manifest.json"), "utf8")).datasets as ReadonlyArray<
  { id: string; asOf: string }
>)
  .find((d) => d.id === "screener_2026_08_04")!.asOf

describe("each figure carries the date and price it rests on", () => {
  it("the computed figures rest on the quote; the exchange row's own price only without a quote", () => {
    const f = { pe_ttm: 10, price: 100, as_of: "2026-08-04T17:23:38.308Z" }
    assert.deepStrictEqual(valuationPrice(f, { price: 90, as_of: "2026-05-25T11:00:00.000Z" }), {
      price: 90,
      as_of: "2026-05-25T11:00:00.000Z"
    })
    assert.deepStrictEqual(valuationPrice(f, undefined), { price: 100, as_of: f.as_of })
    assert.isUndefined(valuationPrice({ pe_ttm: 10, as_of: f.as_of }, undefined))
  })

  it("SYNTHETIC: an older exchange row is carried forward to a newer price with its own EPS, shares and dividends", () => {
    // Row of 2026-04-08: price 50, P/E 10 (EPS 5), cap 5bn (100m shares), yield 4% (Rs 2). Quote 2026-05-25: 60.
    const f = { pe_ttm: 10, market_cap: 5e9, dividend_yield_pct: 4, price: 50, as_of: "2026-04-08" }
    const v = valuation({ symbol: "X", fundamentals: f, price: { price: 60, as_of: "2026-05-25T11:00:00.000Z" } })
    assert.deepStrictEqual(
      [v.pe_ttm, v.market_cap?.value, v.dividend_yield_pct?.value, v.dividend_yield_pct?.exchange_as_of],
      [
        {
          value: 12,
          as_of: "2026-05-25T11:00:00.000Z",
          basis: "exchange_pe_ttm",
          price: 60,
          exchange_as_of: "2026-04-08",
          as_published: { value: 10, as_of: "2026-04-08", price: 50 }
        },
        6e9,
        3.3333,
        "2026-04-08"
      ]
    )
  })

  it("SYNTHETIC: a newer exchange row is never carried back to an older price: it is served as published, with its date", () => {
    // Row of 2026-08-04 at 120: P/E 12. Quote of 2026-05-25 at 100. EPS 8 sourced: 100 / 8 = 12.5 as computed.
    const f = { pe_ttm: 12, market_cap: 1.2e9, price: 120, as_of: "2026-08-04" }
    const q = { price: 100, as_of: "2026-05-25T11:00:00.000Z" }
    const v = valuation({ symbol: "X", fundamentals: f, price: q })
    assert.deepStrictEqual([v.pe_ttm, v.market_cap], [
      { value: 12, as_of: "2026-08-04", basis: "exchange_pe_ttm", price: 120 },
      { value: 1.2e9, as_of: "2026-08-04", basis: "exchange", price: 120 }
    ])
    const withEps = valuation({ symbol: "X", fundamentals: { ...f, eps: 8 }, price: q })
    assert.deepStrictEqual(withEps.pe_ttm, {
      value: 12.5,
      as_of: q.as_of,
      basis: "price_over_trailing_eps",
      price: 100,
      as_published: { value: 12, as_of: "2026-08-04", price: 120 }
    })
  })
})

layer(SharedTestApp("2026-06-15T06:00:00.000Z"), { timeout: 300_000, excludeTestServices: true })(
  "MEBL valuation over the pack",
  (it) => {
    // MEBL's recorded payouts (uzairbukhari /company/payouts, face value Rs 10) with an XD day in the 12 months to the
    // quote's close of 2026-05-25 (490.2 in the recorded eod series): 2025-08-25 (70%), 2025-11-03 (70%), 2026-03-24
    // (70%), 2026-05-05 (75%) = Rs 28.5 a share, so 28.5 / 490.2 = 5.814%. The exchange's screener of 2026-08-04
    // published 6.298899350218805% at 573.7.
    const computed = Math.round((28.5 / 490.2) * 100 * 10_000) / 10_000

    it.effect("MEBL: the computed yield at the quote's price and date; the exchange's figures as published at theirs", () =>
      Effect.gen(function*() {
        const row = screener0804.find((r) => r.symbol === "MEBL")!
        assert.strictEqual(screenerAsOf, "2026-08-04T17:23:38.308Z")
        const v = bodyOf(yield* get("/v1/stocks/MEBL/valuation"))
        assert.deepStrictEqual([v.price, v.price_as_of?.slice(0, 10)], [490.2, "2026-05-25"])
        const y = v.dividend_yield_pct!
        assert.deepStrictEqual([y.value, y.basis, y.as_of, y.price], [
          computed,
          "trailing_12m_payouts",
          v.price_as_of,
          490.2
        ])
        const r4 = (n: number) => Math.round(n * 10_000) / 10_000
        assert.deepStrictEqual(y.as_published, {
          value: r4(row.dividendYieldPct!),
          as_of: screenerAsOf,
          price: row.price
        })
        // The P/E and market cap are the exchange's of 2026-08-04, not carried back to May's price.
        assert.deepStrictEqual([v.pe_ttm?.value, v.pe_ttm?.as_of, v.pe_ttm?.price], [
          r4(row.peTtm!),
          screenerAsOf,
          573.7
        ])
        assert.deepStrictEqual([v.market_cap?.value, v.market_cap?.as_of, v.market_cap?.price], [
          Math.round(row.marketCap!),
          screenerAsOf,
          573.7
        ])
      }))

    it.effect("one yield on /v1/dividends, the valuation and the screener; each screener figure carries its own date", () =>
      Effect.gen(function*() {
        const d = bodyOf(yield* get("/v1/dividends/MEBL"))
        assert.deepStrictEqual(
          [d.ttm_dividend_per_share, d.ttm_from, d.ttm_to, d.price, d.ttm_dividend_yield_pct],
          [28.5, "2025-05-25", "2026-05-25", 490.2, Math.round((28.5 / 490.2) * 1_000_000) / 10_000]
        )
        assert.deepStrictEqual(d.yield_as_published, { value: 6.298899350218805, as_of: screenerAsOf, price: 573.7 })
        const page = bodyOf(yield* get("/v1/screener?sectors=COMMERCIAL%20BANKS&limit=100"))
        const mebl = page.items.find((r) => r.symbol === "MEBL")!
        assert.deepStrictEqual(
          [
            mebl.price,
            mebl.price_as_of?.slice(0, 10),
            mebl.dividend_yield_pct,
            mebl.dividend_yield_basis,
            mebl.dividend_yield_as_of
          ],
          [490.2, "2026-05-25", computed, "trailing_12m_payouts", mebl.price_as_of]
        )
        assert.deepStrictEqual([mebl.pe_ttm_as_of, mebl.market_cap_as_of], [screenerAsOf, screenerAsOf])
      }))
  }
)
