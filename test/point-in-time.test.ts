/**
 * Point-in-time reads by the recorded clock (`recorded_as_of`; the market clock is
 * test/market-clock.test.ts's) over two crawls of the recorded
 * portal (test/support/FakePortal.ts) a day apart, on either store.
 *
 * SYNTHETIC changes, made on purpose so the second crawl has something to
 * correct, announce and list (no figure is invented for good: the second
 * crawl serves the recordings):
 * - the first crawl's `/timeseries/eod/OGDC` serves one recorded day's close
 *   ×1.1 (a wrong figure the second crawl corrects to the recorded one);
 * - the first crawl's `/payouts` leaves out LUCK's 250% payout (recorded,
 *   announced later as far as the service can know);
 * - the first crawl's `/symbols` leaves out SYS (listed later).
 * Expected values are read from the recordings.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { HISTORY_TABLES } from "../migrations/0026_market_history.ts"
import { PortalCrawler } from "../src/ingest/PortalCrawler.ts"
import { asOfInstant } from "../src/market/readmodel/AsOf.ts"
import { PointInTime } from "../src/market/readmodel/PointInTime.ts"
import { MarketReadModel } from "../src/market/readmodel/ReadModel.ts"
import { eodRows, FakePortal } from "./support/FakePortal.ts"
import { caughtUp, FRIDAY_EVENING, liveApp } from "./support/LiveApp.ts"
import { MovableClock } from "./support/MovableClock.ts"
import { assertFailed, assertOk, get, TestStore } from "./support/TestApp.ts"

const HOUR = 3_600_000
const T1 = Date.parse(FRIDAY_EVENING)
const SATURDAY_EVENING = new Date(T1 + 24 * HOUR).toISOString()
const CRAWLED = ["symbols", "payouts", "eod"]

/** The recorded OGDC day whose close the first crawl gets wrong (a few sessions before the portal's last). */
const correctedDay = (lastSession: string) => eodRows("OGDC").filter((r) => r.date <= lastSession).at(-5)!

const wrongClose = (close: number) => Math.round(close * 110) / 100

/** The first crawl's SYNTHETIC portal (see the file comment). */
const firstCrawlPortal = (fake: typeof FakePortal.Service) => {
  const day = correctedDay(fake.lastSession())
  fake.amend("/timeseries/eod/OGDC", (body) => {
    const page = JSON.parse(body) as { data: Array<[number, number, number]> }
    page.data = page.data.map((
      [epoch, close, volume]
    ) => [epoch, epoch === day.epoch ? wrongClose(close) : close, volume])
    return JSON.stringify(page)
  })
  fake.amend("/payouts", (body) => body.replace(/<tr>(?:(?!<\/tr>).)*250%\(F\)(?:(?!<\/tr>).)*<\/tr>/, ""))
  fake.dropFromListing(["SYS"])
}

const restoreRecording = (fake: typeof FakePortal.Service) => {
  fake.amend("/timeseries/eod/OGDC", undefined)
  fake.amend("/payouts", undefined)
  fake.dropFromListing([])
}

const closeOn = (
  series: { readonly dates: ReadonlyArray<string>; readonly close: Float64Array } | undefined,
  date: string
) => series === undefined ? undefined : series.close[series.dates.indexOf(date)]

