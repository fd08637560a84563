/**
 * Delayed quotes with their corporate-action state.
 *
 * Freshness: a quote is current while it is no older than the market
 * calendar allows (see `quoteIsFresh`); past that the answer is 409
 * DATA_STALE naming its as-of, unless the caller asks `allow_stale=true`,
 * which returns the last known quote marked `stale: true`. A price outside
 * the circuit-breaker bounds from its previous close is DATA_UNVERIFIED.
 *
 * `ex_dividend` is true when the exchange marked the day XD, false when a
 * recorded payout history for the symbol shows no book closure starting on
 * the quote's trading day, and null (undetermined) when there is no record.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { DataNotFound, DataStale, DataUnverified, type InvalidSymbol, type SourceUnavailable } from "../../domain/Errors.ts"
import { circuitBounds, karachiDate, lastCompletedSession, quoteIsFresh } from "../../domain/market/Calendar.ts"
import type { Quote } from "../../domain/market/Schemas.ts"
import { parseTicker } from "../../domain/market/Ticker.ts"
import { makeReadCache } from "./ReadCache.ts"
import { iso, num, present, storeUnavailable } from "../db/Rows.ts"
import { Sources } from "./Sources.ts"

export type QuoteError = InvalidSymbol | DataNotFound | DataStale | DataUnverified | SourceUnavailable

export class Quotes extends Context.Service<Quotes, {
  readonly get: (symbol: string, options?: { readonly allowStale?: boolean }) => Effect.Effect<Quote, QuoteError>
  /** The last known quote without the freshness gate (for embedding in other records). */
  readonly latest: (symbol: string) => Effect.Effect<Quote | undefined, SourceUnavailable>
}>()("psx/market/Quotes") {
  static readonly layer = Layer.effect(
    Quotes,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sources = yield* Sources

      // Quotes change only when data is ingested; a few seconds of caching
      // keeps a hot symbol off the database without serving anything stale
      // beyond what the freshness rule already judges at request time.
      const cached = makeReadCache(2_000, 5_000)
      const load = (symbol: string) => cached(symbol, query(symbol))
      const query = (symbol: string) =>
        sql.unsafe<Record<string, unknown>>(
          `SELECT q.symbol, q.price, q.previous_close, q.open, q.high, q.low, q.change, q.change_pct, q.volume,
                  ${iso("q.as_of")} AS as_of, q.basis, q.dataset,
                  (SELECT coalesce(json_agg(json_build_object('kind', kind, 'ex_date', ex_date::text, 'details', details)
                            ORDER BY ex_date DESC NULLS LAST), '[]')
                     FROM (SELECT * FROM corporate_actions c WHERE c.symbol = q.symbol ORDER BY ex_date DESC NULLS LAST LIMIT 5) c) AS actions,
                  (SELECT coverage FROM payout_coverage pc WHERE pc.symbol = q.symbol) AS payout_coverage,
                  (SELECT json_agg(json_build_object('dataset', d.dataset, 'close', d.close))
                     FROM daily_prices d
                    WHERE d.symbol = q.symbol AND d.flag IS NULL
                      AND d.date = (q.as_of AT TIME ZONE 'Asia/Karachi')::date
                      AND NOT EXISTS (SELECT 1 FROM price_disagreements x WHERE x.symbol = q.symbol)) AS same_day
           FROM quotes q WHERE q.symbol = $1`,
          [symbol]
        ).pipe(storeUnavailable)

      const build = Effect.fnUntraced(function*(r: Record<string, unknown>, stale: boolean) {
        const asOf = String(r["as_of"])
        const day = asOf.slice(0, 10)
        const actions = (r["actions"] ?? []) as ReadonlyArray<{ kind: string; ex_date: string | null; details: string }>
        const exToday = actions.some((a) => a.ex_date === day && (a.kind === "ex_dividend" || a.kind === "cash_dividend"))
        const exDividend = exToday ? true : r["payout_coverage"] === "recorded" ? false : null
        const source = (yield* sources.of([String(r["dataset"])]))[0] ?? {
          dataset: String(r["dataset"]),
          source: "unknown",
          as_of: asOf,
          retrieved_at: asOf
        }
        return {
          symbol: String(r["symbol"]),
          status: "delayed" as const,
          price: num(r["price"])!,
          ...present({
            previous_close: num(r["previous_close"]),
            change: num(r["change"]),
            change_pct: num(r["change_pct"]),
            open: num(r["open"]),
            high: num(r["high"]),
            low: num(r["low"]),
            volume: num(r["volume"])
          }),
          as_of: asOf,
          basis: r["basis"] as Quote["basis"],
          stale,
          corporate_actions: {
            ex_dividend: exDividend,
            basis: exToday
              ? "the exchange marked this trading day ex-dividend"
              : exDividend === false
              ? "recorded payout history shows no book closure starting on this trading day"
              : "no payout record for this symbol: undetermined",
            recent_actions: actions.map((a) => ({ kind: a.kind, ...(a.ex_date ? { ex_date: a.ex_date } : {}), details: a.details }))
          },
          source
        } satisfies Quote
      })

      const latest = (symbol: string) =>
        Effect.gen(function*() {
          const r = (yield* load(symbol))[0]
          if (r === undefined) return undefined
          const now = yield* Clock.currentTimeMillis
          return yield* build(r, !quoteIsFresh(Date.parse(String(r["as_of"])), now))
        })

      const get = Effect.fn("Quotes.get")(function*(raw: string, options?: { readonly allowStale?: boolean }) {
        const symbol = yield* parseTicker(raw)
        const rows = yield* load(symbol)
        const r = rows[0]
        if (r === undefined) {
          const known = yield* sql<{ n: number }>`select count(*)::int as n from securities where symbol = ${symbol}`.pipe(storeUnavailable)
          return yield* new DataNotFound({
            message: (known[0]?.n ?? 0) > 0 ? `no quote is recorded for ${symbol}` : `unknown symbol ${symbol}`,
            symbol
          })
        }
        const now = yield* Clock.currentTimeMillis
        const asOf = String(r["as_of"])
        const price = num(r["price"])!
        const prev = num(r["previous_close"])
        // Recorded closes of the same day from different sources must agree (within 0.5%).
        const closes = ((r["same_day"] ?? []) as ReadonlyArray<{ dataset: string; close: number | string }>)
          .map((c) => ({ dataset: c.dataset, close: Number(c.close) }))
        if (closes.length > 1) {
          const hi = closes.reduce((a, b) => (b.close > a.close ? b : a))
          const lo = closes.reduce((a, b) => (b.close < a.close ? b : a))
          if (hi.close / lo.close - 1 > 0.005) {
            return yield* new DataUnverified({
              message: `sources disagree on ${symbol}'s close of ${asOf.slice(0, 10)}: ${hi.close} (${hi.dataset}) vs ` +
                `${lo.close} (${lo.dataset}), beyond the 0.5% tolerance`,
              symbol
            })
          }
        }
        const bounds = prev !== undefined ? circuitBounds(prev, karachiDate(Date.parse(asOf))) : undefined
        if (bounds && (price < bounds.lower - 0.005 || price > bounds.upper + 0.005)) {
          return yield* new DataUnverified({
            message: `${symbol} at ${price} is outside the circuit-breaker bounds ${bounds.lower}–${bounds.upper} from the ` +
              `previous close ${prev} (${bounds.rule}); a corporate action or a source error is likely`,
            symbol
          })
        }
        const fresh = quoteIsFresh(Date.parse(asOf), now)
        if (!fresh && options?.allowStale !== true) {
          return yield* new DataStale({
            message: `the last quote for ${symbol} is from ${asOf}; the last completed session was ${
              lastCompletedSession(now)
            }. Pass allow_stale=true for the last known quote marked stale.`,
            symbol,
            as_of: asOf
          })
        }
        return yield* build(r, !fresh)
      })

      return { get, latest }
    })
  )
}
