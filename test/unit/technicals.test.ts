/**
 * Technicals as state labels against an independent recomputation on
 * recorded series (test/fixtures/series): HUBC as traded to 2023-05-26, SYS
 * as traded to 2022-04-14 (its 2022-03-31 bonus step inside every window),
 * MEBL from the eod series to 2026-05-25 (no highs or lows) and to
 * 2021-10-29 (61 clean sessions: too short for SMA 200).
 *
 * The expected values are derived below (`reference`), written from the
 * formulas in `domain/market/analytics/Technicals.ts`'s header and sharing no code
 * with it: the last 250 clean sessions (no flag, a positive close), closes
 * before each step multiplied by its factor (the observed close ratio of a
 * detected step, 1/(1+r) for a recorded bonus r; the steps themselves are
 * asserted by date), SMA, Wilder RSI(14), MACD(12,26,9) with SMA-seeded EMAs,
 * Bollinger(20,2) with population σ, sample σ of 20 log returns × √250.
 * The rounded literals beside them are the figures first computed for this
 * test by a script outside the repository; the reference reproduces them.
 * Pivots are checked by hand below.
 */
import { assert, describe, it } from "@effect/vitest"
import type { TechnicalsFigures } from "../../domain/market/analytics/AnalyticsSchemas.ts"
import { rsi, sma, technicals } from "../../domain/market/analytics/Technicals.ts"
import type { PriceSeries } from "../../domain/market/snapshot/Series.ts"
import { loadSeries } from "../support/SeriesFixture.ts"

const close = (a: number, b: number, eps = 1e-3) => assert.closeTo(a, b, eps)

const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
const last = <A>(xs: ReadonlyArray<A>, n: number) => xs.slice(xs.length - n)

/** EMA_n over `xs`, seeded by the mean of the first n: one value per x from the n-th on. */
const emaSeries = (xs: ReadonlyArray<number>, n: number) => {
  const alpha = 2 / (n + 1)
  const out = [mean(xs.slice(0, n))]
  for (const x of xs.slice(n)) out.push(alpha * x + (1 - alpha) * out[out.length - 1]!)
  return out
}

/** Every figure of the header's formulas, from the series and its steps (`factor` multiplies the closes before `date`). */
const reference = (s: PriceSeries, steps: ReadonlyArray<{ readonly date: string; readonly factor: number }>) => {
  const rows = s.dates.map((date, i) => ({ date, c: s.close[i]!, flag: s.flag[i] }))
    .filter((r) => r.flag === undefined && r.c > 0)
    .slice(-250)
  const c = rows.map((r) => steps.filter((st) => st.date > r.date).reduce((x, st) => x * st.factor, r.c))
  const changes = c.slice(1).map((x, i) => x - c[i]!)
  let gain = mean(changes.slice(0, 14).map((d) => Math.max(d, 0)))
  let loss = mean(changes.slice(0, 14).map((d) => Math.max(-d, 0)))
  for (const d of changes.slice(14)) {
    gain = (gain * 13 + Math.max(d, 0)) / 14
    loss = (loss * 13 + Math.max(-d, 0)) / 14
  }
  const ema12 = emaSeries(c, 12), ema26 = emaSeries(c, 26)
  const macdLine = ema26.map((e26, i) => ema12[i + 14]! - e26)
  const signal = emaSeries(macdLine, 9)
  const mid = mean(last(c, 20))
  const sd = Math.sqrt(mean(last(c, 20).map((x) => (x - mid) ** 2)))
  const returns = last(c, 21).slice(1).map((x, i) => Math.log(x / last(c, 21)[i]!))
  const rm = mean(returns)
  const price = c[c.length - 1]!
  return {
    sessions: c.length,
    sma20: mean(last(c, 20)),
    sma50: c.length >= 50 ? mean(last(c, 50)) : undefined,
    sma200: c.length >= 200 ? mean(last(c, 200)) : undefined,
    rsi14: loss === 0 ? 100 : 100 - 100 / (1 + gain / loss),
    macd: macdLine[macdLine.length - 1]!,
    signal: signal[signal.length - 1]!,
    upper: mid + 2 * sd,
    lower: mid - 2 * sd,
    percentB: (price - (mid - 2 * sd)) / (4 * sd),
    volatilityPct: Math.sqrt(returns.reduce((a, r) => a + (r - rm) ** 2, 0) / 19) * Math.sqrt(250) * 100
  }
}

/** The observed close ratio across a detected step: the first clean close on `date` over the one before it. */
const observedStep = (s: PriceSeries, date: string) => {
  const i = s.dates.indexOf(date)
  return { date, factor: s.close[i]! / s.close[i - 1]! }
}

type Reference = ReturnType<typeof reference>

