/**
 * Pakistan's tax year and a portfolio's figures for one (GET /v1/me/tax-statement). Pure.
 *
 * The tax year runs from 1 July to 30 June and is named by the year it ends: tax year 2026 is 2025-07-01 to
 * 2026-06-30. A sale belongs to the year of its trade date, a dividend to that of its payment (credit) date, a
 * bonus to that of its credit date, a donation to that of its recording.
 *
 * Figures come from the ledger's own replay (Replay.ts), so they are the holdings' figures: average cost, a
 * sale's gain is what it adds to realised profit (proceeds less fees less the average cost of the shares sold),
 * a bonus adds shares at zero cost (the position's cost is unchanged, its average falls). Holding periods date
 * the shares sold first in, first out (Lots.ts); the cost stays average. Tax is computed only by a dated rule
 * (Taxes.ts): dividend withholding is the event's own; capital gains tax at the rule's rate on a sale's gain
 * where the rule covers it (a filer, every share of the position bought on or after the rule's date).
 */
import { LotBook, type SoldLot } from "./Lots.ts"
import { FRACTION_UNITS, fromPaisa, mulDiv, toPaisa } from "./Money.ts"
import type { Entry } from "./Replay.ts"
import { type Book, bookOf, isFailure, orderedEntries, Replayer, type ReplayFailure } from "./Replay.ts"
import { capitalGainsRuleFor } from "./Taxes.ts"

/** The tax year holding the first recorded session (2004-01-01): no ledger date is earlier. */
export const FIRST_TAX_YEAR = 2004

/** The tax year a date falls in (named by the year it ends). */
export const taxYearOf = (date: string) => Number(date.slice(0, 4)) + (Number(date.slice(5, 7)) >= 7 ? 1 : 0)

/** The first and last day of a tax year. */
export const taxYearPeriod = (year: number) => ({ from: `${year - 1}-07-01`, to: `${year}-06-30` })

export interface CapitalGainsTax {
  readonly rule: string
  readonly rate_pct: number
  /** Rupees: the rate on the sale's gain (0 on a loss). */
  readonly amount: number
}

export interface SaleLine {
  readonly event_id: string
  readonly symbol: string
  readonly trade_date: string
  readonly settlement_date: string
  readonly quantity: number
  readonly price: number
  readonly fees: number
  /** Quantity × price less fees. */
  readonly proceeds: number
  /** The average cost of the shares sold (fees of the buys included). */
  readonly cost: number
  readonly average_cost: number
  readonly gain: number
  readonly lots: ReadonlyArray<SoldLot>
  readonly holding_days_min: number
  readonly holding_days_max: number
  /** The earliest acquisition among every share held when sold (average cost pools them all). */
  readonly position_acquired_from: string
  readonly filer?: boolean
  readonly capital_gains_tax?: CapitalGainsTax
  readonly tax_note?: string
}

export interface DividendLine {
  readonly event_id: string
  readonly symbol: string
  readonly credit_date: string
  readonly book_closure_from?: string
  readonly entitlement_date?: string
  readonly shares?: number
  readonly per_share?: number
  readonly gross: number
  readonly tax_withheld: number
  readonly net: number
  /** `rule`: withheld by the dated rule; `warrant`: as the warrant shows; `none`: no tax was recorded. */
  readonly tax_basis: "rule" | "warrant" | "none"
  readonly tax_rule?: string
  readonly tax_rate_pct?: number
  readonly filer?: boolean
}

export interface BonusLine {
  readonly event_id: string
  readonly symbol: string
  readonly credit_date: string
  readonly percent: number
  readonly book_closure_from?: string
  readonly shares_received: number
  readonly fractional_entitlement: number
  readonly cost: 0
  readonly quantity_after: number
  readonly position_cost: number
  readonly average_cost_before?: number
  readonly average_cost_after?: number
}

export interface DonationLine {
  readonly event_id: string
  readonly donation_id: string
  readonly date: string
  readonly amount: number
  readonly status: string
  readonly note?: string
}

export interface ClosingPosition {
  readonly symbol: string
  readonly quantity: number
  readonly cost: number
  readonly average_cost?: number
}

export interface TaxYearFigures {
  readonly sales: ReadonlyArray<SaleLine>
  readonly dividends: ReadonlyArray<DividendLine>
  readonly bonuses: ReadonlyArray<BonusLine>
  readonly donations: ReadonlyArray<DonationLine>
  /** Positions at the end of the period (or of the last event in it), at cost. */
  readonly closing_positions: ReadonlyArray<ClosingPosition>
}

