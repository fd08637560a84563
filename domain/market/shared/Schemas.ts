/**
 * The market-data records the service answers with, shared by the HTTP API,
 * the MCP tools and the OpenAPI document. A field that is unknown is absent
 * (`optionalKey`), never 0 or null — except where SPEC gives null a meaning
 * (`ex_dividend`).
 */
import { Schema } from "effect"
import { PriceSeriesBasis, TechnicalsFigures } from "../analytics/TechnicalsSchema.ts"
import { Announcement, DividendRow, FinancialPeriod } from "../filings/FilingSchemas.ts"
import { Adjustment } from "../prices/AdjustmentSchemas.ts"
import { Instant, IsoDate, Num, opt, Page, Source } from "./RecordParts.ts"

export * from "../filings/FilingSchemas.ts"
export * from "./ProvenanceSchemas.ts"
export { Page, Source } from "./RecordParts.ts"

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

export const CorporateActionState = Schema.Struct({
  ex_dividend: Schema.NullOr(Schema.Boolean).annotate({
    description: "True on an ex-dividend day, false when known not to be, null when undetermined (not false)"
  }),
  basis: Schema.String.annotate({ description: "How ex_dividend was determined, or why it could not be" }),
  recent_actions: Schema.Array(Schema.Struct({
    kind: Schema.String,
    xd_date: opt(IsoDate.annotate({
      description:
        "The day the stock trades ex for this action (XD, XB, XR; for a payout: its xd_date). The book closure's " +
        "first day, ex_date (SPEC 2.3), is on /v1/dividends/{symbol}"
    })),
    details: Schema.String
  }))
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
  source: opt(
    Source.annotate({
      description: "Where the quote came from; absent only if its dataset's provenance is not recorded"
    })
  )
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
  adjusted: Schema.Boolean.annotate({
    description: "true exactly when adjust is splits or total_return (then `adjustment` says how)"
  }),
  series: Schema.Literals(["as_traded", "eod", "merged"]),
  restated_by_source: Schema.Union([Schema.Boolean, Schema.Literal("unknown")]).annotate({
    description:
      "true: the exchange restated this series for a split or consolidation after it happened (never for dividends); " +
      "false: as traded (verified against an as-traded recording); \"unknown\": no recording shows either, see `note`"
  }),
  note: opt(Schema.String),
  adjustment: opt(Adjustment),
  ...Page.fields,
  window: opt(PriceWindow),
  items: Schema.Array(PriceRow),
  sources: Schema.Array(Source)
})

export const Ratios = Schema.Struct({
  pe_ttm: opt(Num),
  eps: opt(Num),
  dividend_yield_pct: opt(Num.annotate({
    description: "The exchange's screener figure, as published (at price, on as_of); the yield computed here is the " +
      "company's ttm_dividend_yield_pct"
  })),
  market_cap: opt(Num),
  free_float_shares: opt(Num),
  shares_outstanding: opt(Num),
  face_value: opt(Num),
  price: opt(
    Num.annotate({ description: "The price the exchange computed pe_ttm, dividend_yield_pct and market_cap at" })
  ),
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
  ttm_dividend_yield_pct: opt(Num.annotate({
    description: "As computed (= /v1/dividends/{symbol}): the 12 months of payouts to the quote's date over its price"
  })),
  dividend_coverage: Schema.Literals(["recorded", "unknown"]),
  delisted_on: opt(IsoDate.annotate({
    description:
      "The day the symbol was first seen gone from the exchange's listing; absent while listed. A delisted " +
      "company keeps its history, payouts and filings, and is left out of the company list, the screener and peers."
  })),
  sources: Schema.Array(Source)
})

export const Derived = Schema.Struct({
  market_cap: opt(Num.annotate({ description: "The exchange's, as published on ratios.as_of at ratios.price" })),
  week52: opt(Schema.Struct({ high: Num, low: Num, from: IsoDate, to: IsoDate, basis: Schema.Literal("close") })),
  circuit_breaker: opt(
    Schema.Struct({
      lower: Num,
      upper: Num,
      session: IsoDate.annotate({
        description: "The trading session the bounds apply to: the next trading day after the quote's close"
      }),
      previous_close: Num,
      rule: Schema.String
    }).annotate({
      description:
        "Price limits of the next trading session after the quote, from its close (that session's previous close), " +
        "under the rule in force that day; absent before the first sourced rule. Past sessions' bounds say nothing about today."
    })
  ),
  net_margin_pct: opt(Num),
  eps_growth_pct: opt(Num),
  price_series: opt(
    PriceSeriesBasis.annotate({
      description: "The series week52 was computed from, and whether its source restated it"
    })
  )
})

export const Stock = Schema.Struct({
  ...Company.fields,
  peers: Schema.Array(Schema.Struct({
    symbol: Schema.String,
    name: Schema.String,
    pe_ttm: opt(Num),
    dividend_yield_pct: opt(Num),
    as_of: opt(
      Schema.String.annotate({
        description: "The exchange screener's date: pe_ttm and dividend_yield_pct as published"
      })
    )
  })),
  sector_medians: opt(
    Schema.Struct({ pe_ttm: opt(Num), dividend_yield_pct: opt(Num), pe_peers: Schema.Int, yield_peers: Schema.Int })
  ),
  dividends: Schema.Array(DividendRow),
  filings: Schema.Array(Announcement),
  financials: Schema.Array(FinancialPeriod),
  derived: Derived,
  technicals: opt(TechnicalsFigures.annotate({
    description:
      "Moving averages, RSI, MACD, Bollinger, pivots and volatility as state labels (as /v1/stocks/{sym}/technicals); absent with no clean price history"
  }))
})
