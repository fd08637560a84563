/**
 * The bundled data pack's format: a manifest naming each dataset with its
 * provenance, and compact columnar price series (day offsets from a start
 * date; a missing value is null in its column, never 0).
 */
import type { PriceRow } from "../psx/Prices.ts"

export interface PackProvenance {
  readonly id: string
  readonly file: string
  readonly title: string
  /** What the figures are, as the exchange publishes them. */
  readonly source: string
  /** The upstream address the recording was taken from. */
  readonly upstream: string
  /** The file(s) in the recording. */
  readonly path: string
  readonly repository: string
  readonly commit: string
  readonly licence: string
  /** When the recording was made (date or month). */
  readonly recordedAt: string
  /** The market date or instant the figures describe. */
  readonly asOf: string
  readonly rows: number
  /** reason → count of values or rows the parser left out. */
  readonly skipped: Readonly<Record<string, number>>
  readonly notes?: string
  readonly bytes: number
  readonly sha256: string
}

export interface PackManifest {
  readonly version: string
  readonly builtFrom: string
  readonly notice: string
  readonly datasets: ReadonlyArray<PackProvenance>
}

export interface EncodedSeries {
  /** First date, YYYY-MM-DD. */
  readonly s: string
  /** Days since the previous row (the first is 0). */
  readonly d: ReadonlyArray<number>
  readonly c: ReadonlyArray<number>
  readonly v?: ReadonlyArray<number | null>
  readonly o?: ReadonlyArray<number | null>
  readonly h?: ReadonlyArray<number | null>
  readonly l?: ReadonlyArray<number | null>
}

const DAY = 86_400_000
const toDay = (iso: string) => Date.parse(iso + "T00:00:00Z") / DAY
const fromDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)

/** Rows in ascending date order → columns. */
export const encodeSeries = (rows: ReadonlyArray<PriceRow>): EncodedSeries => {
  const sorted = [...rows].sort((a, b) => (a.date < b.date ? -1 : 1))
  const d: Array<number> = []
  let prev = sorted.length > 0 ? toDay(sorted[0]!.date) : 0
  for (const r of sorted) {
    const day = toDay(r.date)
    d.push(day - prev)
    prev = day
  }
  const column = (k: "open" | "high" | "low" | "volume") =>
    sorted.some((r) => r[k] !== undefined) ? sorted.map((r) => r[k] ?? null) : undefined
  const v = column("volume"), o = column("open"), h = column("high"), l = column("low")
  return {
    s: sorted[0]?.date ?? "1970-01-01",
    d,
    c: sorted.map((r) => r.close),
    ...(v ? { v } : {}),
    ...(o ? { o } : {}),
    ...(h ? { h } : {}),
    ...(l ? { l } : {})
  }
}

/** Columns → rows in ascending date order; nulls become absent fields. */
export const decodeSeries = (e: EncodedSeries): Array<PriceRow> => {
  const out: Array<PriceRow> = []
  let day = toDay(e.s)
  for (let i = 0; i < e.c.length; i++) {
    day += e.d[i] ?? 0
    const row: { -readonly [K in keyof PriceRow]: PriceRow[K] } = { date: fromDay(day), close: e.c[i]! }
    const v = e.v?.[i], o = e.o?.[i], h = e.h?.[i], l = e.l?.[i]
    if (v !== undefined && v !== null) row.volume = v
    if (o !== undefined && o !== null) row.open = o
    if (h !== undefined && h !== null) row.high = h
    if (l !== undefined && l !== null) row.low = l
    out.push(row)
  }
  return out
}
