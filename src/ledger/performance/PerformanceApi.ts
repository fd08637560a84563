/** The performance endpoint, in the portfolio group (src/ledger/LedgerApi.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { Forbidden, SourceUnavailable, Unauthorized } from "../../../domain/Errors.ts"
import { DAY_SERIES } from "../../../domain/ledger/PerformanceDays.ts"
import { Performance } from "../../../domain/ledger/PerformanceSchemas.ts"
import { DateParam } from "../../../domain/Params.ts"
import { RequiredGrant } from "../accounts/BearerAuth.ts"

const PERFORMANCE_RULE =
  "Grant portfolio:read. By default the answer is the period summary below; the valuation's rows " +
  "come only on request, with `days`: `none` (the default), `daily` (one row a session), `weekly` or `monthly` (one row " +
  "a week or month, at its last session's close, with the money and dividends of all its sessions). A row: market value, " +
  "cost of the open positions, net money in, net dividends, KSE-100's close, flags.\n\n" +
  "The portfolio is valued at every session's close from its first event to `last_session`: the newest session with a " +
  "recorded close of KSE-100 and of every symbol held on it, so nothing is valued at a close older than its day's; events " +
  "that take effect later are listed in `not_yet_valued` (recorded, not yet valued) and counted nowhere else. Shares follow the ledger's replay (the " +
  "holdings answer's arithmetic), except that a bonus's shares and a cash dividend count on the ex day (the session after " +
  "the last buy date), when the price drops, so the value line runs through them; a split counts on its date. Closes are " +
  "as traded where recorded, then the exchange's eod series; a held symbol without a close that session is valued at its " +
  "last recorded close and the row flagged `carried:SYMBOL`, never estimated; with none before it the value is absent " +
  "(`no_close:SYMBOL`) and so are the returns that need it. `restated:SYMBOL` marks a holding whose own dates span a split " +
  "the source restated its closes for and this ledger does not record (shares bought after that split are not flagged).\n\n" +
  "Periods 1M, 3M, 6M, YTD, 1Y and since_inception end at `to` (default: the last session), and `range` runs from `from` " +
  "when it is given. A period starts from the close of the last session on or before its start date (a month before, " +
  "the last day of the previous year for YTD, ...); one that would start before the first event runs from inception " +
  "instead (`covers_whole_period: false`), its first day included from the trade prices. For each: TWR (daily " +
  "chain-linked: r = (V + D + O) / (V_prev + I) − 1 with money in I at the start of its day and money out O at its " +
  "end, so selling everything is never a −100% day; days with nothing at risk left out); XIRR (the annual rate at which " +
  "the flows' present value is zero, days counted actual/365 from the first flow; Newton's method, then bisection; absent, " +
  "never 0, when nothing flowed or it does not converge) and `mwr`, the same rate over the period's days; total return " +
  "(gain / (value at start + money in), gain = value at end + money out + net dividends − value at start − money in); " +
  "KSE-100's change from the close of the period's `from` to that of `to` (the last recorded closes on or before them) " +
  "and `difference` = twr − that change, given only when KSE-100's closes are dated on both those sessions (the same " +
  "days on both sides; else `benchmark_note` says which is missing). KSE-100 is a total-return index (dividends, bonus " +
  "and rights adjusted in it), so it is compared with the total return. The price return (`price_twr`, dividends left " +
  "out) is compared with KSE100PR, its price-return variant, only where KSE100PR's closes are recorded " +
  "(`benchmark.price_return.recorded`). `entitlements_due` and `warnings` name the payouts due to the portfolio that it " +
  "has not recorded: the figures leave them out. " +
  "Each holding's contribution is its own gain over the portfolio's capital, so they add up to the total return. " +
  "Returns are decimals (0.25 = 25%) rounded to 6 places; money is rupees with two decimals, computed in paisa.\n\n" +
  "`from` and `to` (YYYY-MM-DD, real dates) narrow the rows; `from` after `to` is 400 INVALID_REQUEST."
export const performanceEndpoints = [
  HttpApiEndpoint.get("performance", "/v1/me/performance", {
    query: {
      from: Schema.optional(
        DateParam.annotate({ description: "The first day of the rows (and of the `range` period)" })
      ),
      to: Schema.optional(
        DateParam.annotate({
          description: "The last day of the rows; every period ends at the last session on or before it"
        })
      ),
      days: Schema.optional(
        Schema.Literals(DAY_SERIES).annotate({
          description: "The valuation's rows: none (the default: the period summary only), weekly, monthly or daily"
        })
      )
    },
    success: Performance,
    error: [Unauthorized, Forbidden, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:read").annotateMerge(
    OpenApi.annotations({ summary: "Get the portfolio's performance against KSE-100", description: PERFORMANCE_RULE })
  )
] as const
