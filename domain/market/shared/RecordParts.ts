/**
 * The parts every market record is built from: finite numbers, optional
 * (absent when unknown) keys, dates, instants, where a figure came from, and paging.
 */
import { Schema } from "effect"

export const Num = Schema.Finite
export const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
export const IsoDate = Schema.String.annotate({ description: "Calendar date, YYYY-MM-DD (Asia/Karachi)" })
export const Instant = Schema.String.annotate({ description: "Instant, ISO 8601 UTC" })

/** Where a figure came from and when. */
export const Source = Schema.Struct({
  dataset: Schema.String,
  source: Schema.String,
  as_of: Schema.String.annotate({ description: "The market date or instant the figures describe" }),
  retrieved_at: Schema.String.annotate({
    description: "When the figures were fetched from upstream: a recording's retrieval date or month as its provenance states it, or the live read's instant (ISO 8601 UTC)"
  }),
  recorded_in: opt(Schema.String)
})
export type Source = typeof Source.Type

/** The paging fields of a paged answer. */
export const Page = Schema.Struct({
  total: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })
})