/** Average cost per share as the holdings answer shows it (four decimals). */
const averageOf = (b: Book) => (b.quantity > 0 ? Math.round((b.cost / 100 / b.quantity) * 10_000) / 10_000 : undefined)

/** Capital gains tax on a sale, or why none is computed. */
const taxOfSale = (gain: number, filer: boolean | undefined, acquiredFrom: string) => {
  const rule = capitalGainsRuleFor(acquiredFrom)
  if (filer === undefined) {
    return { tax_note: "no filer status is recorded for the sale date: no capital gains tax rate applies" }
  }
  if (!filer) return { tax_note: "non-filer: no capital gains tax rate is recorded for non-filers" }
  if (rule === undefined) {
    return {
      tax_note: `shares held since ${acquiredFrom}: no rate is recorded for securities bought before 2024-07-01`
    }
  }
  const amount = gain > 0 ? mulDiv(gain, Math.round(rule.filer_pct * 100), 10_000) : 0
  return { capital_gains_tax: { rule: rule.id, rate_pct: rule.filer_pct, amount: fromPaisa(amount) } }
}

type Trade = Extract<Entry["event"], { type: "TradeRecorded" }>

const saleLine = (
  e: Entry,
  ev: Trade,
  before: Book,
  after: Book,
  lots: ReadonlyArray<SoldLot>,
  acquiredFrom: string,
  filer: boolean | undefined
): SaleLine => {
  const gain = after.realized - before.realized
  const days = lots.map((l) => l.days)
  return {
    event_id: e.event_id,
    symbol: ev.symbol,
    trade_date: ev.trade_date,
    settlement_date: ev.settlement_date,
    quantity: ev.quantity,
    price: ev.price,
    fees: ev.fees,
    proceeds: fromPaisa(toPaisa(ev.price) * ev.quantity - toPaisa(ev.fees)),
    cost: fromPaisa(before.cost - after.cost),
    average_cost: averageOf(before) ?? 0,
    gain: fromPaisa(gain),
    lots,
    holding_days_min: Math.min(...days),
    holding_days_max: Math.max(...days),
    position_acquired_from: acquiredFrom,
    ...(filer !== undefined ? { filer } : {}),
    ...taxOfSale(gain, filer, acquiredFrom)
  }
}

type Dividend = Extract<Entry["event"], { type: "DividendRecorded" }>

const dividendLine = (e: Entry, ev: Dividend, before: Book, after: Book, shares: number | undefined): DividendLine => {
  const gross = after.gross - before.gross, tax = after.tax - before.tax
  const basis = ev.tax_withheld !== undefined
    ? "warrant" as const
    : ev.tax_rate_pct !== undefined
    ? "rule" as const
    : "none" as const
  return {
    event_id: e.event_id,
    symbol: ev.symbol,
    credit_date: ev.trade_date,
    ...(ev.book_closure_from !== undefined ? { book_closure_from: ev.book_closure_from } : {}),
    ...(ev.entitlement_date !== undefined ? { entitlement_date: ev.entitlement_date } : {}),
    ...(shares !== undefined ? { shares } : {}),
    ...(ev.per_share !== undefined ? { per_share: ev.per_share } : {}),
    gross: fromPaisa(gross),
    tax_withheld: fromPaisa(tax),
    net: fromPaisa(gross - tax),
    tax_basis: basis,
    ...(basis === "rule" && ev.tax_rule !== undefined ? { tax_rule: ev.tax_rule } : {}),
    ...(basis === "rule" ? { tax_rate_pct: ev.tax_rate_pct! } : {}),
    ...(ev.filer !== undefined ? { filer: ev.filer } : {})
  }
}

type Bonus = Extract<Entry["event"], { type: "BonusRecorded" }>

const bonusLine = (e: Entry, ev: Bonus, before: Book, after: Book): BonusLine => {
  const avgBefore = averageOf(before), avgAfter = averageOf(after)
  return {
    event_id: e.event_id,
    symbol: ev.symbol,
    credit_date: ev.trade_date,
    percent: ev.percent,
    ...(ev.book_closure_from !== undefined ? { book_closure_from: ev.book_closure_from } : {}),
    shares_received: after.quantity - before.quantity,
    fractional_entitlement: (after.fraction - before.fraction) / FRACTION_UNITS,
    cost: 0,
    quantity_after: after.quantity,
    position_cost: fromPaisa(after.cost),
    ...(avgBefore !== undefined ? { average_cost_before: avgBefore } : {}),
    ...(avgAfter !== undefined ? { average_cost_after: avgAfter } : {})
  }
}

