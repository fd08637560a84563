/**
 * A portfolio's performance (GET /v1/me/performance): its events valued at
 * every session's recorded close, with time- and money-weighted returns,
 * total return with net dividends and KSE-100's change over the standard
 * periods (domain/ledger/Performance.ts), computed on read. The answer
 * depends only on the stream's head version, the market snapshot, Karachi's
 * date and the query, so its encoded bytes are cached under those (limited
 * in bytes and entries): a write or a new snapshot recomputes it. Owns the
 * answer's framing, the check of `from` and `to`, and that cache.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { LRUCache } from "lru-cache"
import { InvalidRequest, type SourceUnavailable } from "../../../domain/Errors.ts"
import type { Entitlement } from "../../../domain/ledger/Entitlements.ts"
import { fromPaisa, toPaisa } from "../../../domain/ledger/Money.ts"
import { performanceOf } from "../../../domain/ledger/Performance.ts"
import type { DaySeries } from "../../../domain/ledger/PerformanceDays.ts"
import { type Performance as PerformanceAnswer, PerformanceHead } from "../../../domain/ledger/PerformanceSchemas.ts"
import { karachiDate } from "../../../domain/market/calendar/Calendar.ts"
import type { Principal } from "../accounts/Keys.ts"
import { Entitlements } from "../entitlements/Entitlements.ts"
import { MarketFacts } from "../portfolio/MarketFacts.ts"
import { Portfolio, streamOf } from "../portfolio/Portfolio.ts"
import { toEntries } from "../portfolio/Projection.ts"

/** How the figures are computed, stated in every answer. */
export const PERFORMANCE_BASIS = "Valued at each session's recorded close (as traded where recorded); a held symbol " +
  "without a close that session is carried at its last close and flagged, never estimated. Buys are money in (price × " +
  "shares + fees), sales money out (price × shares − fees); a bonus or cash dividend counts on its ex day (the session " +
  "after its last buy date), a dividend net of the tax recorded; a split on its date. TWR: daily chain-linked, money in " +
  "at the start of its day, money out at its end. XIRR: annualised, actual/365 days from the first flow. Returns are " +
  "decimals rounded to 6 places; money is rupees (paisa exact)."

export const KSE100_NOTE =
  "KSE-100 is a total-return index: its constituents' dividends, bonus and rights are adjusted " +
  "in it (the State Bank of Pakistan's series description; the exchange's methodology). So it is compared with the " +
  "portfolio's total return: `twr`, net dividends included (the index reinvests them gross). Its closes are as recorded since 2010."

/** What the answer says of the price-return comparison, by whether KSE100PR's closes are recorded. */
export const priceReturnNote = (recorded: boolean) =>
  recorded
    ? "The portfolio's price return (`price_twr`, dividends left out) is compared with KSE100PR, the exchange's price-return " +
      "variant of KSE-100, over the same days (`price_difference`)."
    : "KSE100PR, the exchange's price-return variant of KSE-100, has no daily closes recorded here, so no price return is " +
      "compared with it (the portfolio's price return is not compared with KSE-100, which includes dividends)."

/** Bytes of encoded answers cached (a 4,000-session history is about 450 KB). */
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024

export interface PerformanceQuery {
  readonly from?: string | undefined
  readonly to?: string | undefined
  /** Which rows (default none: the periods only). */
  readonly days?: DaySeries | undefined
}

type Answer = typeof PerformanceAnswer.Type
const encodeHead = Schema.encodeSync(PerformanceHead)
/** The answer's JSON: all but the rows through the Schema; the rows (typed, thousands) as they are. */
const toJson = ({ days, ...head }: Answer) =>
  JSON.stringify({ ...encodeHead(head), ...(days !== undefined ? { days } : {}) })

/** What the answer says of entitlements neither recorded nor dismissed: the figures leave them out. */
const entitlementsDue = (items: ReadonlyArray<Entitlement>) => {
  const due = items.filter((e) => e.state === "due")
  if (due.length === 0) return {}
  const cash = due.filter((e) => e.kind === "cash_dividend" && e.gross !== undefined)
  const gross = fromPaisa(cash.reduce((sum, e) => sum + toPaisa(e.gross!), 0))
  const unknown = due.length - cash.length
  const warning = `${due.length} entitlement(s) of recorded payouts are due and not recorded in this ledger` +
    (cash.length > 0
      ? ` (Rs ${gross} of cash dividends gross${
        unknown > 0 ? `, ${unknown} more of unknown amount or bonus shares` : ""
      })`
      : "") +
    ": the dividends and returns here leave them out until each is recorded (POST /v1/me/entitlements/{id}/accept) or dismissed."
  return {
    entitlements_due: {
      count: due.length,
      ...(cash.length > 0 ? { cash_dividends_gross: gross } : {}),
      amount_unknown: unknown,
      items: due.map((e) => ({
        id: e.id,
        symbol: e.symbol,
        kind: e.kind,
        book_closure_from: e.book_closure_from,
        credit_date: e.credit_date,
        ...(e.gross !== undefined ? { gross: e.gross } : {}),
        ...(e.bonus_shares !== undefined ? { bonus_shares: e.bonus_shares } : {})
      }))
    },
    warnings: [warning]
  }
}

