/**
 * Dividend history from recorded payouts: rows keyed by fiscal year, the
 * ex-date repair, trailing twelve-month dividend per share and yield, and a
 * five-year consistency count. Pure: the caller passes today's date.
 *
 * - `book_closure_from` is the start of the exchange's book closure;
 *   `ex_date` is the day the stock trades ex (XD, XB, XR): the trading day
 *   after the last buy date, under the settlement cycle then in force
 *   (Calendar.ts `exDate`; MEBL's closure from 2025-08-27 went XD on
 *   2025-08-25). Both are absent when that cycle is not sourced.
 * - When the published closure is dated before the payout's own
 *   announcement (a year typed wrongly), the year is moved forward until the
 *   closure falls on or after the announcement; the row carries
 *   `ex_date_corrected` and keeps the closure start as published in
 *   `ex_date_as_published`.
 * - `fiscal_year` is the year in which the fiscal year holding the period
 *   end closes (fiscal year end month from the company's annual rows or its
 *   profile); `calendar_year` is the calendar year of the ex-date.
 * - Rupees per share = percent × face value / 100, only when the face value
 *   is known (never assumed: it is Rs 10 for most companies but not all, and
 *   changes with face-value splits). Without it the trailing figure is given
 *   in the exchange's own unit, percent of face value.
 */
import { exDate, lastBuyDate } from "./Calendar.ts"
import { defined } from "../Objects.ts"

export interface PayoutRecord {
  /** The store's payout id (stable, from the payout's content) and the dataset it came from. */
  readonly id?: string
  readonly dataset?: string
  readonly symbol: string
  readonly announcedAt?: string
  readonly periodEnd?: string
  readonly periodType?: string
  readonly details: string
  readonly kind: "cash" | "bonus" | "right"
  readonly percent?: number
  readonly amountPerShare?: number
  readonly sequence?: string
  readonly bookClosureFrom?: string
  readonly bookClosureTo?: string
}

export interface DividendRow {
  readonly fiscal_year?: number
  readonly period_end?: string
  readonly period_label?: string
  readonly calendar_year?: number
  readonly ex_date?: string
  readonly book_closure_from?: string
  readonly ex_date_corrected?: true
  readonly ex_date_as_published?: string
  readonly book_closure_to?: string
  readonly last_buy_date?: string
  readonly announced_at?: string
  readonly kind: "cash" | "bonus" | "right"
  readonly sequence?: string
  readonly percent?: number
  readonly amount_per_share?: number
  readonly details: string
}

const periodLabels: Record<string, string> = {
  YR: "annual",
  HYR: "half-year",
  IQ: "first quarter",
  IIQ: "second quarter",
  IIIQ: "nine months"
}

const months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]

/** The fiscal year end month (1-12) from annual payout rows, else from a profile text like "June". */
export const fiscalYearEndMonth = (payouts: ReadonlyArray<PayoutRecord>, profileText?: string): number | undefined => {
  const annual = payouts.find((p) => p.periodType === "YR" && p.periodEnd)
  if (annual?.periodEnd) return Number(annual.periodEnd.slice(5, 7))
  const i = profileText ? months.indexOf(profileText.trim().toLowerCase()) : -1
  return i >= 0 ? i + 1 : undefined
}

const shiftYear = (iso: string, years: number) => `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`

/** The closure-date repair: a closure published before its own announcement gets its year moved forward (`ex_date` here is the closure start). */
export const repairExDate = (bookClosureFrom: string, announcedAt: string | undefined) => {
  const announced = announcedAt?.slice(0, 10)
  if (announced === undefined || bookClosureFrom >= announced) return { ex_date: bookClosureFrom }
  let repaired = bookClosureFrom
  for (let i = 0; i < 3 && repaired < announced; i++) repaired = shiftYear(repaired, 1)
  return repaired >= announced
    ? { ex_date: repaired, ex_date_corrected: true as const, ex_date_as_published: bookClosureFrom }
    : { ex_date: bookClosureFrom }
}

/** The closure start (repaired), the ex day and the last buy date of a payout. */
const exFields = (closure: ReturnType<typeof repairExDate>) => {
  const xd = exDate(closure.ex_date), last = lastBuyDate(closure.ex_date)
  return {
    book_closure_from: closure.ex_date,
    ...(closure.ex_date_corrected ? { ex_date_corrected: true as const, ex_date_as_published: closure.ex_date_as_published! } : {}),
    ...(xd !== undefined ? { ex_date: xd, calendar_year: Number(xd.slice(0, 4)) } : {}),
    ...defined({ last_buy_date: last })
  }
}

/**
 * `faceValue`: one face value for every row, or the face value in force on a
 * row's ex day (FaceValues.ts: LUCK Rs 10 until 18 Apr 2025, Rs 2 from 28 Apr
 * 2025, so its 250% of Aug 2026 is Rs 5).
 */