/** Each symbol's quantity at the end of each date, as the replay applied events. */
const quantityAt = (
  history: ReadonlyMap<string, ReadonlyArray<{ date: string; quantity: number }>>,
  symbol: string,
  date: string
) => (history.get(symbol) ?? []).findLast((h) => h.date <= date)?.quantity ?? 0

/**
 * The figures of tax year `year` from a stream's entries (every event; reversed ones and reversals are left
 * out), or the replay's failure. Events after the year's end are not read.
 */
export const taxYearFigures = (entries: ReadonlyArray<Entry>, year: number): TaxYearFigures | ReplayFailure => {
  const { from, to } = taxYearPeriod(year)
  const ordered = orderedEntries(entries)
  // The filer status in force on a date: the newest recorded on or before it (Replay.ts `filerOn`, read once).
  const statuses = ordered.flatMap((
    e
  ) => (e.event.type === "TaxStatusRecorded" ? [{ date: e.effective_date, filer: e.event.filer }] : []))
  const filerOn = (date: string) => statuses.findLast((s) => s.date <= date)?.filer
  const replayer = new Replayer()
  const lots = new LotBook()
  const history = new Map<string, Array<{ date: string; quantity: number }>>()
  const sales: Array<SaleLine> = [], dividends: Array<DividendLine> = [], bonuses: Array<BonusLine> = []
  for (const e of ordered) {
    if (e.effective_date > to) break
    const ev = e.event
    if (ev.type === "TransactionReversed" || ev.type === "TaxStatusRecorded" || ev.type === "DonationRecorded") continue
    const before = replayer.book(ev.symbol)
    const poolFrom = lots.of(ev.symbol).reduce((m, l) => (l.acquired < m ? l.acquired : m), "9999-12-31")
    const applied = replayer.step(e)
    if (isFailure(applied)) return applied
    const after = replayer.book(ev.symbol)
    const list = history.get(ev.symbol) ?? []
    list.push({ date: e.effective_date, quantity: after.quantity })
    history.set(ev.symbol, list)
    const inYear = e.effective_date >= from
    if (ev.type === "TradeRecorded" && ev.side === "buy") {
      lots.add(ev.symbol, { acquired: ev.trade_date, quantity: ev.quantity, how: "buy" })
    } else if (ev.type === "TradeRecorded") {
      const taken = lots.take(ev.symbol, ev.quantity, ev.trade_date)
      if (inYear) sales.push(saleLine(e, ev, before, after, taken, poolFrom, filerOn(ev.trade_date)))
    } else if (ev.type === "BonusRecorded") {
      lots.add(ev.symbol, { acquired: ev.trade_date, quantity: after.quantity - before.quantity, how: "bonus" })
      if (inYear) bonuses.push(bonusLine(e, ev, before, after))
    } else if (ev.type === "SplitRecorded") lots.split(ev.symbol, ev.numerator, ev.denominator, after.quantity)
    else if (inYear) {
      const shares = ev.entitlement_date !== undefined ? quantityAt(history, ev.symbol, ev.entitlement_date) : undefined
      dividends.push(dividendLine(e, ev, before, after, shares))
    }
  }
  const closing_positions = [...replayer.state().values()].filter((p) => p.quantity > 0).map((p) => {
    const avg = averageOf(bookOf(p))
    return { symbol: p.symbol, quantity: p.quantity, cost: p.cost, ...(avg !== undefined ? { average_cost: avg } : {}) }
  })
  const donations = entries.flatMap((e): ReadonlyArray<DonationLine> => {
    const ev = e.event
    if (ev.type !== "DonationRecorded" || e.effective_date < from || e.effective_date > to) return []
    return [{
      event_id: e.event_id,
      donation_id: ev.donation_id,
      date: e.effective_date,
      amount: ev.amount,
      status: ev.status,
      ...(ev.note !== undefined ? { note: ev.note } : {})
    }]
  })
  return { sales, dividends, bonuses, donations, closing_positions }
}
