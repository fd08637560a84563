/**
 * The money-weighted return of dated cash flows (XIRR): the annual rate r
 * at which the flows' present value is zero, Σ amount_i / (1 + r)^(t_i),
 * where t_i is the actual number of days from the first flow's date to
 * flow i's, over 365 (actual/365). Pure and deterministic.
 *
 * Solved in x = ln(1 + r), so every rate above −100% is a real x and
 * (1 + r)^(−t) = e^(−x·t) never takes a power of a negative number: Newton's
 * method from the flows' own simple return first, then bisection over a
 * bracket found by widening when Newton does not converge. Absent (never 0)
 * when the flows do not change sign (no flow in or none out), span no day,
 * or no root is found.
 */
import { toDay } from "../Karachi.ts"

export interface Flow {
  /** YYYY-MM-DD. */
  readonly date: string
  /** Rupees, from the investor's side: money put in is negative, money taken out (and the end value) positive. */
  readonly amount: number
}

const NEWTON_STEPS = 50
const BISECTION_STEPS = 200
/** Converged when a step moves x by less than this. */
const TOLERANCE = 1e-12
/** Largest exponent magnitude tried (e^700 is near the double's limit). */
const MAX_EXPONENT = 700

interface Dated {
  readonly years: number
  readonly amount: number
}

/** Present value of the flows at x = ln(1 + r), and its derivative. */
const presentValue = (flows: ReadonlyArray<Dated>, x: number) => {
  let value = 0
  let slope = 0
  for (const f of flows) {
    const discounted = f.amount * Math.exp(-x * f.years)
    value += discounted
    slope -= f.years * discounted
  }
  return { value, slope }
}

const newton = (flows: ReadonlyArray<Dated>, start: number, limit: number): number | undefined => {
  let x = start
  for (let i = 0; i < NEWTON_STEPS; i++) {
    const { value, slope } = presentValue(flows, x)
    if (!Number.isFinite(value) || !Number.isFinite(slope) || slope === 0) return undefined
    const next = x - value / slope
    if (!Number.isFinite(next) || Math.abs(next) > limit) return undefined
    if (Math.abs(next - x) < TOLERANCE) return next
    x = next
  }
  return undefined
}

/** A bracket [lo, hi] around a sign change of the present value, widened from [−1, 1] within ±limit. */
const bracket = (flows: ReadonlyArray<Dated>, limit: number): readonly [number, number] | undefined => {
  const sign = (x: number) => Math.sign(presentValue(flows, x).value)
  let lo = -1
  let hi = 1
  for (let i = 0; i < 64; i++) {
    if (sign(lo) * sign(hi) <= 0) return [lo, hi]
    lo = Math.max(-limit, lo * 2)
    hi = Math.min(limit, hi * 2)
    if (lo === -limit && hi === limit) return sign(lo) * sign(hi) <= 0 ? [lo, hi] : undefined
  }
  return undefined
}

const bisect = (flows: ReadonlyArray<Dated>, range: readonly [number, number]): number => {
  let [lo, hi] = range
  const loSign = Math.sign(presentValue(flows, lo).value)
  for (let i = 0; i < BISECTION_STEPS && hi - lo > TOLERANCE; i++) {
    const mid = (lo + hi) / 2
    const s = Math.sign(presentValue(flows, mid).value)
    if (s === 0) return mid
    if (s === loSign) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

/** The annual money-weighted rate of `flows` (a decimal: 0.25 is 25% a year), or undefined. */
export const xirr = (flows: ReadonlyArray<Flow>): number | undefined => {
  const used = flows.filter((f) => f.amount !== 0 && Number.isFinite(f.amount))
  if (!used.some((f) => f.amount > 0) || !used.some((f) => f.amount < 0)) return undefined
  const first = Math.min(...used.map((f) => toDay(f.date)))
  const dated = used.map((f) => ({ years: (toDay(f.date) - first) / 365, amount: f.amount }))
  const span = Math.max(...dated.map((f) => f.years))
  if (span === 0) return undefined
  const limit = MAX_EXPONENT / span
  // Start from the simple return (money out over money in), spread over the span.
  const paidIn = -dated.reduce((s, f) => s + Math.min(f.amount, 0), 0)
  const paidOut = dated.reduce((s, f) => s + Math.max(f.amount, 0), 0)
  const start = Math.log(paidOut / paidIn) / span
  const x = newton(dated, Number.isFinite(start) ? start : 0, limit) ?? (() => {
    const range = bracket(dated, limit)
    return range === undefined ? undefined : bisect(dated, range)
  })()
  if (x === undefined) return undefined
  const rate = Math.expm1(x)
  return Number.isFinite(rate) ? rate : undefined
}
