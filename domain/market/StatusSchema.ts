/** The market calendar status record (GET /v1/market/status). */
import { Schema } from "effect"

export const MarketStatus = Schema.Struct({
  now: Schema.String,
  time_zone: Schema.Literal("Asia/Karachi"),
  date: Schema.String,
  state: Schema.Literals(["pre_open", "order_matching", "open", "break", "post_close", "closed"]),
  is_trading_day: Schema.Boolean,
  holiday: Schema.optionalKey(Schema.String),
  holiday_provisional: Schema.optionalKey(Schema.Boolean),
  next_trading_day: Schema.String,
  previous_trading_day: Schema.String,
  holidays_known: Schema.Boolean.annotate({ description: "False for years whose exchange holiday list the service does not hold" }),
  settlement: Schema.String,
  quotes: Schema.Literal("delayed")
})
