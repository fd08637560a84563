/**
 * Whether a symbol's eod series (the exchange's `/timeseries/eod`, restated
 * for splits made before it was recorded) is as traded, restated by a
 * whole-history factor, or unknown — decided for every symbol when the read
 * model is built, from the evidence the store holds (`restatementOf`).
 */
import type { PriceSeries } from "../snapshot/Series.ts"
import type { DisagreementRow } from "../snapshot/StoreRows.ts"

/** Fewer shared days than this say nothing. */
export const MIN_POINTS = 20
/** Share of shared days that must sit on one ratio. */
const MIN_AGREEING = 0.9
/** A day agrees with a ratio when within this (relative). */
const DAY_TOLERANCE = 0.005

export interface Restatement {
  /** true: restated by the source; false: as traded (verified); "unknown": no evidence either way. */
  readonly restated: boolean | "unknown"
  /** eod close / as-traded close, when restated. */
  readonly factor?: number
  /** Shared days the verdict rests on, and how many agree with it. */
  readonly points: number
  readonly agreeing: number
  readonly from?: string
  readonly to?: string
  /** What the verdict rests on, in words (served as the series' note). */
  readonly basis: string
}

/** eod close / as-traded close on each shared unflagged day with positive closes, oldest first. */
const sharedRatios = (a: PriceSeries, e: PriceSeries) => {
  const out: Array<{ readonly date: string; readonly ratio: number }> = []
  let i = 0, j = 0
  while (i < a.dates.length && j < e.dates.length) {
    const da = a.dates[i]!, de = e.dates[j]!
    if (da < de) i++
    else if (de < da) j++
    else {
      const ca = a.close[i]!, ce = e.close[j]!
      if (a.flag[i] === undefined && e.flag[j] === undefined && ca > 0 && ce > 0) out.push({ date: da, ratio: ce / ca })
      i++
      j++
    }
  }
  return out
}

/** The ratio most shared days sit on (rounded to 2 decimals), and how many agree with it within the day tolerance. */
const modeOf = (ratios: ReadonlyArray<{ readonly ratio: number }>) => {
  const counts = new Map<number, number>()
  for (const { ratio } of ratios) {
    const r = Math.round(ratio * 100) / 100
    counts.set(r, (counts.get(r) ?? 0) + 1)
  }
  let mode = 1, best = -1
  for (const [r, n] of counts) if (n > best) [mode, best] = [r, n]
  const agreeing = ratios.filter(({ ratio }) => Math.abs(ratio / mode - 1) <= DAY_TOLERANCE).length
  return { mode, agreeing }
}

const fromRecord = (d: DisagreementRow): Restatement => ({
  restated: true,
  factor: d.factor,
  points: d.points,
  agreeing: d.agreeing,
  from: d.first_date,
  to: d.last_date,
  basis:
    `recorded: the exchange's eod closes are ${d.factor} × the as-traded closes on ${d.agreeing} of ${d.points} shared days ` +
    `(${d.first_date} to ${d.last_date}), a split or consolidation after ${d.last_date}`
})

/** The label a figure computed from `series` carries (analytics, technicals, the `derived` block, research). */
export const seriesBasis = (series: "as_traded" | "eod" | "merged", r: Restatement) => ({
  series,
  restated_by_source: series === "eod" ? r.restated : false,
  ...(series === "eod" && r.restated !== false ? { note: r.basis } : {})
})

/**
 * The verdict for one symbol's eod series.
 *
 * - the overlap of the eod series with an as-traded series (ChubsB, the
 *   exchange's `/historical` page, its daily market summary): at least
 *   `MIN_POINTS` shared unflagged days, more than 90% of them on one ratio.
 *   Ratio 1 → not restated (`false`); another ratio → restated (`true`, with
 *   the factor). A restatement covers the whole history before the split, so
 *   an overlap that agrees proves every later split absent too.
 * - a recorded whole-history disagreement (the pack's `price_disagreements`)
 *   → restated, even where the store lacks the overlap.
 * - otherwise `unknown`: nothing supports "not restated". Measured on the
 *   recordings: the market summary (2021-01-21) ends four months before the
 *   eod series starts (2021-05-26), so it gives no overlap; a step in volume
 *   (volumes are not restated) is no evidence either — 463 of 613 eod series
 *   have a ≥4× step in their 60-session median volume, restated or not.
 *
 * The default series merges as-traded and eod rows only when the verdict is
 * `false`: two sources are never joined across a factor or an unknown.
 */
export const restatementOf = (
  asTraded: PriceSeries | undefined,
  eod: PriceSeries | undefined,
  recorded: DisagreementRow | undefined
): Restatement => {
  if (eod === undefined) return { restated: false, points: 0, agreeing: 0, basis: "as-traded recording only" }
  if (recorded !== undefined && recorded.factor !== 1) return fromRecord(recorded)
  const shared = asTraded === undefined ? [] : sharedRatios(asTraded, eod)
  const span = shared.length > 0 ? { from: shared[0]!.date, to: shared[shared.length - 1]!.date } : {}
  if (shared.length < MIN_POINTS) {
    return {
      restated: "unknown",
      points: shared.length,
      agreeing: 0,
      ...span,
      basis:
        `the eod series shares ${shared.length} days with an as-traded recording (at least ${MIN_POINTS} are needed): ` +
        "whether the exchange restated it for a split is not known"
    }
  }
  const { mode, agreeing } = modeOf(shared)
  if (agreeing / shared.length <= MIN_AGREEING) {
    return {
      restated: "unknown",
      points: shared.length,
      agreeing,
      ...span,
      basis:
        `the eod and as-traded closes follow no single ratio over ${shared.length} shared days (${agreeing} on ${mode})`
    }
  }
  if (mode === 1) {
    return {
      restated: false,
      points: shared.length,
      agreeing,
      ...span,
      basis:
        `the eod closes equal the as-traded closes on ${agreeing} of ${shared.length} shared days (${span.from} to ${span.to})`
    }
  }
  return {
    restated: true,
    factor: mode,
    points: shared.length,
    agreeing,
    ...span,
    basis:
      `the exchange's eod closes are ${mode} × the as-traded closes on ${agreeing} of ${shared.length} shared days ` +
      `(${span.from} to ${span.to}), a split or consolidation after ${span.to}`
  }
}
