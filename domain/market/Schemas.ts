/**
 * The market-data records the service answers with, shared by the HTTP API,
 * the MCP tools and the OpenAPI document. A field that is unknown is absent
 * (`optionalKey`), never 0 or null — except where SPEC gives null a meaning
 * (`ex_dividend`).
 */
import { Schema } from "effect"
import { PriceSeriesBasis, TechnicalsFigures } from "./TechnicalsSchema.ts"

const Num = Schema.Finite
const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const IsoDate = Schema.String.annotate({ description: "Calendar date, YYYY-MM-DD (Asia/Karachi)" })
const Instant = Schema.String.annotate({ description: "Instant, ISO 8601 UTC" })

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

export const Page = Schema.Struct({
  total: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })
})

export const CompanySummary = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sector: opt(Schema.String),
  sector_code: opt(Schema.String),
  security_type: Schema.Literals(["equity", "etf", "debt", "right", "preference", "other"]),
  inside_kse100: Schema.Boolean
})

export const CompaniesPage = Schema.Struct({
  ...Page.fields,
  items: Schema.Array(CompanySummary),
  sources: Schema.Array(Source)
})

export const SearchHit = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sector: opt(Schema.String),
  match: Schema.Literals(["exact_ticker", "ticker_prefix", "name"])
})
export const SearchResult = Schema.Struct({
  query: Schema.String,
  items: Schema.Array(SearchHit),
  total: Schema.Int,
  sources: Schema.Array(Source)
})

export const CorporateActionState = Schema.Struct({
  ex_dividend: Schema.NullOr(Schema.Boolean).annotate({
    description: "True on an ex-dividend day, false when known not to be, null when undetermined (not false)"
  }),
  basis: Schema.String.annotate({ description: "How ex_dividend was determined, or why it could not be" }),
  recent_actions: Schema.Array(Schema.Struct({ kind: Schema.String, ex_date: opt(IsoDate), details: Schema.String }))
})

export const Quote = Schema.Struct({
  symbol: Schema.String,
  status: Schema.Literal("delayed"),
  price: Num,
  previous_close: opt(Num),
  change: opt(Num),
  change_pct: opt(Num),
  open: opt(Num),
  high: opt(Num),
  low: opt(Num),
  volume: opt(Num),
  as_of: Instant,
  basis: Schema.Literals(["daily_close", "board_snapshot"]).annotate({
    description: "daily_close: the day's closing price; board_snapshot: a delayed intraday board reading"
  }),
  stale: Schema.Boolean.annotate({ description: "True when returned with allow_stale=true past the freshness rule" }),
  corporate_actions: CorporateActionState,
  source: opt(Source.annotate({ description: "Where the quote came from; absent only if its dataset's provenance is not recorded" }))
})
export type Quote = typeof Quote.Type

export const PriceRow = Schema.Struct({
  date: IsoDate,
  open: opt(Num),
  high: opt(Num),
  low: opt(Num),
  close: Num,
  volume: opt(Num),
  flag: opt(Schema.String.annotate({ description: "Why this row is suspect (excluded from computed windows)" }))
})

export const PriceWindow = Schema.Struct({
  range: Schema.String,
  from: IsoDate,
  to: IsoDate,
  high: Num,
  low: Num,
  first_close: Num,
  last_close: Num,
  change: Num,
  change_pct: Num,
  basis: Schema.Literal("close").annotate({ description: "High and low of the window are of daily closes" })
})

export const PricesResponse = Schema.Struct({
  symbol: Schema.String,
  adjusted: Schema.Literal(false),
  series: Schema.Literals(["as_traded", "eod", "merged"]),
  restated_by_source: Schema.Union([Schema.Boolean, Schema.Literal("unknown")]).annotate({
    description: "true: the exchange restated this series for a split or consolidation after it happened (never for dividends); " +
      "false: as traded (verified against an as-traded recording); \"unknown\": no recording shows either, see `note`"
  }),
  note: opt(Schema.String),
  ...Page.fields,
  window: opt(PriceWindow),
  items: Schema.Array(PriceRow),
  sources: Schema.Array(Source)
})

