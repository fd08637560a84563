/**
 * The performance chart's adapter (src/web/assets/performance-adapter.js),
 * run under Node: the server's daily valuation and the page's own series
 * come out in the one shape the chart draws; the cumulative time-weighted
 * return takes external cash out and net dividends in; KSE-100 is rebased
 * to the first day and carried over days it has no close. Figures from the
 * recordings, worked by hand below.
 */
import { assert, describe, it } from "@effect/vitest"
// @ts-expect-error: a browser script, type-checked by the website's own tsconfig (src/web/assets), without declarations here
import { cumulativeReturn, fromBrowser, fromServer, rebasedBenchmark } from "../src/web/assets/performance-adapter.js"

describe("performance adapter", () => {
  it("reads the server's daily valuation and period returns; absent figures stay absent", () => {
    const perf = fromServer({
      daily: [
        { date: "2025-05-26", value: 20895, cost: 20895, flows: 20895, dividends: 0, flags: [] },
        { date: "2025-05-27", value: 20941, cost: 20895, flows: 0, dividends: 0, flags: ["carried"] },
        { date: "2025-05-28", cost: 20895 }
      ],
      periods: [{ period: "1Y", from: "2025-05-26", to: "2026-05-25", twr_pct: 57.96, xirr_pct: 58.1, total_return_pct: 57.96, kse100_change_pct: 45.26, difference_pct: 12.7 }]
    })
    assert.deepStrictEqual(perf.dates, ["2025-05-26", "2025-05-27", "2025-05-28"])
    assert.deepStrictEqual(perf.value, [20895, 20941, null])
    assert.deepStrictEqual(perf.flags, [[], ["carried"], []])
    assert.deepStrictEqual(perf.periods[0], { period: "1Y", from: "2025-05-26", to: "2026-05-25", twr: 57.96, xirr: 58.1, totalReturn: 57.96, benchmark: 45.26, difference: 12.7, coversWholePeriod: undefined })
    assert.strictEqual(perf.source, "server")
  })

  it("chains each day's growth with the external cash taken out: 100 OGDC from 208.95 to 330.05 is +57.96%", () => {
    // Day 1: buy 100 OGDC at the 2025-05-26 close, 208.95: value 20,895, flow in 20,895.
    // Day 2: a second buy of 100 at 209.41 (the 2025-05-27 close): value 200 × 209.41 = 41,882, flow in 20,941;
    //   growth (41,882 − 20,941) / 20,895 = 1.0022015 (+0.22%).
    // Day 3: 200 at 330.05 (the 2026-05-25 close) = 66,010, no flow: 66,010 / 41,882 = 1.5760947;
    //   chained 1.0022015 × 1.5760947 = 1.5795645: +57.96%, as 330.05 / 208.95 = 1.5795645.
    const perf = fromServer({
      daily: [
        { date: "2025-05-26", value: 20895, cost: 20895, flows: 20895 },
        { date: "2025-05-27", value: 41882, cost: 41836, flows: 20941 },
        { date: "2026-05-25", value: 66010, cost: 41836, flows: 0 }
      ]
    })
    assert.deepStrictEqual(cumulativeReturn(perf), [0, 0.22, 57.96])
  })

  it("counts net dividends received as return and breaks the line at an unknown value", () => {
    // 10,000 → 9,900 with 200 received: (9,900 + 200) / 10,000 = +1.00%; then unknown; then known after unknown.
    const perf = fromServer({
      daily: [
        { date: "2026-01-01", value: 10000 },
        { date: "2026-01-02", value: 9900, dividends: 200 },
        { date: "2026-01-05" },
        { date: "2026-01-06", value: 9950 }
      ]
    })
    assert.deepStrictEqual(cumulativeReturn(perf), [0, 1, null, null])
  })

  it("rebases KSE-100 to the first day and carries its last close over a day without one", () => {
    // 118,221.12 on 26 May 2025 → 171,725.29 on 25 May 2026: 171725.29 / 118221.12 = 1.452580 (+45.26%).
    const kse = [
      { date: "2026-05-25", close: 171725.29 },
      { date: "2025-05-27", close: 118332.9 },
      { date: "2025-05-26", close: 118221.12 }
    ]
    // 118,332.90 / 118,221.12 = 1.000946 (+0.09%); 28 May has no close: 27 May's is carried.
    assert.deepStrictEqual(rebasedBenchmark(["2025-05-26", "2025-05-27", "2025-05-28", "2026-05-25"], kse), [0, 0.09, 0.09, 45.26])
    assert.deepStrictEqual(rebasedBenchmark(["2025-05-25", "2025-05-26"], kse), [null, 0], "no close on or before the first day: unknown, never 0")
  })

  it("puts the page's own series and /v1/me/analyze's periods in the same shape", () => {
    const perf = fromBrowser(
      { dates: ["2026-03-19", "2026-03-20"], value: [1000, null], cost: [900, 900], flows: [900, 0], bonusUnknown: true },
      { returns: { periods: [{ period: "since_inception", from: "2026-03-19", to: "2026-03-20", return_pct: 1.5, covers_whole_period: true }] } }
    )
    assert.deepStrictEqual(perf.periods, [{ period: "since inception", from: "2026-03-19", to: "2026-03-20", twr: 1.5, coversWholePeriod: true }])
    assert.deepStrictEqual(perf.dividends, [0, 0])
    assert.strictEqual(perf.notes.length, 1)
    assert.strictEqual(perf.source, "browser")
  })
})
