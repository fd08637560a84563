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
    description:
      "When the figures were fetched from upstream: a recording's retrieval date or month as its provenance states it, or the live read's instant (ISO 8601 UTC)"
  }),
  recorded_in: opt(Schema.String.annotate({
    description:
      "Where the recording is kept: repository@commit, one per repository (separated by \"; \") when a dataset joins several"
  }))
})
export type Source = typeof Source.Type

/**
 * `repository@commit` for a dataset recorded in one or more repositories: the manifest lists them in order, each
 * list joined by "; ", so the nth repository is paired with the nth commit (`digits`: the commit's length shown).
 * Lists of different lengths are not paired, so no commit is ever put on a repository it does not belong to.
 */
export const recordedIn = (repository: string, commit: string, digits?: number): string => {
  const repos = repository.split("; "),
    commits = commit.split("; ").map((c) => (digits === undefined ? c : c.slice(0, digits)))
  return repos.length === commits.length
    ? repos.map((r, i) => `${r}@${commits[i]!}`).join("; ")
    : `${repos.join("; ")} (commits ${commits.join("; ")})`
}

/** An exchange figure as the exchange published it (its screener), beside one this service computes. */
export const PublishedFigure = Schema.Struct({
  value: Num,
  as_of: Schema.String.annotate({ description: "The exchange screener's date" }),
  price: opt(Num.annotate({ description: "The price the exchange computed it at (its screener row's price)" }))
})

/**
 * What an answer's coverage leaves out, in short sentences (a record missing for the symbol, members without a figure,
 * an index without weights): additive to the answer's fields, absent when there is nothing to say, never empty.
 */
export const Warnings = Schema.Array(Schema.String).annotate({
  description: "What the answer's coverage leaves out, in words; absent when there is nothing to say"
})

/** The paging fields of a paged answer. */
export const Page = Schema.Struct({
  total: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String).annotate({
    description: "Pass as `cursor` for the next page; null on the last page"
  })
})
