/**
 * Per-stock analytics and bonus/split steps against hand computation on
 * recorded series (test/fixtures/series, see its PROVENANCE.md): HUBC as
 * traded to 2023-05-26, SYS as traded around its 2022-03-31 bonus step, MEBL
 * from the exchange's eod series (close only) to 2026-05-25 and around the
 * flagged glitch day 2021-10-25.
 */
import { assert, describe, it } from "@effect/vitest"
import { analytics } from "../../domain/market/analytics/Analytics.ts"
import { adjustCloses, beyondLimit, findSteps, priceLimitPct } from "../../domain/market/prices/PriceSteps.ts"
import { loadSeries } from "../support/SeriesFixture.ts"

const close = (a: number, b: number, dp = 4) => assert.closeTo(a, b, 10 ** -dp)
const pct = (from: number, to: number) => (to / from - 1) * 100

describe("HUBC as traded, last session 2023-05-26", () => {
  const a = analytics(loadSeries("HUBC-as_traded-2022-2023.json"))!

  it("5- and 20-session performance count sessions, not calendar days (Eid 2023-04-21..25 has no rows)", () => {
    // closes: 2023-05-26 67.87; five sessions back 2023-05-19 69.29; twenty back 2023-04-27 71.73
    close(a.performance_5d_pct!, pct(69.29, 67.87))
    close(a.performance_20d_pct!, pct(71.73, 67.87))
    assert.deepStrictEqual(a.reference, {
      previous_close: 67.73,
      previous_close_date: "2023-05-25",
      close_5d_ago: 69.29,
      close_5d_ago_date: "2023-05-19",
      close_20d_ago: 71.73,
      close_20d_ago_date: "2023-04-27"
    })
  })

  it("drawdowns from the highest close of the last 5 and 20 sessions", () => {
    // last 5 closes 68.59, 67.96, 67.55, 67.73, 67.87 → high 68.59 (2023-05-22); last 20: high 73.68 (2023-05-05)
    assert.strictEqual(a.high_5d, 68.59)
    close(a.drawdown_5d_pct!, (1 - 67.87 / 68.59) * 100)
    assert.strictEqual(a.high_20d, 73.68)
    close(a.drawdown_20d_pct!, (1 - 67.87 / 73.68) * 100)
    assert.strictEqual(a.adjusted_for_steps, false)
  })

  it("52-week range on intraday highs and lows (recorded for every session), as recorded", () => {
    assert.deepStrictEqual(a.week52, {
      high: 80.35,
      low: 57.05,
      high_date: "2022-10-10",
      low_date: "2023-01-17",
      from: "2022-05-30",
      to: "2023-05-26",
      sessions: 248,
      basis: "intraday",
      adjusted: false
    })
    // the 2022-10-11 step (79.03 → 64.18) lies inside the 52 weeks and is called out
    assert.deepStrictEqual(a.steps.map((s) => [s.date, s.close_before, s.close_after, s.basis]), [[
      "2022-10-11",
      79.03,
      64.18,
      "detected"
    ]])
  })

  it("30-session liquidity: mean volume, Σ close × volume", () => {
    // independent recomputation over the 30 rows 2023-04-12 .. 2023-05-26
    assert.deepStrictEqual(a.liquidity_30d, {
      sessions: 30,
      days_traded: 30,
      avg_volume: 1178253.27,
      value_traded: 2489326816.96,
      avg_value_traded: 82977560.57
    })
  })
})