export const FinancialLine = Schema.Struct({
  line: Schema.String,
  value: Num,
  units: Schema.Literals(["thousands", "rupees"])
})
export const FinancialPeriod = Schema.Struct({
  period: Schema.String,
  period_type: Schema.Literals(["annual", "quarterly"]),
  fiscal_year: opt(Schema.Int),
  quarter: opt(Schema.Int),
  fiscal_year_end: opt(Schema.String),
  lines: Schema.Array(FinancialLine)
})
export const Financials = Schema.Struct({
  symbol: Schema.String,
  statement: Schema.Literal("income"),
  units: Schema.String,
  coverage: Schema.Literals(["recorded", "unknown"]),
  periods: Schema.Array(FinancialPeriod),
  sources: Schema.Array(Source)
})

export const DividendRow = Schema.Struct({
  fiscal_year: opt(Schema.Int),
  period_end: opt(IsoDate),
  period_label: opt(Schema.String),
  calendar_year: opt(Schema.Int),
  ex_date: opt(IsoDate.annotate({
    description: "The day the stock trades ex (XD/XB/XR): the trading day after last_buy_date, before the book closure starts"
  })),
  book_closure_from: opt(IsoDate.annotate({ description: "Start of the exchange's book closure" })),
  ex_date_corrected: opt(Schema.Literal(true).annotate({ description: "The closure start was published before the announcement; its year was moved forward" })),
  ex_date_as_published: opt(IsoDate.annotate({ description: "The closure start as published, when corrected" })),
  book_closure_to: opt(IsoDate),
  last_buy_date: opt(IsoDate),
  announced_at: opt(Instant),
  kind: Schema.Literals(["cash", "bonus", "right"]),
  sequence: opt(Schema.String),
  percent: opt(Num),
  amount_per_share: opt(Num.annotate({ description: "Rupees per share (percent × face value)" })),
  details: Schema.String
})
export const Dividends = Schema.Struct({
  symbol: Schema.String,
  coverage: Schema.Literals(["recorded", "unknown"]),
  data_coverage_start: opt(IsoDate),
  face_value: opt(Num),
  ttm_dividend_percent: opt(Num.annotate({ description: "Trailing 12 months of cash payouts, in percent of face value" })),
  ttm_dividend_per_share: opt(Num.annotate({ description: "Rupees; only when the face value is known" })),
  ttm_dividend_yield_pct: opt(Num),
  ttm_from: opt(IsoDate.annotate({ description: "Start (exclusive) of the trailing 12-month window" })),
  ttm_to: opt(IsoDate.annotate({
    description: "End of the trailing window: today, or the end of the payout record when it stops earlier (then the figure is as of that date)"
  })),
  years_paid: opt(Schema.Int.annotate({ description: "Of the last five calendar years covered by the record (years_covered), how many had a cash payout" })),
  years_covered: opt(Schema.Int.annotate({ description: "How many of the last five calendar years the payout record covers; fewer than 5 = a partial measure" })),
  items: Schema.Array(DividendRow),
  sources: Schema.Array(Source)
})

export const CorporateAction = Schema.Struct({
  kind: Schema.String,
  ex_date: opt(IsoDate),
  ratio: opt(Num),
  details: Schema.String,
  dataset: Schema.String
})
export const CorporateActions = Schema.Struct({
  symbol: Schema.String,
  items: Schema.Array(CorporateAction),
  sources: Schema.Array(Source)
})

export const Announcement = Schema.Struct({
  id: Schema.String,
  symbol: Schema.String,
  company_name: opt(Schema.String),
  published_at: Instant,
  title: Schema.String,
  document_url: opt(Schema.String),
  image_url: opt(Schema.String),
  revoked: Schema.Boolean,
  source_type: Schema.Literal("filing")
})
export const Announcements = Schema.Struct({
  ...Page.fields,
  items: Schema.Array(Announcement),
  sources: Schema.Array(Source)
})

export const NewsItem = Schema.Struct({
  id: Schema.String,
  symbol: opt(Schema.String),
  title: Schema.String,
  url: opt(Schema.String),
  published_at: Instant,
  event_date: opt(IsoDate),
  republished: Schema.Boolean
})
export const News = Schema.Struct({
  coverage: Schema.Literals(["recorded", "unknown"]),
  note: opt(Schema.String),
  ...Page.fields,
  items: Schema.Array(NewsItem)
})

