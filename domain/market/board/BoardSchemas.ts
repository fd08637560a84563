/**
 * Response records of the market board, sectors, indices and the dividend
 * calendar (SPEC 4.1 and 4.3), shared by HTTP, MCP and OpenAPI. The market
 * status record is in StatusSchema.ts. An unknown figure is absent, never 0.
 */
import { Schema } from "effect"
import { CalendarBasis } from "../calendar/StatusSchema.ts"
import { Warnings } from "../shared/RecordParts.ts"
import { Source } from "../shared/Schemas.ts"
import { moverRules } from "./Board.ts"

const Num = Schema.Finite
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const IsoDate = Schema.String.annotate({ description: "Calendar date, YYYY-MM-DD (Asia/Karachi)" })
const Instant = Schema.String.annotate({ description: "Instant, ISO 8601 UTC" })

/** The OpenAPI description of the movers' exclusions (one sentence per rule). */
export const moversDescription = "Top gainers, top losers and most active by value traded. Left out: " +
  Object.values(moverRules).join(" ")

export const Breadth = Schema.Struct({
  advancers: Count,
  decliners: Count,
  unchanged: Count,
  priced: Count.annotate({
    description: "advancers + decliners + unchanged: securities that traded that day with a previous close"
  }),
  not_priced: Count.annotate({ description: "Security lines that did not trade or lack a price or previous close" })
})

export const DayBreadth = Schema.Struct({
  date: IsoDate,
  ...Breadth.fields,
  basis: Schema.String.annotate({
    description: "Which lines were counted (e.g. the delayed board of the last session)"
  })
})

export const IndexLevelSummary = Schema.Struct({
  code: Schema.String,
  name: opt(Schema.String),
  level: opt(Num),
  previous: opt(Num),
  change: opt(Num),
  change_pct: opt(Num),
  as_of: opt(Schema.String)
})

const DatasetAge = Schema.Struct({ dataset: Schema.String, as_of: Schema.String, age_days: opt(Schema.Int) })

export const MarketSnapshot = Schema.Struct({
  indices: Schema.Array(IndexLevelSummary),
  breadth: opt(DayBreadth),
  freshness: Schema.Array(DatasetAge),
  quotes: Schema.Literal("delayed"),
  sources: Schema.Array(Source)
})

export const Mover = Schema.Struct({
  symbol: Schema.String,
  name: opt(Schema.String),
  sector_code: opt(Schema.String),
  price: Num,
  previous_close: Num,
  change: Num,
  change_pct: Num,
  volume: Num,
  value_traded: Num,
  value_basis: Schema.Literals(["turnover", "volume_x_price"]).annotate({
    description:
      "turnover: the source's own value traded; volume_x_price: volume × price (the source gives no turnover)"
  }),
  ex_markers: opt(Schema.Array(Schema.Literals(["XD", "XB", "XR"])))
})

export const Movers = Schema.Struct({
  gainers: Schema.Array(Mover),
  losers: Schema.Array(Mover),
  most_active: Schema.Array(Mover),
  excluded: Schema.Struct({
    derivative: opt(Count),
    debt: opt(Count),
    right: opt(Count),
    preference: opt(Count),
    placeholder: opt(Count),
    ex_marked: opt(Count),
    value_under_1m: opt(Count)
  }).annotate({ description: "Lines each rule left out (a line counts under its first rule)" }),
  rules: Schema.String
}).annotate({ description: moversDescription })

export const SectorTone = Schema.Struct({
  sector_code: Schema.String,
  sector: opt(Schema.String),
  ...Breadth.fields,
  median_change_pct: opt(Num.annotate({ description: "Median, never mean; absent when no line is priced" }))
})

export const MarketBoard = Schema.Struct({
  date: IsoDate,
  indices: Schema.Array(IndexLevelSummary),
  breadth: DayBreadth,
  movers: Movers,
  sector_tone: Schema.Array(SectorTone),
  quotes: Schema.Literal("delayed"),
  sources: Schema.Array(Source)
})

const SectorId = {
  id: Schema.String.annotate({ description: "Stable slug of the sector name; the PSX sector code is accepted too" }),
  code: Schema.String.annotate({ description: "PSX sector code, e.g. 0807" }),
  name: Schema.String
}

export const SectorListItem = Schema.Struct({ ...SectorId, constituents: Count })
export const SectorList = Schema.Struct({ items: Schema.Array(SectorListItem), sources: Schema.Array(Source) })

export const SectorValuationFields = {
  median_pe: opt(Num.annotate({ description: "Median of positive P/E (TTM); loss-makers left out; absent when none" })),
  pe_peers: Count,
  loss_makers_excluded: Count.annotate({ description: "Loss-makers (negative P/E or EPS) left out of the median P/E" }),
  without_pe: Count.annotate({
    description: "Lines without a P/E (no figure, or 0 on the exchange's screener: unknown, not a loss)"
  }),
  median_dividend_yield_pct: opt(Num),
  yield_peers: Count,
  without_yield: Count,
  not_trading: Count.annotate({
    description:
      "Ordinary lines left out of peers and every median: no recorded trade in the peer window (see the description)"
  })
}

export const SectorBoardItem = Schema.Struct({
  ...SectorId,
  median_change_pct: opt(Num),
  change_peers: Count,
  ...SectorValuationFields,
  breadth: Breadth,
  constituents: Count,
  ordinary_constituents: Count.annotate({
    description: "Constituents other than rights, preference, debt and derivative lines"
  })
})
export const SectorBoard = Schema.Struct({
  items: Schema.Array(SectorBoardItem),
  medians: Schema.Literal("median").annotate({ description: "Every sector figure is a median, never a mean" }),
  sources: Schema.Array(Source)
})