export const dividendRows = (
  payouts: ReadonlyArray<PayoutRecord>,
  faceValue: number | undefined | ((exDate: string) => number | undefined),
  fyEndMonth: number | undefined
): ReadonlyArray<DividendRow> =>
  payouts
    .map((p): DividendRow => {
      const ex = p.bookClosureFrom ? repairExDate(p.bookClosureFrom, p.announcedAt) : undefined
      const xd = ex ? exDate(ex.ex_date) : undefined
      const face = typeof faceValue === "function" ? (xd !== undefined ? faceValue(xd) : undefined) : faceValue
      const amount = p.amountPerShare ??
        (p.kind === "cash" && p.percent !== undefined && face !== undefined
          ? Math.round(p.percent * face) / 100
          : undefined)
      const pe = p.periodEnd
      const fiscalYear = pe && fyEndMonth !== undefined
        ? Number(pe.slice(0, 4)) + (Number(pe.slice(5, 7)) > fyEndMonth ? 1 : 0)
        : undefined
      return {
        kind: p.kind,
        details: p.details,
        ...defined({ fiscal_year: fiscalYear }),
        ...(pe ? { period_end: pe } : {}),
        ...(p.periodType ? { period_label: `${periodLabels[p.periodType] ?? p.periodType} to ${pe ?? "?"}` } : {}),
        ...(ex ? exFields(ex) : {}),
        ...(p.bookClosureTo ? { book_closure_to: p.bookClosureTo } : {}),
        ...(p.announcedAt ? { announced_at: p.announcedAt } : {}),
        ...(p.sequence ? { sequence: p.sequence } : {}),
        ...defined({ percent: p.percent, amount_per_share: amount })
      }
    })
    .sort((a, b) => ((b.ex_date ?? b.announced_at ?? "") < (a.ex_date ?? a.announced_at ?? "") ? -1 : 1))

export interface Trailing {
  /** Sum of the cash payouts' percent of face value in the window (the exchange's own unit). */
  readonly ttm_dividend_percent?: number
  readonly ttm_dividend_per_share?: number
  readonly ttm_dividend_yield_pct?: number
  readonly years_paid?: number
  /** Of the last five calendar years, how many the payout record covers (in part). */
  readonly years_covered?: number
  /** The trailing window, bounded by the end of the record. */
  readonly ttm_from?: string
  readonly ttm_to?: string
}

/**
 * Trailing twelve months (ex-dates in (end − 1 year, end]) where `end` is
 * today, or the end of the payout record when it stops earlier (the record
 * cannot show later payouts: the window is bounded by coverage and says so
 * in `ttm_to`), only when the record covers that whole window and every cash
 * row in it has a rupee amount; the yield divides by `price` when one is
 * known. `years_paid` counts only calendar years of the last five that the
 * record covers, and `years_covered` says how many those are.
 */
export const trailing = (
  rows: ReadonlyArray<DividendRow>,
  today: string,
  coverageStart: string | undefined,
  price: number | undefined,
  coverageEnd?: string
): Trailing => {
  if (coverageStart === undefined) return {}
  const end = coverageEnd !== undefined && coverageEnd < today ? coverageEnd : today
  const start = `${Number(end.slice(0, 4)) - 1}${end.slice(4)}`
  const out: { -readonly [K in keyof Trailing]: Trailing[K] } = {}
  const cash = rows.filter((r) => r.kind === "cash" && r.ex_date !== undefined)
  if (coverageStart <= start) {
    out.ttm_from = start
    out.ttm_to = end
    const window = cash.filter((r) => r.ex_date! > start && r.ex_date! <= end)
    if (window.every((r) => r.percent !== undefined)) {
      out.ttm_dividend_percent = Math.round(window.reduce((s, r) => s + r.percent!, 0) * 10_000) / 10_000
    }
    if (window.every((r) => r.amount_per_share !== undefined)) {
      const dps = Math.round(window.reduce((s, r) => s + r.amount_per_share!, 0) * 10_000) / 10_000
      out.ttm_dividend_per_share = dps
      if (price !== undefined && price > 0) out.ttm_dividend_yield_pct = Math.round((dps / price) * 1_000_000) / 10_000
    }
  }
  const year = Number(today.slice(0, 4))
  const covered = (y: number) => `${y}-12-31` >= coverageStart && (coverageEnd === undefined || `${y}-01-01` <= coverageEnd)
  const last5 = [0, 1, 2, 3, 4].map((k) => year - k).filter(covered)
  const years = new Set(cash.map((r) => Number(r.ex_date!.slice(0, 4))).filter((y) => last5.includes(y)))
  out.years_paid = years.size
  out.years_covered = last5.length
  return out
}