/** The service's figures against the reference: every figure (SMA 200 absent when the reference has none). */
const assertMatchesReference = (t: TechnicalsFigures, r: Reference) => {
  close(t.sma_20!.value, r.sma20)
  close(t.sma_50!.value, r.sma50!)
  if (r.sma200 === undefined) assert.isUndefined(t.sma_200)
  else close(t.sma_200!.value, r.sma200)
  close(t.rsi_14!.value, r.rsi14, 0.01)
  close(t.macd!.macd, r.macd)
  close(t.macd!.signal, r.signal)
  close(t.macd!.histogram, r.macd - r.signal)
  close(t.bollinger!.upper, r.upper)
  close(t.bollinger!.lower, r.lower)
  close(t.bollinger!.percent_b, r.percentB)
  close(t.volatility_20d!.annualised_pct, r.volatilityPct, 0.01)
}

/** The figures first computed outside the repository (rounded as published; RSI and volatility to 0.01). */
const assertReproduces = (r: Reference, published: Partial<Record<Exclude<keyof Reference, "sessions">, number>>) => {
  for (const [figure, value] of Object.entries(published)) {
    const eps = figure === "rsi14" || figure === "volatilityPct" ? 0.01 : 1e-3
    close(r[figure as keyof Reference]!, value, eps)
  }
}

describe("HUBC as traded, 2023-05-26", () => {
  const s = loadSeries("HUBC-as_traded-2022-2023.json")
  const t = technicals(s)!
  // The 2022-10-11 step, detected (asserted below): 64.18 / 79.03.
  const r = reference(s, [observedStep(s, "2022-10-11")])

  it("the reference reproduces the figures first computed outside the repository", () =>
    assertReproduces(r, {
      sma20: 70.188,
      sma50: 69.3224,
      sma200: 64.25503,
      rsi14: 39.1523,
      macd: -0.48870,
      signal: -0.06825,
      upper: 73.43687,
      lower: 66.93913,
      percentB: 0.14326,
      volatilityPct: 19.9695
    }))

  it("moving averages, RSI, MACD, Bollinger and volatility with their labels", () => {
    assertMatchesReference(t, r)
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
  // The 2022-03-31 step, detected: 378.87 / 717.72.
  const r = reference(s, [observedStep(s, "2022-03-31")])

  it("the reference reproduces the figures first computed outside the repository", () =>
    assertReproduces(r, {
      sma20: 386.81526,
      sma50: 370.74905,
      sma200: 376.67343,
      rsi14: 68.7661,
      macd: 10.37031,
      signal: 6.88781,
      volatilityPct: 31.8419
    }))

  it("on the step-adjusted basis the price is above its averages and RSI is not oversold", () => {
    assert.deepStrictEqual(t.steps.map((x) => [x.date, x.basis]), [["2022-03-31", "detected"]])
    assertMatchesReference(t, r)
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
    const r = technicals(s, [{ kind: "bonus", xd_date: "2022-03-31", ratio: 1 }])!
    // A 100% bonus: closes before the ex-date × 1/(1+1).
    const expected = reference(s, [{ date: "2022-03-31", factor: 0.5 }])
    assertReproduces(expected, { sma20: 377.769, rsi14: 72.6073 })
    assertMatchesReference(r, expected)
    assert.include(r.labels, "rsi_overbought")
    assert.deepStrictEqual(r.steps.map((x) => [x.date, x.factor, x.basis, x.kind]), [[
      "2022-03-31",
      0.5,
      "recorded_action",
      "bonus"
    ]])
  })
})

describe("MEBL from the eod series", () => {
  it("2026-05-25: values, and no pivots without highs and lows (reason given)", () => {
    const s = loadSeries("MEBL-eod-2025-2026.json")
    const t = technicals(s)!
    // No step in the window (asserted below): closes as recorded.
    const r = reference(s, [])
    assertReproduces(r, {
      sma20: 484.1495,
      sma200: 450.13225,
      rsi14: 55.1506,
      percentB: 0.66938,
      volatilityPct: 21.0292
    })
    close(r.macd - r.signal, -0.39468)
    assertMatchesReference(t, r)
    assert.isUndefined(t.pivots)
    assert.deepStrictEqual(t.unavailable, [{
      figure: "pivots",
      reason: "no intraday high and low recorded for 2026-05-25 (eod series)"
    }])
    assert.isFalse(t.adjusted_for_steps)
  })

  it("2021-10-29: 61 clean sessions (the flagged 2021-10-25 left out), too short for SMA 200", () => {
    const s = loadSeries("MEBL-eod-2021.json", "2021-10-29")
    const t = technicals(s)!
    // The 2021-09-09 step, detected: 136.46 / 154.63 (inside the 61 sessions, older than the last 20).
    assert.deepStrictEqual(t.steps.map((x) => [x.date, x.basis]), [["2021-09-09", "detected"]])
    const r = reference(s, [observedStep(s, "2021-09-09")])
    assert.strictEqual(r.sessions, 61)
    assert.isUndefined(t.sma_200)
    assert.deepInclude(t.unavailable, { figure: "sma_200", reason: "needs 200 sessions; 61 recorded" })
    assertReproduces(r, { sma20: 138.52, percentB: -0.24373 })
    assertMatchesReference(t, r)
    assert.include(t.labels, "bollinger_below_lower")
  })
})