export const Constituent = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  security_type: opt(Schema.Literals(["equity", "etf", "debt", "right", "preference", "other"])),
  inside_kse100: opt(Schema.Boolean),
  price: opt(Num),
  change_pct: opt(Num),
  price_as_of: opt(Schema.String),
  market_cap: opt(Num),
  pe_ttm: opt(Num),
  dividend_yield_pct: opt(Num),
  published_as_of: opt(Schema.String.annotate({
    description:
      "market_cap, pe_ttm and dividend_yield_pct are the exchange's as published on this date, at published_price"
  })),
  published_price: opt(Num)
})

export const Sector = Schema.Struct({
  ...SectorBoardItem.fields,
  members: Schema.Array(Constituent),
  warnings: opt(Warnings),
  sources: Schema.Array(Source)
})

export const SectorPeers = Schema.Struct({
  ...SectorId,
  peers: Schema.Array(Constituent).annotate({ description: "Ordinary lines, largest market cap first" }),
  sources: Schema.Array(Source)
})

export const SectorValuation = Schema.Struct({
  ...SectorId,
  ...SectorValuationFields,
  warnings: opt(Warnings),
  sources: Schema.Array(Source)
})

export const IndexConstituent = Schema.Struct({ symbol: Schema.String, weight_pct: opt(Num) })

export const IndexClose = Schema.Struct({
  date: IsoDate,
  close: Num.annotate({ description: "Index points at the day's close" })
})

export const IndexHistory = Schema.Struct({
  basis: Schema.Literal("daily_close").annotate({
    description: "Closes only: no open, high, low or volume is recorded"
  }),
  first_date: IsoDate.annotate({ description: "The first recorded close" }),
  last_date: IsoDate.annotate({ description: "The last recorded close" }),
  recorded: Count.annotate({ description: "Closes recorded in all" }),
  window_from: opt(
    IsoDate.annotate({ description: "The window's first day asked for (absent: from the first close)" })
  ),
  window_to: opt(IsoDate.annotate({ description: "The window's last day asked for (absent: to the last close)" })),
  in_window: Count.annotate({ description: "Closes in the window" }),
  items: Schema.Array(IndexClose).annotate({ description: "Newest first, at most `limit` of the window's closes" }),
  truncated: Schema.Boolean.annotate({
    description:
      "The window holds more closes than `limit`: the oldest were left out (ask again with date_to before the last item)"
  }),
  high: opt(Num.annotate({ description: "Highest close of the whole window" })),
  low: opt(Num.annotate({ description: "Lowest close of the whole window" })),
  first_close: opt(Num),
  last_close: opt(Num),
  change: opt(Num.annotate({ description: "last_close - first_close of the window, in points" })),
  change_pct: opt(Num.annotate({ description: "Percent change from first_close to last_close" })),
  note: Schema.String
})

export const IndexDetail = Schema.Struct({
  ...IndexLevelSummary.fields,
  history: opt(
    IndexHistory.annotate({
      description: "The recorded daily closes in the window asked for; absent when none are recorded"
    })
  ),
  constituents_tracked: Schema.Boolean.annotate({ description: "Only KSE-100 membership is tracked" }),
  constituents: Schema.Array(IndexConstituent),
  constituents_as_of: opt(IsoDate),
  note: opt(Schema.String),
  warnings: opt(Warnings),
  sources: Schema.Array(Source)
})

export const IndexList = Schema.Struct({
  items: Schema.Array(Schema.Struct({ ...IndexLevelSummary.fields, constituents_tracked: Schema.Boolean })),
  note: Schema.String,
  sources: Schema.Array(Source)
})

export const OpenPayout = Schema.Struct({
  symbol: Schema.String,
  kind: Schema.Literals(["cash", "bonus", "right"]),
  details: Schema.String,
  percent: opt(Num.annotate({ description: "Percent of face value, as the exchange states it" })),
  announced_at: opt(Instant),
  ex_date: IsoDate.annotate({
    description:
      "The first day of the book closure (SPEC 2.3; = book_closure_from). Not the day the stock trades ex: that is xd_date"
  }),
  book_closure_from: IsoDate,
  book_closure_to: opt(IsoDate),
  book_closure_from_as_published: opt(
    IsoDate.annotate({ description: "Present when the published year was repaired" })
  ),
  last_buy_date: IsoDate.annotate({
    description: "Last trading day whose settlement falls before the book closure starts"
  }),
  xd_date: IsoDate.annotate({
    description:
      "The day the stock trades ex (XD/XB/XR): the trading day after last_buy_date; a buyer that day is not entitled"
  }),
  settlement_cycle: Schema.String,
  settles_on: IsoDate,
  next_trade_date: IsoDate,
  buying_today_earns: Schema.Boolean.annotate({
    description: "Today (Asia/Karachi) is a trading day, trading has not ended and today is on or before last_buy_date"
  }),
  buying_next_session_earns: Schema.Boolean,
  calendar: CalendarBasis
})

export const DividendCalendar = Schema.Struct({
  today: IsoDate,
  items: Schema.Array(OpenPayout),
  coverage: Schema.String.annotate({ description: "What the recorded payouts allow one to say" }),
  sources: Schema.Array(Source)
})
