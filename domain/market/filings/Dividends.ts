/**
 * Dividend history from recorded payouts: rows keyed by fiscal year, the
 * ex-date repair, trailing twelve-month dividend per share and yield, and a
 * five-year consistency count. Pure: the caller passes today's date.
 */
import { defined } from "../../Objects.ts"
import { lastBuyDate, xdDate } from "../calendar/Calendar.ts"

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
  readonly period_corrected?: true
  readonly period_as_published?: string
  readonly calendar_year?: number
  /** The book closure's first day (SPEC 2.3). */
  readonly ex_date?: string
  readonly book_closure_from?: string
  /** The day the stock trades ex: the trading day after `last_buy_date`. */
  readonly xd_date?: string
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

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december"
]

/** The fiscal year end month (1-12) from annual payout rows (finals first), else from a profile text like "June". */
export const fiscalYearEndMonth = (payouts: ReadonlyArray<PayoutRecord>, profileText?: string): number | undefined => {
  const annual = payouts.find((p) => p.periodType === "YR" && p.periodEnd && p.sequence === "final") ??
    payouts.find((p) => p.periodType === "YR" && p.periodEnd && !p.sequence?.startsWith("interim"))
  if (annual?.periodEnd) return Number(annual.periodEnd.slice(5, 7))
  const i = profileText ? months.indexOf(profileText.trim().toLowerCase()) : -1
  return i >= 0 ? i + 1 : undefined
}

/** Whether the stated period can be the payout's: a final is for a whole year (YR), an interim for part of one. */
const periodAgrees = (sequence: string | undefined, periodType: string | undefined) =>
  sequence === undefined || periodType === undefined ||
  (sequence === "final" ? periodType === "YR" : !sequence.startsWith("interim") || periodType !== "YR")

const monthEnd = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)
const quarterTypes: ReadonlyArray<string> = ["IQ", "HYR", "IIIQ", "YR"]

/**
 * The period of a payout whose stated period contradicts its sequence (an
 * interim stated against a whole year): the latest fiscal quarter end before
 * the announcement, a year end for a final and a part-year end for an
 * interim (MCB "60%(i)" announced 27 Apr 2023 against "31/12/2022(YR)": the
 * first quarter to 2023-03-31).
 */
const periodAtAnnouncement = (sequence: string, announced: string, fyEndMonth: number) => {
  for (let k = 0; k < 12; k++) {
    const total = Number(announced.slice(0, 4)) * 12 + Number(announced.slice(5, 7)) - 1 - k
    const year = Math.floor(total / 12), month = (total % 12) + 1
    const intoYear = ((month - fyEndMonth) % 12 + 12) % 12 // months since the fiscal year began, 0 = its end
    const end = monthEnd(year, month)
    if (intoYear % 3 !== 0 || end >= announced) continue
    const type = quarterTypes[(intoYear === 0 ? 12 : intoYear) / 3 - 1]!
    if ((type === "YR") === (sequence === "final")) return { periodEnd: end, periodType: type }
  }
  return undefined
}

export interface PayoutPeriod {
  readonly fiscal_year?: number
  readonly period_end?: string
  readonly period_label?: string
  readonly period_corrected?: true
  readonly period_as_published?: string
}

/**
 * One rule for a payout's period, fiscal year and label, so they agree with
 * its sequence: the stated period when it can be the payout's, else the
 * period at the announcement (`periodAtAnnouncement`), marked
 * `period_corrected` with the stated one kept in `period_as_published`. The
 * fiscal year is the year in which the fiscal year holding the period end
 * closes; the label names the period type and its end.
 */
