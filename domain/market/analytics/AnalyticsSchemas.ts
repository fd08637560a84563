/**
 * Response records of the per-symbol analytics, technicals and valuation,
 * the screener page, the comparison and the research package (SPEC 2.3, 4.2,
 * 4.4). Shared by HTTP, MCP and OpenAPI like `Schemas.ts`, whose records are
 * reused here. An unknown figure is an absent key (never 0 or null); every
 * record that leaves a figure out says why in `unavailable`.
 *
 * The `*Figures` records are what the pure computations return; the response
 * records add the sources the service read them from.
 */
import { Schema } from "effect"
import { Adjustment, AdjustmentFields } from "../prices/AdjustmentSchemas.ts"
import { PublishedFigure, Warnings } from "../shared/RecordParts.ts"
import { Announcement, Company, Dividends, NewsItem, Page, Quote, Source } from "../shared/Schemas.ts"
import { IsoDate, SeriesName, StepFields, TechnicalsFigures, Unavailable } from "./TechnicalsSchema.ts"

export { PriceStep, StepFields, TechnicalsFigures, Unavailable } from "./TechnicalsSchema.ts"

const Num = Schema.Finite
const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const Instant = Schema.String.annotate({ description: "Instant, ISO 8601 UTC" })

export const Week52 = Schema.Struct({
  high: Num,
  low: Num,
  high_date: IsoDate,
  low_date: IsoDate,
  from: IsoDate,
  to: IsoDate,
  sessions: Schema.Int,
  basis: Schema.Literals(["close", "intraday"]).annotate({
    description:
      "close: highest and lowest daily close; intraday: daily highs and lows, only when recorded for every session in the window"
  }),
  adjusted: Schema.Boolean.annotate({ description: "true only in an answer with adjust=splits or total_return" })
})

export const Liquidity30d = Schema.Struct({
  sessions: Schema.Int.annotate({ description: "Recorded sessions in the window (30 unless history is shorter)" }),
  days_traded: Schema.Int.annotate({ description: "Sessions with volume above 0" }),
  avg_volume: opt(Num.annotate({ description: "Shares per session, over sessions with a recorded volume" })),
  value_traded: opt(Num.annotate({ description: "Rupees: sum of close × volume over the window" })),
  avg_value_traded: opt(Num.annotate({ description: "Rupees per session" }))
})

export const ReferencePrices = Schema.Struct({
  previous_close: opt(Num),
  previous_close_date: opt(IsoDate),
  close_5d_ago: opt(Num),
  close_5d_ago_date: opt(IsoDate),
  close_20d_ago: opt(Num),
  close_20d_ago_date: opt(IsoDate)
})

export const AnalyticsFigures = Schema.Struct({
  symbol: Schema.String,
  series: SeriesName,
  as_of: IsoDate.annotate({ description: "The last recorded session used" }),
  last_price: Num,
  last_price_basis: Schema.Literals(["close", "quote"]),
  last_price_as_of: Schema.String,
  performance_5d_pct: opt(Num),
  performance_20d_pct: opt(Num),
  high_5d: opt(Num),
  drawdown_5d_pct: opt(
    Num.annotate({ description: "Percent below the highest close of the last 5 sessions (0 at the high)" })
  ),
  high_20d: opt(Num),
  drawdown_20d_pct: opt(Num.annotate({ description: "Percent below the highest close of the last 20 sessions" })),
  week52: opt(Week52),
  liquidity_30d: opt(Liquidity30d),
  reference: ReferencePrices,
  ...StepFields
})
export type AnalyticsFigures = typeof AnalyticsFigures.Type
export const StockAnalytics = Schema.Struct({
  ...AnalyticsFigures.fields,
  adjustment: opt(Adjustment),
  sources: Schema.Array(Source)
})

export const Technicals = Schema.Struct({ ...TechnicalsFigures.fields, sources: Schema.Array(Source) })