describe("SYS as traded around the bonus step of 2022-03-31 (717.72 → 378.87)", () => {
  const s = loadSeries("SYS-as_traded-2021-2022.json", "2022-04-14")

  it("the step is beyond the 7.5% price limit in force then, so it is detected", () => {
    assert.strictEqual(priceLimitPct("2022-03-31"), 7.5)
    assert.strictEqual(priceLimitPct("2024-07-22"), 10)
    assert.isTrue(beyondLimit(717.72, 378.87, "2022-03-31"))
    assert.isFalse(beyondLimit(761.16, 763.98, "2022-03-17"))
    // penny rule: Rs 1 is larger than 7.5% of Rs 3.07
    assert.isFalse(beyondLimit(3.07, 2.1, "2021-12-02"))
  })

  it("a 20-session window holding the step is not a fall: the step day counts 0%", () => {
    const a = analytics(s)!
    // 20 sessions back: 2022-03-16, close 761.16; as recorded that would be −45.95%
    assert.strictEqual(a.reference.close_20d_ago, 761.16)
    close(pct(761.16, 411.38), -45.9536)
    close(a.performance_20d_pct!, pct(761.16 * (378.87 / 717.72), 411.38))
    assert.isAbove(a.performance_20d_pct!, 0)
    // the 20-session high on the adjusted basis is 412.79 (2022-04-11), not 763.98 (2022-03-17)
    assert.strictEqual(a.high_20d, 412.79)
    close(a.drawdown_20d_pct!, (1 - 411.38 / 412.79) * 100)
    assert.isTrue(a.adjusted_for_steps)
    assert.deepStrictEqual(a.steps, [{
      date: "2022-03-31",
      previous_date: "2022-03-30",
      close_before: 717.72,
      close_after: 378.87,
      factor: 378.87 / 717.72,
      basis: "detected"
    }])
    // the 52-week range stays as recorded (unadjusted): the pre-bonus high and the step day's low
    assert.strictEqual(a.week52!.high, 835)
    assert.strictEqual(a.week52!.high_date, "2021-09-09")
    assert.strictEqual(a.week52!.low, 356.36)
  })

  it("SYNTHETIC action: a recorded 100% bonus (ratio 1) on that ex-date adjusts by 1/(1+1)", () => {
    const a = analytics(s, { actions: [{ kind: "bonus", xd_date: "2022-03-31", ratio: 1 }] })!
    close(a.performance_20d_pct!, pct(761.16 * 0.5, 411.38))
    assert.strictEqual(a.steps[0]!.basis, "recorded_action")
    assert.strictEqual(a.steps[0]!.factor, 0.5)
  })

  it("SYNTHETIC closes: adjustCloses multiplies only the rows before each step", () => {
    const dates = ["2022-01-03", "2022-01-04", "2022-01-05", "2022-01-06"], closes = [100, 104, 52, 54]
    const steps = findSteps(dates, closes)
    assert.deepStrictEqual(steps.map((x) => [x.date, x.factor]), [["2022-01-05", 0.5]])
    assert.deepStrictEqual(Array.from(adjustCloses(dates, closes, steps)), [50, 52, 52, 54])
  })

  it("too little history leaves figures out with the reason", () => {
    const a = analytics(loadSeries("SYS-as_traded-2021-2022.json", "2021-03-10"))!
    // 8 sessions 2021-03-01 .. 2021-03-10: five back from 421.79 is 2021-03-03, 492.33
    close(a.performance_5d_pct!, pct(492.33, 421.79))
    assert.isUndefined(a.performance_20d_pct)
    assert.isUndefined(a.liquidity_30d)
    assert.deepInclude(a.unavailable, { figure: "performance_20d_pct", reason: "needs 21 sessions; 8 recorded" })
    assert.deepInclude(a.unavailable, { figure: "liquidity_30d", reason: "needs 30 sessions; 8 recorded" })
  })
})

describe("MEBL from the exchange's eod series (close and volume only)", () => {
  it("52-week range is close-based; last session 2026-05-25", () => {
    const a = analytics(loadSeries("MEBL-eod-2025-2026.json"))!
    assert.deepStrictEqual(a.week52, {
      high: 519.04,
      low: 289.27,
      high_date: "2026-04-08",
      low_date: "2025-05-27",
      from: "2025-05-27",
      to: "2026-05-25",
      sessions: 251,
      basis: "close",
      adjusted: false
    })
    close(a.performance_5d_pct!, pct(464.83, 490.2))
    close(a.performance_20d_pct!, pct(494.48, 490.2))
    assert.strictEqual(a.drawdown_5d_pct, 0)
  })

  it("a newer quote is the last price: the 2026-05-25 close given as a quote over the series to 2026-05-22 gives the same windows", () => {
    const full = analytics(loadSeries("MEBL-eod-2025-2026.json"))!
    const a = analytics(loadSeries("MEBL-eod-2025-2026.json", "2026-05-22"), {
      quote: { price: 490.2, previous_close: 479.56, as_of: "2026-05-25T10:30:00.000Z" }
    })!
    assert.strictEqual(a.last_price_basis, "quote")
    assert.strictEqual(a.as_of, "2026-05-25")
    for (
      const k of [
        "performance_5d_pct",
        "performance_20d_pct",
        "drawdown_5d_pct",
        "drawdown_20d_pct",
        "high_20d"
      ] as const
    ) {
      assert.strictEqual(a[k], full[k], k)
    }
    assert.strictEqual(a.reference.previous_close, 479.56)
  })

  it("an older quote does not replace the last recorded close", () => {
    const a = analytics(loadSeries("MEBL-eod-2025-2026.json"), {
      quote: { price: 1, as_of: "2026-04-08T10:05:00.000Z" }
    })!
    assert.strictEqual(a.last_price, 490.2)
    assert.strictEqual(a.last_price_basis, "close")
  })

  it("the flagged glitch row of 2021-10-25 is left out of every window", () => {
    const a = analytics(loadSeries("MEBL-eod-2021.json", "2021-10-29"))!
    // clean sessions back from 2021-10-29: 10-28, 10-27, 10-26, 10-22 (10-25 skipped), 10-21
    assert.strictEqual(a.reference.close_5d_ago_date, "2021-10-21")
    close(a.performance_5d_pct!, pct(138.91, 133.27))
    // 5-session high among 137.01, 136.01, 136.79, 136.08, 133.27 (not the flagged 133.44)
    assert.strictEqual(a.high_5d, 137.01)
    close(a.drawdown_5d_pct!, (1 - 133.27 / 137.01) * 100)
    // the 2021-09-09 step (154.63 → 136.46) is in the 52 weeks but not in the 20-session window
    assert.strictEqual(a.adjusted_for_steps, false)
    assert.deepStrictEqual(a.steps.map((s) => s.date), ["2021-09-09"])
  })
})
