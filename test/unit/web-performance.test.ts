/**
 * The performance chart's adapter (src/web/assets/performance-adapter.js),
 * run under Node: the server's answer (GET /v1/me/performance) in the shape
 * the chart and cards draw, returns in percent and absent figures absent;
 * the return line chained as the server chains its time-weighted return
 * (money in at the start of its day, money out at its end, net dividends
 * in); KSE-100 rebased to a period's first close and carried over a day
 * without one; flagged days grouped; the last session's change. Figures
 * from the recordings, worked by hand below.
 */
import { assert, describe, it } from "@effect/vitest"
// A browser script, type-checked by the website's own tsconfig (src/web/assets), without declarations here.
// dprint-ignore
// @ts-expect-error: no declarations for a browser script
import { benchmarkLine, dayChange, flaggedDays, fromServer, returnLine, startOf } from "../../src/web/assets/performance-adapter.js"

type Day = {
  date: string
  value?: number
  cost?: number
  net_flow?: number
  dividends?: number
  kse100?: number
  flags?: Array<string>
}

/** An answer with only what a case needs; the rest as the route always sends it. */
const answer = (days: Array<Day>, periods: Array<Record<string, unknown>> = []) => ({
  portfolio: "portfolio-x",
  basis: "as the route states it",
  benchmark: { index: "KSE-100", kind: "price index", note: "KSE-100 is a price index" },
  sources: [],
  periods: periods.map((p) => ({
    contributions: [],
    cash_in: 0,
    cash_out: 0,
    dividends: 0,
    from_inception: false,
    covers_whole_period: true,
    ...p
  })),
  days: days.map((d) => ({ cost: 0, net_flow: 0, dividends: 0, ...d }))
})

