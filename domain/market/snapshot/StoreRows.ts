/**
 * The market tables' rows as the read model loads them: one Schema per
 * table, so a row that does not fit is a typed error at the boundary and
 * never a silent lie. SQL NULL decodes to `undefined` (unknown, never 0).
 * Numbers arrive as float8/int4, dates as text (YYYY-MM-DD), instants as
 * ISO-8601 text, columnar price blobs as bytes.
 */
import { Option, Predicate, Schema, SchemaTransformation } from "effect"

/** A nullable column: SQL NULL decodes to an absent key (unknown), a value to itself. */
const Maybe = <S extends Schema.Codec<any, any>>(schema: S) =>
  Schema.optionalKey(Schema.NullOr(schema)).pipe(
    Schema.decodeTo(
      Schema.optionalKey(Schema.toType(schema)),
      SchemaTransformation.transformOptional<S["Type"], S["Type"] | null>({
        decode: Option.filter(Predicate.isNotNull),
        encode: (o) => o
      })
    )
  )

const n = Maybe(Schema.Finite)
const t = Maybe(Schema.String)

export const DatasetRow = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  source: Schema.String,
  upstream: Schema.String,
  repository: Schema.String,
  commit: Schema.String,
  licence: Schema.String,
  recorded_at: Schema.String,
  as_of: Schema.String,
  retrieved_at: Schema.String,
  loaded_at: Schema.String,
  rows: Schema.Finite,
  notes: t,
  coverage_symbols: n,
  coverage_first: t,
  coverage_last: t
})
export type DatasetRow = typeof DatasetRow.Type

export const SecurityRow = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sector_code: t,
  sector_name: t,
  security_type: Schema.Literals(["equity", "etf", "debt", "right", "preference", "other"]),
  search_text: Schema.String,
  dataset: Schema.String,
  /** The Karachi day the symbol was first seen gone from the exchange's listing; absent while listed. */
  delisted_on: t
})
export type SecurityRow = typeof SecurityRow.Type

export const SectorRow = Schema.Struct({ code: Schema.String, name: Schema.String, dataset: Schema.String })
export type SectorRow = typeof SectorRow.Type

export const MembershipRow = Schema.Struct({
  index_code: Schema.String,
  symbol: Schema.String,
  effective_date: Schema.String,
  weight_pct: n,
  dataset: Schema.String
})
export type MembershipRow = typeof MembershipRow.Type

export const IndexLevelRow = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  level: Schema.Finite,
  previous: n,
  as_of: Schema.String,
  previous_date: t,
  dataset: Schema.String
})
export type IndexLevelRow = typeof IndexLevelRow.Type

/** One daily close of an index (migration 0022). */
export const IndexCloseRow = Schema.Struct({
  code: Schema.String,
  date: Schema.String,
  close: Schema.Finite,
  dataset: Schema.String
})
export type IndexCloseRow = typeof IndexCloseRow.Type

export const DisagreementRow = Schema.Struct({
  symbol: Schema.String,
  factor: Schema.Finite,
  points: Schema.Finite,
  agreeing: Schema.Finite,
  first_date: Schema.String,
  last_date: Schema.String,
  dataset: Schema.String
})
export type DisagreementRow = typeof DisagreementRow.Type

export const QuoteRow = Schema.Struct({
  symbol: Schema.String,
  price: Schema.Finite,
  previous_close: n,
  open: n,
  high: n,
  low: n,
  change: n,
  change_pct: n,
  volume: n,
  as_of: Schema.String,
  basis: Schema.Literals(["daily_close", "board_snapshot"]),
  dataset: Schema.String
})
export type QuoteRow = typeof QuoteRow.Type

export const FundamentalsRow = Schema.Struct({
  symbol: Schema.String,
  market_cap: n,
  price: n,
  change_pct: n,
  change_year_pct: n,
  pe_ttm: n,
  dividend_yield_pct: n,
  free_float_shares: n,
  volume_30d_avg: n,
  shares_outstanding: n,
  face_value: n,
  eps: n,
  listed_in: Schema.Array(Schema.String),
  as_of: t,
  dataset: Schema.String
})
export type FundamentalsRow = typeof FundamentalsRow.Type

export const ProfileRow = Schema.Struct({
  symbol: Schema.String,
  description: t,
  fiscal_year_end: t,
  shares: n,
  free_float_shares: n,
  free_float_pct: n,
  market_cap: n,
  week52_low: n,
  week52_high: n,
  as_of: Schema.String,
  dataset: Schema.String
})
export type ProfileRow = typeof ProfileRow.Type

export const FinancialLineRow = Schema.Struct({
  symbol: Schema.String,
  period_type: Schema.Literals(["annual", "quarterly"]),
  period: Schema.String,
  fiscal_year: n,
  quarter: n,
  line: Schema.String,
  value: Schema.Finite,
  units: Schema.Literals(["thousands", "rupees"]),
  dataset: Schema.String
})
export type FinancialLineRow = typeof FinancialLineRow.Type

