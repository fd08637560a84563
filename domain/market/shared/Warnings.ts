/**
 * The `warnings` of market answers whose coverage is partial: what the figures leave out, in short sentences,
 * from counts the answers already carry. Each function gives `{ warnings }` to spread into the answer, or an empty
 * object when there is nothing to say, so an answer carries `warnings` only when it has one (never an empty list).
 */

/** `{ warnings }` for the sentences given, or nothing when there are none. */
export const warningsField = (
  sentences: ReadonlyArray<string | undefined>
): { readonly warnings?: ReadonlyArray<string> } => {
  const said = sentences.filter((s): s is string => s !== undefined)
  return said.length > 0 ? { warnings: said } : {}
}

const lines = (n: number) => (n === 1 ? "1 line" : `${n} lines`)

/** The yield a screen uses, against the exchange's yield a sector's median is taken over (said once, here). */
export const SCREEN_YIELD =
  "median_dividend_yield_pct is over the exchange's screener yield as published; the screener and valuation rank by " +
  "each symbol's own yield (trailing 12-month recorded payouts over its price where recorded, else the exchange's)"

/** A sector's medians: the lines without a figure, by field, and the lines left out of every median. */
export const sectorWarnings = (f: {
  readonly pe_peers: number
  readonly without_pe: number
  readonly yield_peers: number
  readonly without_yield: number
  readonly not_trading: number
  readonly median_dividend_yield_pct?: number | undefined
}) =>
  warningsField([
    f.without_pe > 0
      ? `${lines(f.without_pe)} without a P/E (without_pe): median_pe is over the ${f.pe_peers} with one`
      : undefined,
    f.without_yield > 0
      ? `${
        lines(f.without_yield)
      } without a dividend yield (without_yield): median_dividend_yield_pct is over the ${f.yield_peers} with one`
      : undefined,
    f.not_trading > 0
      ? `${lines(f.not_trading)} with no trade in the peer window, left out of every median (not_trading)`
      : undefined,
    f.median_dividend_yield_pct !== undefined ? SCREEN_YIELD : undefined
  ])

/**
 * An index's constituents without a weight (the recorded list of their date gives membership only), naming the
 * newest list that has weights, when there is one.
 */
export const indexWeightWarnings = (
  code: string,
  constituents: ReadonlyArray<{ readonly weight_pct?: number | undefined }>,
  asOf: string | undefined,
  weightedAsOf: string | undefined
) => {
  const without = constituents.filter((c) => c.weight_pct === undefined).length
  if (without === 0) return {}
  return warningsField([
    `${without} of ${constituents.length} ${code} constituents${
      asOf !== undefined ? ` as of ${asOf}` : ""
    } carry no weight (weight_pct absent): the recorded list of that date gives membership only` +
    (weightedAsOf !== undefined && weightedAsOf !== asOf ? `; the newest list with weights is of ${weightedAsOf}` : "")
  ])
}

/** A screen's securities left out because a figure it filters on is unknown, per filter. */
export const screenWarnings = (leftOut: number, byFilter: Readonly<Record<string, number>>) => {
  if (leftOut === 0) return {}
  const fields = Object.entries(byFilter).filter(([, n]) => n > 0).map(([field, n]) => `${field}: ${n}`)
  return warningsField([
    `${leftOut} ${leftOut === 1 ? "security" : "securities"} left out because a filtered figure is unknown ` +
    `(unknown per filter: ${fields.join(", ")}); unknown never matches`
  ])
}
