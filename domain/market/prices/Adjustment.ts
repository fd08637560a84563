/**
 * Adjusted price series (`adjust=splits|total_return` on prices, analytics
 * and compare): one pure function, `adjustSeries`, over one served series
 * and the symbol's corporate actions (AdjustmentActions.ts), by the rules of
 * AdjustmentFactors.ts.
 */
import { addDays } from "../../Karachi.ts"
import { indexAtOrBefore, type PriceSeries } from "../snapshot/Series.ts"
import type { SymbolData } from "../snapshot/Snapshot.ts"
import { type CorporateAction, symbolActions } from "./AdjustmentActions.ts"
import {
  type AdjustMode,
  AGREE,
  type AppliedFactor,
  type Cut,
  DETECTABLE_FROM,
  fmt,
  KINDS,
  lastPossible,
  MAX_DECIMALS,
  priceAction,
  type Priced,
  unexplainedStep,
  type UnknownAction,
  unknownOf
} from "./AdjustmentFactors.ts"
import * as Q from "./Rational.ts"
import type { Restatement } from "./Restated.ts"

export type { AdjustMode, AppliedFactor, UnknownAction } from "./AdjustmentFactors.ts"

export interface AdjustedSeries {
  /** The rows from the cut on, adjusted. */
  readonly series: PriceSeries
  /** Newest first. */
  readonly factors: ReadonlyArray<AppliedFactor>
  readonly cut?: Cut
  /** Relevant actions whose day or terms are unknown, newest first. */
  readonly unknown: ReadonlyArray<UnknownAction>
  /** Decimal places of the served prices: the most the served closes are recorded with. */
  readonly decimals: number
  readonly volumes: "adjusted" | "left_out"
  readonly notes: ReadonlyArray<string>
}

export interface AdjustInput {
  /** A served series with at least one row. */
  readonly series: PriceSeries
  readonly mode: AdjustMode
  /** Every recorded action of the symbol (AdjustmentActions.ts `corporateActions`). */
  readonly actions: ReadonlyArray<CorporateAction>
  readonly restatement: Restatement
  /** Where the symbol's payout record starts (`payoutRecordStart`); absent: no record, so nothing is known. */
  readonly payoutRecord: PayoutRecordStart | undefined
}

interface SplitBasis {
  /** Splits whose prices the source already restated (applied to volumes only). */
  readonly inSeries: ReadonlySet<CorporateAction>
  /** Splits that cannot be placed. */
  readonly unplaced: ReadonlySet<CorporateAction>
  readonly cuts: ReadonlyArray<Cut>
  readonly volumes: "adjusted" | "left_out"
  readonly notes: ReadonlyArray<string>
}

const NOT_KNOWN = "whether the exchange restated this series for it is not known"

/** How the recorded splits meet the series: as traded, restated by the source, or not known which. */
const splitBasis = (
  s: PriceSeries,
  actions: ReadonlyArray<CorporateAction>,
  r: Restatement,
  end: string
): SplitBasis => {
  const splits = actions.filter((a) => a.kind === "split" && a.terms?.type === "fixed" && a.date !== undefined)
  const none = {
    inSeries: new Set<CorporateAction>(),
    unplaced: new Set<CorporateAction>(),
    cuts: [],
    volumes: "adjusted" as const,
    notes: []
  }
  if (s.series !== "eod" || r.restated === false) return none
  if (r.restated === "unknown") {
    return {
      ...none,
      unplaced: new Set(splits),
      cuts: splits.map((a) => ({ before: a.date!, reason: `split ${a.description}: ${NOT_KNOWN}` })),
      volumes: "left_out",
      notes: [
        "Whether the exchange restated this eod series for a split is not known, so its volumes' share basis is not: volumes are left out."
      ]
    }
  }
  const after = splits.filter((a) => r.to === undefined || a.date! > r.to)
  const product = after.reduce((p, a) => Q.mul(p, a.terms!.type === "fixed" ? a.terms!.factor : Q.ONE), Q.ONE)
  const agrees = r.factor !== undefined && Math.abs(Q.toNumber(product) / r.factor - 1) <= AGREE
  return {
    ...none,
    inSeries: new Set(splits),
    cuts: agrees ? [] : [{
      before: end,
      reason:
        `the exchange restated this series by ${r.factor} for a split after ${r.to}; the splits recorded after then make ` +
        `${
          fmt(product)
        }: a split's day is missing from the record, so the volumes (which the exchange does not restate) cannot be put on one basis`
    }],
    notes: [
      `The exchange restated this series' prices for its splits (${r.basis}); recorded splits are applied to its volumes only.`
    ]
  }
}

/** Where a payout record starts: payouts before it are not known. */
export interface PayoutRecordStart {
  readonly from: string
  /** Its oldest payout, in words. */
  readonly first: string
}