export const RatioRow = Schema.Struct({
  symbol: Schema.String,
  period: Schema.String,
  name: Schema.String,
  value: Schema.Finite,
  dataset: Schema.String
})
export type RatioRow = typeof RatioRow.Type

export const PayoutRow = Schema.Struct({
  id: Schema.String,
  symbol: Schema.String,
  announced_at: t,
  period_end: t,
  period_type: t,
  details: Schema.String,
  kind: Schema.Literals(["cash", "bonus", "right"]),
  percent: n,
  amount_per_share: n,
  sequence: t,
  book_closure_from: t,
  book_closure_to: t,
  dataset: Schema.String
})
export type PayoutRow = typeof PayoutRow.Type

export const PayoutCoverageRow = Schema.Struct({
  symbol: Schema.String,
  coverage: Schema.Literals(["recorded", "unknown"]),
  data_coverage_start: t,
  dataset: Schema.String
})
export type PayoutCoverageRow = typeof PayoutCoverageRow.Type

/** A corporate action; `xd_date` is the day it trades ex (the table's column `ex_date`). */
export const ActionRow = Schema.Struct({
  id: Schema.String,
  symbol: Schema.String,
  kind: Schema.String,
  xd_date: t,
  ratio: n,
  details: Schema.String,
  dataset: Schema.String
}).pipe(Schema.encodeKeys({ xd_date: "ex_date" }))
export type ActionRow = typeof ActionRow.Type

export const AnnouncementRow = Schema.Struct({
  id: Schema.String,
  symbol: Schema.String,
  company_name: t,
  /** The exchange's Karachi date of the filing. */
  published_on: Schema.String,
  /** Only when the source gave a time of day. */
  published_at: t,
  title: Schema.String,
  document_url: t,
  image_url: t,
  revoked: Schema.Boolean,
  dataset: Schema.String
})
export type AnnouncementRow = typeof AnnouncementRow.Type

export const NewsRow = Schema.Struct({
  id: Schema.String,
  symbol: t,
  title: Schema.String,
  url: t,
  published_at: Schema.String,
  event_date: t,
  republished: Schema.Boolean,
  dataset: Schema.String,
  /** The recording's search keywords, space-separated (not tags). */
  source_keywords: t
})
export type NewsRow = typeof NewsRow.Type

/** One (symbol, series) of the columnar price projection. */
export const PriceSeriesRow = Schema.Struct({
  symbol: Schema.String,
  series: Schema.Literals(["as_traded", "eod"]),
  rows: Schema.Finite,
  dates: Schema.Uint8Array,
  open: Schema.Uint8Array,
  high: Schema.Uint8Array,
  low: Schema.Uint8Array,
  close: Schema.Uint8Array,
  volume: Schema.Uint8Array,
  datasets: Schema.Array(Schema.String),
  dataset_index: Schema.Uint8Array,
  flags: Schema.Record(Schema.String, Schema.String)
})
export type PriceSeriesRow = typeof PriceSeriesRow.Type

/** Everything the read model is built from, as decoded rows. */
export interface StoreRows {
  readonly version: number
  readonly dataPack: string | undefined
  readonly datasets: ReadonlyArray<DatasetRow>
  readonly sectors: ReadonlyArray<SectorRow>
  readonly securities: ReadonlyArray<SecurityRow>
  readonly membership: ReadonlyArray<MembershipRow>
  readonly indexLevels: ReadonlyArray<IndexLevelRow>
  readonly indexCloses: ReadonlyArray<IndexCloseRow>
  readonly disagreements: ReadonlyArray<DisagreementRow>
  readonly quotes: ReadonlyArray<QuoteRow>
  readonly fundamentals: ReadonlyArray<FundamentalsRow>
  readonly profiles: ReadonlyArray<ProfileRow>
  readonly financialLines: ReadonlyArray<FinancialLineRow>
  readonly ratios: ReadonlyArray<RatioRow>
  readonly payouts: ReadonlyArray<PayoutRow>
  readonly payoutCoverage: ReadonlyArray<PayoutCoverageRow>
  readonly actions: ReadonlyArray<ActionRow>
  readonly announcements: ReadonlyArray<AnnouncementRow>
  readonly news: ReadonlyArray<NewsRow>
  readonly series: ReadonlyArray<PriceSeriesRow>
  /**
   * Symbols whose eod series a point-in-time read leaves out: restated by the source, its restatement's date not
   * recorded, and retrieved after the instant (src/market/readmodel/MarketClockRows.ts). Absent: none.
   */
  readonly withheldEod?: ReadonlyArray<string>
}
