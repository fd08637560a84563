/**
 * The sweeps over every listed symbol (slow project: `npm run test:all`): the cached answers of the quote, payload,
 * prices and research routes are byte for byte what the HttpApi pipeline encodes, and every symbol's quote, payload
 * and 1Y prices equal what the store holds, computed in SQL. The same routes are tested symbol by symbol in
 * test/market.test.ts and test/analytics-api.test.ts, which `npm test` runs. The service's clock starts at NOW
 * (Monday 15 June 2026, 11:00 in Karachi), three weeks after the pack's last session.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { MarketReadModel } from "../src/market/readmodel/ReadModel.ts"
import { assertFailed, assertOk, get, getText, TestApp } from "./support/TestApp.ts"

/** Listed securities: the April listing's 1,029 (/symbols) and the 10 the 2026-08-04 screener shows besides. */
const LISTED = 1029 + 10

const NOW = "2026-06-15T06:00:00.000Z"

/** A sweep makes thousands of requests; on a busy shared machine it can take minutes. */
const SWEEP_TIMEOUT = 600_000

layer(TestApp({ withPack: true, now: NOW }), { timeout: 600_000, excludeTestServices: true })(
  "every listed symbol over the bundled pack",
  (it) => {
    it.effect(
      "encoded answers are byte for byte what the HttpApi pipeline encodes, for every listed symbol",
      () =>
        Effect.gen(function*() {
          const universe = yield* SqlClient.SqlClient.pipe(
            Effect.flatMap((sql) => sql<{ symbol: string }>`select symbol from securities order by symbol`)
          )
          assert.strictEqual(universe.length, LISTED)
          let compared = 0
          for (const { symbol } of universe) {
            for (
              const path of [
                `/v1/quotes/${symbol}?allow_stale=true`,
                `/v1/stocks/${symbol}`,
                `/v1/prices/${symbol}?range=1Y`
              ]
            ) {
              const fast = yield* getText(path)
              const full = yield* getText(path, { "cache-control": "no-cache" })
              assert.strictEqual(fast.status, full.status, path)
              assert.strictEqual(fast.text, full.text, path)
              if (fast.status === 200) compared++
            }
          }
          assert.isAbove(compared, 2_000, "most symbols have a quote, a payload and prices")
        }),
      SWEEP_TIMEOUT
    )

    it.effect(
      "for every listed symbol, quote, full payload and 1Y prices equal what the store holds (computed in SQL)",
      () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          // The two recorded series are merged only for symbols whose eod series is verified as traded (domain/market/prices/Restated.ts).
          const snapshot = yield* Effect.flatMap(MarketReadModel, (m) => m.snapshot)
          const merged = [...snapshot.symbols.values()].filter((d) => d.prices?.series === "merged").map((d) =>
            `'${d.security.symbol}'`
          )
          assert.isAbove(merged.length, 80)
          const Row = Schema.Struct({
            symbol: Schema.String,
            name: Schema.String,
            sector: Schema.NullOr(Schema.String),
            market_cap: Schema.NullOr(Schema.Finite),
            price: Schema.NullOr(Schema.Finite),
            previous_close: Schema.NullOr(Schema.Finite),
            volume: Schema.NullOr(Schema.Finite),
            as_of: Schema.NullOr(Schema.String),
            total: Schema.NullOr(Schema.Finite),
            w_from: Schema.NullOr(Schema.String),
            w_to: Schema.NullOr(Schema.String),
            high: Schema.NullOr(Schema.Finite),
            low: Schema.NullOr(Schema.Finite),
            first_close: Schema.NullOr(Schema.Finite),
            last_close: Schema.NullOr(Schema.Finite),
            w52_high: Schema.NullOr(Schema.Finite),
            w52_low: Schema.NullOr(Schema.Finite)
          })
          const rows = yield* sql.unsafe(`
        WITH merged AS (SELECT unnest(ARRAY[${merged.join(",")}]::text[]) AS symbol),
        with_eod AS (SELECT DISTINCT symbol FROM daily_prices WHERE series = 'eod'),
        m AS (
          SELECT DISTINCT ON (p.symbol, p.date) p.symbol, p.date, p.close::float8 AS close, p.flag
          FROM daily_prices p
          WHERE p.series = 'eod' OR p.symbol IN (SELECT symbol FROM merged) OR p.symbol NOT IN (SELECT symbol FROM with_eod)
          ORDER BY p.symbol, p.date, (p.series = 'as_traded' AND (p.flag IS NULL OR p.symbol NOT IN (SELECT symbol FROM with_eod))) DESC
        ),
        newest AS (SELECT symbol, max(date) AS d FROM m GROUP BY symbol),
        y AS (
          SELECT m.symbol, count(*)::float8 AS total, min(m.date)::text AS w_from, max(m.date)::text AS w_to,
                 max(m.close) FILTER (WHERE m.flag IS NULL) AS high, min(m.close) FILTER (WHERE m.flag IS NULL) AS low,
                 (array_agg(m.close ORDER BY m.date) FILTER (WHERE m.flag IS NULL))[1] AS first_close,
                 (array_agg(m.close ORDER BY m.date DESC) FILTER (WHERE m.flag IS NULL))[1] AS last_close
          FROM m JOIN newest n ON n.symbol = m.symbol WHERE m.date > (n.d - interval '1 year')::date GROUP BY m.symbol
        ),
        w52 AS (
          SELECT m.symbol, max(m.close) AS w52_high, min(m.close) AS w52_low
          FROM m JOIN quotes q ON q.symbol = m.symbol
          -- The one 52-week window (domain/market/shared/Figures.ts week52Start): after the quote's Karachi day - 364 days.
          WHERE m.flag IS NULL AND m.date >= (q.as_of AT TIME ZONE 'Asia/Karachi')::date - 363
          GROUP BY m.symbol
        )
        SELECT s.symbol, s.name, s.sector_name AS sector, CASE WHEN f.market_cap > 0 THEN f.market_cap::float8 END AS market_cap,
               q.price::float8 AS price, q.previous_close::float8 AS previous_close, q.volume::float8 AS volume,
               to_char(q.as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of,
               y.total, y.w_from, y.w_to, y.high, y.low, y.first_close, y.last_close, w52.w52_high, w52.w52_low
        FROM securities s
        LEFT JOIN fundamentals f ON f.symbol = s.symbol
        LEFT JOIN quotes q ON q.symbol = s.symbol
        LEFT JOIN y ON y.symbol = s.symbol
        LEFT JOIN w52 ON w52.symbol = s.symbol
        ORDER BY s.symbol`).pipe(Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(Row))), Effect.orDie)
          assert.strictEqual(rows.length, LISTED)
          const absentOr = (body: any, key: string, expected: number | string | null) =>
            expected === null ? assert.notProperty(body, key) : assert.strictEqual(body[key], expected, key)
          let quoted = 0, priced = 0
          for (const r of rows) {
            const quote = yield* get(`/v1/quotes/${r.symbol}?allow_stale=true`)
            if (r.price === null) assertFailed(quote, 404, "DATA_NOT_FOUND")
            else if (quote.ok) {
              assert.strictEqual(quote.status, 200)
              quoted++
              assert.strictEqual(quote.body.price, r.price, r.symbol)
              absentOr(quote.body, "previous_close", r.previous_close)
              absentOr(quote.body, "volume", r.volume)
              assert.strictEqual(quote.body.as_of, r.as_of)
            } else assertFailed(quote, 409, "DATA_UNVERIFIED")
            const stock = yield* get(`/v1/stocks/${r.symbol}`)
            assertOk(stock, 200, r.symbol)
            assert.strictEqual(stock.body.name, r.name)
            absentOr(stock.body, "sector", r.sector)
            absentOr(stock.body.derived, "market_cap", r.market_cap)
            if (r.w52_high !== null && r.price !== null) {
              assert.exists(stock.body.derived.week52)
              assert.strictEqual(stock.body.derived.week52.high, r.w52_high, `${r.symbol} 52-week high`)
              assert.strictEqual(stock.body.derived.week52.low, r.w52_low)
            } else assert.notProperty(stock.body.derived, "week52")
            const prices = yield* get(`/v1/prices/${r.symbol}?range=1Y`)
            if (r.total === null) assertFailed(prices, 404, "DATA_NOT_FOUND")
            else {
              priced++
              assertOk(prices, 200, r.symbol)
              assert.strictEqual(prices.body.total, r.total, `${r.symbol} rows in 1Y`)
              assert.deepStrictEqual(
                [
                  prices.body.window?.from,
                  prices.body.window?.to,
                  prices.body.window?.high,
                  prices.body.window?.low,
                  prices.body.window?.first_close,
                  prices.body.window?.last_close
                ],
                [r.w_from, r.w_to, r.high, r.low, r.first_close, r.last_close],
                `${r.symbol} 1Y window`
              )
              assert.strictEqual(prices.body.items[0]?.date, r.w_to)
            }
          }
          assert.isAbove(quoted, 500)
          assert.isAbove(priced, 500)
        }),
      SWEEP_TIMEOUT
    )

    it.effect(
      "encoded research answers are byte for byte the HttpApi encoding, for every listed symbol and alias",
      () =>
        Effect.gen(function*() {
          const snapshot = yield* Effect.flatMap(MarketReadModel, (m) => m.snapshot)
          let compared = 0
          for (const symbol of snapshot.symbols.keys()) {
            const paths = [
              `/v1/stocks/${symbol}/research`,
              ...(compared % 50 === 0 ? [`/v1/stocks/${symbol}/rh`, `/v1/ai/research/${symbol}`] : [])
            ]
            for (const path of paths) {
              let fast = yield* getText(path)
              let full = yield* getText(path, { "cache-control": "no-cache" })
              // The package is dated to the symbol's window: if that turned over between the two requests, ask both again.
              if (fast.text !== full.text) {
                fast = yield* getText(path)
                full = yield* getText(path, { "cache-control": "no-cache" })
              }
              assert.strictEqual(fast.status, full.status, path)
              assert.strictEqual(fast.text, full.text, path)
            }
            compared++
          }
          assert.strictEqual(compared, LISTED)
        }),
      SWEEP_TIMEOUT
    )
  }
)
