/**
 * Bodies and records of the portfolio endpoints, shared by the HTTP API and
 * the OpenAPI document. The transaction body is a union on `kind`.
 */
import { Schema } from "effect"
import { Source } from "../market/Schemas.ts"
import { Grant } from "./Grants.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const Num = Schema.Finite
const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u)).annotate({ description: "YYYY-MM-DD" })
const Symbol = Schema.String.annotate({ description: "A PSX ticker" })

/**
 * Text the store can always hold: well-formed Unicode with no control
 * characters (PostgreSQL text and jsonb refuse NUL), so a bad value is a 400
 * record, never a store error.
 */
export const isStorableText = Schema.makeFilter<string>((s) =>
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f]|[\ud800-\udfff]/u.test(s) ? "control characters, NUL or unpaired surrogates are not allowed" : undefined
)
// `u` mode treats a surrogate pair as one code point, so the class above only meets lone surrogates.
export const StorableText = (max: number) => Schema.String.check(isStorableText, Schema.isMaxLength(max))
/** An identifier in a path or body: 1 to 200 storable characters. */
export const Id = StorableText(200).check(Schema.isMinLength(1))

export const TradeBody = Schema.Struct({
  kind: Schema.Literals(["buy", "sell"]),
  symbol: Symbol,
  quantity: Num.annotate({ description: "Shares, > 0" }),
  price: Num.annotate({ description: "Rupees per share, > 0" }),
  fees: opt(Num.annotate({ description: "Brokerage, taxes and charges in rupees; 0 when omitted" })),
  trade_date: IsoDate
})
export const DividendBody = Schema.Struct({
  kind: Schema.Literal("dividend"),
  symbol: Symbol,
  trade_date: IsoDate.annotate({ description: "Payment (credit) date" }),
  gross_amount: opt(Num.annotate({ description: "Rupees before tax; or give per_share" })),
  per_share: opt(Num.annotate({ description: "Rupees per share held on trade_date" })),
  tax_withheld: opt(Num.annotate({ description: "Rupees withheld; 0 when omitted" }))
})
export const BonusBody = Schema.Struct({
  kind: Schema.Literal("bonus"),
  symbol: Symbol,
  trade_date: IsoDate,
  percent: Num.annotate({ description: "As the exchange states it: 10 means 10%, one new share for every ten held" })
})
export const SplitBody = Schema.Struct({
  kind: Schema.Literal("split"),
  symbol: Symbol,
  trade_date: IsoDate,
  numerator: Schema.Int.annotate({ description: "New shares" }),
  denominator: Schema.Int.annotate({ description: "for this many old shares (5 for 1: numerator 5, denominator 1)" })
})
export const ReversalBody = Schema.Struct({
  kind: Schema.Literal("reversal"),
  event_id: Id,
  reason: StorableText(1000)
})
export const TransactionBody = Schema.Union([TradeBody, DividendBody, BonusBody, SplitBody, ReversalBody]).annotate({
  description: "buy, sell, dividend, bonus issue or split, each with a trade date; or a reversal of an earlier event with a reason"
})

export const EventRecord = Schema.Struct({
  event_id: Schema.String,
  position: Schema.Int,
  version: Schema.Int,
  type: Schema.String,
  effective_date: Schema.String,
  recorded_at: Schema.String,
  payload: Schema.Unknown,
  prev_hash: Schema.String,
  hash: Schema.String
})

export const Holding = Schema.Struct({
  symbol: Schema.String,
  quantity: Num,
  average_cost: opt(Num),
  cost: Num,
  market_price: opt(Num),
  market_value: opt(Num),
  unrealized_pnl: opt(Num),
  realized_pnl: Num,
  dividends_gross: Num,
  dividends_net: Num,
  tax_withheld: Num,
  fractional_entitlements: Num,
  quote_as_of: opt(Schema.String),
  quote_stale: opt(Schema.Boolean)
})

export const RecordResult = Schema.Struct({
  event: EventRecord,
  holding: opt(Holding),
  flags: Schema.Array(Schema.String),
  replayed: Schema.Boolean.annotate({ description: "True when an Idempotency-Key matched an earlier identical request" })
})

