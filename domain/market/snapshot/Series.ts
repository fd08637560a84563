/**
 * One symbol's daily price series in columns, oldest first, as the market
 * read model holds it. Every column has one entry per trading day recorded
 * for the symbol; an unknown figure is NaN in the number columns (never 0),
 * and `flag` names why a row is suspect (a source glitch): flagged rows are
 * served but left out of computed windows.
 *
 * Prices are as recorded, never adjusted for corporate actions.
 */
export interface PriceSeries {
  readonly symbol: string
  /** as_traded, eod, or merged (as traded where recorded, else eod). */
  readonly series: "as_traded" | "eod" | "merged"
  /** ISO dates (YYYY-MM-DD, Asia/Karachi trading days), ascending. */
  readonly dates: ReadonlyArray<string>
  readonly open: Float64Array
  readonly high: Float64Array
  readonly low: Float64Array
  readonly close: Float64Array
  readonly volume: Float64Array
  /** Why a row is suspect, or undefined (may be shorter than the series: read it by index). */
  readonly flag: ReadonlyArray<string | undefined>
  /** The datasets the rows came from; row i came from `datasets[datasetIndex[i]]`. */
  readonly datasets: ReadonlyArray<string>
  readonly datasetIndex: Uint8Array
}

/** The dataset row `i` came from. */
export const datasetAt = (s: PriceSeries, i: number): string => s.datasets[s.datasetIndex[i]!]!

/** Number of rows. */
export const length = (s: PriceSeries): number => s.dates.length

/** A known figure or undefined (NaN means unknown). */
export const known = (v: number | undefined): number | undefined => (v === undefined || Number.isNaN(v) ? undefined : v)

/** Index of the last row whose date is on or before `date`, or -1 (any series of ascending dates). */
export const indexAtOrBefore = (s: { readonly dates: ReadonlyArray<string> }, date: string): number => {
  let lo = 0, hi = s.dates.length - 1, found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (s.dates[mid]! <= date) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}
