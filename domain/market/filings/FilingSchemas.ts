/**
 * What a company reports and announces, as served: financial statements,
 * dividends, corporate actions, announcements and news.
 */
import { Schema } from "effect"
import { Instant, IsoDate, Num, opt, Page, PublishedFigure, Source, Warnings } from "../shared/RecordParts.ts"

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
  period_label: opt(Schema.String.annotate({
    description:
      "The period the payout is for (\"first quarter to 2023-03-31\"). fiscal_year, period_end and period_label " +
      "follow one rule that agrees with sequence: a final is for a whole fiscal year, an interim for part of one"
  })),
  period_corrected: opt(
    Schema.Literal(true).annotate({
      description:
        "The exchange stated a period that cannot be this payout's (an interim against a whole year): the period is the " +
        "fiscal quarter that had ended when the payout was announced (MCB 60%(i) of 27 Apr 2023: first quarter to 2023-03-31)"
    })
  ),
  period_as_published: opt(
    Schema.String.annotate({ description: "The period as the exchange stated it, when corrected" })
  ),
  calendar_year: opt(Schema.Int.annotate({ description: "Calendar year of ex_date" })),
  ex_date: opt(IsoDate.annotate({
    description: "The first day of the exchange's book closure (SPEC 2.3; the same day as book_closure_from). " +
      "Not the day the stock trades ex: that is xd_date"
  })),
  book_closure_from: opt(IsoDate.annotate({ description: "Start of the exchange's book closure (= ex_date)" })),
  ex_date_corrected: opt(
    Schema.Literal(true).annotate({
      description: "The closure start was published before the announcement; its year was moved forward"
    })
  ),
  ex_date_as_published: opt(IsoDate.annotate({ description: "The closure start as published, when corrected" })),
  book_closure_to: opt(IsoDate),
  last_buy_date: opt(IsoDate.annotate({
    description:
      "The last trading day whose trade settles before the book closure starts (ex_date): a buyer that day is entitled"
  })),
  xd_date: opt(IsoDate.annotate({
    description:
      "The day the stock trades ex (XD/XB/XR): the trading day after last_buy_date, before the book closure " +
      "starts; a buyer that day is not entitled. Absent when the settlement cycle of the time is not sourced"
  })),
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
  ttm_dividend_percent: opt(
    Num.annotate({ description: "Trailing 12 months of cash payouts, in percent of face value" })
  ),
  ttm_dividend_per_share: opt(Num.annotate({ description: "Rupees; only when the face value is known" })),
  ttm_dividend_yield_pct: opt(Num.annotate({ description: "As computed: ttm_dividend_per_share / price × 100" })),
  price: opt(Num.annotate({ description: "The quote ttm_dividend_yield_pct divides by: the close of ttm_to" })),
  yield_as_published: opt(
    PublishedFigure.annotate({ description: "The exchange's screener yield, at its date and price" })
  ),
  ttm_from: opt(IsoDate.annotate({ description: "Start (exclusive) of the trailing 12-month window" })),
  ttm_to: opt(IsoDate.annotate({
    description:
      "End of the trailing window: today, or the end of the payout record when it stops earlier, or the date of " +
      "the price the yield divides by when that is earlier still (then the figures are as of that date)"
  })),
  years_paid: opt(
    Schema.Int.annotate({
      description: "Of the last five calendar years covered by the record (years_covered), how many had a cash payout"
    })
  ),
  years_covered: opt(
    Schema.Int.annotate({
      description: "How many of the last five calendar years the payout record covers; fewer than 5 = a partial measure"
    })
  ),
  items: Schema.Array(DividendRow),
  warnings: opt(Warnings),
  sources: Schema.Array(Source)
})

export const CorporateAction = Schema.Struct({
  kind: Schema.String,
  xd_date: opt(IsoDate.annotate({
    description:
      "The day the stock trades ex for this action (XD, XB, XR): for a payout, the dividend history's xd_date " +
      "(the trading day after last_buy_date). Not an ex_date: that name means the book closure's first day everywhere " +
      "(SPEC 2.3), served by /v1/dividends/{symbol}"
  })),
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
  id: Schema.String.annotate({
    description: "The exchange's document id when the filing links one, else a stable key from its content"
  }),
  symbol: Schema.String,
  company_name: opt(Schema.String),
  published_on: IsoDate.annotate({
    description:
      "The date the exchange shows for the filing, in Karachi (YYYY-MM-DD). Always present; date_from/date_to filter on it"
  }),
  published_at: opt(Instant.annotate({
    description:
      "The exchange's time of the filing (ISO 8601 UTC), only when the source gives a time of day (the portal's " +
      "announcements list does; company pages and inventories give a date only). Absent when only the date is known: never an invented midnight"
  })),
  title: Schema.String.annotate({ description: "The title as the exchange shows it, without its REVOKED marker" }),
  document_url: opt(Schema.String),
  image_url: opt(Schema.String),
  revoked: Schema.Boolean.annotate({
    description:
      "True only when the exchange's own REVOKED marker is on the filing; a title that speaks of a withdrawal is not a revocation"
  }),
  source_type: Schema.Literal("filing")
})
export const Announcements = Schema.Struct({
  coverage: Schema.Literals(["recorded", "unknown"]).annotate({
    description:
      "recorded: at least one filing of the symbol (of any company, without a symbol) is held, from partial recordings, so a " +
      "filing not listed may still exist; unknown: none is held, and an empty list is not an absence of filings"
  }),
  note: opt(Schema.String),
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
  published_at_basis: Schema.Literals(["publisher", "first_seen"]).annotate({
    description:
      "publisher: the publisher's own time; first_seen: the first recorded fetch that listed the item (published no later)"
  }),
  event_date: opt(IsoDate),
  republished: Schema.Boolean
})
export const News = Schema.Struct({
  coverage: Schema.Literals(["recorded", "unknown"]),
  note: opt(Schema.String),
  ...Page.fields,
  items: Schema.Array(NewsItem)
})
