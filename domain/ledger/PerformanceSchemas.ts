/** The performance answer's schemas (GET /v1/me/performance), one definition for HTTP and OpenAPI. */
import { Schema } from "effect"
import { Source } from "../market/shared/RecordParts.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const d = <S extends Schema.Top>(s: S, description: string) => s.annotate({ description })
const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u))
const Rupees = (description: string) => d(Schema.Finite, `${description}; rupees, two decimals at most`)
const Rate = (description: string) => d(Schema.Finite, `${description}; a decimal (0.25 is 25%), rounded to 6 places`)

export const PerformanceDay = Schema.Struct({
  // Not pattern-checked on the way out: a long history has thousands of rows, and the dates are the calendar's own.
  date: d(Schema.String, "A session (trading day), YYYY-MM-DD"),
  value: opt(Rupees("Market value of the holdings at the session's close (absent: a held symbol has no close on or before it)")),
  cost: Rupees("Cost of the open positions (average cost, fees included), as GET /v1/me/holdings computes it"),
  net_flow: Rupees("Money put in that session (buys: price × shares + fees) less money taken out (sales: price × shares − fees)"),
  dividends: Rupees("Net dividends counted that session (on the ex day, after the tax recorded)"),
  kse100: opt(d(Schema.Finite, "KSE-100 points at the session's close (absent: no close recorded that day)")),
  flags: opt(d(Schema.Array(Schema.String), "carried:SYMBOL: no close that session, valued at its last recorded close; " +
    "no_close:SYMBOL: no close on or before it (value unknown); restated:SYMBOL: the source's close restated for a split " +
    "it does not date, used as it is (no matching split recorded here); unrestated:SYMBOL: that close divided back by the " +
    "source's factor, before the split this portfolio records"))
})

/** What a period's figures and a holding's contribution both state: the values at its ends and what flowed. */
const flowFields = (whose: string) => ({
  value_start: opt(Rupees(`${whose} value at the close of \`from\` (0 from inception)`)),
  value_end: opt(Rupees(`${whose} value at the close of \`to\``)),
  cash_in: Rupees(`Money ${whose.toLowerCase()} buys put in`),
  cash_out: Rupees(`Money ${whose.toLowerCase()} sales took out`),
  dividends: Rupees(`${whose} net dividends`),
  gain: opt(Rupees("value_end + cash_out + dividends − value_start − cash_in"))
})

export const Contribution = Schema.Struct({
  symbol: Schema.String,
  ...flowFields("Its"),
  contribution: opt(Rate("Its gain over the portfolio's capital (value_start + cash_in): the contributions add up to total_return"))
})

export const PeriodFigures = Schema.Struct({
  period: d(Schema.Literals(["1M", "3M", "6M", "YTD", "1Y", "since_inception", "range"]), "range: from the query's `from` to `to`"),
  from: d(IsoDate, "The session whose close the period starts from (from inception: the first event's session, its own day included)"),
  to: d(IsoDate, "The period's last session"),
  from_inception: d(Schema.Boolean, "The period starts with nothing held, at the first event"),
  covers_whole_period: d(Schema.Boolean, "False when the portfolio is younger than the period (it then runs from inception)"),
  ...flowFields("The portfolio's"),
  twr: opt(Rate("Time-weighted return, daily chain-linked, dividends (net) included")),
  mwr: opt(Rate("Money-weighted return over the period (not annualised): (1 + xirr)^(days / 365) − 1")),
  xirr: opt(Rate("Money-weighted return, annualised (XIRR, actual/365); absent when it does not converge or nothing flowed")),
  total_return: opt(Rate("gain / (value_start + cash_in): the price return with net dividends on the capital at risk")),
  kse100: opt(Schema.Struct({
    from: d(IsoDate, "The date of the close the change starts from (the last recorded on or before the period's `from`)"),
    to: d(IsoDate, "The date of the close it ends at"),
    from_close: Schema.Finite,
    to_close: Schema.Finite,
    change: Rate("KSE-100's change: a price index (dividends not included)")
  })),
  difference: opt(Rate("twr − kse100.change")),
  contributions: Schema.Array(Contribution),
  note: opt(Schema.String)
})

export type PerformanceDay = typeof PerformanceDay.Type
export type PeriodFigures = typeof PeriodFigures.Type

/** The answer without its rows (what is encoded through the Schema; the rows are built typed, thousands of them). */
export const PerformanceHead = Schema.Struct({
  portfolio: Schema.String,
  first_event: opt(d(IsoDate, "The first session a recorded event takes effect on")),
  last_session: opt(d(IsoDate, "The newest session with a recorded close of a symbol held or of KSE-100 (or of the last event)")),
  basis: Schema.String,
  benchmark: Schema.Struct({
    index: Schema.Literal("KSE-100"),
    kind: Schema.Literal("price index"),
    note: Schema.String
  }),
  periods: Schema.Array(PeriodFigures),
  sources: Schema.Array(Source)
})

export const Performance = Schema.Struct({
  ...PerformanceHead.fields,
  days: d(Schema.Array(PerformanceDay), "One row per session from `from` (default: the first event) to `to` (default: the last session)")
})
