/**
 * The technicals record (`Technicals.ts`) and the parts it shares with the
 * analytics records: figures left out with their reason, and bonus or split
 * steps. Apart from `AnalyticsSchemas.ts` because the full-company payload
 * (`Schemas.ts` `Stock`) carries technicals too, and `AnalyticsSchemas.ts`
 * builds on `Schemas.ts`.
 */
import { Schema } from "effect"

const Num = Schema.Finite
const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
export const IsoDate = Schema.String.annotate({ description: "Calendar date, YYYY-MM-DD (Asia/Karachi)" })
export const SeriesName = Schema.Literals(["as_traded", "eod", "merged"])

/** A figure left out, and why. */
export const Unavailable = Schema.Struct({ figure: Schema.String, reason: Schema.String })

/** A bonus, split or right step between two sessions (prices are never adjusted; see `PriceSteps.ts`). */
export const PriceStep = Schema.Struct({
  date: IsoDate.annotate({ description: "First session on the new basis" }),
  previous_date: IsoDate,
  close_before: Num,
  close_after: Num,
  factor: Num.annotate({ description: "Closes before `date` are multiplied by this in step-adjusted figures" }),
  basis: Schema.Literals(["recorded_action", "detected"]).annotate({
    description: "recorded_action: a recorded bonus/split/right; detected: a move beyond the exchange's price limit"
  }),
  kind: opt(Schema.String)
})

/** Which series a figure was computed from, and whether its source restated it (domain/market/prices/Restated.ts). */
export const PriceSeriesBasis = Schema.Struct({
  series: SeriesName,
  restated_by_source: Schema.Union([Schema.Boolean, Schema.Literal("unknown")]).annotate({
    description: "true: the exchange restated this series for a split (prices before it are not as traded); " +
      "false: as traded (verified); \"unknown\": no recording shows either"
  }),
  note: Schema.optionalKey(Schema.String)
})
export type PriceSeriesBasis = typeof PriceSeriesBasis.Type

export const StepFields = {
  price_series: Schema.optionalKey(PriceSeriesBasis),
  adjusted_for_steps: Schema.Boolean.annotate({
    description: "True when a step lies in a window: returns across it are on the step-adjusted basis, not a fall"
  }),
  steps: Schema.Array(PriceStep),
  unavailable: Schema.Array(Unavailable)
}

const PriceVs = Schema.Literals(["above", "below", "at"])
const Sma = Schema.Struct({ value: Num, price_vs: PriceVs })

export const TechnicalsFigures = Schema.Struct({
  symbol: Schema.String,
  series: SeriesName,
  as_of: IsoDate,
  last_close: Num,
  labels: Schema.Array(Schema.String).annotate({
    description: "State labels such as above_sma200, rsi_overbought, volatility_high; never a buy or sell rating"
  }),
  sma_20: opt(Sma),
  sma_50: opt(Sma),
  sma_200: opt(Sma),
  rsi_14: opt(Schema.Struct({ value: Num, zone: Schema.Literals(["overbought", "oversold", "neutral"]) })),
  macd: opt(Schema.Struct({
    macd: Num,
    signal: Num,
    histogram: Num,
    state: Schema.Literals(["above_signal", "below_signal", "at_signal"])
  })),
  bollinger: opt(Schema.Struct({
    middle: Num,
    upper: Num,
    lower: Num,
    percent_b: Num,
    position: Schema.Literals(["above_upper", "upper_half", "lower_half", "below_lower"])
  })),
  pivots: opt(Schema.Struct({
    session_date: IsoDate,
    high: Num,
    low: Num,
    close: Num,
    pivot: Num,
    r1: Num,
    r2: Num,
    r3: Num,
    s1: Num,
    s2: Num,
    s3: Num
  })),
  volatility_20d: opt(Schema.Struct({
    daily_stdev_pct: Num,
    annualised_pct: Num,
    level: Schema.Literals(["low", "normal", "high"])
  })),
  ...StepFields
})
export type TechnicalsFigures = typeof TechnicalsFigures.Type
