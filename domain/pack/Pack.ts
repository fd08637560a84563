/**
 * The bundled data pack's format: a manifest naming each dataset with its
 * provenance, and compact columnar price series (day offsets from a start
 * date; a missing value is null in its column, never 0).
 */
import { Option, Result, Schema, SchemaIssue } from "effect"
import { fromDay, toDay } from "../Karachi.ts"
import type { PriceRow } from "../psx/Prices.ts"

/** A date, a month, or an instant, at the precision the recording gives it. */
const RecordingTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z)?)?$/u)
).annotate({ description: "YYYY-MM, YYYY-MM-DD or an ISO 8601 UTC instant" })
const Text = Schema.NonEmptyString

/**
 * One dataset's provenance. Every field is required and non-empty: a pack
 * whose manifest lacks one does not build (scripts/build-pack.ts) and does
 * not import (DataPack decodes the manifest with this schema).
 */
export const PackProvenance = Schema.Struct({
  id: Text,
  file: Text,
  title: Text,
  /** What the figures are, as the exchange publishes them. */
  source: Text,
  /** The upstream address the recording was taken from. */
  upstream: Text,
  /** The file(s) in the recording. */
  path: Text,
  repository: Text,
  commit: Text,
  licence: Text,
  /** When the recording was retrieved from upstream (date or month, as the recording states it). */
  recordedAt: RecordingTime,
  /** The market date or instant the figures describe. */
  asOf: RecordingTime,
  rows: Schema.Int,
  /** reason → count of values or rows the parser left out. */
  skipped: Schema.Record(Schema.String, Schema.Int),
  notes: Schema.optionalKey(Schema.String),
  bytes: Schema.Int,
  sha256: Text
})
export type PackProvenance = typeof PackProvenance.Type

export const PackManifest = Schema.Struct({
  version: Text,
  builtFrom: Text,
  notice: Text,
  datasets: Schema.Array(PackProvenance)
})
export type PackManifest = typeof PackManifest.Type

/**
 * What is wrong with a manifest, one line per problem (empty when it
 * decodes): a missing or empty provenance field names its dataset and field.
 */
export const manifestProblems = (value: unknown): ReadonlyArray<string> => {
  const result = Schema.decodeUnknownResult(PackManifest)(value, { errors: "all" })
  if (Result.isSuccess(result)) return []
  const datasets = Schema.decodeUnknownOption(
    Schema.Struct({ datasets: Schema.Array(Schema.Struct({ id: Schema.String })) })
  )(value)
  const idAt = (i: unknown) =>
    Option.match(datasets, {
      onNone: () => undefined,
      onSome: (m) => (typeof i === "number" ? m.datasets[i]?.id : undefined)
    })
  return formatIssues(result.failure.issue).issues.map((issue) => {
    const path = (issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p))
    const id = path[0] === "datasets" ? idAt(path[1]) : undefined
    const where = path.map(String).join(".")
    return `${where}${id !== undefined ? ` (dataset ${id})` : ""}: ${issue.message}`
  })
}
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const Column = Schema.Array(Schema.NullOr(Schema.Finite))

/** A price series in columns (the pack's storage form). */
export const EncodedSeries = Schema.Struct({
  /** First date, YYYY-MM-DD. */
  s: Schema.String,
  /** Days since the previous row (the first is 0). */
  d: Schema.Array(Schema.Int),
  c: Schema.Array(Schema.Finite),
  v: Schema.optionalKey(Column),
  o: Schema.optionalKey(Column),
  h: Schema.optionalKey(Column),
  l: Schema.optionalKey(Column)
})
export type EncodedSeries = typeof EncodedSeries.Type

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
