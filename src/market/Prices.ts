/**
 * Daily price history, newest first, never adjusted for corporate actions.
 *
 * Two recorded series exist: `as_traded` (closing prices as they traded) and
 * `eod` (the exchange's timeseries, restated for splits made before it was
 * recorded). `series=auto` (default) serves `merged` — as-traded where
 * recorded, else eod, which agree for such symbols — except for symbols with
 * a recorded whole-history disagreement, which get `eod` alone, flagged
 * `restated_by_source`, so the two are never silently mixed.
 *
 * A named `range` counts back from the newest row of the series (the data
 * may end before today) and also returns the window's own close-based high,
 * low and change; flagged rows (source glitches) are left out of it.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { DataNotFound, InvalidRequest, type InvalidSymbol, type SourceUnavailable } from "../../domain/Errors.ts"
import { addDays } from "../../domain/market/Calendar.ts"
import type { PricesResponse } from "../../domain/market/Schemas.ts"
import { PRICES_DEFAULT_LIMIT, type Range } from "../../domain/market/Limits.ts"
import { parseTicker } from "../../domain/market/Ticker.ts"
import { Cursors } from "../http/Cursors.ts"
import { num, present, storeUnavailable } from "../db/Rows.ts"
import { Sources } from "./Sources.ts"


export interface PricesQuery {
  readonly date_from?: string | undefined
  readonly date_to?: string | undefined
  readonly limit?: number | undefined
  readonly range?: Range | undefined
  readonly series?: "auto" | "as_traded" | "eod" | undefined
  readonly cursor?: string | undefined
}

const rangeStart = (range: Range, newest: string): string | undefined => {
  const months: Record<string, number> = { "1M": 1, "3M": 3, "6M": 6, "1Y": 12, "2Y": 24, "3Y": 36, "5Y": 60 }
  if (range === "MAX") return undefined
  if (range === "YTD") return `${newest.slice(0, 4)}-01-01`
  const d = new Date(newest + "T00:00:00Z")
  d.setUTCMonth(d.getUTCMonth() - months[range]!)
  return addDays(d.toISOString().slice(0, 10), 1)
}

type PricesError = InvalidSymbol | InvalidRequest | DataNotFound | SourceUnavailable

export class Prices extends Context.Service<Prices, {
  readonly history: (symbol: string, query: PricesQuery) => Effect.Effect<typeof PricesResponse.Type, PricesError>
  /** Close-based extremes over the last `days` calendar days of the default series (for analytics). */
  readonly closes: (symbol: string, fromDate: string) => Effect.Effect<ReadonlyArray<{ date: string; close: number }>, SourceUnavailable>
}>()("psx/market/Prices") {
  static readonly layer = Layer.effect(
    Prices,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cursors = yield* Cursors
      const sources = yield* Sources

      /** The rows of the chosen series as a subquery over $1 = symbol. */
      const seriesSql = (series: "as_traded" | "eod" | "merged") =>
        series === "merged"
          ? `(SELECT DISTINCT ON (date) * FROM daily_prices WHERE symbol = $1 ORDER BY date, series = 'as_traded' DESC)`
          : `(SELECT * FROM daily_prices WHERE symbol = $1 AND series = '${series}')`

      const chooseSeries = (symbol: string, wanted: PricesQuery["series"]) =>
        Effect.map(
          sql<{ factor: string }>`select factor::text from price_disagreements where symbol = ${symbol}`.pipe(storeUnavailable),
          (rows) => {
            const restated = rows.length > 0
            const series: "as_traded" | "eod" | "merged" = wanted === "as_traded" || wanted === "eod"
              ? wanted
              : restated
              ? "eod"
              : "merged"
            return { series, restated, factor: rows[0]?.factor }
          }
        )

      const history = Effect.fn("Prices.history")(function*(raw: string, q: PricesQuery) {
        const symbol = yield* parseTicker(raw)
        const limit = q.limit ?? PRICES_DEFAULT_LIMIT
        if (q.date_from && q.date_to && q.date_from > q.date_to) {
          return yield* new InvalidRequest({ message: `query field \`date_from\` (${q.date_from}) is after \`date_to\` (${q.date_to})` })
        }
        if (q.range && (q.date_from || q.date_to)) {
          return yield* new InvalidRequest({ message: "query fields `range` and `date_from`/`date_to` cannot be combined" })
        }
        const { series, restated, factor } = yield* chooseSeries(symbol, q.series)
        const src = seriesSql(series)
        const bounds = yield* sql.unsafe<{ first: string | null; last: string | null }>(
          `SELECT min(date)::text AS first, max(date)::text AS last FROM ${src} s`,
          [symbol]
        ).pipe(storeUnavailable)
        const newest = bounds[0]?.last
        if (!newest) {
          const known = yield* sql<{ n: number }>`select count(*)::int as n from securities where symbol = ${symbol}`.pipe(storeUnavailable)
          return yield* new DataNotFound({
            message: (known[0]?.n ?? 0) > 0 ? `no ${series} price history is recorded for ${symbol}` : `unknown symbol ${symbol}`,
            symbol
          })
        }
        const from = q.range ? rangeStart(q.range, newest) : q.date_from
        const to = q.range ? newest : q.date_to
        const scope = `prices:${symbol}:${series}:${from ?? ""}:${to ?? ""}`
        const after = yield* cursors.decode(scope, q.cursor)
        const conds: Array<string> = []
        const params: Array<unknown> = [symbol]
        if (from) conds.push(`date >= $${params.push(from)}`)
        if (to) conds.push(`date <= $${params.push(to)}`)
        const where = conds.length ? `WHERE ${conds.join(" AND ")}` : ""
        const pageConds = [...conds]
        const pageParams = [...params]
        if (after) pageConds.push(`date < $${pageParams.push(String(after[0]))}`)
        const pageWhere = pageConds.length ? `WHERE ${pageConds.join(" AND ")}` : ""
        const [rows, agg] = yield* Effect.all([
          sql.unsafe<Record<string, unknown>>(
            `SELECT date::text, open, high, low, close, volume, flag, dataset FROM ${src} s ${pageWhere} ORDER BY date DESC LIMIT ${limit + 1}`,
            pageParams
          ),
          sql.unsafe<Record<string, unknown>>(
            `SELECT count(*)::int AS total,
                    max(close) FILTER (WHERE flag IS NULL) AS high, min(close) FILTER (WHERE flag IS NULL) AS low,
                    (array_agg(close ORDER BY date) FILTER (WHERE flag IS NULL))[1] AS first_close,
                    (array_agg(close ORDER BY date DESC) FILTER (WHERE flag IS NULL))[1] AS last_close,
                    min(date)::text AS first, max(date)::text AS last,
                    array_agg(DISTINCT dataset) AS datasets
             FROM ${src} s ${where}`,
            params
          )
        ], { concurrency: 1 }).pipe(storeUnavailable)
        const page = rows.slice(0, limit)
        const a = agg[0] ?? {}
        const total = num(a["total"]) ?? 0
        const next = rows.length > limit ? yield* cursors.encode(scope, [String(page[page.length - 1]!["date"])]) : null
        const first = num(a["first_close"]), last = num(a["last_close"]), hi = num(a["high"]), lo = num(a["low"])
        const window = q.range && first !== undefined && last !== undefined && hi !== undefined && lo !== undefined
          ? {
            range: q.range,
            from: String(a["first"]),
            to: String(a["last"]),
            high: hi,
            low: lo,
            first_close: first,
            last_close: last,
            change: Math.round((last - first) * 10_000) / 10_000,
            change_pct: Math.round((last / first - 1) * 1_000_000) / 10_000,
            basis: "close" as const
          }
          : undefined
        const datasets = (a["datasets"] as ReadonlyArray<string> | null) ?? []
        return {
          symbol,
          adjusted: false as const,
          series,
          restated_by_source: series === "eod" && restated,
          ...(restated
            ? {
              note: `The exchange's eod series for ${symbol} is ${factor} × the as-traded closes over the recorded overlap ` +
                `(a split or consolidation after 2023-05-26). series=eod is restated by the source; series=as_traded is as traded ` +
                `up to 2023-05-26. They are not mixed.`
            }
            : {}),
          total,
          next_cursor: next,
          ...(window ? { window } : {}),
          items: page.map((r) => ({
            date: String(r["date"]),
            close: num(r["close"])!,
            ...present({
              open: num(r["open"]),
              high: num(r["high"]),
              low: num(r["low"]),
              volume: num(r["volume"]),
              flag: (r["flag"] as string | null) ?? undefined
            })
          })),
          sources: yield* sources.of(datasets)
        }
      })

      const closes = (symbol: string, fromDate: string) =>
        Effect.gen(function*() {
          const { series } = yield* chooseSeries(symbol, "auto")
          const rows = yield* sql.unsafe<{ date: string; close: string }>(
            `SELECT date::text, close FROM ${seriesSql(series)} s WHERE date >= $2 AND flag IS NULL ORDER BY date`,
            [symbol, fromDate]
          ).pipe(storeUnavailable)
          return rows.map((r) => ({ date: r.date, close: Number(r.close) }))
        })

      return { history, closes }
    })
  )
}
