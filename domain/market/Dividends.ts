/**
 * Dividend history from recorded payouts: rows keyed by fiscal year, the
 * ex-date repair, trailing twelve-month dividend per share and yield, and a
 * five-year consistency count. Pure: the caller passes today's date.
 *
 * - `ex_date` is the start of the exchange's book closure.
 * - When the published closure is dated before the payout's own
 *   announcement (a year typed wrongly), the year is moved forward until the
 *   closure falls on or after the announcement; the row carries
 *   `ex_date_corrected` and keeps `ex_date_as_published`.
 * - `fiscal_year` is the year in which the fiscal year holding the period
 *   end closes (fiscal year end month from the company's annual rows or its
 *   profile); `calendar_year` is the calendar year of the ex-date.
 * - Rupees per share = percent × face value / 100, only when the face value
 *   is known (never assumed: it is Rs 10 for most companies but not all, and
 *   changes with face-value splits). Without it the trailing figure is given
 *   in the exchange's own unit, percent of face value.
 */
import { lastBuyDate } from "./Calendar.ts"

export interface PayoutRecord {
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

/** The ex-date repair: a closure published before its own announcement gets its year moved forward. */
export const repairExDate = (bookClosureFrom: string, announcedAt: string | undefined) => {
  const announced = announcedAt?.slice(0, 10)
  if (announced === undefined || bookClosureFrom >= announced) return { ex_date: bookClosureFrom }
  let repaired = bookClosureFrom
  for (let i = 0; i < 3 && repaired < announced; i++) repaired = shiftYear(repaired, 1)
  return repaired >= announced
    ? { ex_date: repaired, ex_date_corrected: true as const, ex_date_as_published: bookClosureFrom }
    : { ex_date: bookClosureFrom }
}

export const dividendRows = (
  payouts: ReadonlyArray<PayoutRecord>,
  faceValue: number | undefined,
  fyEndMonth: number | undefined
): ReadonlyArray<DividendRow> =>
  payouts
    .map((p): DividendRow => {
      const ex = p.bookClosureFrom ? repairExDate(p.bookClosureFrom, p.announcedAt) : undefined
      const amount = p.amountPerShare ??
        (p.kind === "cash" && p.percent !== undefined && faceValue !== undefined
          ? Math.round(p.percent * faceValue) / 100
          : undefined)
      const pe = p.periodEnd
      const fiscalYear = pe && fyEndMonth !== undefined
        ? Number(pe.slice(0, 4)) + (Number(pe.slice(5, 7)) > fyEndMonth ? 1 : 0)
        : undefined
      return {
        kind: p.kind,
        details: p.details,
        ...(fiscalYear !== undefined ? { fiscal_year: fiscalYear } : {}),
        ...(pe ? { period_end: pe } : {}),
        ...(p.periodType ? { period_label: `${periodLabels[p.periodType] ?? p.periodType} to ${pe ?? "?"}` } : {}),
        ...(ex ? { ...ex, calendar_year: Number(ex.ex_date.slice(0, 4)), last_buy_date: lastBuyDate(ex.ex_date) } : {}),
        ...(p.bookClosureTo ? { book_closure_to: p.bookClosureTo } : {}),
        ...(p.announcedAt ? { announced_at: p.announcedAt } : {}),
        ...(p.sequence ? { sequence: p.sequence } : {}),
        ...(p.percent !== undefined ? { percent: p.percent } : {}),
        ...(amount !== undefined ? { amount_per_share: amount } : {})
      }
    })
    .sort((a, b) => ((b.ex_date ?? b.announced_at ?? "") < (a.ex_date ?? a.announced_at ?? "") ? -1 : 1))

export interface Trailing {
  /** Sum of the cash payouts' percent of face value in the window (the exchange's own unit). */
  readonly ttm_dividend_percent?: number
  readonly ttm_dividend_per_share?: number
  readonly ttm_dividend_yield_pct?: number
  readonly years_paid?: number
}

/**
 * Trailing twelve months to `today` (ex-dates in (today − 365 days, today]),
 * only when the record covers that whole window and every cash row in it has
 * a rupee amount; the yield divides by `price` when one is known.
 */
export const trailing = (
  rows: ReadonlyArray<DividendRow>,
  today: string,
  coverageStart: string | undefined,
  price: number | undefined
): Trailing => {
  if (coverageStart === undefined) return {}
  const start = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`
  const out: { -readonly [K in keyof Trailing]: Trailing[K] } = {}
  const cash = rows.filter((r) => r.kind === "cash" && r.ex_date !== undefined)
  if (coverageStart <= start) {
    const window = cash.filter((r) => r.ex_date! > start && r.ex_date! <= today)
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
  const years = new Set(cash.map((r) => Number(r.ex_date!.slice(0, 4))).filter((y) => y > year - 5 && y <= year))
  out.years_paid = years.size
  return out
}
