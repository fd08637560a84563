/** The entitlement answers' schemas (GET /v1/me/entitlements and its accept and dismiss), one definition for HTTP and OpenAPI. */
import { Schema } from "effect"
import { Source } from "../market/shared/RecordParts.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const d = <S extends Schema.Top>(s: S, description: string) => s.annotate({ description })
const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u))

/** An entitlement id: `ent-` and the payout's id (eight hex digits). */
export const EntitlementId = Schema.String.check(Schema.isPattern(/^ent-[0-9a-f]{8}$/u)).annotate({
  description: "An entitlement id: `ent-` and the recorded payout's id (stable across reads)"
})

export const EntitlementState = Schema.Literals(["due", "recorded", "dismissed"])

export const Entitlement = Schema.Struct({
  id: EntitlementId,
  payout_id: d(Schema.String, "The market's payout record this follows"),
  symbol: Schema.String,
  kind: Schema.Literals(["cash_dividend", "bonus", "right"]),
  state: d(
    EntitlementState,
    "`due`: owed, no matching event; `recorded`: a dividend or bonus event of the symbol with this book closure exists; `dismissed`: hidden by the user"
  ),
  details: d(Schema.String, "The payout as the exchange states it, e.g. \"80(ii) (D)\""),
  percent: opt(d(Schema.Finite, "Percent of face value (cash) or of the holding (bonus, right)")),
  announced_at: opt(Schema.String),
  book_closure_from: IsoDate,
  book_closure_to: opt(IsoDate),
  last_buy_date: d(
    IsoDate,
    "The last trading day whose settlement falls before the book closure starts (T+2 to 6 Feb 2026, T+1 from 9 Feb 2026)"
  ),
  xd_date: opt(
    d(
      IsoDate,
      "The day the stock trades ex (XD, XB, XR): the trading day after the last buy date. The book " +
        "closure's first day (ex_date in SPEC 2.3) is book_closure_from"
    )
  ),
  credit_date: d(
    IsoDate,
    "The date accept records the event on: the end of the book closure (the payment date is not recorded)"
  ),
  shares_held: d(Schema.Int, "Shares held at the end of the last buy date, from the ledger"),
  face_value: opt(d(Schema.Finite, "Rupees; the face value in force on the ex day")),
  face_value_source: opt(Schema.String),
  cash_per_share: opt(d(Schema.Finite, "Rupees: percent × face value / 100, or the amount the payout states")),
  gross: opt(d(Schema.Finite, "Rupees")),
  filer: opt(d(Schema.Boolean, "The portfolio's recorded filer status on the credit date")),
  tax_rule: opt(Schema.String),
  tax_rate_pct: opt(Schema.Finite),
  tax_withheld: opt(
    d(
      Schema.Finite,
      "Rupees, by the withholding rule in force on the credit date; absent while the filer status is unrecorded"
    )
  ),
  net: opt(d(Schema.Finite, "Rupees: gross less tax withheld")),
  bonus_shares: opt(d(Schema.Int, "Whole bonus shares credited")),
  fractional_entitlement: opt(
    d(
      Schema.Finite,
      "The fraction of a share owed as cash (its rupees are set when the company sells the consolidated fractions: not recorded)"
    )
  ),
  right_shares: opt(d(Schema.Int, "Whole right shares offered")),
  right_price: opt(d(Schema.Finite, "Rupees per right share, when the payout's text states par or a premium")),
  recorded_event_id: opt(Schema.String),
  matches: opt(d(Schema.Boolean, "Whether the recorded event's figures match what the position now entitles")),
  mismatch: opt(d(Schema.String, "How the recorded event differs (e.g. after a backdated trade changed the position)")),
  notes: Schema.Array(Schema.String),
  dataset: d(Schema.String, "The dataset of the payout record (see `sources`)")
})

export const Entitlements = Schema.Struct({
  as_of: d(IsoDate, "Today in Asia/Karachi: payouts whose last buy date is before it are listed"),
  total: d(Schema.Int, "How many entitlements there are before the limit"),
  items: Schema.Array(Entitlement),
  sources: Schema.Array(Source),
  notes: Schema.Array(Schema.String)
})

export const EntitlementAction = Schema.Struct({
  id: EntitlementId,
  state: EntitlementState,
  event_id: opt(d(Schema.String, "The dividend or bonus event that records it")),
  recorded_now: opt(d(Schema.Boolean, "True when this request recorded the event; false when it already was"))
})
