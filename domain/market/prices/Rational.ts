/**
 * Exact fractions for price-adjustment factors (Adjustment.ts). A recorded
 * decimal (a close of 4.43, a bonus of 12.5%) is read from its shortest
 * decimal form into a fraction of integers, so a product of many factors
 * stays exact and only the served figure is rounded, once.
 */

export interface Rational {
  readonly n: bigint
  readonly d: bigint
}

const abs = (x: bigint) => (x < 0n ? -x : x)
const gcd = (a: bigint, b: bigint): bigint => {
  let x = abs(a), y = abs(b)
  while (y !== 0n) [x, y] = [y, x % y]
  return x
}

/** n / d in lowest terms with a positive denominator (d must not be 0). */
export const ratio = (n: bigint, d: bigint): Rational => {
  const g = gcd(n, d) || 1n
  const sign = d < 0n ? -1n : 1n
  return { n: (sign * n) / g, d: (sign * d) / g }
}

export const ONE: Rational = { n: 1n, d: 1n }

/** The digits and decimal places of a finite number's shortest decimal form (4.43 → 443 and 2; 1e-7 → 1 and 7). */
const decimalParts = (x: number): { readonly digits: bigint; readonly places: number } => {
  const [mantissa, exponent] = String(x).toLowerCase().split("e") as [string, string | undefined]
  const [whole, fraction = ""] = mantissa.split(".") as [string, string | undefined]
  return { digits: BigInt(`${whole}${fraction}`), places: fraction.length - Number(exponent ?? 0) }
}

/** A finite number as the exact fraction of its shortest decimal form (4.43 → 443/100). */
export const fromDecimal = (x: number): Rational => {
  const { digits, places } = decimalParts(x)
  return places >= 0 ? ratio(digits, 10n ** BigInt(places)) : ratio(digits * 10n ** BigInt(-places), 1n)
}

export const mul = (a: Rational, b: Rational): Rational => ratio(a.n * b.n, a.d * b.d)
export const div = (a: Rational, b: Rational): Rational => ratio(a.n * b.d, a.d * b.n)
export const add = (a: Rational, b: Rational): Rational => ratio(a.n * b.d + b.n * a.d, a.d * b.d)
export const sub = (a: Rational, b: Rational): Rational => ratio(a.n * b.d - b.n * a.d, a.d * b.d)
export const isPositive = (a: Rational) => a.n > 0n

/** The nearest double (for display: the fraction itself is what the figures are computed with). */
export const toNumber = (a: Rational): number => {
  const scale = 10n ** 18n
  const q = (a.n * scale) / a.d
  return Number(q) / 1e18
}

/** x × f rounded half away from zero to `places` decimals, exactly (x read from its decimal form; no reduction, per row). */
export const scaleRounded = (x: number, f: Rational, places: number): number => {
  const { digits, places: p } = decimalParts(x)
  const unit = 10n ** BigInt(places)
  const num = digits * f.n * unit * (p < 0 ? 10n ** BigInt(-p) : 1n)
  const den = f.d * (p > 0 ? 10n ** BigInt(p) : 1n)
  const rounded = (abs(num) * 2n + den) / (2n * den)
  return (num < 0n ? -1 : 1) * Number(rounded) / Number(unit)
}

/** Decimal places of a number's shortest form (4.43 → 2, 38 → 0). */
export const decimalsOf = (x: number): number => Math.max(0, decimalParts(x).places)