export const Ratios = Schema.Struct({
  pe_ttm: opt(Num),
  eps: opt(Num),
  dividend_yield_pct: opt(Num.annotate({ description: "The exchange's screener figure" })),
  market_cap: opt(Num),
  free_float_shares: opt(Num),
  shares_outstanding: opt(Num),
  face_value: opt(Num),
  as_of: opt(Schema.String.annotate({ description: "The date the figures describe; absent when not recorded" }))
})

export const Company = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sector: opt(Schema.String),
  sector_code: opt(Schema.String),
  security_type: Schema.String,
  listed_in: Schema.Array(Schema.String),
  inside_kse100: Schema.Boolean,
  kse100_weight_pct: opt(Num),
  description: opt(Schema.String),
  fiscal_year_end: opt(Schema.String),
  quote: opt(Quote),
  ratios: opt(Ratios),
  ttm_dividend_per_share: opt(Num),
  ttm_dividend_yield_pct: opt(Num),
  dividend_coverage: Schema.Literals(["recorded", "unknown"]),
  delisted_on: opt(IsoDate.annotate({
    description: "The day the symbol was first seen gone from the exchange's listing; absent while listed. A delisted " +
      "company keeps its history, payouts and filings, and is left out of the company list, the screener and peers."
  })),
  sources: Schema.Array(Source)
})

export const Derived = Schema.Struct({
  market_cap: opt(Num),
  week52: opt(Schema.Struct({ high: Num, low: Num, from: IsoDate, to: IsoDate, basis: Schema.Literal("close") })),
  circuit_breaker: opt(
    Schema.Struct({
      lower: Num,
      upper: Num,
      session: IsoDate.annotate({ description: "The trading session the bounds apply to: the next trading day after the quote's close" }),
      previous_close: Num,
      rule: Schema.String
    }).annotate({
      description: "Price limits of the next trading session after the quote, from its close (that session's previous close), " +
        "under the rule in force that day; absent before the first sourced rule. Past sessions' bounds say nothing about today."
    })
  ),
  net_margin_pct: opt(Num),
  eps_growth_pct: opt(Num),
  price_series: opt(PriceSeriesBasis.annotate({ description: "The series week52 was computed from, and whether its source restated it" }))
})

export const Stock = Schema.Struct({
  ...Company.fields,
  peers: Schema.Array(Schema.Struct({ symbol: Schema.String, name: Schema.String, pe_ttm: opt(Num), dividend_yield_pct: opt(Num) })),
  sector_medians: opt(Schema.Struct({ pe_ttm: opt(Num), dividend_yield_pct: opt(Num), pe_peers: Schema.Int, yield_peers: Schema.Int })),
  dividends: Schema.Array(DividendRow),
  filings: Schema.Array(Announcement),
  financials: Schema.Array(FinancialPeriod),
  derived: Derived,
  technicals: opt(TechnicalsFigures.annotate({
    description: "Moving averages, RSI, MACD, Bollinger, pivots and volatility as state labels (as /v1/stocks/{sym}/technicals); absent with no clean price history"
  }))
})

export const DatasetFreshness = Schema.Struct({
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
    description: "When the figures were fetched from upstream: the recording's retrieval date or month, or the live read's instant"
  }),
  loaded_at: Instant.annotate({ description: "When this service loaded the dataset into its store" }),
  age_days: opt(Schema.Int.annotate({ description: "Days from as_of to now" })),
  recorded_in: Schema.String,
  licence: Schema.String,
  notes: opt(Schema.String)
})
/** The live crawler's progress on one dataset kind (with PSX_SOURCE=portal). */
export const CrawlFreshness = Schema.Struct({
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

export const Freshness = Schema.Struct({
  now: Instant,
  source_mode: Schema.Literals(["pack", "portal"]),
  data_pack: opt(Schema.String),
  datasets: Schema.Array(DatasetFreshness),
  crawl: opt(Schema.Array(CrawlFreshness).annotate({ description: "The live portal crawl per dataset (PSX_SOURCE=portal only)" }))
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
