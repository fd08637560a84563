/**
 * Columnar price blobs (the store's `price_series` projection) to
 * `PriceSeries`, and the merged series. The blobs are big-endian: int4 day
 * numbers since 1970-01-01 and float8 figures with NaN for unknown; each row
 * names its dataset by index into the row's dataset list.
 */
import type { PriceSeries } from "./Series.ts"
import type { PriceSeriesRow } from "./StoreRows.ts"

import { fromDay } from "../../Karachi.ts"

/** Interns ISO date strings so the same day is one string across every series. */
export const makeDateInterner = () => {
  const byDay = new Map<number, string>()
  return (day: number): string => {
    let s = byDay.get(day)
    if (s === undefined) {
      s = fromDay(day)
      byDay.set(day, s)
    }
    return s
  }
}

/** Shared storage for columns that hold no known figure at all (e.g. the eod series' open/high/low). */
const UNKNOWN = new Float64Array(16_384).fill(Number.NaN)
const allUnknown = (rows: number): Float64Array =>
  rows <= UNKNOWN.length ? UNKNOWN.subarray(0, rows) : new Float64Array(rows).fill(Number.NaN)

/** A column of figures; one with no known figure shares read-only NaN storage. */
const column = (out: Float64Array): Float64Array => {
  for (let i = 0; i < out.length; i++) if (!Number.isNaN(out[i]!)) return out
  return allUnknown(out.length)
}

const floats = (bytes: Uint8Array, rows: number): Float64Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Float64Array(rows)
  for (let i = 0; i < rows; i++) out[i] = view.getFloat64(i * 8)
  return column(out)
}

/** Flags are rare: a series with none shares one empty list (reading any index gives undefined). */
const NO_FLAGS: ReadonlyArray<string | undefined> = []

/** A decoded series, or a reason when the blob does not hold `rows` rows. */
export const decodeSeries = (
  row: PriceSeriesRow,
  dateOf: (day: number) => string
): PriceSeries | string => {
  const n = row.rows
  const sizes: ReadonlyArray<[string, Uint8Array, number]> = [
    ["dates", row.dates, 4],
    ["open", row.open, 8],
    ["high", row.high, 8],
    ["low", row.low, 8],
    ["close", row.close, 8],
    ["volume", row.volume, 8],
    ["dataset_index", row.dataset_index, 2]
  ]
  for (const [name, bytes, width] of sizes) {
    if (bytes.byteLength !== n * width) {
      return `${row.symbol}/${row.series}: ${name} holds ${bytes.byteLength} bytes, expected ${n * width}`
    }
  }
  const dv = new DataView(row.dates.buffer, row.dates.byteOffset, row.dates.byteLength)
  const di = new DataView(row.dataset_index.buffer, row.dataset_index.byteOffset, row.dataset_index.byteLength)
  if (row.datasets.length > 255) return `${row.symbol}/${row.series}: more than 255 datasets`
  const dates = new Array<string>(n)
  const datasetIndex = new Uint8Array(n)
  const flagged = Object.keys(row.flags).length > 0
  const flag = flagged ? new Array<string | undefined>(n) : NO_FLAGS
  for (let i = 0; i < n; i++) {
    const day = dv.getInt32(i * 4)
    dates[i] = dateOf(day)
    const d = di.getInt16(i * 2)
    if (d < 0 || d >= row.datasets.length) return `${row.symbol}/${row.series}: row ${i} names no dataset`
    datasetIndex[i] = d
    if (flagged) (flag as Array<string | undefined>)[i] = row.flags[String(day)]
  }
  return {
    symbol: row.symbol,
    series: row.series,
    dates,
    open: floats(row.open, n),
    high: floats(row.high, n),
    low: floats(row.low, n),
    close: floats(row.close, n),
    volume: floats(row.volume, n),
    flag,
    datasets: row.datasets,
    datasetIndex
  }
}

/**
 * As traded where recorded, else eod, date by date; only for symbols whose
 * eod series is verified as traded (Restated.ts). A flagged as-traded row
 * gives way to an unflagged eod row of the same day.
 */
export const mergeSeries = (asTraded: PriceSeries, eod: PriceSeries): PriceSeries => {
  // Row k of the merge is row pick[k] of as-traded (fromEod[k] = 0) or of eod (1): two flat arrays, no per-row objects.
  const cap = asTraded.dates.length + eod.dates.length
  const pick = new Int32Array(cap)
  const fromEod = new Uint8Array(cap)
  const dates: Array<string> = []
  let i = 0, j = 0
  while (i < asTraded.dates.length || j < eod.dates.length) {
    const a = asTraded.dates[i], e = eod.dates[j]
    const k = dates.length
    // On a shared day the as-traded row wins unless it is flagged and the eod row is not (a glitch of that source).
    const eodWins = a !== undefined && a === e && asTraded.flag[i] !== undefined && eod.flag[j] === undefined
    if (a !== undefined && (e === undefined || a <= e) && !eodWins) {
      pick[k] = i
      dates.push(a)
      if (a === e) j++
      i++
    } else if (eodWins) {
      pick[k] = j
      fromEod[k] = 1
      dates.push(e!)
      i++
      j++
    } else {
      pick[k] = j
      fromEod[k] = 1
      dates.push(e!)
      j++
    }
  }
  const n = dates.length
  const col = (key: "open" | "high" | "low" | "close" | "volume") => {
    const out = new Float64Array(n)
    const a = asTraded[key], e = eod[key]
    for (let k = 0; k < n; k++) out[k] = fromEod[k] === 1 ? e[pick[k]!]! : a[pick[k]!]!
    return column(out)
  }
  const datasets = [...new Set([...asTraded.datasets, ...eod.datasets])]
  const aIndex = asTraded.datasets.map((d) => datasets.indexOf(d))
  const eIndex = eod.datasets.map((d) => datasets.indexOf(d))
  const datasetIndex = new Uint8Array(n)
  for (let k = 0; k < n; k++) {
    datasetIndex[k] = fromEod[k] === 1
      ? eIndex[eod.datasetIndex[pick[k]!]!]!
      : aIndex[asTraded.datasetIndex[pick[k]!]!]!
  }
  const anyFlag = asTraded.flag.length > 0 || eod.flag.length > 0
  const flag = anyFlag
    ? Array.from({ length: n }, (_, k) => (fromEod[k] === 1 ? eod : asTraded).flag[pick[k]!])
    : NO_FLAGS
  return {
    symbol: asTraded.symbol,
    series: "merged",
    dates,
    open: col("open"),
    high: col("high"),
    low: col("low"),
    close: col("close"),
    volume: col("volume"),
    flag,
    datasets,
    datasetIndex
  }
}