/** The payout record's start from the recorded actions: its oldest payout's day (or the last day it can be); none without one. */
export const payoutRecordStart = (actions: ReadonlyArray<CorporateAction>): PayoutRecordStart | undefined => {
  const day = (a: CorporateAction) => a.date ?? a.by ?? a.from
  const payouts = actions.filter((a) => a.origin === "payout" && day(a) !== undefined)
  if (payouts.length === 0) return undefined
  const oldest = payouts.reduce((o, a) => (day(a)! < day(o)! ? a : o))
  return { from: day(oldest)!, first: `${oldest.description} (${oldest.source})` }
}

/** The cut the payout record makes: before its start (no record: every row). */
const coverage = (record: PayoutRecordStart | undefined, mode: AdjustMode, end: string): Cut => {
  const what = mode === "splits" ? "bonuses and rights" : "dividends, bonuses and rights"
  return record === undefined
    ? { before: end, reason: `no payout record is held for this symbol: its ${what} are not known` }
    : {
      before: record.from,
      reason:
        `the payout record (the exchange lists a company's last payouts) starts with ${record.first} on ${record.from}: ` +
        `${what} before it are not known`
    }
}

/** Prices each relevant action on the series; those that cannot be priced become unknown, with a cut at the last day they can be. */
const priceAll = (s: PriceSeries, relevant: ReadonlyArray<CorporateAction>, basis: SplitBasis, end: string) => {
  const priced: Array<Priced> = [], unknown: Array<UnknownAction> = [], cuts: Array<Cut> = [...basis.cuts]
  for (const a of relevant) {
    const failed = basis.unplaced.has(a)
      ? NOT_KNOWN
      : a.unknown ?? (a.date === undefined ? "its day is not known" : undefined)
    const p = failed === undefined ? priceAction(s, a as CorporateAction & { date: string }) : failed
    if (typeof p === "string") {
      unknown.push(unknownOf(a, p))
      cuts.push({
        before: lastPossible(a, end),
        reason: `${a.kind.replace("_", " ")} ${a.description} (${a.source}): ${p}`
      })
    } else if (p !== undefined) priced.push(p)
  }
  return { priced, unknown, cuts }
}

/** The series' rows from `lo`, with prices and volumes multiplied by the factors dated after each row. */
const applyFactors = (
  s: PriceSeries,
  lo: number,
  factors: ReadonlyArray<{ readonly date: string; readonly price: Q.Rational; readonly volume: Q.Rational }>,
  decimals: number
): PriceSeries => {
  const n = s.dates.length, len = n - lo
  const cols = {
    open: new Float64Array(len),
    high: new Float64Array(len),
    low: new Float64Array(len),
    close: new Float64Array(len),
    volume: new Float64Array(len)
  }
  let k = 0, price = Q.ONE, volume = Q.ONE
  const scaled = (
    x: number,
    f: Q.Rational,
    places: number
  ) => (!Number.isFinite(x) ? NaN : f.n === f.d ? x : Q.scaleRounded(x, f, places))
  for (let i = n - 1; i >= lo; i--) {
    while (k < factors.length && factors[k]!.date > s.dates[i]!) {
      price = Q.mul(price, factors[k]!.price)
      volume = Q.mul(volume, factors[k]!.volume)
      k++
    }
    for (const c of ["open", "high", "low", "close"] as const) cols[c][i - lo] = scaled(s[c][i]!, price, decimals)
    cols.volume[i - lo] = scaled(s.volume[i]!, volume, 0)
  }
  return { ...s, ...cols, dates: s.dates.slice(lo), flag: s.flag.slice(lo), datasetIndex: s.datasetIndex.slice(lo) }
}

/** The factors as served, newest first, with the running product of the price factors. */
const served = (priced: ReadonlyArray<Priced>, basis: SplitBasis) => {
  let cumulative = Q.ONE
  return priced.map((p) => {
    const onPrices = !basis.inSeries.has(p.action),
      onVolumes = basis.volumes === "adjusted" && p.volume.n !== p.volume.d
    const price = onPrices ? p.price : Q.ONE, volume = onVolumes ? p.volume : Q.ONE
    cumulative = Q.mul(cumulative, price)
    const factor: AppliedFactor = {
      date: p.action.date,
      kind: p.action.kind,
      factor: Q.toNumber(p.price),
      cumulative: Q.toNumber(cumulative),
      ...(onVolumes ? { volume_factor: Q.toNumber(p.volume) } : {}),
      applied_to: onPrices ? (onVolumes ? "prices_and_volumes" : "prices") : "volumes",
      terms: onPrices ? p.terms : `${p.terms} (prices already restated by the exchange)`,
      source: p.action.source,
      ...(p.action.faceValueSource !== undefined ? { face_value_source: p.action.faceValueSource } : {})
    }
    return { factor, date: p.action.date, price, volume }
  })
}