export const SectorMedians = Schema.Struct({
  sector: opt(Schema.String),
  sector_code: opt(Schema.String),
  pe_ttm: opt(Num),
  pe_peers: Schema.Int,
  pe_excluded_loss_making: Schema.Int,
  dividend_yield_pct: opt(Num),
  yield_peers: Schema.Int,
  market_cap: opt(Num),
  market_cap_peers: Schema.Int,
  not_trading: Schema.Int.annotate({
    description: "Sector lines left out of the medians: no recorded trade in the peer window"
  })
})
export type SectorMedians = typeof SectorMedians.Type

export const ValuationFigure = Schema.Struct({
  value: Num,
  as_of: Schema.String.annotate({ description: "The date of the price the figure rests on" }),
  basis: Schema.String,
  price: opt(Num.annotate({ description: "The price the figure rests on" })),
  as_published: opt(PublishedFigure.annotate({ description: "The exchange's own figure beside one computed here" })),
  exchange_as_of: opt(Schema.String.annotate({
    description:
      "The figure is the exchange's of this (older) date carried forward to the price: its trailing EPS, share count " +
      "or dividends as of then"
  })),
  sector_median: opt(Num),
  peers: opt(Schema.Int),
  position: opt(
    Schema.Literals(["below", "at", "above"]).annotate({
      description: "Against the sector median; at = within ±1% of it"
    })
  )
})

export const ValuationFigures = Schema.Struct({
  symbol: Schema.String,
  price: opt(Num),
  price_as_of: opt(Schema.String),
  pe_ttm: opt(ValuationFigure),
  dividend_yield_pct: opt(ValuationFigure),
  market_cap: opt(ValuationFigure),
  sector_medians: opt(SectorMedians),
  unavailable: Schema.Array(Unavailable)
})
export type ValuationFigures = typeof ValuationFigures.Type
export const Valuation = Schema.Struct({ ...ValuationFigures.fields, sources: Schema.Array(Source) })

export const SecurityType = Schema.Literals(["equity", "etf", "debt", "right", "preference", "other"])

/** The per-symbol figures the screener filters on, computed once per read-model build (`Screener.screenFigures`). */
export const ScreenFigures = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sector: opt(Schema.String),
  sector_code: opt(Schema.String),
  security_type: SecurityType,
  inside_kse100: Schema.Boolean,
  price: opt(Num),
  price_as_of: opt(Schema.String),
  change_pct: opt(Num.annotate({ description: "Percent change of the quote from the previous close" })),
  value_traded: opt(Num.annotate({ description: "Rupees traded in the quote's session: price × volume" })),
  dividend_yield_pct: opt(
    Num.annotate({ description: "The yield this family ranks and screens by (the valuation's)" })
  ),
  dividend_yield_basis: opt(
    Schema.String.annotate({ description: "trailing_12m_payouts (as computed) or exchange_screener" })
  ),
  dividend_yield_as_of: opt(Schema.String),
  pe_ttm: opt(Num),
  pe_ttm_as_of: opt(Schema.String),
  market_cap: opt(Num),
  market_cap_as_of: opt(Schema.String),
  free_float_shares: opt(Num),
  free_float_pct: opt(Num),
  avg_volume_30d: opt(Num),
  avg_value_traded_30d: opt(Num),
  performance_5d_pct: opt(Num),
  performance_20d_pct: opt(Num),
  drawdown_5d_pct: opt(Num),
  drawdown_20d_pct: opt(Num),
  volatility_20d_pct: opt(
    Num.annotate({ description: "Annualised standard deviation of daily log returns, 20 sessions" })
  ),
  ex_dividend: Schema.NullOr(Schema.Boolean).annotate({ description: "null: undetermined, not false" })
})
export type ScreenFigures = typeof ScreenFigures.Type

