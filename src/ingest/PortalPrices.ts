/**
 * Prices from the portal into the store: the delayed board (`boardQuotes`,
 * `boardClose`) and the eod history (`writeEod`).
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { karachiInstant } from "../../domain/Karachi.ts"
import { closeMinutes, lastCompletedSession, marketStatus } from "../../domain/market/calendar/Calendar.ts"
import type { BoardRow, PriceRow } from "../../domain/psx/Prices.ts"
import { decodeRows } from "./Bulk.ts"
import { upsertChanged, type Written } from "./Changes.ts"
import { boardQuoteRow, corporateActionsTable, dailyPricesTable, quotesTable } from "./Tables.ts"

/** Board phases in which the figures are moving: a quote is as of the moment it was read. */
const inSession = new Set([
  "pre_open",
  "order_matching",
  "opening",
  "trading",
  "between_sessions",
  "after_trading",
  "post_close"
])
/** Phases in which the board shows a finished session. */
const afterSession = new Set(["after_close", "non_trading_day", "before_open"])

/** The instant a session day's trading closed (Karachi). */
export const closeInstant = (day: string) => karachiInstant(day, 0, closeMinutes(day))

/**
 * The market watch is the delayed board. During a session its rows are
 * quotes as of the moment they were read; outside one they are the last
 * completed session's figures, dated at that session's close. After the
 * close the same rows are the day's prices and extend every history (the
 * `eod` series: the exchange's own figures), except a row that repeats the
 * previous stored session exactly (a board that did not move: a day the
 * calendar does not know to be a holiday).
 */
export const boardQuotes = (rows: ReadonlyArray<BoardRow>, now: number) =>
  Effect.gen(function*() {
    const phase = marketStatus(now).phase
    const asOf = new Date(inSession.has(phase) ? now : closeInstant(lastCompletedSession(now))).toISOString()
    const quotes = rows.flatMap((r) => {
      const q = boardQuoteRow(r, asOf, "portal_market_watch")
      return q ? [q] : []
    })
    return { written: yield* upsertChanged(quotesTable, quotes), asOf }
  })

const latestRow = Schema.Struct({ symbol: Schema.String, close: Schema.Number, volume: Schema.NullOr(Schema.Number) })
const dailyCompare = { ...dailyPricesTable, compare: ["close", "volume"] }

export const boardClose = (rows: ReadonlyArray<BoardRow>, now: number) =>
  Effect.gen(function*() {
    if (!afterSession.has(marketStatus(now).phase)) return { written: 0, unchanged: 0, skipped: {} }
    const day = lastCompletedSession(now)
    const traded = rows.filter((r) => r.current !== undefined && r.volume !== undefined && r.volume > 0)
    if (traded.length === 0) return { written: 0, unchanged: 0, skipped: {} }
    const sql = yield* SqlClient.SqlClient
    const previous = yield* decodeRows(latestRow)(sql.unsafe(
      `SELECT DISTINCT ON (symbol) symbol, close::float8 AS close, volume::float8 AS volume FROM daily_prices
       WHERE series = 'eod' AND symbol = ANY($1::text[]) AND date < $2::date ORDER BY symbol, date DESC`,
      [traded.map((r) => r.symbol), day]
    ))
    const before = new Map(previous.map((p) => [p.symbol, p]))
    let repeats = 0
    const out = traded.flatMap((r) => {
      const p = before.get(r.symbol)
      if (p !== undefined && p.close === r.current && p.volume === r.volume) {
        repeats++
        return []
      }
      return [{
        symbol: r.symbol,
        series: "eod",
        date: day,
        open: r.open ?? null,
        high: r.high ?? null,
        low: r.low ?? null,
        close: r.current,
        volume: r.volume,
        flag: null,
        dataset: "portal_market_watch"
      }]
    })
    const w = yield* upsertChanged(dailyCompare, out)
    return {
      ...w,
      skipped: repeats > 0
        ? { [`same close and volume as the previous session (not a new session on ${day})`]: repeats }
        : {}
    }
  })

const storedRow = Schema.Struct({ date: Schema.String, close: Schema.Number })