export const payoutPeriod = (p: PayoutRecord, fyEndMonth: number | undefined): PayoutPeriod => {
  const announced = p.announcedAt?.slice(0, 10)
  const derived = !periodAgrees(p.sequence, p.periodType) && fyEndMonth !== undefined && announced !== undefined
    ? periodAtAnnouncement(p.sequence!, announced, fyEndMonth)
    : undefined
  const pe = derived?.periodEnd ?? p.periodEnd, type = derived?.periodType ?? p.periodType
  return {
    ...defined({
      fiscal_year: pe && fyEndMonth !== undefined
        ? Number(pe.slice(0, 4)) + (Number(pe.slice(5, 7)) > fyEndMonth ? 1 : 0)
        : undefined,
      period_end: pe,
      period_label: type ? `${periodLabels[type] ?? type} to ${pe ?? "?"}` : undefined
    }),
    ...(derived
      ? {
        period_corrected: true as const,
        period_as_published: `${p.periodEnd ?? "?"} (${periodLabels[p.periodType!] ?? p.periodType})`
      }
      : {})
  }
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

/** The closure start (repaired) as `ex_date` and `book_closure_from`, the XD day and the last buy date of a payout. */
const exFields = (closure: ReturnType<typeof repairExDate>) => ({
  ex_date: closure.ex_date,
  calendar_year: Number(closure.ex_date.slice(0, 4)),
  book_closure_from: closure.ex_date,
  ...(closure.ex_date_corrected
    ? { ex_date_corrected: true as const, ex_date_as_published: closure.ex_date_as_published! }
    : {}),
  ...defined({ xd_date: xdDate(closure.ex_date), last_buy_date: lastBuyDate(closure.ex_date) })
})

/**
 * `faceValue`: one face value for every row, or the face value in force on a
 * row's ex day (FaceValues.ts: LUCK Rs 10 until 18 Apr 2025, Rs 2 from 28 Apr
 * 2025, so its 250% of Aug 2026 is Rs 5).
 *
 * - `ex_date` is the start of the exchange's book closure (SPEC 2.3), the
 *   same day as `book_closure_from`; `xd_date` is the day the stock trades ex
 *   (XD, XB, XR): the trading day after `last_buy_date`, under the
 *   settlement cycle then in force (Calendar.ts `xdDate`; MEBL's closure
 *   from 2025-08-27 went XD on 2025-08-25). `xd_date` and `last_buy_date`
 *   are absent when that cycle is not sourced. Trailing windows count a
 *   payout on its XD day (the day it leaves the price).
 * - When the published closure is dated before the payout's own
 *   announcement (a year typed wrongly), the year is moved forward until the
 *   closure falls on or after the announcement; the row carries
 *   `ex_date_corrected` and keeps the closure start as published in
 *   `ex_date_as_published`.
 * - `fiscal_year`, `period_end` and `period_label` follow one rule
 *   (`payoutPeriod`) that agrees with the payout's `sequence`: the fiscal
 *   year is the year in which the fiscal year holding the period end closes
 *   (fiscal year end month from the company's annual rows or its profile);
 *   a stated period that cannot be the payout's (an interim against a whole
 *   year) is replaced by the period at the announcement and marked
 *   `period_corrected`. `calendar_year` is the calendar year of the ex-date.
 * - Rupees per share = percent × face value / 100, only when the face value
 *   is known (never assumed: it is Rs 10 for most companies but not all, and
 *   changes with face-value splits). Without it the trailing figure is given
 *   in the exchange's own unit, percent of face value.
 */
export const dividendRows = (
  payouts: ReadonlyArray<PayoutRecord>,
  faceValue: number | undefined | ((xdDay: string) => number | undefined),
  fyEndMonth: number | undefined
): ReadonlyArray<DividendRow> =>
  payouts
    .map((p): DividendRow => {
      const ex = p.bookClosureFrom ? repairExDate(p.bookClosureFrom, p.announcedAt) : undefined
      const xd = ex ? xdDate(ex.ex_date) : undefined
      const face = typeof faceValue === "function" ? (xd !== undefined ? faceValue(xd) : undefined) : faceValue
      const amount = p.amountPerShare ??
        (p.kind === "cash" && p.percent !== undefined && face !== undefined
          ? Math.round(p.percent * face) / 100
          : undefined)
      return {
        kind: p.kind,
        details: p.details,
        ...payoutPeriod(p, fyEndMonth),
        ...(ex ? exFields(ex) : {}),
        ...(p.bookClosureTo ? { book_closure_to: p.bookClosureTo } : {}),
        ...(p.announcedAt ? { announced_at: p.announcedAt } : {}),
        ...(p.sequence ? { sequence: p.sequence } : {}),
        ...defined({ percent: p.percent, amount_per_share: amount })
      }
    })
    .sort((a, b) => ((b.ex_date ?? b.announced_at ?? "") < (a.ex_date ?? a.announced_at ?? "") ? -1 : 1))

/** Rupees per share over the price, in percent, to 4 decimal places. */
export const yieldPct = (dps: number, price: number): number => Math.round((dps / price) * 1_000_000) / 10_000

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
 * Trailing twelve months (XD days in (end − 1 year, end]) where `end` is
 * today, or the end of the payout record when it stops earlier (the record
 * cannot show later payouts: the window is bounded by coverage and says so
 * in `ttm_to`), or the date of the price when that is earlier still (a
 * yield divides the payouts up to the price's date by that price, never a
 * later window by an older price), only when the record covers that whole
 * window and every cash row in it has a rupee amount. `years_paid` counts
 * only calendar years of the last five that the record covers, and
 * `years_covered` says how many those are.
 */
export const trailing = (
  rows: ReadonlyArray<DividendRow>,
  today: string,
  coverageStart: string | undefined,
  price: { readonly price: number; readonly date: string } | undefined,
  coverageEnd?: string
): Trailing => {
  if (coverageStart === undefined) return {}
  const end = [today, coverageEnd, price?.date].filter((d): d is string => d !== undefined).sort()[0]!
  const start = `${Number(end.slice(0, 4)) - 1}${end.slice(4)}`
  const out: { -readonly [K in keyof Trailing]: Trailing[K] } = {}
  const cash = rows.filter((r) => r.kind === "cash" && r.xd_date !== undefined)
  if (coverageStart <= start) {
    out.ttm_from = start
    out.ttm_to = end
    const window = cash.filter((r) => r.xd_date! > start && r.xd_date! <= end)
    if (window.every((r) => r.percent !== undefined)) {
      out.ttm_dividend_percent = Math.round(window.reduce((s, r) => s + r.percent!, 0) * 10_000) / 10_000
    }
    if (window.every((r) => r.amount_per_share !== undefined)) {
      const dps = Math.round(window.reduce((s, r) => s + r.amount_per_share!, 0) * 10_000) / 10_000
      out.ttm_dividend_per_share = dps
      if (price !== undefined && price.price > 0) out.ttm_dividend_yield_pct = yieldPct(dps, price.price)
    }
  }
  const year = Number(today.slice(0, 4))
  const covered = (y: number) =>
    `${y}-12-31` >= coverageStart && (coverageEnd === undefined || `${y}-01-01` <= coverageEnd)
  const last5 = [0, 1, 2, 3, 4].map((k) => year - k).filter(covered)
  const years = new Set(cash.map((r) => Number(r.xd_date!.slice(0, 4))).filter((y) => last5.includes(y)))
  out.years_paid = years.size
  out.years_covered = last5.length
  return out
}
