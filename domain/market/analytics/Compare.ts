/**
 * Side-by-side comparison (SPEC 2.3 "Comparison", 4.4 `/v1/compare`) of 2 to
 * COMPARE_MAX_SYMBOLS (10) symbols over the measures of `MEASURES`, each
 * with its better direction and five bands from each symbol's
 * `ScreenFigures`. An empty, malformed, repeated or unknown symbol is a
 * typed failure (`CompareFailure`), answered 400 or 404.
 */
import { defined } from "../../Objects.ts"
import type { ComparisonFigures, ScreenFigures } from "./AnalyticsSchemas.ts"
import type { NumericFigure } from "./Screener.ts"

export const COMPARE_MIN_SYMBOLS = 2
export const COMPARE_MAX_SYMBOLS = 10

type Better = "higher" | "lower"
interface Measure {
  readonly measure: NumericFigure
  readonly better: Better
  /** Four ascending edges splitting values into five bands. */
  readonly edges: readonly [number, number, number, number]
  readonly text: string
}

const bn = 1e9, m = 1e6
export const MEASURES: ReadonlyArray<Measure> = [
  {
    measure: "performance_20d_pct",
    better: "higher",
    edges: [-10, -3, 3, 10],
    text: "< -10 | -10..-3 | -3..3 | 3..10 | >= 10 (percent)"
  },
  {
    measure: "drawdown_20d_pct",
    better: "lower",
    edges: [3, 7, 12, 20],
    text: ">= 20 | 12..20 | 7..12 | 3..7 | < 3 (percent)"
  },
  {
    measure: "volatility_20d_pct",
    better: "lower",
    edges: [15, 25, 40, 60],
    text: ">= 60 | 40..60 | 25..40 | 15..25 | < 15 (annualised percent)"
  },
  { measure: "pe_ttm", better: "lower", edges: [8, 12, 18, 30], text: ">= 30 | 18..30 | 12..18 | 8..12 | < 8" },
  {
    measure: "dividend_yield_pct",
    better: "higher",
    edges: [1, 3, 6, 10],
    text: "< 1 | 1..3 | 3..6 | 6..10 | >= 10 (percent)"
  },
  {
    measure: "market_cap",
    better: "higher",
    edges: [1 * bn, 5 * bn, 25 * bn, 100 * bn],
    text: "< 1bn | 1..5bn | 5..25bn | 25..100bn | >= 100bn (rupees)"
  },
  {
    measure: "avg_value_traded_30d",
    better: "higher",
    edges: [1 * m, 20 * m, 100 * m, 500 * m],
    text: "< 1m | 1..20m | 20..100m | 100..500m | >= 500m (rupees per session)"
  }
]

/** Band 0 (weakest) to 4 (strongest) of a value. */
export const band = (ms: Measure, v: number): number => {
  const [a, b, c, d] = ms.edges
  if (ms.better === "higher") return v >= d ? 4 : v >= c ? 3 : v >= b ? 2 : v >= a ? 1 : 0
  return v < a ? 4 : v < b ? 3 : v < c ? 2 : v < d ? 1 : 0
}

export type CompareFailure = {
  readonly reason: "too_few" | "too_many" | "invalid_symbol" | "duplicate_symbol" | "unknown_symbol"
  readonly message: string
  readonly symbol?: string
}

const TICKER = /^[A-Z0-9][A-Z0-9.\-]{0,14}$/u

/** The requested symbols, upper-cased, in the order given; or why they cannot be compared. */
export const parseCompareSymbols = (raw: string): { readonly symbols: ReadonlyArray<string> } | CompareFailure => {
  const symbols = raw.split(",").map((s) => s.trim().toUpperCase())
  const seen = new Set<string>()
  for (const s of symbols) {
    if (!TICKER.test(s)) return { reason: "invalid_symbol", message: `"${s}" is not a ticker`, symbol: s }
    if (seen.has(s)) return { reason: "duplicate_symbol", message: `${s} is listed twice`, symbol: s }
    seen.add(s)
  }
  if (symbols.length < COMPARE_MIN_SYMBOLS) {
    return { reason: "too_few", message: `compare needs at least ${COMPARE_MIN_SYMBOLS} symbols` }
  }
  if (symbols.length > COMPARE_MAX_SYMBOLS) {
    return {
      reason: "too_many",
      message: `compare takes at most ${COMPARE_MAX_SYMBOLS} symbols; ${symbols.length} given`
    }
  }
  return { symbols }
}