/** The same reads over HTTP: `as_of` between the crawls and after them, its headers, its bounds, and answers without it unchanged. */
const overHttp = (day: { readonly date: string; readonly close: number }, between: number, after: number) =>
  Effect.gen(function*() {
    const iso = (ms: number) => new Date(ms).toISOString()
    const closeAt = (asOf: number | undefined) =>
      Effect.map(
        get(
          `/v1/prices/OGDC?series=eod&date_from=${day.date}&date_to=${day.date}${
            asOf === undefined ? "" : `&recorded_as_of=${iso(asOf)}`
          }` as "/v1/prices/OGDC"
        ),
        (r) => {
          assertOk(r)
          return { close: r.body.items[0]?.close, asOf: r.headers["x-as-of"] }
        }
      )
    assert.deepStrictEqual(yield* closeAt(between), { close: wrongClose(day.close), asOf: iso(between) })
    const named = yield* get(`/v1/quotes/OGDC?recorded_as_of=${iso(between)}` as "/v1/quotes/OGDC")
    assert.strictEqual(named.headers["x-as-of-clock"], "recorded", "the answer names the clock that answered")
    assertFailed(
      yield* get(`/v1/quotes/OGDC?recorded_as_of=${iso(between)}&as_of=${iso(between)}` as "/v1/quotes/OGDC"),
      400,
      "INVALID_REQUEST"
    )
    assert.deepStrictEqual(yield* closeAt(after), { close: day.close, asOf: iso(after) })
    // Without as_of: the live answer, whatever was asked as of before (an instant's answers are cached apart from the live ones).
    assert.deepStrictEqual(yield* closeAt(undefined), { close: day.close, asOf: undefined })
    const payouts = (asOf: number) =>
      Effect.map(get(`/v1/dividends/LUCK?recorded_as_of=${iso(asOf)}` as "/v1/dividends/LUCK"), (r) => {
        assertOk(r)
        return r.body.items.map((i) => i.percent).sort()
      })
    assert.deepStrictEqual(yield* payouts(between), [200])
    assert.deepStrictEqual(yield* payouts(after), [200, 250])
    const unknown = yield* get(`/v1/companies/SYS?recorded_as_of=${iso(between)}` as "/v1/companies/SYS")
    assertFailed(unknown, 404, "DATA_NOT_FOUND")
    assert.strictEqual(
      unknown.headers["x-as-of"],
      iso(between),
      "an error record says which instant it answers for too"
    )
    assertOk(yield* get(`/v1/companies/SYS?recorded_as_of=${iso(after)}` as "/v1/companies/SYS"))
    assertOk(yield* get("/v1/companies/SYS"))
    // Bounds: before the first retrieval, in the future, not an instant.
    assertFailed(
      yield* get(`/v1/quotes/OGDC?recorded_as_of=${iso(T1 - HOUR)}` as "/v1/quotes/OGDC"),
      400,
      "INVALID_REQUEST"
    )
    assertFailed(
      yield* get(`/v1/quotes/OGDC?recorded_as_of=${iso(after + 24 * HOUR)}` as "/v1/quotes/OGDC"),
      400,
      "INVALID_REQUEST"
    )
    assertFailed(yield* get("/v1/quotes/OGDC?recorded_as_of=yesterday" as "/v1/quotes/OGDC"), 400, "INVALID_REQUEST")
  })

