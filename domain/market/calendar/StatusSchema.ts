/**
 * The market calendar records: the status now (GET /v1/market/status), a
 * day's trading status with the calendar it rests on, and a session's
 * times. Times are Asia/Karachi wall-clock "HH:MM".
 */
import { Schema } from "effect"

const IsoDate = Schema.String.annotate({ description: "Calendar date, YYYY-MM-DD (Asia/Karachi)" })
const Clock = Schema.String.annotate({ description: "Asia/Karachi wall-clock time, HH:MM" })

export const CalendarBasis = Schema.Literals(["published", "recorded", "unverified"]).annotate({
  description: "published: the exchange's holiday notice for that year; recorded: derived from recorded trading " +
    "(a weekday without a trade in any recorded symbol was a closure); unverified: no known calendar covers the " +
    "date, weekdays are assumed open"
})
export type CalendarBasis = typeof CalendarBasis.Type

export const ClosedReason = Schema.Literals(["weekend", "holiday", "closure"]).annotate({
  description: "weekend; holiday (named); closure (recorded without trading, reason not recorded)"
})

/** Whether the exchange trades on a date, and on what knowledge. */
export const TradingDayStatus = Schema.Struct({
  date: IsoDate,
  trading: Schema.Boolean,
  calendar: CalendarBasis,
  reason: Schema.optionalKey(ClosedReason),
  holiday: Schema.optionalKey(Schema.String),
  holiday_provisional: Schema.optionalKey(
    Schema.Boolean.annotate({ description: "Moon-dependent date, confirmed by a later notice" })
  ),
  note: Schema.optionalKey(Schema.String)
})
export type TradingDayStatus = typeof TradingDayStatus.Type

const Window = Schema.Struct({ start: Clock, end: Clock })

/** One trading session's phases (Monday–Thursday one regular session; Friday two). */
export const SessionTimes = Schema.Struct({
  session: Schema.Literals(["regular", "first", "second"]),
  pre_open: Window,
  order_matching: Schema.optionalKey(Window),
  trading: Window.annotate({ description: "Continuous trading" }),
  post_close: Schema.optionalKey(Window)
})
export type SessionTimes = typeof SessionTimes.Type

export const MarketState = Schema.Literals(["open", "closed", "pre-open", "post-close"])
export const MarketPhase = Schema.Literals([
  "non_trading_day",
  "before_open",
  "pre_open",
  "order_matching",
  "opening",
  "trading",
  "between_sessions",
  "after_trading",
  "post_close",
  "after_close"
]).annotate({
  description: "Finer than state: pre_open, order_matching and opening (the unnamed minutes between Friday's " +
    "pre-open and trading) are state pre-open; trading is open; post_close is post-close; the rest closed " +
    "(between_sessions: Friday's midday break; after_trading: trading ended, post-close not begun)"
})

export const MarketStatus = Schema.Struct({
  now: Schema.String.annotate({ description: "Instant, ISO 8601 UTC" }),
  time_zone: Schema.Literal("Asia/Karachi"),
  date: IsoDate,
  weekday: Schema.String,
  state: MarketState,
  phase: MarketPhase,
  session: Schema.optionalKey(
    Schema.Literals(["regular", "first", "second"]).annotate({
      description: "The session the current phase belongs to; absent outside every session"
    })
  ),
  is_trading_day: Schema.Boolean,
  calendar: CalendarBasis,
  closed_reason: Schema.optionalKey(ClosedReason),
  holiday: Schema.optionalKey(Schema.String),
  holiday_provisional: Schema.optionalKey(Schema.Boolean),
  calendar_note: Schema.optionalKey(Schema.String),
  today_sessions: Schema.Array(SessionTimes).annotate({ description: "Empty on a day without trading" }),
  next_session: Schema.Struct({ date: IsoDate, calendar: CalendarBasis, ...SessionTimes.fields }).annotate({
    description: "The next session whose pre-open has not begun"
  }),
  next_trading_day: IsoDate,
  previous_trading_day: IsoDate,
  holidays_known: Schema.Boolean.annotate({
    description: "False for dates outside every published or recorded calendar"
  }),
  timings: Schema.String.annotate({ description: "Which timetable the session times follow" }),
  settlement: Schema.String.annotate({ description: "Settlement cycle in force for a trade today, e.g. T+1" }),
  quotes: Schema.Literal("delayed")
})
export type MarketStatus = typeof MarketStatus.Type
