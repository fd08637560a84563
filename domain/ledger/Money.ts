/**
 * Money and quantities in the ledger: what a user may send (bounds), and
 * exact arithmetic. Amounts travel as rupee decimals with at most two places
 * (paisa) and are computed in integer paisa, never in floating rupees; a
 * per-share dividend may carry four places (hundredths of a paisa).
 * Quantities are whole shares. Fractions that corporate actions create are
 * kept in ten-thousandths of a share (a cash entitlement, never credited).
 */

/** Bounds of what a command may carry. */
export const LIMITS = {
  quantity: 1_000_000_000,
  price: 1_000_000,
  fees: 1_000_000_000,
  amount: 100_000_000_000,
  perShare: 100_000,
  tradeValue: 1_000_000_000_000,
  percent: 1_000,
  ratioTerm: 1_000
} as const

const PLACES = [0, 1, 2, 3, 4].map((n) => new RegExp(`^-?\\d+(\\.\\d{1,${Math.max(n, 1)}})?$`, "u"))

/** True when `x` is written with at most `places` (0 to 4) decimals (checked on its shortest decimal form). */
export const hasPlaces = (x: number, places: 0 | 1 | 2 | 3 | 4) =>
  Number.isFinite(x) && (places === 0 ? Number.isInteger(x) : PLACES[places]!.test(String(x)))

/** Rupees with at most two decimals → integer paisa (exact for such inputs). */
export const toPaisa = (rupees: number) => Math.round(rupees * 100)
/** Integer paisa → rupees (the nearest double to the two-decimal value, printed exactly by JSON). */
export const fromPaisa = (paisa: number) => paisa / 100
/** Rupees with at most four decimals → hundredths of a paisa. */
export const toCentiPaisa = (rupees: number) => Math.round(rupees * 10_000)

/** Ten-thousandths of a share. */
export const FRACTION_UNITS = 10_000

/**
 * round(a × b / c) for non-negative integers, exact however large the product
 * (half up). A non-integer operand (only in events stored before whole shares
 * were enforced) falls back to floating arithmetic rather than failing.
 */
export const mulDiv = (a: number, b: number, c: number): number => {
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || !Number.isSafeInteger(c) || c === 0) return Math.round((a * b) / c)
  const n = BigInt(a) * BigInt(b) * 2n + BigInt(c)
  return Number(n / (2n * BigInt(c)))
}

/** Whether every figure stays an exact integer (no precision lost anywhere in the replay). */
export const isExact = (...figures: ReadonlyArray<number>) => figures.every((f) => Number.isSafeInteger(f))
