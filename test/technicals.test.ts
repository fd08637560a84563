/**
 * Technicals as state labels against an independent recomputation on
 * recorded series (test/fixtures/series): HUBC as traded to 2023-05-26, SYS
 * as traded to 2022-04-14 (its 2022-03-31 bonus step inside every window),
 * MEBL from the eod series to 2026-05-25 (no highs or lows) and to
 * 2021-10-29 (61 clean sessions: too short for SMA 200).
 *
 * The expected values were recomputed outside this code base (a plain
 * Python script written from the formulas in `domain/market/Technicals.ts`'s
 * header: step detection at the price limit, step-adjusted closes over the
 * last 250 clean sessions, SMA, Wilder RSI(14), MACD(12,26,9) with SMA-seeded
 * EMAs, Bollinger(20,2) with population σ, sample σ of 20 log returns ×
 * √250); pivots are checked by hand below.
 */
import { assert, describe, it } from "@effect/vitest"
import { rsi, sma, technicals } from "../domain/market/Technicals.ts"
import { loadSeries } from "./support/SeriesFixture.ts"

const close = (a: number, b: number, eps = 1e-3) => assert.closeTo(a, b, eps)

describe("HUBC as traded, 2023-05-26", () => {
  const t = technicals(loadSeries("HUBC-as_traded-2022-2023.json"))!

  it("moving averages, RSI, MACD, Bollinger and volatility with their labels", () => {
    close(t.sma_20!.value, 70.188)
    close(t.sma_50!.value, 69.3224)
    close(t.sma_200!.value, 64.25503)
    close(t.rsi_14!.value, 39.1523, 0.01)
    close(t.macd!.macd, -0.48870)
    close(t.macd!.signal, -0.06825)
    close(t.macd!.histogram, -0.42045)
    close(t.bollinger!.upper, 73.43687)
    close(t.bollinger!.lower, 66.93913)
    close(t.bollinger!.percent_b, 0.14326)
    close(t.volatility_20d!.annualised_pct, 19.9695, 0.01)
    assert.deepStrictEqual(t.labels, [
      "below_sma20",
      "below_sma50",
      "above_sma200",
      "rsi_neutral",
      "macd_below_signal",
      "bollinger_lower_half",
      "volatility_low",
      "step_in_window"
    ])
    assert.notInclude(t.labels.join(" "), "buy")
    assert.notInclude(t.labels.join(" "), "sell")
  })

  it("classic pivots of the last session: H 68.33, L 67.40, C 67.87", () => {
    const p = (68.33 + 67.4 + 67.87) / 3
    const pv = t.pivots!
    assert.strictEqual(pv.session_date, "2023-05-26")
    close(pv.pivot, p, 1e-4)
    close(pv.r1, 2 * p - 67.4, 1e-4)
    close(pv.s1, 2 * p - 68.33, 1e-4)
    close(pv.r2, p + (68.33 - 67.4), 1e-4)
    close(pv.s2, p - (68.33 - 67.4), 1e-4)
    close(pv.r3, 68.33 + 2 * (p - 67.4), 1e-4)
    close(pv.s3, 67.4 - 2 * (68.33 - p), 1e-4)
  })

  it("the 2022-10-11 step (79.03 → 64.18) inside the 250-session lookback is flagged", () => {
    assert.isTrue(t.adjusted_for_steps)
    assert.deepStrictEqual(t.steps.map((s) => [s.date, s.basis]), [["2022-10-11", "detected"]])
  })
})

describe("SYS as traded, 2022-04-14: the bonus step of 2022-03-31 is not a fall", () => {
  const s = loadSeries("SYS-as_traded-2021-2022.json", "2022-04-14")
  const t = technicals(s)!

  it("on the step-adjusted basis the price is above its averages and RSI is not oversold", () => {
    close(t.sma_20!.value, 386.81526)
    close(t.sma_50!.value, 370.74905)
    close(t.sma_200!.value, 376.67343)
    close(t.rsi_14!.value, 68.7661, 0.01)
    close(t.macd!.macd, 10.37031)
    close(t.macd!.signal, 6.88781)
    close(t.volatility_20d!.annualised_pct, 31.8419, 0.01)
    assert.deepStrictEqual(t.labels, [
      "above_sma20",
      "above_sma50",
      "above_sma200",
      "rsi_neutral",
      "macd_above_signal",
      "bollinger_upper_half",
      "volatility_normal",
      "step_in_window"
    ])
  })

  it("on raw closes the same window would read as a crash (what the adjustment prevents)", () => {
    const raw = Array.from(s.close.slice(-250))
    assert.isBelow(raw[raw.length - 1]!, sma(raw, 200)!)
    // the raw 2022-03-31 change alone is −47%: the annualised σ of raw returns would be far above 45%
    assert.isAbove(Math.abs(Math.log(378.87 / 717.72)) * Math.sqrt(250) * 100 / Math.sqrt(20), 45)
    assert.isBelow(rsi(raw.slice(-20))!, 50)
  })

  it("SYNTHETIC action: with a recorded 100% bonus the adjustment uses 1/(1+1)", () => {
    const r = technicals(s, [{ kind: "bonus", ex_date: "2022-03-31", ratio: 1 }])!
    close(r.sma_20!.value, 377.769)
    close(r.rsi_14!.value, 72.6073, 0.01)
    assert.include(r.labels, "rsi_overbought")
    assert.deepStrictEqual(r.steps.map((x) => [x.date, x.factor, x.basis, x.kind]), [["2022-03-31", 0.5, "recorded_action", "bonus"]])
  })
})

describe("MEBL from the eod series", () => {
  it("2026-05-25: values, and no pivots without highs and lows (reason given)", () => {
    const t = technicals(loadSeries("MEBL-eod-2025-2026.json"))!
    close(t.sma_20!.value, 484.1495)
    close(t.sma_200!.value, 450.13225)
    close(t.rsi_14!.value, 55.1506, 0.01)
    close(t.macd!.histogram, -0.39468)
    close(t.bollinger!.percent_b, 0.66938)
    close(t.volatility_20d!.annualised_pct, 21.0292, 0.01)
    assert.isUndefined(t.pivots)
    assert.deepStrictEqual(t.unavailable, [{ figure: "pivots", reason: "no intraday high and low recorded for 2026-05-25 (eod series)" }])
    assert.isFalse(t.adjusted_for_steps)
  })

  it("2021-10-29: 61 clean sessions (the flagged 2021-10-25 left out), too short for SMA 200", () => {
    const t = technicals(loadSeries("MEBL-eod-2021.json", "2021-10-29"))!
    assert.isUndefined(t.sma_200)
    assert.deepInclude(t.unavailable, { figure: "sma_200", reason: "needs 200 sessions; 61 recorded" })
    close(t.sma_20!.value, 138.52)
    close(t.bollinger!.percent_b, -0.24373)
    assert.include(t.labels, "bollinger_below_lower")
  })
})
