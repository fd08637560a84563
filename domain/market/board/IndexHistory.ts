/**
 * An index's recorded daily closes (KSE-100 from 2010), as the market
 * snapshot holds them, and the reads other features make of them: the close
 * on or before a day (a portfolio's comparison with KSE-100 over its own
 * dates), and a window of closes with its close-based high, low and change.
 * Pure: every figure is a recorded close or computed from recorded closes;
 * a day before the first close has none (never an estimate).
 */
import { indexAtOrBefore } from "../snapshot/Series.ts"
import type { IndexCloseRow } from "../snapshot/StoreRows.ts"

/** One index's closes, dates ascending; `dataset[i]` names the recording of row i. */
export interface IndexCloses {
  readonly code: string
  readonly dates: ReadonlyArray<string>
  readonly close: ReadonlyArray<number>
  readonly dataset: ReadonlyArray<string>
}

/** The closes of every index, by code, from store rows in any order (one row per code and date). */
export const indexClosesOf = (rows: ReadonlyArray<IndexCloseRow>): ReadonlyMap<string, IndexCloses> => {
  const byCode = new Map<string, Array<IndexCloseRow>>()
  for (const r of rows) {
    const list = byCode.get(r.code)
    if (list === undefined) byCode.set(r.code, [r])
    else list.push(r)
  }
  return new Map([...byCode].map(([code, list]) => {
    const sorted = list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    return [code, {
      code,
      dates: sorted.map((r) => r.date),
      close: sorted.map((r) => r.close),
      dataset: sorted.map((r) => r.dataset)
    }]
  }))
}

/** An index's recorded closes in a snapshot (code as stored, e.g. KSE100), if any. */
export const indexCloses = (
  snapshot: { readonly indexCloses: ReadonlyMap<string, IndexCloses> },
  code: string
): IndexCloses | undefined => snapshot.indexCloses.get(code)

/** The index of the last row dated on or before `date` (-1 when every row is later). */
export const rowOnOrBefore = (s: IndexCloses, date: string): number => indexAtOrBefore(s, date)

/** The close in force on `date`: the last recorded close on or before it, with its own date and dataset. */
export const closeOnOrBefore = (
  s: IndexCloses,
  date: string
): { date: string; close: number; dataset: string } | undefined => {
  const i = rowOnOrBefore(s, date)
  return i < 0 ? undefined : { date: s.dates[i]!, close: s.close[i]!, dataset: s.dataset[i]! }
}

/** Rows lo..hi (inclusive) whose dates fall in [from, to] (either open); empty when hi < lo. */
export const rowsBetween = (s: IndexCloses, from: string | undefined, to: string | undefined) => {
  const hi = to === undefined ? s.dates.length - 1 : rowOnOrBefore(s, to)
  const before = from === undefined ? -1 : rowOnOrBefore(s, from)
  const lo = from === undefined ? 0 : s.dates[before] === from ? before : before + 1
  return { lo, hi }
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places

/** The close-based high, low and change over rows lo..hi (undefined for an empty window). */
export const windowChange = (s: IndexCloses, lo: number, hi: number) => {
  if (hi < lo) return undefined
  let high = -Infinity, low = Infinity
  for (let i = lo; i <= hi; i++) {
    high = Math.max(high, s.close[i]!)
    low = Math.min(low, s.close[i]!)
  }
  const first = s.close[lo]!, last = s.close[hi]!
  return {
    high,
    low,
    first_close: first,
    last_close: last,
    change: round(last - first, 4),
    change_pct: round((last / first - 1) * 100, 4)
  }
}
