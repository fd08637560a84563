/**
 * The `adjust` parameter and what an adjusted answer says about itself
 * (prices, analytics, compare): the factors applied, where and why the
 * series is cut, and the actions whose terms are unknown. The rules are in
 * Adjustment.ts.
 */
import { Schema } from "effect"
import { IsoDate } from "../analytics/TechnicalsSchema.ts"

/** The values of `adjust`: none is the series as recorded. */
export const ADJUST_MODES = ["none", "splits", "total_return"] as const

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const Kind = Schema.Literals(["bonus", "split", "right", "cash_dividend"])

export const ADJUST_DESCRIPTION =
  "none (default): as recorded, the answer unchanged. splits: open/high/low/close before each " +
  "bonus, split and right issue multiplied by its factor (bonus b%: 100/(100+b); split: new/old face value; right: " +
  "TERP/P, TERP = (P + r·S)/(1 + r) for r rights per share at S), volumes before a bonus or split by the inverse. " +
  "total_return: also each cash dividend D on its XD day, (P − D)/P, P the last close before it; D = percent × the face " +
  "value in force (sourced records; unknown face value = unknown terms). The series is on the basis of its last row " +
  "(later actions are not applied). Never guessed: rows before `adjustment.cut_before` are left out where an action's day " +
  "or terms are unknown, before the payout record starts (the exchange lists a company's last payouts; no record: no rows), " +
  "before the first sourced price limit (2017-12-07), and at a move beyond the limit no recorded action explains. A series " +
  "the exchange restated for a split is not adjusted for it again (its volumes are). Factors are exact fractions; prices " +
  "are rounded once, to the decimals the closes are recorded with (`adjustment.price_decimals`)."

/** The query parameter; absent means none (optional, not defaulted, so a request without it is an unadjusted one). */
export const AdjustParam = Schema.optional(Schema.Literals(ADJUST_MODES).annotate({ description: ADJUST_DESCRIPTION }))

export const AdjustFactor = Schema.Struct({
  date: IsoDate.annotate({
    description: "The action's first session on the new basis (XD/XB/XR day): rows before it are multiplied"
  }),
  kind: Kind,
  factor: Schema.Finite.annotate({
    description:
      "The action's price factor (bonus b%: 100/(100+b); split: new/old face value; right: TERP/P; dividend: (P−D)/P)"
  }),
  cumulative: Schema.Finite.annotate({
    description:
      "The price factor applied to rows before `date` back to the next older factor: this one times every newer one"
  }),
  volume_factor: opt(
    Schema.Finite.annotate({ description: "What volumes before `date` are multiplied by (bonus and split)" })
  ),
  applied_to: Schema.Literals(["prices_and_volumes", "prices", "volumes"]).annotate({
    description: "volumes: the source already restated the prices for this split, so only volumes are adjusted"
  }),
  terms: Schema.String.annotate({ description: "The recorded terms and the arithmetic" }),
  source: Schema.String.annotate({
    description: "The dataset (see sources) or sourced record the action is read from"
  }),
  face_value_source: opt(Schema.String)
})

export const UnknownTerms = Schema.Struct({
  kind: Kind,
  date: opt(IsoDate),
  from: opt(IsoDate.annotate({ description: "When the day is unknown: the earliest it can be" })),
  by: opt(IsoDate.annotate({ description: "When the day is unknown: the latest it can be" })),
  description: Schema.String,
  reason: Schema.String,
  source: Schema.String
})

/** What an adjusted answer says of its adjustment (its `adjustment` record, present exactly when `adjust` is splits or total_return). */
export const AdjustmentFields = {
  adjust: Schema.Literals(["splits", "total_return"]),
  factors: Schema.Array(AdjustFactor).annotate({
    description:
      "The factors applied to the rows in the answer's window (on prices: those dated after its first row), newest first"
  }),
  cut_before: opt(IsoDate.annotate({
    description: "Rows before this day are left out: an adjustment there is not known (see cut_reason); never guessed"
  })),
  cut_reason: opt(Schema.String),
  unknown_terms: Schema.Array(UnknownTerms).annotate({
    description: "Actions of the series whose day or terms are not recorded, newest first"
  }),
  price_decimals: Schema.Int.annotate({
    description:
      "Adjusted prices are rounded to this many decimals, the most the served closes are recorded with; factors are exact fractions until then"
  }),
  volumes: Schema.Literals(["adjusted", "left_out"]),
  adjustment_notes: Schema.Array(Schema.String)
}

export const Adjustment = Schema.Struct(AdjustmentFields).annotate({
  description: "With adjust=splits or total_return: the factors applied to the rows served and where the series is cut"
})