/**
 * The adjusted series.
 *
 * - `splits`: rows before each bonus, split and right issue are multiplied
 *   by its price factor (bonus b%: 100 / (100 + b); split n for d: d / n;
 *   right: the theoretical ex-rights price over the close before it,
 *   TERP = (P + r·S) / (1 + r) for r rights per share at S); volumes before
 *   a bonus or split by the inverse.
 * - `total_return`: also each cash dividend D on its XD day, (P − D) / P
 *   with P the last unflagged close before that day.
 * - The series is on the basis of its own last row: actions after it are
 *   not applied. Factors are exact fractions; only served prices are
 *   rounded, to the most decimals the served closes are recorded with.
 * - Never guessed, so the series is cut (rows before `cut.before` are left
 *   out) at the newest of: an action whose terms or day are unknown (at its
 *   day, or the last day it can be); the start of the payout record (the
 *   exchange lists a company's last payouts: earlier ones are not known; no
 *   record at all cuts every row); the first sourced price limit (before it
 *   a split missing from the record could not be seen); and a move beyond
 *   the price limit that no recorded action explains (a split, or a payout,
 *   missing from the record).
 * - A series the source restated (eod, `restated_by_source` true) already
 *   carries every split in its prices, but not its bonuses (BOP's eod closes
 *   equal the as-traded ones across its bonuses of 2022 and 2023) nor its
 *   volumes (the recorded eod volumes equal the as-traded ones on 497 of
 *   LUCK's 499 shared days):
 *   a recorded split is applied to its volumes only. When the recorded
 *   splits after the restatement's evidence do not make up its factor, a
 *   split is missing from the record: cut. Where the verdict is unknown, a
 *   recorded split cannot be placed (cut at it), and volumes are left out.
 */
export const adjustSeries = (input: AdjustInput): AdjustedSeries => {
  const { series: s, mode } = input
  const n = s.dates.length, last = s.dates[n - 1]!, end = addDays(last, 1)
  const relevant = input.actions.filter((a) => KINDS[mode].has(a.kind) && (a.date ?? a.from ?? "") <= last)
  const later = input.actions.filter((a) => KINDS[mode].has(a.kind) && (a.date ?? a.from ?? "") > last).length
  const basis = splitBasis(s, relevant, input.restatement, end)
  const { priced, unknown, cuts } = priceAll(s, relevant, basis, end)
  const step = unexplainedStep(s, input.actions)
  const all: Array<Cut> = [
    ...cuts,
    coverage(input.payoutRecord, mode, end),
    {
      before: DETECTABLE_FROM,
      reason:
        `no price limit is sourced before ${DETECTABLE_FROM}, so a split missing from the record could not be seen`
    },
    ...(step !== undefined ? [step] : [])
  ]
  const newest = all.reduce((c, x) => (x.before > c.before ? x : c))
  const cut = newest.before > s.dates[0]! ? newest : undefined
  const lo = cut === undefined ? 0 : indexAtOrBefore(s, addDays(cut.before, -1)) + 1
  const from = s.dates[lo]
  const applied = served(
    priced.filter((p) => from !== undefined && p.action.date > from).sort((
      a,
      b
    ) => (a.action.date > b.action.date ? -1 : 1)),
    basis
  )
  let decimals = 0
  for (let i = lo; i < n; i++) decimals = Math.max(decimals, Q.decimalsOf(s.close[i]!))
  decimals = Math.min(decimals, MAX_DECIMALS)
  const out = applyFactors(s, lo, applied, decimals)
  return {
    series: basis.volumes === "left_out" ? { ...out, volume: new Float64Array(out.dates.length).fill(NaN) } : out,
    factors: applied.map((a) => a.factor),
    ...(cut !== undefined ? { cut } : {}),
    unknown: unknown.reverse(),
    decimals,
    volumes: basis.volumes,
    notes: [
      ...basis.notes,
      ...(later > 0
        ? [
          `${later} recorded action(s) after the series' last row (${last}) are not applied: the series is on the basis of that row.`
        ]
        : [])
    ]
  }
}

/** An adjusted series of a listed symbol: its recorded actions over one of its series. */
export const adjustedOf = (data: SymbolData, series: PriceSeries, mode: AdjustMode): AdjustedSeries => {
  const actions = symbolActions(data)
  return adjustSeries({
    series,
    mode,
    actions,
    restatement: data.restatement,
    payoutRecord: payoutRecordStart(actions)
  })
}

/**
 * What an adjusted answer says about its adjustment (AdjustmentSchemas.ts `AdjustmentFields`); with `from`, the
 * factors that reach rows from that day on (those dated after it).
 */
export const adjustmentRecord = (mode: AdjustMode, a: AdjustedSeries, from?: string) => ({
  adjust: mode,
  factors: from === undefined ? a.factors : a.factors.filter((f) => f.date > from),
  ...(a.cut !== undefined ? { cut_before: a.cut.before, cut_reason: a.cut.reason } : {}),
  unknown_terms: a.unknown,
  price_decimals: a.decimals,
  volumes: a.volumes,
  adjustment_notes: a.notes
})

/** The datasets an adjustment read (its factors' and unknown actions' sources that are datasets). */
export const adjustmentSources = (
  a: AdjustedSeries
): Array<string> => [...a.factors.map((f) => f.source), ...a.unknown.map((u) => u.source)]
