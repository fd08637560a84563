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
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || !Number.isSafeInteger(c) || c === 0) {
    return Math.round((a * b) / c)
  }
  const n = BigInt(a) * BigInt(b) * 2n + BigInt(c)
  return Number(n / (2n * BigInt(c)))
}

/**
 * The largest magnitude of an amount in paisa (or a fraction in ten-thousandths of a share) the ledger holds:
 * 2^51. Below it an integer survives the trip to its decimal form and back (`toPaisa(fromPaisa(p)) === p`: the
 * division and the product each round by under a quarter of a unit), so positions kept as rupees — in the
 * holdings rows, which the decider's fast path reads — are the same figures a replay computes. Rs 22.5 trillion.
 */
export const MAX_EXACT_UNITS = 2 ** 51

/** Whether every amount (paisa, or ten-thousandths of a share) is an integer within ±MAX_EXACT_UNITS. */
export const isExact = (...figures: ReadonlyArray<number>) =>
  figures.every((f) => Number.isInteger(f) && Math.abs(f) <= MAX_EXACT_UNITS)