export const Holdings = Schema.Struct({
  portfolio: Schema.String,
  items: Schema.Array(Holding),
  sources: Schema.Array(Source)
})

export const Portfolio = Schema.Struct({
  portfolio: Schema.String,
  holdings: Schema.Array(Holding),
  totals: Schema.Struct({
    cost: Num,
    market_value: opt(Num),
    unrealized_pnl: opt(Num),
    realized_pnl: Num,
    dividends_net: Num,
    market_value_note: opt(Schema.String)
  }),
  cash_flows: Schema.Struct({ invested: Num, proceeds: Num, dividends_net: Num, tax_withheld: Num }),
  transactions: Schema.Struct({
    total: Schema.Int,
    next_cursor: Schema.NullOr(Schema.String),
    items: Schema.Array(EventRecord)
  }),
  sources: Schema.Array(Source)
})

export const Analysis = Schema.Struct({
  portfolio: Schema.String,
  benchmark: Schema.Literal("KSE-100 constituents"),
  weight_basis: Schema.Literals(["market_value", "cost"]),
  sectors: Schema.Array(Schema.Struct({ sector: Schema.String, portfolio_pct: Num, kse100_pct: opt(Num) })),
  overlap: Schema.Struct({ symbols_in_kse100: Schema.Int, symbols: Schema.Int, weight_in_kse100_pct: opt(Num) }),
  concentration: Schema.Struct({ largest_symbol: opt(Schema.String), largest_pct: opt(Num), hhi: opt(Num) }),
  dividend_income: Schema.Struct({ gross: Num, net: Num, tax_withheld: Num }),
  returns: opt(Schema.Struct({
    basis: Schema.String,
    to: Schema.String,
    periods: Schema.Array(Schema.Struct({
      period: Schema.String,
      from: Schema.String,
      to: Schema.String,
      return_pct: Num,
      covers_whole_period: Schema.Boolean
    }))
  })),
  unavailable: Schema.Array(Schema.Struct({ part: Schema.String, reason: Schema.String })),
  sources: Schema.Array(Source)
})

export const LedgerPage = Schema.Struct({
  stream_id: Schema.String,
  total: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String),
  items: Schema.Array(EventRecord)
})

export const VerifyResult = Schema.Struct({
  stream_id: Schema.String,
  ok: Schema.Boolean,
  events: Schema.Int,
  head_hash: opt(Schema.String),
  first_failure: opt(Schema.Struct({
    event_id: Schema.String,
    version: Schema.Int,
    position: Schema.Int,
    reason: Schema.String
  })),
  projection_matches: Schema.Boolean
})

export const Session = Schema.Struct({
  token: Schema.String.annotate({ description: "Shown once. Send as Authorization: Bearer <token>" }),
  user: Schema.Struct({ id: Schema.String, created_at: Schema.String }),
  grants: Schema.Array(Grant)
})

export const KeyInfo = Schema.Struct({
  id: Schema.String,
  prefix: Schema.String,
  kind: Schema.Literals(["session", "key"]),
  label: opt(Schema.String),
  grants: Schema.Array(Grant),
  created_at: Schema.String,
  revoked_at: opt(Schema.String)
})
export const NewKey = Schema.Struct({ ...KeyInfo.fields, key: Schema.String.annotate({ description: "Shown once" }) })
export const KeyCreateBody = Schema.Struct({
  grants: Schema.Array(Grant).annotate({
    description: "portfolio:read, portfolio:write and/or keys:manage, never more than the calling credential holds; " +
      "market data is always allowed"
  }),
  label: opt(StorableText(100))
})

export const DonationBody = Schema.Struct({
  amount: Num.annotate({ description: "Rupees, > 0, at most 10,000,000" }),
  currency: opt(Schema.Literal("PKR")),
  note: opt(StorableText(500))
})
export const Donation = Schema.Struct({
  id: Schema.String,
  amount: Num,
  currency: Schema.Literal("PKR"),
  note: opt(Schema.String),
  status: Schema.Literal("pending"),
  created_at: Schema.String,
  event_id: Schema.String
})