/** A whole-history factor: most shared days differ, nearly all by about the same ratio. */
const restatement = (stored: ReadonlyArray<typeof storedRow.Type>, fetched: ReadonlyArray<PriceRow>) => {
  const mine = new Map(stored.map((r) => [r.date, r.close]))
  const ratios: Array<{ date: string; ratio: number }> = []
  let shared = 0
  for (const r of fetched) {
    const s = mine.get(r.date)
    if (s === undefined) continue
    shared++
    const ratio = s / r.close
    if (Math.abs(ratio - 1) > 0.005) ratios.push({ date: r.date, ratio })
  }
  if (ratios.length < 3 || ratios.length < shared / 2) return undefined
  const sorted = ratios.map((r) => r.ratio).sort((a, b) => a - b)
  const factor = sorted[Math.floor(sorted.length / 2)]!
  // A one-day source glitch inside the window must not hide the step: most differences share the factor.
  if (sorted.filter((r) => Math.abs(r / factor - 1) < 0.02).length < 0.9 * sorted.length) return undefined
  const dates = ratios.map((r) => r.date).sort()
  return {
    factor: Math.round(factor * 1e4) / 1e4,
    shared,
    differing: ratios.length,
    first: dates[0]!,
    last: dates[dates.length - 1]!
  }
}

/**
 * `/timeseries/eod/{SYM}` backfills and cross-checks. When its history
 * disagrees with the stored one by a whole-history factor (a split the
 * exchange restated), nothing is written: the step is recorded as a
 * corporate action with its evidence, and the two series are never mixed.
 */
export const writeEod = (symbol: string, rows: ReadonlyArray<PriceRow>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const stored = yield* decodeRows(storedRow)(sql`
      SELECT date::text AS date, close::float8 AS close FROM daily_prices WHERE symbol = ${symbol} AND series = 'eod'`)
    const step = restatement(stored, rows)
    if (step !== undefined) {
      yield* upsertChanged(corporateActionsTable, [{
        id: `restated-portal-${symbol}-${step.last}`,
        symbol,
        kind: "restatement",
        ex_date: null,
        ratio: step.factor,
        details:
          `The portal's /timeseries/eod/${symbol} now differs from the stored eod series on ${step.differing} of ` +
          `${step.shared} shared days (${step.first} to ${step.last}), all by about ×${step.factor} (stored / portal): the ` +
          "exchange restated the history, as it does after a split or consolidation. The restated history was not written.",
        dataset: "portal_eod"
      }])
      return {
        written: 0,
        unchanged: 0,
        skipped: { [`restated by the source (×${step.factor}); stored series kept`]: rows.length }
      }
    }
    const w: Written = yield* upsertChanged(
      dailyCompare,
      rows.map((r) => ({
        symbol,
        series: "eod",
        date: r.date,
        open: r.open ?? null,
        high: r.high ?? null,
        low: r.low ?? null,
        close: r.close,
        volume: r.volume ?? null,
        flag: null,
        dataset: "portal_eod"
      }))
    )
    const quoted = yield* quoteFromLatestClose(symbol)
    return { ...w, written: w.written + quoted, skipped: {} as Record<string, number> }
  })

const latestDay = Schema.Struct({ date: Schema.String })

/**
 * A symbol's newest stored close as its quote, when no quote is stored for it or the stored one is
 * older (the market watch did not list it): the quote pack mode derives from the latest close, dated
 * at that session's close, so it turns stale by the same calendar as a board quote.
 */