describe("performance adapter", () => {
  it("reads the server's rows and periods: returns in percent, an absent value or close null, never 0", () => {
    const perf = fromServer(answer(
      [
        { date: "2025-05-26", value: 20895, cost: 20895, net_flow: 20895, kse100: 118221.12 },
        { date: "2025-05-27", value: 20941, cost: 20895, kse100: 118332.9, flags: ["carried:OGDC"] },
        { date: "2025-05-28", cost: 20895, flags: ["no_close:XYZ"] }
      ],
      [{
        period: "since_inception",
        from: "2025-05-26",
        to: "2025-05-28",
        from_inception: true,
        twr: 0.410382,
        xirr: 0.349281,
        mwr: 0.348174,
        total_return: 0.149287,
        gain: 50501.43,
        kse100: { from: "2025-05-26", to: "2025-05-28", from_close: 1, to_close: 2, change: 0.452577 },
        difference: -0.042195
      }]
    ))
    assert.deepStrictEqual(perf.dates, ["2025-05-26", "2025-05-27", "2025-05-28"])
    assert.deepStrictEqual(perf.value, [20895, 20941, null])
    assert.deepStrictEqual(perf.kse100, [118221.12, 118332.9, null])
    assert.deepStrictEqual(perf.netFlow, [20895, 0, 0])
    assert.deepStrictEqual(perf.flags, [[], ["carried:OGDC"], ["no_close:XYZ"]])
    const p = perf.periods[0]
    // 0.410382 is 41.0382%; −0.042195 is −4.2195%.
    assert.deepStrictEqual([p.twr, p.xirr, p.mwr, p.totalReturn, p.kse100, p.difference, p.fromInception], [
      41.0382,
      34.9281,
      34.8174,
      14.9287,
      45.2577,
      -4.2195,
      true
    ])
    assert.strictEqual(perf.benchmarkNote, "KSE-100 is a price index")
  })

  it("chains from inception as the server does: 100 OGDC from 208.95 to 330.05 is +57.96%", () => {
    // Day 1: 100 OGDC bought at the 2025-05-26 close, 208.95: 20,895 in at the start of the day, worth 20,895: 0%.
    // Day 2: 100 × 209.41 (2025-05-27) = 20,941: 20,941 / 20,895 = 1.0022015 (+0.22%).
    // 2026-05-25: 100 × 330.05 = 33,005: 33,005 / 20,895 = 1.5795645 (+57.96%).
    const perf = fromServer(answer([
      { date: "2025-05-26", value: 20895, net_flow: 20895 },
      { date: "2025-05-27", value: 20941 },
      { date: "2026-05-25", value: 33005 }
    ]))
    assert.deepStrictEqual(returnLine(perf, 0, true), [0, 0.22, 57.96])
    // From the close of 2025-05-27 instead: 0 there, then 33,005 / 20,941 = 1.5760947 (+57.61%).
    assert.deepStrictEqual(returnLine(perf, 1, false), [0, 57.61])
  })

  it("takes money in at the start of its day and out at its end, and counts net dividends", () => {
    // 10,000 in on day 1, worth 10,000 (0%). Day 2: half sold at +1% for 5,050 out at the day's end, the other half
    // worth 5,050: (5,050 + 5,050) / 10,000 = 1.01 (+1%), never a −50% day. Day 3: 5,050 → 4,900 with 200 of net
    // dividends: (4,900 + 200) / 5,050 = 1.0099010, chained 1.01 × 1.0099010 = 1.02 (+2%). Day 4: 1,000 more in at
    // the start, worth 5,900: 5,900 / (4,900 + 1,000) = 1 (still +2%).
    const perf = fromServer(answer([
      { date: "2026-01-01", value: 10000, net_flow: 10000 },
      { date: "2026-01-02", value: 5050, net_flow: -5050 },
      { date: "2026-01-05", value: 4900, dividends: 200 },
      { date: "2026-01-06", value: 5900, net_flow: 1000 }
    ]))
    assert.deepStrictEqual(returnLine(perf, 0, true), [0, 1, 2, 2])
  })

  it("is unknown from an unknown value on: a return across it cannot be known", () => {
    const perf = fromServer(answer([
      { date: "2026-01-01", value: 10000, net_flow: 10000 },
      { date: "2026-01-02", value: 10100 },
      { date: "2026-01-05" },
      { date: "2026-01-06", value: 9950 }
    ]))
    assert.deepStrictEqual(returnLine(perf, 0, true), [0, 1, null, null])
    assert.deepStrictEqual(returnLine(perf, 2, false), [null, null], "no value at the start: unknown, never 0")
  })

  it("rebases KSE-100 to a period's first close and carries its last close over a day without one", () => {
    // 118,221.12 (2025-05-26), 118,332.90 (05-27), no close 05-28, 171,725.29 (2026-05-25).
    // 118,332.90 / 118,221.12 = 1.0009455 (+0.09%), carried on 05-28; 171,725.29 / 118,221.12 = 1.4525770 (+45.26%).
    const perf = fromServer(answer([
      { date: "2025-05-26", kse100: 118221.12 },
      { date: "2025-05-27", kse100: 118332.9 },
      { date: "2025-05-28" },
      { date: "2026-05-25", kse100: 171725.29 }
    ]))
    assert.deepStrictEqual(benchmarkLine(perf, 0), [0, 0.09, 0.09, 45.26])
    // From 05-28, which has none: the last close before it (05-27's): 171,725.29 / 118,332.90 = 1.4512049 (+45.12%).
    assert.deepStrictEqual(benchmarkLine(perf, 2), [0, 45.12])
    const none = fromServer(answer([{ date: "2025-05-25" }, { date: "2025-05-26", kse100: 118221.12 }]))
    assert.deepStrictEqual(benchmarkLine(none, 0), [null, null], "no close at or before the start: unknown, never 0")
  })

  it("finds a period's first session, groups flagged days by symbol and kind, and works out the last session's change", () => {
    // BUXL and OGDC (eod): 05-20 4,700.40, 05-21 4,773.40, 05-22 4,750.30 (BUXL carried), 05-25 4,931.50.
    const days: Array<Day> = [
      { date: "2026-05-20", value: 4700.4, net_flow: 4700.4 },
      { date: "2026-05-21", value: 4773.4 },
      { date: "2026-05-22", value: 4750.3, flags: ["carried:BUXL", "restated:SYS"] },
      { date: "2026-05-25", value: 4931.5, flags: ["restated:SYS"] }
    ]
    const perf = fromServer(answer(days))
    assert.strictEqual(startOf(perf, { from: "2026-05-21" }), 1)
    assert.strictEqual(startOf(perf, { from: "2026-05-23" }), 3, "a weekend: the next session")
    assert.deepStrictEqual(flaggedDays(perf), [
      { kind: "carried", symbol: "BUXL", dates: ["2026-05-22"] },
      { kind: "restated", symbol: "SYS", dates: ["2026-05-22", "2026-05-25"] }
    ])
    // 4,931.50 − 4,750.30 = +181.20; 181.20 / 4,750.30 = +3.81%.
    assert.deepStrictEqual(dayChange(perf), { rupees: 181.2, pct: 3.81, date: "2026-05-25", previous: "2026-05-22" })
    // With 1,000 put in and 50 of net dividends that day: 5,931.50 + 50 − 4,750.30 − 1,000 = +231.20,
    // over 4,750.30 + 1,000 = 5,750.30: +4.02%.
    const withFlow = fromServer(
      answer([...days.slice(0, 3), { date: "2026-05-25", value: 5931.5, net_flow: 1000, dividends: 50 }])
    )
    assert.deepStrictEqual(dayChange(withFlow), {
      rupees: 231.2,
      pct: 4.02,
      date: "2026-05-25",
      previous: "2026-05-22"
    })
    assert.strictEqual(dayChange(fromServer(answer([days[0]!]))), undefined, "one session: no change to tell")
  })
})
