/**
 * How stale each dataset is and where a symbol's figures came from
 * (GET /v1/freshness, /v1/stocks/{symbol}/sources), and an ingest's result.
 */
import { Schema } from "effect"
import { Instant, IsoDate, opt, Source } from "./RecordParts.ts"

/** One dataset's provenance, coverage and age, as GET /v1/freshness lists it. */
export const DatasetStatusRecord = Schema.Struct({
  dataset: Schema.String,
  title: Schema.String,
  source: Schema.String,
  upstream: Schema.String,
  rows: Schema.Int,
  symbols: opt(Schema.Int),
  first_date: opt(IsoDate),
  last_date: opt(IsoDate),
  as_of: Schema.String,
  retrieved_at: Schema.String.annotate({
    description:
      "When the figures were fetched from upstream: the recording's retrieval date or month, or the live read's instant"
  }),
  loaded_at: Instant.annotate({ description: "When this service loaded the dataset into its store" }),
  age_days: opt(Schema.Int.annotate({ description: "Days from as_of to now" })),
  recorded_in: Schema.String,
  licence: Schema.String,
  notes: opt(Schema.String)
})
/** The live crawler's progress on one dataset kind (with PSX_SOURCE=portal). */
export const CrawlProgress = Schema.Struct({
  dataset: Schema.String.annotate({ description: "Dataset kind: symbols, screener, market_watch, eod, company, …" }),
  keys: Schema.Int.annotate({ description: "Pages tried at least once (one per symbol for per-symbol datasets)" }),
  fetched: Schema.Int.annotate({ description: "Pages fetched successfully at least once" }),
  failing: Schema.Int.annotate({ description: "Pages whose latest attempt failed (their last good figures are kept)" }),
  last_success: opt(Instant),
  last_attempt: opt(Instant),
  age_seconds: opt(Schema.Int.annotate({ description: "Seconds since the last successful fetch" })),
  error: opt(Schema.Literal("SOURCE_UNAVAILABLE").annotate({ description: "Present when the latest attempt failed" })),
  last_error: opt(Schema.String),
  last_error_at: opt(Instant)
})

/** The answer of GET /v1/freshness. */
export const FreshnessAnswer = Schema.Struct({
  now: Instant,
  source_mode: Schema.Literals(["pack", "portal"]),
  data_pack: opt(Schema.String),
  datasets: Schema.Array(DatasetStatusRecord),
  crawl: opt(
    Schema.Array(CrawlProgress).annotate({ description: "The live portal crawl per dataset (PSX_SOURCE=portal only)" })
  )
})

export const SymbolSources = Schema.Struct({
  symbol: Schema.String,
  areas: Schema.Array(Schema.Struct({
    area: Schema.String,
    coverage: Schema.Literals(["recorded", "unknown"]),
    rows: Schema.Int,
    first_date: opt(IsoDate),
    last_date: opt(IsoDate),
    sources: Schema.Array(Source)
  })),
  notice: Schema.String
})

export const IngestResult = Schema.Struct({
  warmed: Schema.Int,
  batch: Schema.Int,
  remaining: Schema.Int,
  universe: Schema.Int,
  source: Schema.String,
  symbols: Schema.Array(Schema.String)
})