export const quoteFromLatestClose = (symbol: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [last] = yield* decodeRows(latestDay)(sql`
      SELECT date::text AS date FROM daily_prices WHERE symbol = ${symbol} AND series = 'eod' AND flag IS NULL
      ORDER BY date DESC LIMIT 1`)
    if (last === undefined) return 0
    const asOf = new Date(closeInstant(last.date)).toISOString()
    const written = yield* sql.unsafe(
      `INSERT INTO quotes (symbol, price, previous_close, open, high, low, change, change_pct, volume, as_of, basis, dataset)
       SELECT p.symbol, p.close, prev.close, p.open, p.high, p.low,
         p.close - prev.close, round((p.close / prev.close - 1) * 100, 4), p.volume, $3::timestamptz, 'daily_close', p.dataset
       FROM daily_prices p
       LEFT JOIN LATERAL (
         SELECT close FROM daily_prices q WHERE q.symbol = p.symbol AND q.series = 'eod' AND q.date < p.date AND q.flag IS NULL
         ORDER BY q.date DESC LIMIT 1
       ) prev ON true
       WHERE p.symbol = $1 AND p.series = 'eod' AND p.date = $2::date
       ON CONFLICT (symbol) DO UPDATE SET price = excluded.price, previous_close = excluded.previous_close,
         open = excluded.open, high = excluded.high, low = excluded.low, change = excluded.change,
         change_pct = excluded.change_pct, volume = excluded.volume, as_of = excluded.as_of,
         basis = excluded.basis, dataset = excluded.dataset
       WHERE quotes.as_of < excluded.as_of
       RETURNING symbol`,
      [symbol, last.date, asOf]
    )
    return written.length
  })

/**
 * The same session's figures: closes within a paisa (the page rounds to 2 places where eod keeps 4, and the
 * recordings differ by a paisa on some days) and, where both are known, the same volume.
 */
const sameDay = (stored: { close: number; volume: number | null }, page: PriceRow) =>
  Math.abs(stored.close - page.close) <= 0.01 + 1e-9 &&
  (stored.volume === null || page.volume === undefined || stored.volume === page.volume)
const storedDay = Schema.Struct({ date: Schema.String, close: Schema.Number, volume: Schema.NullOr(Schema.Number) })

/**
 * `POST /historical` (OHLCV): open, high and low for the stored eod days whose
 * close and volume it repeats. A day that differs belongs to another series (the
 * page may be as traded where eod is restated) and a day with no stored eod
 * row is not added: the two series are never mixed. An enriched row's
 * dataset becomes `portal_historical`, whose page carries all its figures.
 */
export const writeHistorical = (symbol: string, rows: ReadonlyArray<PriceRow>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const stored = yield* decodeRows(storedDay)(sql`
      SELECT date::text AS date, close::float8 AS close, volume::float8 AS volume FROM daily_prices
      WHERE symbol = ${symbol} AND series = 'eod'`)
    const days = new Map(stored.map((r) => [r.date, r]))
    const skipped: Record<string, number> = {}
    const skip = (why: string) => (skipped[why] = (skipped[why] ?? 0) + 1)
    const agreeing = rows.filter((r) => {
      const day = days.get(r.date)
      if (day === undefined) return skip("no stored eod day (not added: eod is the series)"), false
      if (!sameDay(day, r)) return skip("close or volume differs from the stored eod series"), false
      if (r.open === undefined && r.high === undefined && r.low === undefined) {
        return skip("no open, high or low"), false
      }
      return true
    })
    if (agreeing.length === 0) return { written: 0, unchanged: 0, skipped }
    const changed = yield* decodeRows(Schema.Struct({ date: Schema.String }))(sql.unsafe(
      `UPDATE daily_prices d SET open = coalesce(t.open, d.open), high = coalesce(t.high, d.high),
         low = coalesce(t.low, d.low), dataset = 'portal_historical'
       FROM jsonb_to_recordset($1::jsonb) AS t(date date, open numeric, high numeric, low numeric)
       WHERE d.symbol = $2 AND d.series = 'eod' AND d.date = t.date
         AND (d.open, d.high, d.low, d.dataset) IS DISTINCT FROM
             (coalesce(t.open, d.open), coalesce(t.high, d.high), coalesce(t.low, d.low), 'portal_historical')
       RETURNING d.date::text AS date`,
      [
        JSON.stringify(
          agreeing.map((r) => ({ date: r.date, open: r.open ?? null, high: r.high ?? null, low: r.low ?? null }))
        ),
        symbol
      ]
    ))
    return { written: changed.length, unchanged: agreeing.length - changed.length, skipped }
  })
