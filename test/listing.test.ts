/**
 * The listing and the exchange's daily high and low, against the loopback
 * fake portal (test/support/FakePortal.ts): ENGRO's vendored days of its
 * recorded `/timeseries/eod` (30 sessions of Oct-Nov 2021: close, volume),
 * its recorded `POST /historical` (OHLCV, 2016-2025), and the recorded `/symbols` with symbols left out on
 * command, as after a delisting.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { parseHistorical } from "../domain/psx/Prices.ts"
import { PortalCrawler } from "../src/ingest/PortalCrawler.ts"
import { eodRows, FakePortal, historicalPages } from "./support/FakePortal.ts"
import { readPsx } from "./support/Fixtures.ts"
import { caughtUp, liveApp, MONDAY_EVENING } from "./support/LiveApp.ts"
import { MovableClock } from "./support/MovableClock.ts"
import { assertFailed, assertOk, bodyOf, get, post } from "./support/TestApp.ts"

const historical = parseHistorical(historicalPages["ENGRO"]!())
const eod = new Map(eodRows("ENGRO").map((r) => [r.date, r]))
/** ENGRO's vendored eod weeks, as served: newest first. */
const servedEngro = Effect.map(
  get("/v1/prices/ENGRO?date_from=2021-10-01&date_to=2021-11-30&limit=100"),
  (r) => bodyOf(r).items as ReadonlyArray<any>
)
const listedTotal = Effect.map(get("/v1/companies?limit=1"), (r) => bodyOf(r).total as number)

describe("listing and exchange history pages", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 300_000 })("against the fake portal", (it) => {
    it.effect("POST /historical gives the stored eod days their recorded open, high and low; a symbol that leaves the listing is delisted on the day first seen gone, keeps its history, and is listed again when it returns", () =>
      Effect.gen(function*() {
        const crawler = yield* PortalCrawler
        const fake = yield* FakePortal
        const clock = yield* MovableClock
        const first = yield* crawler.pass({ datasets: ["sectors", "symbols", "eod", "historical"], symbols: ["ENGRO"] })
        const of = (s: typeof first, kind: string) => s.datasets.find((d) => d.dataset === kind)!
        assert.strictEqual(of(first, "historical").fetched, 1)
        const shared = historical.rows.filter((r) => eod.has(r.date))
        assert.strictEqual(shared.length, eod.size, "the history page holds every vendored eod day")
        assert.strictEqual(
          of(first, "historical").written,
          shared.length,
          "every shared day's close agrees: each gets its open, high and low"
        )
        yield* caughtUp

        const before = yield* servedEngro
        assert.strictEqual(before.length, eod.size)
        const byDate = new Map(historical.rows.map((r) => [r.date, r]))
        for (const row of before) {
          const page = byDate.get(row.date)!
          const series = eod.get(row.date)!
          assert.deepStrictEqual(
            [row.open, row.high, row.low],
            [page.open, page.high, page.low],
            `${row.date}: as the history page`
          )
          assert.deepStrictEqual(
            [row.close, row.volume],
            [series.close, series.volume],
            `${row.date}: close and volume as the eod series`
          )
        }
        const sources = yield* get("/v1/ai/sources/ENGRO")
        assert.include(
          JSON.stringify(sources.body),
          "portal_historical",
          "the history page is named among ENGRO's sources"
        )
        assert.strictEqual(yield* listedTotal, 1029, "the recorded listing")

        // ENGRO leaves the listing (it stopped trading after the scheme that created ENGROH).
        fake.dropFromListing(["ENGRO"])
        const gone = yield* crawler.pass({ datasets: ["symbols"] })
        assert.strictEqual(gone.datasets[0]!.written, 1, "one change: ENGRO marked delisted")
        yield* caughtUp
        const company = yield* get("/v1/companies/ENGRO")
        assertOk(company, 200, "a delisted company is still served by its symbol")
        assert.strictEqual(company.body.delisted_on, "2026-05-22", "the Karachi day it was first seen gone")
        assert.strictEqual(company.body.name, "Engro Corporation Limited")
        assert.deepStrictEqual(yield* servedEngro, before, "its history is kept, figure for figure")
        assert.strictEqual(yield* listedTotal, 1028, "the company list holds listed companies only")

        // The ledger refuses a trade of ENGRO dated on or after the day it left the listing; an earlier one stands.
        const token = bodyOf(yield* post("/v1/me/session", {})).token as string
        const auth = { authorization: `Bearer ${token}` }
        const buy = { kind: "buy", symbol: "ENGRO", quantity: 10, price: 250, trade_date: "2026-05-22" }
        const refused = yield* post("/v1/me/transactions", buy, auth)
        assertFailed(refused, 400)
        assert.deepStrictEqual([refused.body.error, refused.body.symbol], ["INVALID_REQUEST", "ENGRO"])
        assert.match(refused.body.message, /left the exchange's listing on 2026-05-22/)
        assert.strictEqual(
          (yield* post("/v1/me/transactions", { ...buy, trade_date: "2025-01-03", price: 265 }, auth)).status,
          201
        )
        assert.strictEqual(
          bodyOf(yield* get("/v1/me/ledger", auth)).total,
          1,
          "only the trade before the delisting is recorded"
        )

        // Read again on Monday: still gone, still dated the day first seen gone; no longer crawled per symbol.
        clock.moveTo(MONDAY_EVENING)
        const monday = yield* crawler.pass({ datasets: ["symbols", "eod", "historical"], symbols: ["ENGRO"] })
        assert.strictEqual(of(monday, "symbols").written, 0, "nothing new in the listing")
        assert.strictEqual(of(monday, "eod").requests, 0, "a delisted symbol's eod is not fetched")
        assert.strictEqual(of(monday, "historical").requests, 1, "its history page still can be (the portal keeps it)")
        assert.strictEqual(of(monday, "historical").written, 0, "and it repeats what is stored")
        yield* caughtUp
        assert.strictEqual(bodyOf(yield* get("/v1/companies/ENGRO")).delisted_on, "2026-05-22")

        // A listing that lacks a hundred symbols at once is a truncated page, not a hundred delistings.
        const recorded =
          (JSON.parse(readPsx("mtauha__psxdata/tests/fixtures/symbols.json")) as Array<{ symbol: string }>).map((s) =>
            s.symbol
          )
        fake.dropFromListing(["ENGRO", ...recorded.filter((s) => s !== "ENGRO").slice(0, 100)])
        const truncated = yield* crawler.pass({ datasets: ["symbols"] })
        assert.strictEqual(truncated.datasets[0]!.written, 0)
        assert.include(Object.keys(truncated.datasets[0]!.reasons).join(" "), "none marked delisted")
        yield* caughtUp
        assert.strictEqual(yield* listedTotal, 1028, "nothing more was delisted")

        // ENGRO back in the listing: listed again.
        fake.dropFromListing([])
        const back = yield* crawler.pass({ datasets: ["symbols"] })
        assert.strictEqual(back.datasets[0]!.written, 1, "one change: ENGRO listed again")
        yield* caughtUp
        assert.isUndefined(bodyOf(yield* get("/v1/companies/ENGRO")).delisted_on)
        assert.strictEqual(yield* listedTotal, 1029)
      }))
  })
})