const valueOf = (f: ScreenFigures, ms: Measure): number | undefined => {
  const v = f[ms.measure]
  return v !== undefined && Number.isFinite(v) ? v : undefined
}

/** The date of the price a measure's value rests on: the valuation figures carry their own, the rest the row's price. */
const asOfOf = (f: ScreenFigures, ms: Measure): string | undefined =>
  ms.measure === "pe_ttm"
    ? f.pe_ttm_as_of
    : ms.measure === "dividend_yield_pct"
    ? f.dividend_yield_as_of
    : ms.measure === "market_cap"
    ? f.market_cap_as_of
    : f.price_as_of

/** A symbol's value of a measure, with its date when known. */
const valueAt = (f: ScreenFigures, ms: Measure) => {
  const value = valueOf(f, ms)
  return { symbol: f.symbol, ...defined({ value, as_of: value === undefined ? undefined : asOfOf(f, ms) }) }
}

/** Two symbols: per measure the stronger band wins a point. */
const headToHead = (figures: ReadonlyArray<ScreenFigures>, symbols: ReadonlyArray<string>) => {
  const points = [0, 0]
  const measures = MEASURES.map((ms) => {
    const vs = figures.map((f) => valueOf(f, ms))
    const bands = vs.map((v) => (v === undefined ? undefined : band(ms, v)))
    const values = figures.map((f, i) => ({ ...valueAt(f, ms), ...defined({ band: bands[i] }) }))
    const [a, b] = bands
    const base = { measure: ms.measure, better: ms.better, bands: ms.text, values }
    if (a === undefined || b === undefined) return { ...base, outcome: "unknown" as const }
    if (a === b) return { ...base, outcome: "tie" as const }
    const w = a > b ? 0 : 1
    points[w]!++
    return { ...base, winner: symbols[w]!, outcome: "win" as const }
  })
  const totals = symbols.map((symbol, i) => ({ symbol, points: points[i]! }))
  return { measures, totals, ...(points[0] !== points[1] ? { leader: symbols[points[0]! > points[1]! ? 0 : 1]! } : {}) }
}

/** Three or more symbols: per measure the best known value wins. */
const perMetric = (figures: ReadonlyArray<ScreenFigures>) =>
  MEASURES.map((ms) => {
    const values = figures.map((f) => valueAt(f, ms))
    const known = values.filter((v): v is { symbol: string; value: number } => v.value !== undefined)
    const best = known.length === 0
      ? undefined
      : ms.better === "higher"
      ? Math.max(...known.map((v) => v.value))
      : Math.min(...known.map((v) => v.value))
    return {
      measure: ms.measure,
      better: ms.better,
      values,
      winners: known.filter((v) => v.value === best).map((v) => v.symbol)
    }
  })

/**
 * Compares the symbols of `raw`, looking up each one's figures; a failure names its reason.
 *
 * Two symbols (head to head): per measure, the symbol in the stronger band
 * wins it and scores 1 point; equal bands are a tie (no point); when either
 * value is unknown the measure is `unknown` (no point: unknown is not worse).
 * Totals are the points; the leader has more points (none on equal totals).
 * Three or more: per measure, the winners are the symbols holding the best
 * known value (several on an exact tie; none when no value is known).
 */
export const compare = (
  raw: string,
  lookup: (symbol: string) => ScreenFigures | undefined
): { readonly comparison: ComparisonFigures } | CompareFailure => {
  const parsed = parseCompareSymbols(raw)
  if ("reason" in parsed) return parsed
  const figures: Array<ScreenFigures> = []
  for (const s of parsed.symbols) {
    const f = lookup(s)
    if (f === undefined) return { reason: "unknown_symbol", message: `unknown symbol ${s}`, symbol: s }
    figures.push(f)
  }
  const symbols = figures.map((f) => f.symbol)
  if (figures.length === 2) {
    return {
      comparison: {
        symbols,
        mode: "head_to_head",
        head_to_head: headToHead(figures, symbols),
        rule:
          "Per measure the stronger band wins 1 point; equal bands tie; an unknown value scores nobody. Bands are documented per measure."
      }
    }
  }
  return {
    comparison: {
      symbols,
      mode: "per_metric",
      metrics: perMetric(figures),
      rule: "Per measure the best known value wins (several winners on an exact tie; none when no value is known)."
    }
  }
}
