/**
 * Delayed quotes with their corporate-action state, from the read model.
 *
 * Staleness: a quote is current while it is no older than the market
 * calendar allows (see `quoteIsFresh`); past that the answer is 409
 * DATA_STALE naming its as-of, unless the caller asks `allow_stale=true`,
 * which returns the last known quote marked `stale: true`. A price outside
 * the circuit-breaker bounds from its previous close, or recorded closes of
 * the quote's day that disagree across sources, is DATA_UNVERIFIED.
 *
 * `ex_dividend` is true when the exchange marked the day XD, false when a
 * recorded payout history for the symbol shows no book closure starting on
 * the quote's trading day, and null (undetermined) when there is no record.
 */
import { Clock, Context, Effect, Layer } from "effect"
import {
  DataNotFound,
  DataStale,
  DataUnverified,
  type InvalidSymbol,
  type SourceUnavailable
} from "../../../domain/Errors.ts"
import {
  circuitBounds,
  karachiDate,
  lastCompletedSession,
  quoteIsFresh
} from "../../../domain/market/calendar/Calendar.ts"
import { unknownSymbol } from "../../../domain/market/search/SymbolTable.ts"
import type { Quote } from "../../../domain/market/shared/Schemas.ts"
import { parseTicker } from "../../../domain/market/shared/Ticker.ts"
import { datasetAt, indexAtOrBefore } from "../../../domain/market/snapshot/Series.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import type { QuoteRow } from "../../../domain/market/snapshot/StoreRows.ts"
import { defined } from "../../../domain/Objects.ts"
import { companyAliases } from "../../ingest/CompanyAliases.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"

export type QuoteError = InvalidSymbol | DataNotFound | DataStale | DataUnverified | SourceUnavailable

const RECENT_ACTIONS = 5

/** The quote record as served, `stale` as judged by the caller. */
export const quoteRecord = (snapshot: MarketSnapshot, data: SymbolData, q: QuoteRow, stale: boolean): Quote => {
  const day = q.as_of.slice(0, 10)
  const actions = data.actions.slice(0, RECENT_ACTIONS)
  const exToday = actions.some((a) => a.xd_date === day && (a.kind === "ex_dividend" || a.kind === "cash_dividend"))
  const exDividend = exToday ? true : data.payoutCoverage?.coverage === "recorded" ? false : null
  const [source] = sourcesOf(snapshot, [q.dataset])
  return {
    symbol: q.symbol,
    status: "delayed",
    price: q.price,
    ...defined({
      previous_close: q.previous_close,
      change: q.change,
      change_pct: q.change_pct,
      open: q.open,
      high: q.high,
      low: q.low,
      volume: q.volume
    }),
    as_of: q.as_of,
    basis: q.basis,
    stale,
    corporate_actions: {
      ex_dividend: exDividend,
      basis: exToday
        ? "the exchange marked this trading day ex-dividend"
        : exDividend === false
        ? "recorded payout history shows no ex day (the trading day after a payout's last buy date) on this trading day"
        : "no payout record for this symbol: undetermined",
      recent_actions: actions.map((a) => ({ kind: a.kind, ...defined({ xd_date: a.xd_date }), details: a.details }))
    },
    ...defined({ source })
  }
}

/** Closes recorded for the quote's day by each source, when the eod series is verified as traded. */
const sameDayCloses = (data: SymbolData, day: string) => {
  if (data.restatement.restated !== false) return []
  const out: Array<{ dataset: string; close: number }> = []
  for (const s of [data.asTraded, data.eod]) {
    if (s === undefined) continue
    const i = indexAtOrBefore(s, day)
    if (i >= 0 && s.dates[i] === day && s.flag[i] === undefined) {
      out.push({ dataset: datasetAt(s, i), close: s.close[i]! })
    }
  }
  return out
}

/** Why a quote cannot be vouched for, or undefined. */
export const unverifiedReason = (data: SymbolData, q: QuoteRow): string | undefined => {
  const day = q.as_of.slice(0, 10)
  const closes = sameDayCloses(data, day)
  if (closes.length > 1) {
    const hi = closes.reduce((a, b) => (b.close > a.close ? b : a))
    const lo = closes.reduce((a, b) => (b.close < a.close ? b : a))
    if (hi.close / lo.close - 1 > 0.005) {
      return `sources disagree on ${q.symbol}'s close of ${day}: ${hi.close} (${hi.dataset}) vs ${lo.close} (${lo.dataset}), ` +
        `beyond the 0.5% tolerance`
    }
  }
  const prev = q.previous_close
  const bounds = prev !== undefined ? circuitBounds(prev, karachiDate(Date.parse(q.as_of))) : undefined
  if (bounds && (q.price < bounds.lower - 0.005 || q.price > bounds.upper + 0.005)) {
    return `${q.symbol} at ${q.price} is outside the circuit-breaker bounds ${bounds.lower}–${bounds.upper} from the ` +
      `previous close ${prev} (${bounds.rule}); a corporate action or a source error is likely`
  }
  return undefined
}

export class Quotes extends Context.Service<Quotes, {
  readonly get: (symbol: string, options?: { readonly allowStale?: boolean }) => Effect.Effect<Quote, QuoteError>
  /** The last known quote without the freshness gate (for embedding in other records). */
  readonly latest: (symbol: string) => Effect.Effect<Quote | undefined, SourceUnavailable>
}>()("psx/market/Quotes") {
  static readonly layer = Layer.effect(
    Quotes,
    Effect.gen(function*() {
      const model = yield* MarketReadModel

      const latest = (symbol: string) =>
        Effect.gen(function*() {
          const snapshot = yield* model.snapshot
          const data = snapshot.symbols.get(symbol)
          if (data?.quote === undefined) return undefined
          const now = yield* Clock.currentTimeMillis
          return quoteRecord(snapshot, data, data.quote, !quoteIsFresh(Date.parse(data.quote.as_of), now))
        })

      const get = Effect.fn("Quotes.get")(function*(raw: string, options?: { readonly allowStale?: boolean }) {
        const symbol = yield* parseTicker(raw)
        const snapshot = yield* model.snapshot
        const data = snapshot.symbols.get(symbol)
        const q = data?.quote
        if (data === undefined || q === undefined) {
          return yield* new DataNotFound({
            message: data !== undefined
              ? `no quote is recorded for ${symbol}`
              : unknownSymbol(snapshot.securities, companyAliases(), symbol),
            symbol
          })
        }
        const unverified = unverifiedReason(data, q)
        if (unverified !== undefined) return yield* new DataUnverified({ message: unverified, symbol })
        const now = yield* Clock.currentTimeMillis
        const fresh = quoteIsFresh(Date.parse(q.as_of), now)
        if (!fresh && options?.allowStale !== true) {
          return yield* new DataStale({
            message: `the last quote for ${symbol} is from ${q.as_of}; the last completed session was ${
              lastCompletedSession(now)
            }. Pass allow_stale=true for the last known quote marked stale.`,
            symbol,
            as_of: q.as_of
          })
        }
        return quoteRecord(snapshot, data, q, !fresh)
      })

      return { get, latest }
    })
  )
}
