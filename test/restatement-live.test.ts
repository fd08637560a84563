/**
 * The crawler's eod cross-check when the exchange restates a history for a
 * split, on real recordings: LUCK's as-traded closes (ChubsB, which equal what
 * the portal served before the 1-for-5 split) stored as a crawl before the
 * split would have stored them, then the portal's restated series (I-Zaifa,
 * recorded from /timeseries/eod after the split) arriving. Nothing may be
 * overwritten; the step is recorded as a corporate action with its evidence.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { parsePriceCsv } from "../domain/psx/PriceCsv.ts"
import { upsert } from "../src/ingest/Bulk.ts"
import { writeEod } from "../src/ingest/PortalPrices.ts"
import { dailyPricesTable } from "../src/ingest/Tables.ts"
import { readPsx } from "./support/Fixtures.ts"
import { TestStore } from "./support/TestApp.ts"

const asTraded = parsePriceCsv(readPsx("ChubsB__KSE-100-Data/LUCK.csv")).rows
const restated = parsePriceCsv(readPsx("I-Zaifa__psx-analyzer/data/csv/symbols/LUCK.csv")).rows

describe("eod cross-check", () => {
  layer(TestStore(), { excludeTestServices: true, timeout: 120_000 })("a history restated by the exchange", (it) => {
    it.effect("LUCK restated ×0.2 after its split: the stored as-traded series stays, the step becomes a corporate action", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* upsert(
          dailyPricesTable,
          asTraded.map((r) => ({
            symbol: "LUCK",
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
        const before = yield* sql<{ date: string; close: number }>`
          SELECT date::text AS date, close::float8 AS close FROM daily_prices WHERE symbol = 'LUCK' ORDER BY date`
        assert.strictEqual(before.length, asTraded.length)
        const w = yield* writeEod("LUCK", restated)
        assert.strictEqual(w.written, 0, "nothing of the restated series was written")
        assert.match(Object.keys(w.skipped)[0]!, /restated by the source \(×5(\.\d+)?\)/)
        const after = yield* sql<{ date: string; close: number }>`
          SELECT date::text AS date, close::float8 AS close FROM daily_prices WHERE symbol = 'LUCK' ORDER BY date`
        assert.deepStrictEqual(after, before, "the two series are never mixed")
        const actions = yield* sql<{ kind: string; ratio: number; details: string }>`
          SELECT kind, ratio::float8 AS ratio, details FROM corporate_actions WHERE symbol = 'LUCK'`
        assert.strictEqual(actions.length, 1)
        assert.strictEqual(actions[0]!.kind, "restatement")
        assert.approximately(actions[0]!.ratio, 5, 0.01)
        assert.include(actions[0]!.details, "/timeseries/eod/LUCK")
      }).pipe(Effect.orDie))
  })
})
