/**
 * Bodies and records of the portfolio endpoints, shared by the HTTP API and
 * the OpenAPI document. The transaction body is a union on `kind`.
 */
import { Cause, Exit, Option, Schema, SchemaIssue } from "effect"
import { recordedCalendar } from "../market/calendar/RecordedCalendar.ts"
import { Source } from "../market/shared/Schemas.ts"
import { isCalendarDate } from "../Params.ts"
import { Grant } from "./Grants.ts"
import { hasPlaces, LIMITS } from "./Money.ts"
import { NET_OF_TAX_NOTE } from "./Taxes.ts"

const TaxNote = Schema.String.annotate({ description: NET_OF_TAX_NOTE })

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const Num = Schema.Finite
const Symbol = Schema.String.annotate({ description: "A PSX ticker" })

/** The first PSX session the service holds (the recorded calendar's first day): no ledger date is earlier. */
export const FIRST_SESSION = recordedCalendar.first

const isInLedgerRange = Schema.makeFilter<string>((s) =>
  s < FIRST_SESSION
    ? `${s} is before the first recorded PSX session (${FIRST_SESSION})`
    : s > "2099-12-31"
    ? `${s} is after 2099-12-31`
    : undefined
)
/** A real calendar date (no 2026-02-30) from the first recorded session on. */
const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u), isCalendarDate, isInLedgerRange)
  .annotate({ description: `YYYY-MM-DD, a real calendar date, ${FIRST_SESSION} or later` })

/** A decimal amount in (min, max] (or [0, max]) with at most `places` decimals. */
const decimal = (places: 2 | 4, max: number, allowZero = false) =>
  Num.check(
    // Out of range is the range check's to say: 1e302 is refused as too large, not for its decimals ("1e+302").
    // (The range checks stay last: the OpenAPI document carries the description on them.)
    Schema.makeFilter<number>((
      x
    ) => (Math.abs(x) > max || hasPlaces(x, places) ? undefined : `at most ${places} decimal places`)),
    allowZero ? Schema.isGreaterThanOrEqualTo(0) : Schema.isGreaterThan(0),
    Schema.isLessThanOrEqualTo(max)
  )
const Rupees = (max: number, allowZero = false) => decimal(2, max, allowZero)

/**
 * Text the store can always hold: well-formed Unicode with no control
 * characters (PostgreSQL text and jsonb refuse NUL), so a bad value is a 400
 * record, never a store error.
 */
export const isStorableText = Schema.makeFilter<string>((s) =>
  /[\u0000-\u001f\u007f]|[\ud800-\udfff]/u.test(s)
    ? "control characters, NUL or unpaired surrogates are not allowed"
    : undefined
)
// `u` mode treats a surrogate pair as one code point, so the class above only meets lone surrogates.
export const StorableText = (max: number) => Schema.String.check(isStorableText, Schema.isMaxLength(max))
/** An identifier in a path or body: 1 to 200 storable characters. */
export const Id = StorableText(200).check(Schema.isMinLength(1))