/**
 * The warning of an answer whose periods count no dividend while cash dividends are due: a 0 there is what the
 * ledger records, not what the portfolio is owed (undefined when there is nothing to say).
 */
export const unpaidDividendsWarning = (
  periods: ReadonlyArray<{ readonly period: string; readonly dividends: number }>,
  dueGross: number | undefined
) => {
  const silent = periods.filter((p) => p.dividends === 0).map((p) => p.period)
  if (dueGross === undefined || dueGross <= 0 || silent.length === 0) return undefined
  return `dividends reads Rs 0 for ${
    silent.join(", ")
  } while Rs ${dueGross} of cash dividends (gross) are due and not recorded: owed, not absent`
}

/** Entitlements listed at most (a portfolio's payouts over its symbols' recorded history). */
const ENTITLEMENTS_READ = 10_000

export class Performance extends Context.Service<Performance, {
  /** The answer. */
  readonly of: (
    principal: Principal,
    query: PerformanceQuery
  ) => Effect.Effect<Answer, InvalidRequest | SourceUnavailable>
  /** The answer as the JSON the route sends, from the cache while its inputs are unchanged. */
  readonly json: (
    principal: Principal,
    query: PerformanceQuery
  ) => Effect.Effect<string, InvalidRequest | SourceUnavailable>
}>()("psx/ledger/Performance") {
  static readonly layer = Layer.effect(
    Performance,
    Effect.gen(function*() {
      const portfolio = yield* Portfolio
      const market = yield* MarketFacts
      const entitlements = yield* Entitlements
      const cache = new LRUCache<string, { readonly inputs: string; readonly json: string }>({
        max: 10_000,
        maxSize: ANSWER_CACHE_BYTES
      })

      /** What an answer is computed from, and the key that names it (the stream's head, the snapshot, the day). */
      const gather = (principal: Principal, query: PerformanceQuery) =>
        Effect.gen(function*() {
          if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
            return yield* new InvalidRequest({
              message: `query field \`from\` (${query.from}) is after \`to\` (${query.to})`
            })
          }
          const today = karachiDate(yield* Clock.currentTimeMillis)
          const events = yield* portfolio.events(principal)
          const symbols = [
            ...new Set(events.flatMap((e) => ("symbol" in e.event && e.event.symbol !== "" ? [e.event.symbol] : [])))
          ]
          const facts = yield* market.performance(symbols)
          const due = entitlementsDue((yield* entitlements.list(principal, ENTITLEMENTS_READ)).items)
          const dueKey = due.entitlements_due?.items.map((e) => e.id).join(",") ?? ""
          return {
            today,
            events,
            facts,
            due,
            inputs: `${events[events.length - 1]?.version ?? 0}|${facts.version}|${today}|${dueKey}`
          }
        })

      const answerOf = (
        principal: Principal,
        query: PerformanceQuery,
        g: Effect.Success<ReturnType<typeof gather>>
      ) => {
        const { closes, index, priceIndex } = g.facts
        const result = performanceOf({
          entries: toEntries(g.events),
          closes,
          index,
          priceIndex,
          today: g.today,
          ...query
        })
        if ("_tag" in result) {
          return Effect.die(new Error(`the stream of ${principal.userId} does not replay: ${result._tag}`))
        }
        const recorded = priceIndex !== undefined
        const unpaid = unpaidDividendsWarning(result.periods, g.due.entitlements_due?.cash_dividends_gross)
        const warnings = [...(g.due.warnings ?? []), ...(unpaid !== undefined ? [unpaid] : [])]
        return Effect.succeed<Answer>({
          portfolio: streamOf(principal.userId),
          ...result,
          basis: PERFORMANCE_BASIS,
          benchmark: {
            index: "KSE-100",
            kind: "total return index",
            note: KSE100_NOTE,
            price_return: { index: "KSE100PR", recorded, note: priceReturnNote(recorded) }
          },
          ...g.due,
          ...(warnings.length > 0 ? { warnings } : {}),
          sources: g.facts.sources
        })
      }

      const of = Effect.fn("Performance.of")(function*(principal: Principal, query: PerformanceQuery) {
        return yield* answerOf(principal, query, yield* gather(principal, query))
      })

      const json = Effect.fn("Performance.json")(function*(principal: Principal, query: PerformanceQuery) {
        const g = yield* gather(principal, query)
        const key = `${streamOf(principal.userId)}|${query.from ?? ""}|${query.to ?? ""}|${query.days ?? "none"}`
        const cached = cache.get(key)
        if (cached?.inputs === g.inputs) return cached.json
        const text = toJson(yield* answerOf(principal, query, g))
        cache.set(key, { inputs: g.inputs, json: text }, { size: text.length + key.length })
        return text
      })

      return { of, json }
    })
  )
}
