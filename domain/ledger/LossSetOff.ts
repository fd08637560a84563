/**
 * Capital losses set off against capital gains on securities (Income Tax Ordinance 2001, section 37A; see
 * docs/PSX-FACTS.md): within a tax year the covered sales' losses are set off against their gains; a net loss
 * left unadjusted is carried forward to the next three tax years, against such gains only, oldest first. Pure;
 * paisa.
 *
 * Only the sales a dated rule covers (TaxYear.ts: a filer, every share held bought from the rule's date) take
 * part: the tax of the others is not computed, so neither are their gains and losses set off here.
 */
import { toPaisa } from "./Money.ts"
import type { Entry, ReplayFailure } from "./Replay.ts"
import { capitalGainsRules } from "./Taxes.ts"
import { type SaleLine, taxYearFigures, taxYearOf } from "./TaxYear.ts"

/** Tax years a loss is carried forward to, after its own. */
export const CARRY_FORWARD_YEARS = 3

/** A tax year's covered gains and losses (paisa; losses positive). */
export interface CoveredResult {
  readonly year: number
  readonly gains: number
  readonly losses: number
}

/** A loss of an earlier tax year, as it stands against this one (paisa). */
export interface BroughtForward {
  readonly from_tax_year: number
  /** Left of it at the start of this tax year. */
  readonly available: number
  /** Set off against this year's net gain. */
  readonly set_off: number
  /** Left after this year (0 in its last year: it lapses). */
  readonly carried_forward: number
  /** The last tax year it may be set off in. */
  readonly last_tax_year: number
}

export interface SetOff {
  /** Covered gains less covered losses of the year (negative: a net loss). */
  readonly net: number
  readonly brought_forward: ReadonlyArray<BroughtForward>
  /** What the rate applies to: the net gain less the losses brought forward, never below 0. */
  readonly taxable: number
  /** The year's own net loss, carried forward to the next three tax years (0 when none). */
  readonly loss_carried_forward: number
}

/** The covered gains and losses of a year's sales. */
export const coveredResultOf = (year: number, sales: ReadonlyArray<SaleLine>): CoveredResult => {
  let gains = 0, losses = 0
  for (const s of sales) {
    if (s.capital_gains_tax === undefined) continue
    const gain = toPaisa(s.gain)
    if (gain > 0) gains += gain
    else losses -= gain
  }
  return { year, gains, losses }
}

/** The losses still open in `year` (at most three years old), and what a net gain of `net` takes of each, oldest first. */
const takeFrom = (open: ReadonlyArray<{ readonly year: number; readonly left: number }>, year: number, net: number) => {
  let gain = Math.max(0, net)
  return open.filter((l) => l.year >= year - CARRY_FORWARD_YEARS && l.left > 0).map((l) => {
    const take = Math.min(l.left, gain)
    gain -= take
    return { ...l, take }
  })
}

/** Year `current`'s set-off, after every earlier covered year's result (ascending). */
export const setOffOf = (earlier: ReadonlyArray<CoveredResult>, current: CoveredResult): SetOff => {
  let open: ReadonlyArray<{ readonly year: number; readonly left: number }> = []
  for (const r of earlier) {
    const net = r.gains - r.losses
    open = [
      ...takeFrom(open, r.year, net).map((l) => ({ year: l.year, left: l.left - l.take })),
      ...(net < 0 ? [{ year: r.year, left: -net }] : [])
    ]
  }
  const net = current.gains - current.losses
  const brought_forward = takeFrom(open, current.year, net).map((l) => {
    const last = l.year + CARRY_FORWARD_YEARS
    return {
      from_tax_year: l.year,
      available: l.left,
      set_off: l.take,
      carried_forward: last > current.year ? l.left - l.take : 0,
      last_tax_year: last
    }
  })
  const setOff = brought_forward.reduce((s, b) => s + b.set_off, 0)
  return { net, brought_forward, taxable: Math.max(0, net - setOff), loss_carried_forward: Math.max(0, -net) }
}

/** The covered results of every tax year before `year` that a rule can cover (from the earliest rule's date on). */
export const earlierResults = (
  entries: ReadonlyArray<Entry>,
  year: number
): ReadonlyArray<CoveredResult> | ReplayFailure => {
  const first = Math.min(...capitalGainsRules.map((r) => taxYearOf(r.acquired_from)))
  const out: Array<CoveredResult> = []
  for (let y = first; y < year; y++) {
    const f = taxYearFigures(entries, y)
    if ("_tag" in f) return f
    out.push(coveredResultOf(y, f.sales))
  }
  return out
}
