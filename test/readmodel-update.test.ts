/**
 * A small write costs its symbols only: the read model folds the rows of the
 * symbols a write touched into the previous snapshot (the store's change log
 * names them), and the result equals a whole build of the store. The writes
 * here are SYNTHETIC edits of recorded rows (a tenfold market cap, a dropped
 * announcement, a conflicting as-traded close), made only to move the store.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { buildSnapshot, type MarketSnapshot, snapshotSteps } from "../domain/market/snapshot/Snapshot.ts"
import { planUpdate, UPDATE_SYMBOLS_LIMIT } from "../domain/market/snapshot/SnapshotUpdate.ts"
import type { Steps } from "../domain/SlicedWork.ts"
import { MarketStore } from "../src/market/readmodel/MarketStore.ts"
import { MarketReadModel } from "../src/market/readmodel/ReadModel.ts"
import { makeFigureMemo } from "../src/market/readmodel/SnapshotFigures.ts"
import { TestApp } from "./support/TestApp.ts"

const touched = (...pairs: ReadonlyArray<readonly [string, string | null]>) =>
  pairs.map(([tbl, symbol]) => ({ tbl, symbol }))

describe("planUpdate", () => {
  it("few symbols update; index membership, a whole symbol table, many symbols or a pruned log rebuild whole", () => {
    assert.deepStrictEqual(
      planUpdate({
        reachable: true,
        touched: touched(["quotes", "HBL"], ["datasets", null], ["payouts", "HBL"], ["fundamentals", "ABL"])
      }),
      ["ABL", "HBL"]
    )
    assert.deepStrictEqual(
      planUpdate({ reachable: true, touched: touched(["news_items", null], ["news_items", "OGDC"]) }),
      []
    )
    assert.strictEqual(planUpdate({ reachable: true, touched: touched(["index_membership", "HBL"]) }), "whole")
    assert.strictEqual(planUpdate({ reachable: true, touched: touched(["daily_prices", null]) }), "whole", "a TRUNCATE")
    assert.strictEqual(planUpdate({ reachable: false, touched: [] }), "whole")
    const many = Array.from({ length: UPDATE_SYMBOLS_LIMIT + 1 }, (_, i) => ["quotes", `S${i}`] as const)
    assert.strictEqual(planUpdate({ reachable: true, touched: touched(...many) }), "whole")
  })
})

/** What must agree between an updated snapshot and a whole build (the build instant and earlier rejections aside). */
const served = (s: MarketSnapshot, symbols: ReadonlyArray<string>) => ({
  version: s.version,
  dataPack: s.dataPack,
  datasets: s.datasets,
  securities: s.securities,
  sectors: s.sectors,
  sectorMembers: s.sectorMembers,
  indexLevels: s.indexLevels,
  indexMembers: s.indexMembers,
  announcements: s.announcements,
  news: s.news,
  symbols: symbols.map((sym) => s.symbols.get(sym))
})

describe("the read model after a small write", () => {
  layer(TestApp({ withPack: true }), { timeout: 300_000 })("over the bundled pack", (it) => {
    it.effect("updates the touched symbols only, and equals a whole build of the store", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const model = yield* MarketReadModel
        const store = yield* MarketStore
        yield* model.refresh
        const before = yield* model.snapshot
        const pplRank = (s: MarketSnapshot) =>
          s.sectorMembers.get(s.symbols.get("PPL")!.security.sector_name!)!.indexOf("PPL")
        assert.isAbove(pplRank(before), 0, "PPL is not its sector's largest before the edit")

        yield* sql`UPDATE fundamentals SET market_cap = market_cap * 10 WHERE symbol = 'PPL'`
        yield* sql`DELETE FROM announcements WHERE id = (SELECT max(id) FROM announcements WHERE symbol = 'HUBC')`
        yield* sql`INSERT INTO daily_prices (symbol, series, date, close, dataset)
                   SELECT symbol, 'as_traded', date, close * 1.03, 'synthetic_test' FROM daily_prices
                   WHERE symbol = 'MEBL' AND series = 'eod' AND date = '2026-05-25' ON CONFLICT DO NOTHING`
        assert.isTrue(yield* model.refresh)
        const after = yield* model.snapshot

        assert.strictEqual(
          after.symbols.get("LUCK"),
          before.symbols.get("LUCK"),
          "an untouched symbol keeps its data object"
        )
        assert.notStrictEqual(after.symbols.get("PPL"), before.symbols.get("PPL"))
        assert.strictEqual(pplRank(after), 0, "the sector order follows the new market cap")
        assert.strictEqual(
          after.announcements.length,
          before.announcements.length - 1,
          "the market-wide announcement list lost the deleted one"
        )
        assert.notStrictEqual(after.symbols.get("MEBL")!.disagreement ?? after.symbols.get("MEBL")!.asTraded, undefined)

        const whole = buildSnapshot(yield* store.load, after.builtAt)
        const symbols = ["PPL", "OGDC", "HUBC", "MEBL", "LUCK", "HBL"]
        assert.deepStrictEqual(served(after, symbols), served(whole, symbols))

        yield* sql`DELETE FROM daily_prices WHERE dataset = 'synthetic_test'`
        yield* sql`UPDATE fundamentals SET market_cap = market_cap / 10 WHERE symbol = 'PPL'`
        assert.isTrue(yield* model.refresh)
        assert.strictEqual(pplRank(yield* model.snapshot), pplRank(before))
      }))

    it.effect("a whole build pauses every few securities, and the day's figures after each security", () =>
      Effect.gen(function*() {
        // The service runs these steps a clock slice at a time (Cooperative.ts); it can only let requests in at a
        // pause, so the work between two pauses must stay small: one security's figures, four securities' data.
        const pauses = <A>(steps: Steps<A>) => {
          for (let n = 0;; n++) {
            const r = steps.next()
            if (r.done === true) return { n, value: r.value }
          }
        }
        const store = yield* MarketStore
        const build = pauses(snapshotSteps(yield* store.load, 0))
        const securities = build.value.securities.length
        assert.isAbove(securities, 1000, "the pack lists over a thousand securities")
        assert.isAtLeast(build.n, securities / 4)
        const figures = pauses(makeFigureMemo().daySteps(build.value, "2026-05-25"))
        assert.isAtLeast(figures.n, securities)
      }))

    it.effect("a change to index membership rebuilds whole", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const model = yield* MarketReadModel
        yield* model.refresh
        const before = yield* model.snapshot
        yield* sql`UPDATE index_membership SET weight_pct = weight_pct WHERE symbol = 'HBL'`
        assert.isTrue(yield* model.refresh)
        const after = yield* model.snapshot
        assert.notStrictEqual(after.symbols.get("LUCK"), before.symbols.get("LUCK"))
        assert.deepStrictEqual(after.symbols.get("LUCK")!.security, before.symbols.get("LUCK")!.security)
      }))
  })
})
