/**
 * Where two recordings of the same closes disagree: the exchange's eod series
 * (restated for splits made before it was recorded) against the as-traded
 * series. A symbol whose eod closes are one constant multiple of the as-traded
 * closes over nearly all shared days was restated by that factor; a day on
 * which many symbols disagree at once (after their factor) is a source glitch.
 * Pure: series in, findings out; nothing is estimated.
 */
import { Schema } from "effect"
import type { PriceRow } from "../psx/Prices.ts"

export const Disagreement = Schema.Struct({
  symbol: Schema.String,
  /** eod close / as-traded close, rounded to 2 decimals (the mode over the shared days). */
  factor: Schema.Finite,
  /** Shared days with a positive as-traded close. */
  points: Schema.Int,
  /** Shared days whose ratio rounds to the factor. */
  agreeing: Schema.Int,
  from: Schema.String,
  to: Schema.String
})
export type Disagreement = typeof Disagreement.Type

export const GlitchDay = Schema.Struct({
  date: Schema.String,
  symbols: Schema.Int,
  affected: Schema.Array(Schema.String),
  /**
   * Which source is wrong for each affected symbol, decided from each
   * source's internal evidence (GlitchVerdict.ts); absent in packs built
   * before the verdict existed (then the eod rows are flagged).
   */
  wrong: Schema.optional(Schema.Struct({
    as_traded: Schema.Array(Schema.String),
    eod: Schema.Array(Schema.String),
    undecided: Schema.Array(Schema.String)
  })),
  reason: Schema.optional(Schema.String)
})
export type GlitchDay = typeof GlitchDay.Type

/** The pack's `price_disagreements` dataset. */
export const Disagreements = Schema.Struct({
  disagreements: Schema.Array(Disagreement),
  glitchDays: Schema.Array(GlitchDay)
})
export type Disagreements = typeof Disagreements.Type

export type SeriesBySymbol = ReadonlyMap<string, ReadonlyArray<PriceRow>>

export interface Rules {
  /** Fewer shared days than this say nothing about a factor. */
  readonly minPoints: number
  /** Share of shared days that must agree on the factor. */
  readonly minAgreeing: number
  /** A factor this close to 1 is agreement, not a restatement. */
  readonly unitTolerance: number
  /** A close this far (relative) from as-traded × factor is "off" that day. */
  readonly offTolerance: number
  /** Symbols off on one day for it to be a glitch day of the source. */
  readonly minGlitchSymbols: number
}

export const RULES: Rules = {
  minPoints: 20,
  minAgreeing: 0.9,
  unitTolerance: 0.02,
  offTolerance: 0.005,
  minGlitchSymbols: 20
}

/** eod close / as-traded close on each shared day with a positive as-traded close, in eod order. */
const ratios = (eod: ReadonlyArray<PriceRow>, asTraded: ReadonlyArray<PriceRow>) => {
  const byDate = new Map(asTraded.map((r) => [r.date, r.close]))
  const out: Array<{ readonly date: string; readonly ratio: number }> = []
  for (const r of eod) {
    const c = byDate.get(r.date)
    if (c !== undefined && c > 0) out.push({ date: r.date, ratio: r.close / c })
  }
  return out
}

/** The whole-history factor of one symbol, if its two series disagree by one. */
export const wholeHistoryFactor = (
  symbol: string,
  eod: ReadonlyArray<PriceRow>,
  asTraded: ReadonlyArray<PriceRow>,
  rules: Rules = RULES
): Disagreement | undefined => {
  const shared = ratios(eod, asTraded)
  if (shared.length < rules.minPoints) return undefined
  const counts = new Map<number, number>()
  for (const { ratio } of shared) {
    const rounded = Math.round(ratio * 100) / 100
    counts.set(rounded, (counts.get(rounded) ?? 0) + 1)
  }
  let mode = 1, agreeing = 0
  for (const [factor, n] of counts) if (n > agreeing) [mode, agreeing] = [factor, n]
  if (Math.abs(mode - 1) <= rules.unitTolerance || agreeing / shared.length <= rules.minAgreeing) return undefined
  return {
    symbol,
    factor: mode,
    points: shared.length,
    agreeing,
    from: shared[0]!.date,
    to: shared[shared.length - 1]!.date
  }
}

/** Every symbol in both series whose eod series is restated by a whole-history factor, in eod order. */
export const wholeHistoryFactors = (eod: SeriesBySymbol, asTraded: SeriesBySymbol, rules: Rules = RULES) => {
  const out: Array<Disagreement> = []
  for (const [symbol, rows] of eod) {
    const other = asTraded.get(symbol)
    const found = other ? wholeHistoryFactor(symbol, rows, other, rules) : undefined
    if (found) out.push(found)
  }
  return out
}

/** Days on which at least `minGlitchSymbols` symbols' eod closes are off their as-traded close × factor. */
export const glitchDays = (
  eod: SeriesBySymbol,
  asTraded: SeriesBySymbol,
  factors: ReadonlyArray<Disagreement>,
  rules: Rules = RULES
): Array<GlitchDay> => {
  const factorOf = new Map(factors.map((d) => [d.symbol, d.factor]))
  const off = new Map<string, Array<string>>()
  for (const [symbol, rows] of eod) {
    const other = asTraded.get(symbol)
    if (!other) continue
    const factor = factorOf.get(symbol) ?? 1
    for (const { date, ratio } of ratios(rows, other)) {
      if (Math.abs(ratio / factor - 1) > rules.offTolerance) off.set(date, [...(off.get(date) ?? []), symbol])
    }
  }
  return [...off]
    .filter(([, symbols]) => symbols.length >= rules.minGlitchSymbols)
    .map(([date, symbols]) => ({ date, symbols: symbols.length, affected: [...symbols].sort() }))
}

/** Both analyses, as the pack stores them. */
export const findDisagreements = (
  eod: SeriesBySymbol,
  asTraded: SeriesBySymbol,
  rules: Rules = RULES
): Disagreements => {
  const disagreements = wholeHistoryFactors(eod, asTraded, rules)
  return { disagreements, glitchDays: glitchDays(eod, asTraded, disagreements, rules) }
}
