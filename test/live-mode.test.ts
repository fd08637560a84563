/**
 * Live mode where the portal's usual page lacks a symbol, against the
 * loopback replay of recorded portal pages (test/support/FakePortal.ts);
 * expected figures are read from the recordings it replays.
 * - Quotes: when the market watch does not list a symbol, the service holds
 *   its close of that session (eod series), so it derives the quote from it
 *   as pack mode does, dated at the session's close, stale by the same calendar.
 * - Payouts: when `POST /company/payouts` has nothing for a symbol, the
 *   company page's payout table (the same rows) is used.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { parseCompanyPagePayouts } from "../domain/psx/CompanyPage.ts"
import { PortalCrawler } from "../src/ingest/PortalCrawler.ts"
import { closeInstant } from "../src/ingest/PortalPrices.ts"
import { eodRows, FakePortal } from "./support/FakePortal.ts"
import { readFixture } from "./support/Fixtures.ts"
import { caughtUp, liveApp } from "./support/LiveApp.ts"
import { assertFailed, assertOk, get } from "./support/TestApp.ts"

describe("live mode", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 300_000 })("symbols a usual page leaves out", (it) => {
    it.effect("gets its quote from its stored close of the session, with the board's freshness rules", () =>
      Effect.gen(function*() {
        const crawler = yield* PortalCrawler
        const fake = yield* FakePortal
        fake.dropFromBoard(["OGDC"])
        yield* crawler.pass({ datasets: ["symbols", "market_watch", "eod"], symbols: ["OGDC", "HBL"] })
        yield* caughtUp
        const day = fake.lastSession()
        const recorded = eodRows("OGDC").filter((r) => r.date <= day)
        const [prev, last] = recorded.slice(-2)
        assert.strictEqual(last!.date, day)
        const quote = yield* get("/v1/quotes/OGDC?allow_stale=true")
        assertOk(quote)
        assert.deepStrictEqual(
          [quote.body.price, quote.body.previous_close, quote.body.volume, quote.body.basis, quote.body.as_of],
          [last!.close, prev!.close, last!.volume, "daily_close", new Date(closeInstant(day)).toISOString()]
        )
        // Friday evening, the session just closed: the close is the current quote, no allow_stale needed.
        assert.isFalse(quote.body.stale)
        assertOk(yield* get("/v1/quotes/OGDC"))
        // HBL is on the board: its quote stays the board's reading.
        const hbl = yield* get("/v1/quotes/HBL?allow_stale=true")
        assertOk(hbl)
        assert.strictEqual(hbl.body.basis, "board_snapshot")
        // A listed symbol with no stored close at all still has no quote.
        assertFailed(yield* get("/v1/quotes/PSO?allow_stale=true"), 404, "DATA_NOT_FOUND")
        fake.dropFromBoard([])
      }))

    it.effect("a symbol whose payouts route answers nothing gets its payouts from its company page", () =>
      Effect.gen(function*() {
        const crawler = yield* PortalCrawler
        const summary = yield* crawler.pass({ datasets: ["company", "company_payouts"], symbols: ["MCB"] })
        const route = summary.datasets.find((d) => d.dataset === "company_payouts")!
        assert.strictEqual(route.fetched, 0, "the recording has no payouts answer for MCB")
        yield* caughtUp
        const recorded = parseCompanyPagePayouts("MCB", readFixture("portal", "company/MCB.html")).rows
        assert.isAbove(recorded.length, 0)
        const dividends = yield* get("/v1/dividends/MCB")
        assertOk(dividends)
        assert.deepStrictEqual(
          dividends.body.items.map((i) => `${i.details}|${i.percent}|${i.book_closure_to}`).sort(),
          recorded.flatMap((r) => r.parts.map((p) => `${r.details}|${p.percent}|${r.bookClosureTo}`)).sort()
        )
      }))
  })
})