export const ScreenerPage = Schema.Struct({
  ...Page.fields,
  items: Schema.Array(ScreenFigures),
  left_out_unknown: Schema.Int.annotate({
    description:
      "Securities that failed no filter on known figures but were left out because a filtered figure is unknown"
  }),
  unknown_by_filter: Schema.Record(Schema.String, Schema.Int).annotate({
    description: "Per filter: how many securities had that figure unknown (unknown never matches)"
  }),
  order: Schema.String,
  warnings: opt(Warnings),
  sources: Schema.Array(Source)
})

const ValueAsOf = opt(Schema.String.annotate({ description: "The date of the price the value rests on" }))
const CompareValue = Schema.Struct({
  symbol: Schema.String,
  value: opt(Num),
  as_of: ValueAsOf,
  band: opt(Schema.Int.annotate({ description: "0 (weakest) to 4 (strongest); see the measure's bands" }))
})
export const CompareMeasure = Schema.Struct({
  measure: Schema.String,
  better: Schema.Literals(["higher", "lower"]),
  bands: Schema.String.annotate({ description: "The band edges, weakest to strongest" }),
  values: Schema.Array(CompareValue),
  winner: opt(Schema.String),
  outcome: Schema.Literals(["win", "tie", "unknown"])
})
export const CompareMetric = Schema.Struct({
  measure: Schema.String,
  better: Schema.Literals(["higher", "lower"]),
  values: Schema.Array(Schema.Struct({ symbol: Schema.String, value: opt(Num), as_of: ValueAsOf })),
  winners: Schema.Array(Schema.String).annotate({
    description: "Symbols holding the best known value (more than one on a tie; none when no value is known)"
  })
})
export const ComparisonFigures = Schema.Struct({
  symbols: Schema.Array(Schema.String),
  mode: Schema.Literals(["head_to_head", "per_metric"]),
  head_to_head: opt(Schema.Struct({
    measures: Schema.Array(CompareMeasure),
    totals: Schema.Array(Schema.Struct({ symbol: Schema.String, points: Schema.Int })),
    leader: opt(Schema.String)
  })),
  metrics: opt(Schema.Array(CompareMetric)),
  rule: Schema.String
})
export type ComparisonFigures = typeof ComparisonFigures.Type
export const Comparison = Schema.Struct({
  ...ComparisonFigures.fields,
  adjustments: opt(
    Schema.Array(Schema.Struct({ symbol: Schema.String, ...AdjustmentFields })).annotate({
      description:
        "With adjust=splits or total_return: each symbol's adjusted series (factors and cut) behind its price measures"
    })
  ),
  sources: Schema.Array(Source)
})

export const Caveat = Schema.Struct({
  code: Schema.Literals([
    "no_balance_sheet",
    "restated_series",
    "restatement_unknown",
    "unadjusted_prices",
    "step_in_window",
    "close_based_52w_range",
    "quote_stale",
    "dividend_coverage_unknown",
    "news_coverage_unknown",
    "short_history"
  ]),
  message: Schema.String
})
export type Caveat = typeof Caveat.Type

const {
  symbol,
  name,
  sector,
  sector_code,
  security_type,
  listed_in,
  inside_kse100,
  kse100_weight_pct,
  description,
  fiscal_year_end
} = Company.fields

export const ResearchPackage = Schema.Struct({
  symbol: Schema.String,
  generated_at: Instant,
  profile: Schema.Struct({
    symbol,
    name,
    sector,
    sector_code,
    security_type,
    listed_in,
    inside_kse100,
    kse100_weight_pct,
    description,
    fiscal_year_end
  }),
  quote: opt(Quote),
  quote_age_seconds: opt(Schema.Int.annotate({ description: "From the quote's as_of to generated_at" })),
  analytics: opt(AnalyticsFigures),
  technicals: opt(TechnicalsFigures),
  valuation: opt(ValuationFigures),
  dividends: opt(Dividends),
  filings: Schema.Array(Announcement),
  news: Schema.Array(NewsItem),
  caveats: Schema.Array(Caveat),
  sources: Schema.Array(Source)
})
export type ResearchPackage = typeof ResearchPackage.Type
