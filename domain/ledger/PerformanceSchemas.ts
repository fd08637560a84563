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
  value: opt(
    Rupees("Market value of the holdings at the session's close (absent: a held symbol has no close on or before it)")
  ),
  cost: Rupees("Cost of the open positions (average cost, fees included), as GET /v1/me/holdings computes it"),
  net_flow: Rupees(
    "Money put in that session (buys: price × shares + fees) less money taken out (sales: price × shares − fees)"
  ),
  dividends: Rupees("Net dividends counted that session (on the ex day, after the tax recorded)"),
  kse100: opt(d(Schema.Finite, "KSE-100 points at the session's close (absent: no close recorded that day)")),
  flags: opt(
    d(
      Schema.Array(Schema.String),
      "carried:SYMBOL: no close that session, valued at its last recorded close; " +
        "no_close:SYMBOL: no close on or before it (value unknown); restated:SYMBOL: the source's close restated for a split " +
        "it does not date, used as it is (no matching split recorded here), on a position opened before that split; unrestated:SYMBOL: that close divided back by the " +
        "source's factor, before the split this portfolio records"
    )
  )
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
  contribution: opt(
    Rate("Its gain over the portfolio's capital (value_start + cash_in): the contributions add up to total_return")
  )
})

const IndexChange = (change: string) =>
  Schema.Struct({
    from: d(
      IsoDate,
      "The date of the close the change starts from (the last recorded on or before the period's `from`)"
    ),
    to: d(IsoDate, "The date of the close it ends at"),
    from_close: Schema.Finite,
    to_close: Schema.Finite,
    change: Rate(change)
  })

export const UnvaluedEvent = Schema.Struct({
  event_id: Schema.String,
  kind: d(Schema.String, "buy, sell, dividend, bonus or split"),
  symbol: Schema.String,
  takes_effect: d(IsoDate, "The session it counts on (a dividend or bonus: its ex day), after `last_session`")
})

export const PeriodFigures = Schema.Struct({
  period: d(
    Schema.Literals(["1M", "3M", "6M", "YTD", "1Y", "since_inception", "range"]),
    "range: from the query's `from` to `to`"
  ),
  from: d(
    IsoDate,
    "The session whose close the period starts from (from inception: the first event's session, its own day included)"
  ),
  to: d(IsoDate, "The period's last session"),
  from_inception: d(Schema.Boolean, "The period starts with nothing held, at the first event"),
  covers_whole_period: d(
    Schema.Boolean,
    "False when the portfolio is younger than the period (it then runs from inception)"
  ),
  ...flowFields("The portfolio's"),
  twr: opt(Rate("Time-weighted return, daily chain-linked, dividends (net) included")),
  mwr: opt(Rate("Money-weighted return over the period (not annualised): (1 + xirr)^(days / 365) − 1")),
  xirr: opt(
    Rate("Money-weighted return, annualised (XIRR, actual/365); absent when it does not converge or nothing flowed")
  ),
  total_return: opt(Rate("gain / (value_start + cash_in): the price return with net dividends on the capital at risk")),
  kse100: opt(IndexChange("KSE-100's change: a total-return index (dividends, bonus and rights adjusted in it)")),
  difference: opt(Rate(
    "twr − kse100.change: total return against total return; given only when KSE-100's closes are " +
      "dated on the period's own `from` and `to` (the same days on both sides)"
  )),
  price_twr: opt(
    Rate("Time-weighted return without dividends (price return); given only where KSE100PR's closes are recorded")
  ),
  kse100pr: opt(
    IndexChange("KSE100PR's change: the price-return variant of KSE-100 (absent: its closes are not recorded)")
  ),
  price_difference: opt(Rate("price_twr − kse100pr.change, only over the same days on both sides")),
  benchmark_note: opt(
    d(
      Schema.String,
      "Why a difference is not given (a benchmark's close missing on the period's first or last session)"
    )
  ),
  contributions: Schema.Array(Contribution),
  note: opt(Schema.String)
})

export type PerformanceDay = typeof PerformanceDay.Type
export type PeriodFigures = typeof PeriodFigures.Type
export type UnvaluedEvent = typeof UnvaluedEvent.Type

/** The answer without its rows (what is encoded through the Schema; the rows are built typed, thousands of them). */
export const PerformanceHead = Schema.Struct({
  portfolio: Schema.String,
  first_event: opt(d(IsoDate, "The first session a recorded event takes effect on")),
  last_session: opt(d(
    IsoDate,
    "The last session valued: the newest with a recorded close of KSE-100 and of every " +
      "symbol held on it (before `first_event` when every event is later)"
  )),
  not_yet_valued: d(
    Schema.Array(UnvaluedEvent),
    "Events recorded that take effect after `last_session`: in the ledger " +
      "and the holdings, but no close is recorded yet to value them at, so no figure here counts them"
  ),
  basis: Schema.String,
  benchmark: Schema.Struct({
    index: Schema.Literal("KSE-100"),
    kind: Schema.Literal("total return index"),
    note: Schema.String,
    price_return: Schema.Struct({
      index: Schema.Literal("KSE100PR"),
      recorded: d(
        Schema.Boolean,
        "Whether KSE100PR's daily closes are recorded here (false: no price-return comparison)"
      ),
      note: Schema.String
    })
  }),
  periods: Schema.Array(PeriodFigures),
  entitlements_due: opt(d(
    Schema.Struct({
      count: Schema.Int,
      cash_dividends_gross: opt(Rupees("Gross of the due cash dividends whose amount is known")),
      amount_unknown: d(
        Schema.Int,
        "Due entitlements whose amount is unknown (no face value recorded) or that are bonus shares"
      ),
      items: Schema.Array(Schema.Struct({
        id: Schema.String,
        symbol: Schema.String,
        kind: Schema.String,
        book_closure_from: IsoDate,
        credit_date: IsoDate,
        gross: opt(Rupees("Gross cash")),
        bonus_shares: opt(Schema.Int)
      }))
    }),
    "Entitlements of recorded payouts (GET /v1/me/entitlements) neither recorded nor dismissed: the figures above " +
      "leave them out until they are recorded (absent: none due)"
  )),
  warnings: opt(d(Schema.Array(Schema.String), "What the figures leave out, in words (absent: nothing)")),
  sources: Schema.Array(Source)
})

export const Performance = Schema.Struct({
  ...PerformanceHead.fields,
  days: opt(
    d(
      Schema.Array(PerformanceDay),
      "Only when asked for with `days`: from `from` (default: the first event) to " +
        "`to` (default: the last session), one row a session (daily), a week or a month (its last session's close, with the " +
        "money and dividends of all its sessions)"
    )
  )
})
