/**
 * Live news through the crawler: the fake portal's `/feeds/` serves the
 * feed fixtures (synthetic RSS and Atom envelopes around recorded items, see
 * test/fixtures/news/README.md). A story read again from another feed in a
 * later run joins the event already stored; the running service serves it
 * under the publishers' provenance.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { PortalCrawler } from "../src/ingest/PortalCrawler.ts"
import { FakePortal, newsFeedFiles } from "./support/FakePortal.ts"
import { caughtUp, liveApp } from "./support/LiveApp.ts"
import { bodyOf, get } from "./support/TestApp.ts"

/** The ADB loan story: Dawn's copy, and Google News's copy of it (the same instant). */
const ADB_DAWN = "https://www.dawn.com/news/2008839/adb-approves-700m-loan-for-pakistans-insurance-sector"
const onJune18 = get("/v1/news?date_from=2026-06-18&date_to=2026-06-18&limit=50")

const summaryOf = (kinds: ReadonlyArray<string>) =>
  PortalCrawler.use((c) => c.pass({ datasets: kinds })).pipe(
    Effect.map((s) => s.datasets.find((d) => d.dataset === "news")!)
  )

describe("live news", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 120_000 })(
    "from publishers' feeds on the fake portal",
    (it) => {
      it.effect("a republished copy read in a later run joins the stored event; provenance is the publishers'", () =>
        Effect.gen(function*() {
          const fake = yield* FakePortal
          fake.publishFeeds(["dawn-business.rss"])
          const first = yield* summaryOf(["sectors", "symbols", "news"])
          assert.strictEqual(first.fetched, 1)
          assert.strictEqual(first.read, 2, "two dated items; the undated one is left out")
          const leftOut = Object.entries(first.reasons).filter(([why]) => why.startsWith("left out:"))
          assert.strictEqual(
            leftOut.filter(([why]) => why.includes("feed unavailable")).length,
            2,
            "the two unpublished feeds, named"
          )
          assert.strictEqual(
            leftOut.filter(([why]) => !why.includes("feed unavailable")).reduce((n, [, k]) => n + k, 0),
            1
          )
          yield* caughtUp
          const before = bodyOf(yield* onJune18)
          const adb = before.items.find((i) => i.url === ADB_DAWN)
          assert.isDefined(adb, "Dawn's ADB story is served")
          assert.strictEqual(adb.sources.length, 1)
          assert.strictEqual(adb.published_at, "2026-06-18T07:34:58.000Z", "the publisher's own time (12:34:58 +05:00)")
          assert.isUndefined(adb.event_date, "an event date is not in any feed")

          fake.publishFeeds(newsFeedFiles)
          const second = yield* summaryOf(["news"])
          assert.strictEqual(second.fetched, 1)
          yield* caughtUp
          const after = bodyOf(yield* onJune18)
          const joined = after.items.filter((i) => i.sources.some((s) => s.url === ADB_DAWN))
          assert.strictEqual(joined.length, 1, "one event, not two")
          assert.strictEqual(joined[0]!.id, adb.id, "the stored event keeps its id")
          assert.strictEqual(joined[0]!.sources.length, 2)
          assert.isTrue(
            joined[0]!.sources.some((s) => s.url.startsWith("https://news.google.com/")),
            "Google News's copy"
          )
          assert.strictEqual(joined[0]!.republished, true)
          const ogdc = after.items.find((i) => /^OGDC Share Price/.test(i.title))
          assert.deepStrictEqual(ogdc?.symbols, ["OGDC"], "tagged by the ticker in the headline")
          const bySymbol = bodyOf(yield* get("/v1/news?symbol=OGDC&date_from=2026-06-01&limit=50"))
          assert.include(bySymbol.items.map((i) => i.id), ogdc?.id)

          const third = yield* summaryOf(["news"])
          assert.strictEqual(third.written, 0, "the same feeds again change nothing")
          assert.isAbove(third.unchanged, 0)

          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<
            { source: string; licence: string; rows: number }
          >`SELECT source, licence, rows FROM datasets WHERE id = 'rss_news'`
          assert.match(row!.source, /publishers' RSS and Atom feeds/)
          assert.match(row!.licence, /belong to their publishers/)
          const freshness = (yield* get("/v1/freshness")).body
          assert.include(JSON.stringify(freshness), "rss_news")
        }))

      it.effect("every feed failing is SOURCE_UNAVAILABLE: nothing written, the error kept for freshness", () =>
        Effect.gen(function*() {
          const fake = yield* FakePortal
          fake.publishFeeds([])
          const failed = yield* summaryOf(["news"])
          fake.publishFeeds(newsFeedFiles)
          assert.strictEqual(failed.failed, 1)
          assert.strictEqual(failed.written, 0)
          assert.match(Object.keys(failed.reasons).join(" "), /every news feed failed/)
          const status = yield* PortalCrawler.use((c) => c.status)
          assert.match(JSON.stringify(status.find((s) => s.kind === "news")), /every news feed failed/)
        }))
    }
  )
})
