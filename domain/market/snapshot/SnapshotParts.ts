/**
 * The pieces `buildSnapshot` makes from the store's rows: grouping, newest
 * first ordering, per-dataset coverage, payout records, the exchange's
 * blanks and index membership at its newest date.
 */
import { defined } from "../../Objects.ts"
import type { PayoutRecord } from "../filings/Dividends.ts"
import { datasetAt, type PriceSeries } from "./Series.ts"
import type { ActionRow, FundamentalsRow, MembershipRow, PayoutRow } from "./StoreRows.ts"

/** Rows of one area for one symbol, per dataset: how many and which dates. */
export interface AreaCoverage {
  readonly dataset: string
  readonly rows: number
  readonly first?: string
  readonly last?: string
}

export const groupBy = <A>(rows: ReadonlyArray<A>, key: (a: A) => string) => {
  const out = new Map<string, Array<A>>()
  for (const r of rows) {
    const k = key(r)
    const list = out.get(k)
    if (list) list.push(r)
    else out.set(k, [r])
  }
  return out
}

export const byDesc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)
/** Newest published first (ties by id, descending). */
export const newestFirst = (
  a: { readonly published_at: string; readonly id: string },
  b: { readonly published_at: string; readonly id: string }
) => byDesc(a.published_at, b.published_at) || byDesc(a.id, b.id)

/** A filing's place in newest-first order: its Karachi date, then its time (a date-only filing after the timed ones of its day), then id. */
export interface FilingPosition {
  readonly published_on: string
  readonly published_at?: string | undefined
  readonly id: string
}
/** Filings newest first by `FilingPosition`. */
export const filingsNewestFirst = (a: FilingPosition, b: FilingPosition) =>
  byDesc(a.published_on, b.published_on) || byDesc(a.published_at ?? "", b.published_at ?? "") || byDesc(a.id, b.id)

export const coverage = <A>(rows: ReadonlyArray<A>, dataset: (a: A) => string, date: (a: A) => string | undefined) => {
  const per = new Map<string, { rows: number; first?: string; last?: string }>()
  for (const r of rows) {
    const d = dataset(r)
    const c = per.get(d) ?? { rows: 0 }
    const day = date(r)
    per.set(d, {
      rows: c.rows + 1,
      ...(day !== undefined
        ? {
          first: c.first === undefined || day < c.first ? day : c.first,
          last: c.last === undefined || day > c.last ? day : c.last
        }
        : c.first !== undefined && c.last !== undefined
        ? { first: c.first, last: c.last }
        : {})
    })
  }
  return [...per].map(([d, c]): AreaCoverage => ({ dataset: d, ...c }))
}

export const seriesCoverage = (series: ReadonlyArray<PriceSeries | undefined>): ReadonlyArray<AreaCoverage> => {
  const per = new Map<string, { rows: number; first: string; last: string }>()
  for (const s of series) {
    if (s === undefined) continue
    for (let i = 0; i < s.dates.length; i++) {
      const d = datasetAt(s, i), day = s.dates[i]!
      const c = per.get(d)
      if (c === undefined) per.set(d, { rows: 1, first: day, last: day })
      else {
        c.rows++
        if (day < c.first) c.first = day
        if (day > c.last) c.last = day
      }
    }
  }
  return [...per].map(([dataset, c]) => ({ dataset, ...c }))
}

export const toPayout = (r: PayoutRow): PayoutRecord => ({
  id: r.id,
  dataset: r.dataset,
  symbol: r.symbol,
  details: r.details,
  kind: r.kind,
  ...defined({
    announcedAt: r.announced_at,
    periodEnd: r.period_end,
    periodType: r.period_type,
    percent: r.percent,
    amountPerShare: r.amount_per_share,
    sequence: r.sequence,
    bookClosureFrom: r.book_closure_from,
    bookClosureTo: r.book_closure_to
  })
})

/** A market cap of 0 is the exchange's blank (LPCL, PAKCEM on the 2026-04-08 screener), never a figure: absent. */
export const withoutZeroCap = (r: FundamentalsRow): FundamentalsRow => {
  if (r.market_cap === undefined || r.market_cap > 0) return r
  const { market_cap: _, ...rest } = r
  return rest
}

/** The members at the newest effective date among `members`, heaviest first. */
export const newestSet = (members: ReadonlyArray<MembershipRow>) => {
  const newest = members.reduce((d, m) => (m.effective_date > d ? m.effective_date : d), "")
  return members
    .filter((m) => m.effective_date === newest)
    .sort((a, b) => (b.weight_pct ?? -Infinity) - (a.weight_pct ?? -Infinity) || (a.symbol < b.symbol ? -1 : 1))
}

/** Newest XD day first, undated last (ties by id). */
export const byXdDate = (a: ActionRow, b: ActionRow) =>
  a.xd_date === b.xd_date
    ? (a.id < b.id ? -1 : 1)
    : a.xd_date === undefined
    ? 1
    : b.xd_date === undefined
    ? -1
    : byDesc(a.xd_date, b.xd_date)
