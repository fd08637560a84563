/** Small, exact statistics used by sector and analytics figures. */

/** The median of the values, or undefined for none (medians, never means). */
export const median = (values: ReadonlyArray<number>): number | undefined => {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const m = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return Math.round(m * 10_000) / 10_000
}
