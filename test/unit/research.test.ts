/**
 * The computed records fit their response Schemas (so the routes can encode
 * them), the per-symbol screen figures agree with the analytics and
 * technicals they are derived from, and the research caveats call out the
 * SYS bonus step of 2022-03-31 and the close-based MEBL range, on the
 * recorded series of test/fixtures/series.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { analytics } from "../../domain/market/analytics/Analytics.ts"
import {
  Comparison,
  ResearchPackage,
  ScreenerPage,
  StockAnalytics,
  Technicals,
  Valuation
} from "../../domain/market/analytics/AnalyticsSchemas.ts"
import { compare } from "../../domain/market/analytics/Compare.ts"
import { researchCaveats } from "../../domain/market/analytics/Research.ts"
import { screen, screenFigures } from "../../domain/market/analytics/Screener.ts"
import { technicals } from "../../domain/market/analytics/Technicals.ts"
import { sectorMedians, valuation } from "../../domain/market/analytics/Valuation.ts"
import { snapshotFigures } from "../support/ScreenerFixture.ts"
import { loadSeries } from "../support/SeriesFixture.ts"

const strict = { onExcessProperty: "error" } as const
const source = {
  dataset: "prices_eod",
  source: "PSX data portal GET /timeseries/eod/{SYMBOL}",
  as_of: "2026-05-25",
  retrieved_at: "2026-07-08T00:00:00.000Z"
}

describe("records fit their response schemas", () => {
  const files = [
    "HUBC-as_traded-2022-2023.json",
    "SYS-as_traded-2021-2022.json",
    "MEBL-eod-2025-2026.json",
    "MEBL-eod-2021.json"
  ]
  it("analytics and technicals of every fixture encode without loss", () => {
    for (const f of files) {
      const s = loadSeries(f)
      const a = { ...analytics(s)!, sources: [source] }
      assert.deepStrictEqual(
        Schema.decodeUnknownSync(StockAnalytics, strict)(Schema.encodeSync(StockAnalytics)(a)),
        a,
        f
      )
      const t = { ...technicals(s)!, sources: [source] }
      assert.deepStrictEqual(Schema.decodeUnknownSync(Technicals, strict)(Schema.encodeSync(Technicals)(t)), t, f)
    }
  })

  it("valuation, screener page and comparison encode", () => {
    const rows = snapshotFigures()
    const v = {
      ...valuation({
        symbol: "LUCK",
        fundamentals: { pe_ttm: 37.9, as_of: "2026-04-08" },
        medians: sectorMedians([{ pe_ttm: 10 }])
      }),
      sources: [source]
    }
    Schema.decodeUnknownSync(Valuation, strict)(Schema.encodeSync(Valuation)(v))
    const page = screen(rows, { sectors: ["CEMENT"], limit: 5 })
    const body = {
      total: page.total,
      next_cursor: page.next_after ?? null,
      items: page.items,
      left_out_unknown: page.left_out_unknown,
      unknown_by_filter: page.unknown_by_filter,
      order: "symbol ascending",
      sources: [source]
    }
    assert.deepStrictEqual(Schema.decodeUnknownSync(ScreenerPage, strict)(Schema.encodeSync(ScreenerPage)(body)), body)
    const c = compare("LUCK,DGKC", (s) => rows.find((r) => r.symbol === s))
    assert.isFalse("reason" in c)
    if (!("reason" in c)) {
      Schema.decodeUnknownSync(Comparison, strict)(
        Schema.encodeSync(Comparison)({ ...c.comparison, sources: [source] })
      )
    }
  })
})

describe("screen figures from series, quote and fundamentals: MEBL, eod series to 2026-05-25", () => {
  const s = loadSeries("MEBL-eod-2025-2026.json")
  const f = screenFigures({
    symbol: "MEBL",
    name: "Meezan Bank Limited",
    sector: "COMMERCIAL BANKS",
    sector_code: "0807",
    security_type: "equity",
    inside_kse100: true,
    series: s,
    fundamentals: {
      pe_ttm: 10.502630513961957,
      market_cap: 934559886574.08,
      shares_outstanding: undefined,
      as_of: "2026-04-08"
    },
    ex_dividend: null
  })
  it("without a quote, price and change come from the last two sessions (490.20 after 479.56)", () => {
    const a = analytics(s)!
    assert.strictEqual(f.price, 490.2)
    assert.strictEqual(f.price_as_of, "2026-05-25")
    assert.closeTo(f.change_pct!, (490.2 / 479.56 - 1) * 100, 1e-4)
    assert.strictEqual(f.value_traded, Math.round(490.2 * s.volume[s.volume.length - 1]! * 100) / 100)
    assert.strictEqual(f.drawdown_20d_pct, a.drawdown_20d_pct)
    assert.strictEqual(f.performance_5d_pct, a.performance_5d_pct)
    assert.strictEqual(f.avg_value_traded_30d, a.liquidity_30d!.avg_value_traded)
    assert.strictEqual(f.avg_volume_30d, a.liquidity_30d!.avg_volume)
    assert.strictEqual(f.volatility_20d_pct, technicals(s)!.volatility_20d!.annualised_pct)
    assert.strictEqual(f.pe_ttm, 10.5026)
    assert.isUndefined(f.free_float_pct)
    assert.isUndefined(f.dividend_yield_pct)
  })
})

describe("research caveats", () => {
  it("SYS to 2022-04-14: the 2022-03-31 step is called out; the range is intraday", () => {
    const s = loadSeries("SYS-as_traded-2021-2022.json", "2022-04-14")
    const caveats = researchCaveats({
      analytics: analytics(s),
      technicals: technicals(s),
      dividendCoverage: "unknown",
      newsCoverage: "unknown"
    })
    const codes = caveats.map((c) => c.code)
    assert.deepStrictEqual(codes, [
      "no_balance_sheet",
      "unadjusted_prices",
      "step_in_window",
      "dividend_coverage_unknown",
      "news_coverage_unknown"
    ])
    assert.include(caveats[2]!.message, "2022-03-31")
    assert.include(caveats[2]!.message, "717.72")
  })

  it("MEBL eod: the close-based 52-week range; a full research package encodes", () => {
    const s = loadSeries("MEBL-eod-2025-2026.json")
    const a = analytics(s)!, t = technicals(s)!
    const caveats = researchCaveats({
      analytics: a,
      technicals: t,
      dividendCoverage: "recorded",
      newsCoverage: "unknown",
      quoteStale: true
    })
    assert.deepStrictEqual(caveats.map((c) => c.code), [
      "no_balance_sheet",
      "unadjusted_prices",
      "close_based_52w_range",
      "quote_stale",
      "news_coverage_unknown"
    ])
    const pkg = {
      symbol: "MEBL",
      generated_at: "2026-05-26T04:00:00.000Z",
      profile: {
        symbol: "MEBL",
        name: "Meezan Bank Limited",
        security_type: "equity",
        listed_in: ["KSE100"],
        inside_kse100: true
      },
      analytics: a,
      technicals: t,
      filings: [],
      news: [],
      caveats,
      sources: [source]
    }
    assert.deepStrictEqual(
      Schema.decodeUnknownSync(ResearchPackage, strict)(Schema.encodeSync(ResearchPackage)(pkg)),
      pkg
    )
  })
})
