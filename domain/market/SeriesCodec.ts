/**
 * Columnar price blobs (the store's `price_series` projection) to
 * `PriceSeries`, and the merged series. The blobs are big-endian: int4 day
 * numbers since 1970-01-01 and float8 figures with NaN for unknown; each row
 * names its dataset by index into the row's dataset list.
 */
import type { PriceSeriesRow } from "./StoreRows.ts"
import type { PriceSeries } from "./Series.ts"

const DAY_MS = 86_400_000

/** Interns ISO date strings so the same day is one string across every series. */
export const makeDateInterner = () => {
  const byDay = new Map<number, string>()
  return (day: number): string => {
    let s = byDay.get(day)
    if (s === undefined) {
      s = new Date(day * DAY_MS).toISOString().slice(0, 10)
      byDay.set(day, s)
    }
    return s
  }
}

const floats = (bytes: Uint8Array, rows: number): Float64Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Float64Array(rows)
  for (let i = 0; i < rows; i++) out[i] = view.getFloat64(i * 8)
  return out
}

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
    if (bytes.byteLength !== n * width) return `${row.symbol}/${row.series}: ${name} holds ${bytes.byteLength} bytes, expected ${n * width}`
  }
  const dv = new DataView(row.dates.buffer, row.dates.byteOffset, row.dates.byteLength)
  const di = new DataView(row.dataset_index.buffer, row.dataset_index.byteOffset, row.dataset_index.byteLength)
  const dates = new Array<string>(n)
  const dataset = new Array<string>(n)
  const flag = new Array<string | undefined>(n)
  const days = new Array<number>(n)
  for (let i = 0; i < n; i++) {
    const day = dv.getInt32(i * 4)
    days[i] = day
    dates[i] = dateOf(day)
    const d = row.datasets[di.getInt16(i * 2)]
    if (d === undefined) return `${row.symbol}/${row.series}: row ${i} names no dataset`
    dataset[i] = d
    flag[i] = row.flags[String(day)]
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
    dataset
  }
}

/** As traded where recorded, else eod, date by date (the two agree where both exist for such symbols). */
export const mergeSeries = (asTraded: PriceSeries, eod: PriceSeries): PriceSeries => {
  const dates: Array<string> = []
  const pick: Array<[PriceSeries, number]> = []
  let i = 0, j = 0
  while (i < asTraded.dates.length || j < eod.dates.length) {
    const a = asTraded.dates[i], e = eod.dates[j]
    if (a !== undefined && (e === undefined || a <= e)) {
      pick.push([asTraded, i])
      dates.push(a)
      if (a === e) j++
      i++
    } else {
      pick.push([eod, j])
      dates.push(e!)
      j++
    }
  }
  const col = (key: "open" | "high" | "low" | "close" | "volume") => Float64Array.from(pick, ([s, k]) => s[key][k]!)
  return {
    symbol: asTraded.symbol,
    series: "merged",
    dates,
    open: col("open"),
    high: col("high"),
    low: col("low"),
    close: col("close"),
    volume: col("volume"),
    flag: pick.map(([s, k]) => s.flag[k]),
    dataset: pick.map(([s, k]) => s.dataset[k]!)
  }
}