export const TradeBody = Schema.Struct({
  kind: Schema.Literals(["buy", "sell"]),
  symbol: Symbol,
  quantity: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: LIMITS.quantity }))
    .annotate({ description: `Whole shares, 1 to ${LIMITS.quantity.toLocaleString("en")}` }),
  price: Rupees(LIMITS.price).annotate({
    description: "Rupees per share, > 0, at most 1,000,000, two decimals at most"
  }),
  fees: opt(
    Rupees(LIMITS.fees, true).annotate({
      description: "Brokerage, taxes and charges in rupees (two decimals at most); 0 when omitted"
    })
  ),
  trade_date: IsoDate
})
const EntitlementFields = {
  symbol: Symbol,
  book_closure_from: opt(IsoDate.annotate({
    description:
      "First day of the book closure. The position held at the end of the last buy date (the last trading day " +
      "whose settlement falls before this day) is the one entitled. When omitted, the recorded payout of the symbol whose book " +
      "closure starts on or before trade_date (within 120 days) is used; with none, the request is refused."
  }))
}
export const DividendBody = Schema.Struct({
  kind: Schema.Literal("dividend"),
  ...EntitlementFields,
  trade_date: IsoDate.annotate({ description: "Payment (credit) date" }),
  per_share: opt(
    decimal(4, LIMITS.perShare).annotate({
      description: "Rupees per share entitled (four decimals at most); or give gross_amount"
    })
  ),
  gross_amount: opt(
    Rupees(LIMITS.amount).annotate({ description: "Rupees before tax, as the warrant shows; or give per_share" })
  ),
  tax_withheld: opt(
    Rupees(LIMITS.amount, true).annotate({
      description:
        "Rupees withheld as the warrant shows (only with gross_amount); when omitted the withholding rule in force applies"
    })
  ),
  filer: opt(Schema.Boolean.annotate({
    description:
      "On the Active Taxpayers List when paid; when omitted, the portfolio's recorded tax status (kind tax_status)"
  }))
})
export const BonusBody = Schema.Struct({
  kind: Schema.Literal("bonus"),
  ...EntitlementFields,
  trade_date: IsoDate.annotate({ description: "Credit date" }),
  percent: decimal(2, LIMITS.percent).annotate({
    description:
      "As the exchange states it: 10 means 10%, one new share for every ten held. Whole shares are credited; " +
      "the fraction is a cash entitlement"
  })
})
const RatioTerm = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: LIMITS.ratioTerm }))
export const SplitBody = Schema.Struct({
  kind: Schema.Literal("split"),
  symbol: Symbol,
  trade_date: IsoDate,
  numerator: RatioTerm.annotate({ description: "New shares" }),
  denominator: RatioTerm.annotate({ description: "for this many old shares (5 for 1: numerator 5, denominator 1)" })
})
export const ReversalBody = Schema.Struct({
  kind: Schema.Literal("reversal"),
  event_id: Id,
  reason: StorableText(1000)
})
export const TaxStatusBody = Schema.Struct({
  kind: Schema.Literal("tax_status"),
  filer: Schema.Boolean.annotate({ description: "On the Active Taxpayers List (a filer) from trade_date on" }),
  trade_date: IsoDate
})
export const TransactionBody = Schema.Union([
  TradeBody,
  DividendBody,
  BonusBody,
  SplitBody,
  ReversalBody,
  TaxStatusBody
]).annotate({
  description:
    "buy, sell, dividend, bonus issue or split, each with a trade date; the portfolio's tax status (filer or not) " +
    "from a date; or a reversal of an earlier event with a reason"
})

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Why a body does not decode as a transaction ("body field `x`: …"), or undefined when it does. */
export const bodyProblem = (body: unknown): string | undefined => {
  const exit = Schema.decodeUnknownExit(TransactionBody)(body)
  if (Exit.isSuccess(exit)) return undefined
  const error = Cause.findErrorOption(exit.cause)
  if (Option.isNone(error)) return "body: invalid transaction"
  return formatIssues(error.value.issue).issues.slice(0, 3).map((i) => {
    const path = (i.path ?? []).map((p) => String(typeof p === "object" ? p.key : p))
    return path.length > 0 ? `body field \`${path.join(".")}\`: ${i.message}` : `body: ${i.message}`
  }).join("; ")
}

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
  quantity: Num.annotate({
    description:
      "Whole shares held (a projection written before whole shares were enforced may hold a fraction until `ledger rebuild`)"
  }),
  average_cost: opt(Num),
  cost: Num,
  market_price: opt(Num),
  market_value: opt(Num),
  unrealized_pnl: opt(Num),
  realized_pnl: Num.annotate({ description: "Rupees, before capital gains tax (not computed)" }),
  dividends_gross: Num,
  dividends_net: Num.annotate({ description: "Rupees after the withholding tax recorded per dividend" }),
  tax_withheld: Num,
  fractional_entitlements: Num.annotate({
    description: "Fractions of a share from bonus issues and splits, not credited: the company sells them and pays cash"
  }),
  quote_as_of: opt(Schema.String),
  quote_stale: opt(Schema.Boolean)
})

export const RecordResult = Schema.Struct({
  event: EventRecord,
  holding: opt(Holding),
  flags: Schema.Array(Schema.String),
  replayed: Schema.Boolean.annotate({
    description: "True when an Idempotency-Key matched an earlier identical request"
  })
})

export const Holdings = Schema.Struct({
  portfolio: Schema.String,
  items: Schema.Array(Holding),
  tax_note: TaxNote,
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
    market_value_note: opt(Schema.String),
    tax_note: TaxNote
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
  dividend_income: Schema.Struct({ gross: Num, net: Num, tax_withheld: Num, tax_note: TaxNote }),
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
  checkpoint_problem: opt(
    Schema.Struct({
      kind: Schema.Literals(["key", "signature"]).annotate({
        description:
          "key: signed with a key this service does not trust (not pinned, not its signing key), so the checkpoint " +
          "cannot be checked; signature: the checkpoint's bytes or signature do not hold (the checkpoint was forged or altered)"
      }),
      key_id: Schema.String,
      version: Schema.Int,
      reason: Schema.String
    }).annotate({
      description:
        "The first signed checkpoint that cannot vouch for the events, when one cannot: a problem of the checkpoint " +
        "or its key, not of an event (`first_failure` names a changed event). `ok` is false while one stands."
    })
  ),
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
/** The most unrevoked API keys one user may hold (the session token is not counted). */
export const MAX_LIVE_KEYS = 100

export const KeyPage = Schema.Struct({
  total: Schema.Int.annotate({ description: "Every key and session of this user, revoked ones included" }),
  next_cursor: Schema.NullOr(Schema.String),
  items: Schema.Array(KeyInfo)
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
  amount: Rupees(10_000_000).annotate({ description: "Rupees, > 0, at most 10,000,000, two decimals at most" }),
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