describe("point-in-time reads", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 300_000 })(
    "two crawls a day apart",
    (it) => {
      it.effect("between them the first crawl's figures, payouts and listing; after the second, its own", () =>
        Effect.gen(function*() {
          const crawler = yield* PortalCrawler
          const fake = yield* FakePortal
          const pit = yield* PointInTime
          const sql = yield* SqlClient.SqlClient
          const day = correctedDay(fake.lastSession())
          firstCrawlPortal(fake)
          yield* crawler.pass({ datasets: CRAWLED, symbols: ["OGDC", "LUCK"] })
          const firstDone = yield* Clock.currentTimeMillis
          ;(yield* MovableClock).moveTo(SATURDAY_EVENING)
          restoreRecording(fake)
          yield* crawler.pass({ datasets: CRAWLED, symbols: ["OGDC", "LUCK", "SYS"] })
          yield* caughtUp
          const now = yield* Clock.currentTimeMillis

          // The store kept the corrected row, retrieved by the first crawl and superseded by the second.
          const kept = yield* sql<{ close: string; known: number; superseded: number }>`
            SELECT row ->> 'close' AS close, extract(epoch FROM known_at)::float8 * 1000 AS known,
                   extract(epoch FROM superseded_at)::float8 * 1000 AS superseded
            FROM market_history WHERE tbl = 'daily_prices' AND key = ${`OGDC|eod|${day.date}`}`
          assert.strictEqual(kept.length, 1)
          assert.strictEqual(Number(kept[0]!.close), wrongClose(day.close))
          assert.isAtLeast(kept[0]!.known, T1)
          assert.isAtMost(kept[0]!.known, firstDone)
          assert.isAtLeast(kept[0]!.superseded, T1 + 24 * HOUR)

          const between = yield* pit.snapshotAt(T1 + 12 * HOUR, "recorded")
          assert.strictEqual(closeOn(between.snapshot.symbols.get("OGDC")?.eod, day.date), wrongClose(day.close))
          assert.deepStrictEqual(between.snapshot.symbols.get("LUCK")?.payouts.map((p) => p.percent), [200])
          assert.isFalse(between.snapshot.symbols.has("SYS"))
          // Any instant between the crawls reflects the same state: one snapshot, kept.
          const later = yield* pit.snapshotAt(T1 + 20 * HOUR, "recorded")
          assert.strictEqual(later.snapshot, between.snapshot)
          assert.strictEqual(later.reflects, between.reflects)

          const after = yield* pit.snapshotAt(now, "recorded")
          assert.strictEqual(closeOn(after.snapshot.symbols.get("OGDC")?.eod, day.date), day.close)
          assert.deepStrictEqual(after.snapshot.symbols.get("LUCK")?.payouts.map((p) => p.percent).sort(), [200, 250])
          assert.isTrue(after.snapshot.symbols.has("SYS"))

          // The market clock: the first close counts from its session's close, its correction only from the retrieval that
          // brought it (the only evidence of it).
          const marketBetween = yield* pit.snapshotAt(T1 + 12 * HOUR, "market")
          assert.strictEqual(closeOn(marketBetween.snapshot.symbols.get("OGDC")?.eod, day.date), wrongClose(day.close))
          const marketAfter = yield* pit.snapshotAt(now, "market")
          assert.strictEqual(closeOn(marketAfter.snapshot.symbols.get("OGDC")?.eod, day.date), day.close)

          // The live snapshot is the store as it is now.
          const live = yield* (yield* MarketReadModel).snapshot
          assert.strictEqual(closeOn(live.symbols.get("OGDC")?.eod, day.date), day.close)
          assert.isTrue(live.symbols.has("SYS"))

          // Out of range: before the first retrieval, and in the future.
          const before = yield* Effect.flip(pit.snapshotAt(T1 - HOUR, "recorded"))
          assert.strictEqual(before.error, "INVALID_REQUEST")
          assert.match(before.message, /before the earliest retrieval/)
          const future = yield* Effect.flip(pit.snapshotAt(now + HOUR, "recorded"))
          assert.match(future.message, /in the future/)
          yield* overHttp(day, T1 + 12 * HOUR, now)
        }).pipe(Effect.orDie))
    }
  )
})

describe("the pack's retrieval times", () => {
  layer(TestStore({ withPack: true }), { excludeTestServices: true, timeout: 300_000 })("an imported pack", (it) => {
    it.effect("every row is known from its recording's retrieval: a date's end in Karachi, never the import's instant", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // A recording retrieved on a day is known from the next day's 00:00 in Karachi (UTC+5).
        const [d] = yield* sql<
          { known: string }
        >`SELECT to_char(market_retrieval('2026-05-24') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS known`
        assert.strictEqual(d!.known, "2026-05-24T19:00")
        for (const table of Object.keys(HISTORY_TABLES).filter((t) => t !== "datasets")) {
          const [off] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ${
            sql(table)
          } t JOIN datasets d ON d.id = t.dataset
            WHERE t.known_at IS DISTINCT FROM d.known_at`
          assert.strictEqual(off!.n, 0, `${table}: rows known otherwise than from their dataset's retrieval`)
        }
      }).pipe(Effect.orDie))
  })
})

describe("the as_of parameter", () => {
  it("names an instant: a date is the end of that Karachi day; a day not in the calendar is no instant", () => {
    // 10 June 2026 ends at 00:00 on the 11th in Karachi (UTC+5): 19:00 UTC on the 10th.
    assert.strictEqual(asOfInstant("2026-06-10"), Date.UTC(2026, 5, 10, 19))
    assert.strictEqual(asOfInstant("2026-06-10T13:00:00+05:00"), Date.UTC(2026, 5, 10, 8))
    for (
      const bad of ["2026-02-30", "2026-02-29", "2026-13-01", "2026-02-30T10:00:00Z", "2026-06-10T10:00", "yesterday"]
    ) {
      assert.isUndefined(asOfInstant(bad), bad)
    }
    assert.isDefined(asOfInstant("2024-02-29"), "a leap day is a day")
  })
})
