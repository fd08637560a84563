/**
 * The market clock of `as_of` on the bundled pack, with expected values read from the recordings in data/pack
 * (their own dates), and the recorded clock (`recorded_as_of`) keeping the old meaning. The heavier cases (more
 * instants, a load answered 503, one client's flood of instants) are in test/market-clock-sweep.test.ts.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { faceValueOn } from "../domain/market/filings/FaceValues.ts"
import { asOfInstant } from "../src/market/readmodel/AsOf.ts"
import { BUILD_BURST, BUILD_REFILL_MS, BuildQueue, SnapshotCache } from "../src/market/readmodel/BuildQueue.ts"
import { eodCloses, getAsOf as get, readPack } from "./support/KnownTable.ts"
import { assertOk, SharedTestApp } from "./support/TestApp.ts"

type ScreenerLine = { symbol: string; sectorCode?: string; peTtm?: number; marketCap?: number }

const NOW = "2026-10-05T12:00:00.000Z"

describe("the market clock of as_of", () => {
  layer(SharedTestApp(NOW), { timeout: 300_000, excludeTestServices: true })(
    "over the pack",
    (it) => {
      it.effect("BAFL at 2026-05-01: the 2026-04-08 screener's P/E and market cap; the recorded clock had neither", () =>
        Effect.gen(function*() {
          const line = (readPack("screener.json.gz") as ReadonlyArray<ScreenerLine>).find((l) => l.symbol === "BAFL")!
          const r = yield* get("/v1/stocks/BAFL?as_of=2026-05-01" as "/v1/stocks/BAFL")
          assertOk(r)
          assert.strictEqual(r.headers["x-as-of-clock"], "market")
          assert.strictEqual(r.headers["x-as-of"], "2026-05-01T19:00:00.000Z")
          // 7.100408639813193 and 191,830,593,423.97 in the recording of 2026-04-08.
          assert.deepStrictEqual([r.body.ratios?.pe_ttm, r.body.ratios?.market_cap, r.body.ratios?.as_of], [
            line.peTtm,
            line.marketCap,
            "2026-04-08"
          ])
          // BAFL's eod series is restated (0.5 x the as-traded closes) and the restatement's date is not recorded: before
          // the series' retrieval (2026-07-08) its quote is never read from it.
          assert.notStrictEqual(r.body.quote?.source?.dataset, "prices_eod")
          const prices = yield* get("/v1/prices/BAFL?as_of=2026-05-01&range=1M" as "/v1/prices/BAFL")
          assertOk(prices)
          assert.include(
            JSON.stringify(prices.body),
            "the date of its restatement is not recorded",
            "the answer says so"
          )
          const recorded = yield* get("/v1/stocks/BAFL?recorded_as_of=2026-05-01" as "/v1/stocks/BAFL")
          assertOk(recorded)
          assert.strictEqual(recorded.headers["x-as-of-clock"], "recorded")
          assert.isUndefined(recorded.body.ratios, "the deployment had stored the 2026-08-04 screener only")
        }))

      it.effect("the screener and the banks' valuation at 2026-05-01 read the 2026-04-08 screener", () =>
        Effect.gen(function*() {
          const at = asOfInstant("2026-05-01")!
          const screen = yield* get("/v1/screener?as_of=2026-05-01&pe_max=12&limit=200" as "/v1/screener")
          assertOk(screen)
          assert.isAbove(screen.body.total, 0)
          for (const item of screen.body.items) {
            assert.isAtMost(item.pe_ttm!, 12)
            assert.isAtMost(Date.parse(item.pe_ttm_as_of!), at, `${item.symbol}: valued after the instant`)
          }
          const banks = yield* get("/v1/sectors/0807/valuation?as_of=2026-05-01" as "/v1/sectors/:id/valuation")
          assertOk(banks)
          // The recording lists 19 banks with a P/E; the valuation counts those it can price at the P/E's own date.
          assert.isAbove(banks.body.pe_peers, 0)
          assert.isAtMost(banks.body.pe_peers, 19)
        }))

      it.effect("MEBL's quote at 2026-04-09: that session's close from 15:30 Karachi, the previous one before it", () =>
        Effect.gen(function*() {
          const closes = eodCloses("MEBL")
          const after = yield* get("/v1/quotes/MEBL?as_of=2026-04-09" as "/v1/quotes/MEBL")
          assertOk(after)
          // 511.58 on 2026-04-09 after 519.04 on 2026-04-08 (the recording).
          assert.deepStrictEqual(
            [after.body.price, after.body.previous_close, after.body.as_of],
            [closes.get("2026-04-09"), closes.get("2026-04-08"), "2026-04-09T10:30:00.000Z"]
          )
          const before = yield* get("/v1/quotes/MEBL?allow_stale=true&as_of=2026-04-09T10:29:00Z" as "/v1/quotes/MEBL")
          assertOk(before)
          assert.strictEqual(before.body.price, closes.get("2026-04-08"))
        }))

      it.effect("the market's status at 2025-10-01 is that day's", () =>
        Effect.gen(function*() {
          const r = yield* get("/v1/market/status?as_of=2025-10-01" as "/v1/market/status")
          assertOk(r)
          assert.strictEqual(r.body.date, "2025-10-01")
        }))
    }
  )
})

describe("face values at an instant", () => {
  it("MEBL's at 2026-05-01 cites no source published after it", () => {
    const then = faceValueOn("MEBL", "2026-05-01", "2026-05-01")
    assert.strictEqual(then?.rupees, 10)
    assert.notInclude(then!.source, "2026")
    assert.include(faceValueOn("MEBL", "2026-08-18", "2026-08-18")!.source, "6 Aug 2026")
  })
})

describe("the build queue", () => {
  it("charges the asker: one build in flight per client, a budget of builds; the most wanted, then the lightest user, first", () => {
    const queue = new BuildQueue<string>()
    assert.isUndefined(queue.enqueue("a", "a", ["ip:heavy"], 0))
    assert.deepStrictEqual(queue.enqueue("b", "b", ["ip:heavy"], 0)?.reason, "in_flight")
    assert.isUndefined(queue.enqueue("c", "c", ["ip:light"], 1))
    queue.join("c", ["ip:other"])
    // c is wanted by two clients, a by one.
    assert.strictEqual(queue.next()?.key, "c")
    queue.done("c")
    assert.strictEqual(queue.next()?.key, "a")
    queue.done("a")
    // The heavy client spends its budget (one build at a time); the next is refused until it refills.
    for (let i = 1; i < BUILD_BURST; i++) {
      assert.isUndefined(queue.enqueue(`h${i}`, "h", ["ip:heavy"], 0))
      queue.next()
      queue.done(`h${i}`)
    }
    const refused = queue.enqueue("late", "late", ["ip:heavy"], 0)
    assert.strictEqual(refused?.reason, "budget")
    // 1 token missing, refilled at one per BUILD_REFILL_MS.
    assert.strictEqual(refused?.retryAfterSeconds, Math.ceil(BUILD_REFILL_MS / 1000))
    assert.isUndefined(queue.enqueue("late", "late", ["ip:heavy"], BUILD_REFILL_MS))
    // Between two instants wanted by one client each, the one whose client had fewer builds goes first.
    assert.isUndefined(queue.enqueue("fresh", "fresh", ["ip:new"], BUILD_REFILL_MS + 1))
    assert.strictEqual(queue.next()?.key, "fresh")
  })

  it("caches the most wanted snapshots within the byte budget", () => {
    const demand = new Map<string, readonly [number, number]>([["popular", [3, 1]], ["rare", [1, 2]], ["newer", [
      1,
      3
    ]]])
    const cache = new SnapshotCache<string>(2, 100, (k) => demand.get(k) ?? [0, 0])
    cache.set("popular", "p", 60)
    cache.set("rare", "r", 30)
    // Over the 100 bytes: the least wanted goes (rare: one client), never the popular one.
    cache.set("newer", "n", 40)
    assert.deepStrictEqual([cache.get("popular"), cache.get("rare"), cache.get("newer")], ["p", undefined, "n"])
    assert.isAtMost(cache.bytes(), 100)
    // A snapshot wanted less than every cached one is not cached.
    demand.set("cold", [0, 0])
    cache.set("cold", "c", 10)
    assert.isUndefined(cache.get("cold"))
  })

  it("drops a kept snapshot no one asked for since the last sweep, and its bytes with it", () => {
    const kept = new SnapshotCache<string>(3, 100, () => [1, 1])
    kept.set("asked", "a", 30)
    kept.set("idle", "i", 20)
    // A new snapshot counts as asked for: the first sweep keeps both.
    kept.dropIdle()
    assert.deepStrictEqual([kept.size(), kept.bytes()], [2, 50])
    assert.strictEqual(kept.get("asked"), "a")
    kept.dropIdle()
    // "idle" was not asked for between the two sweeps: it goes; "asked" stays until a sweep with no request.
    assert.deepStrictEqual([kept.size(), kept.bytes()], [1, 30])
    kept.dropIdle()
    assert.deepStrictEqual([kept.size(), kept.bytes(), kept.get("asked")], [0, 0, undefined])
  })
})
