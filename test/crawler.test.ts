/**
 * The crawler against the loopback fake portal (test/support/FakePortal.ts:
 * recorded responses; its market watch is synthesised from recorded eod
 * figures, see there). From an empty store one pass serves every dataset,
 * each figure equal to the recording, through the running service.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { parseCompanyPage, parseCompanyPagePayouts } from "../domain/psx/CompanyPage.ts"
import { parseCompanyPayouts } from "../domain/psx/Filings.ts"
import { parseIndexConstituents, parseSectors } from "../domain/psx/Listing.ts"
import { Database } from "../src/db/Database.ts"
import { PortalCrawler } from "../src/ingest/PortalCrawler.ts"
import { PortalLeader, PortalRefresh } from "../src/ingest/PortalRefresh.ts"
import { pollUntil } from "./support/Eventually.ts"
import { closedHistories, companyPages, companyPayouts, eodRows, eodSymbols, FakePortal } from "./support/FakePortal.ts"
import { readPsx } from "./support/Fixtures.ts"
import { caughtUp, liveApp, MONDAY_EVENING } from "./support/LiveApp.ts"
import { MovableClock } from "./support/MovableClock.ts"
import { assertOk, assertSucceeded, bodyOf, get } from "./support/TestApp.ts"

/** Polls the running service until `ok` holds (the read model picks writes up by polling the store), with a deadline. */
const until = <A, R>(probe: Effect.Effect<A, never, R>, ok: (a: A) => boolean, what: string) =>
  pollUntil(`the service serves ${what}`, probe, ok, { within: "60 seconds", every: "200 millis" })

const recordedUpTo = (symbol: string, day: string) => eodRows(symbol).filter((r) => r.date <= day).reverse()
const servedHistory = (symbol: string) =>
  Effect.map(get(`/v1/prices/${symbol}?date_from=2026-01-01&limit=100`), (r) => bodyOf(r))
const hbl = parseCompanyPage(companyPages["HBL"]!())
const mebl = parseCompanyPayouts("MEBL", companyPayouts["MEBL"]!())
const meblPage = parseCompanyPagePayouts("MEBL", companyPages["MEBL"]!())

/** What a fault must leave alone: every market table (the read model's version included) and every dataset's provenance. */
const storeFingerprint = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const out: Array<string> = []
  for (
    const table of [
      "market_version",
      "datasets",
      "securities",
      "sectors",
      "fundamentals",
      "quotes",
      "daily_prices",
      "index_membership",
      "company_profiles",
      "financial_lines",
      "payouts"
    ]
  ) {
    const [row] = yield* sql.unsafe<{ h: string }>(
      `SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS h FROM ${table} t`
    )
    out.push(`${table}:${row?.h}`)
  }
  return out
}).pipe(Effect.orDie)

describe("portal crawler", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 300_000 })(
    "against the fake portal, from an empty store",
    (it) => {
      it.effect("one pass serves the universe, histories, quotes, payouts, income statements, KSE-100 and sectors as recorded", () =>
        Effect.gen(function*() {
          const crawler = yield* PortalCrawler
          const fake = yield* FakePortal
          const summary = yield* crawler.pass()
          const of = (kind: string) => summary.datasets.find((d) => d.dataset === kind)!
          assert.deepStrictEqual(
            ["sectors", "symbols", "screener", "kse100", "market_watch", "payouts", "announcements"].map((
              k
            ) => [k, of(k).fetched, of(k).failed]),
            ["sectors", "symbols", "screener", "kse100", "market_watch", "payouts", "announcements"].map((
              k
            ) => [k, 1, 0])
          )
          assert.strictEqual(
            of("eod").fetched,
            eodSymbols.length + Object.keys(closedHistories).length,
            "every recorded history"
          )
          assert.strictEqual(of("company").fetched, Object.keys(companyPages).length, "every recorded company page")
          assert.strictEqual(of("company_payouts").fetched, Object.keys(companyPayouts).length)
          assert.strictEqual(of("eod").requests, of("company").requests, "every listed non-debt symbol was asked for")
          const day = fake.lastSession()
          yield* caughtUp
          // Every recorded symbol's history and quote, once the running service has picked the writes up.
          yield* until(servedHistory("HBL"), (b) => b.items?.[0]?.date === day, `HBL's history to ${day}`)
          const companies = yield* get("/v1/companies?limit=1")
          assertSucceeded(companies)
          assert.strictEqual(companies.body.total, 1029, "the listed universe")
          for (const symbol of eodSymbols) {
            const recorded = recordedUpTo(symbol, day)
            const prices = yield* servedHistory(symbol)
            assert.deepStrictEqual(
              prices.items.map((i) => [i.date, i.close, i.volume]),
              recorded.map((r) => [r.date, r.close, r.volume]),
              symbol
            )
            const quote = yield* get(`/v1/quotes/${symbol}?allow_stale=true`)
            assertSucceeded(quote)
            assert.deepStrictEqual([quote.body.price, quote.body.previous_close, quote.body.volume], [
              recorded[0]!.close,
              recorded[1]!.close,
              recorded[0]!.volume
            ], symbol)
            assert.strictEqual(
              quote.body.as_of,
              "2026-05-22T11:30:00.000Z",
              "dated at Friday's close (16:30 Karachi), not when it was read"
            )
          }
          const dividends = yield* get("/v1/dividends/MEBL")
          assertSucceeded(dividends)
          // The payouts route's rows and the company page's payout table (the same kind of rows, reaching further back).
          const payoutKeys = (rows: typeof mebl.rows) =>
            rows.flatMap((r) => r.parts.map((p) => `${r.details}|${p.percent}|${r.bookClosureTo}`))
          assert.deepStrictEqual(
            dividends.body.items.map((i) => `${i.details}|${i.percent}|${i.book_closure_to}`).sort(),
            [...new Set([...payoutKeys(mebl.rows), ...payoutKeys(meblPage.rows)])].sort()
          )
          const financials = yield* get("/v1/financials/HBL")
          assertSucceeded(financials)
          const served = financials.body.periods.flatMap((p) =>
            p.lines.map((l) => `${p.period_type}|${p.period}|${l.line}|${l.value}`)
          ).sort()
          const types = new Set(financials.body.periods.map((p) => p.period_type))
          assert.isTrue(types.has("annual"))
          assert.deepStrictEqual(
            served,
            hbl.statements.filter((s) => types.has(s.periodType)).map((s) =>
              `${s.periodType}|${s.period}|${s.line}|${s.value}`
            ).sort()
          )
          const kse = yield* get("/v1/indices/KSE100")
          assertSucceeded(kse)
          const recordedKse = parseIndexConstituents(readPsx("mtauha__psxdata/tests/fixtures/indices_KSE100.html")).rows
          assert.deepStrictEqual(
            kse.body.constituents.map((c) => `${c.symbol}|${c.weight_pct}`).sort(),
            recordedKse.map((c) => `${c.symbol}|${c.weightPct}`).sort()
          )
          const sectors = yield* get("/v1/sectors")
          assertSucceeded(sectors)
          assert.deepStrictEqual(
            sectors.body.items.map((s) => `${s.code}|${s.name}`).sort(),
            parseSectors(readPsx("mtauha__psxdata/tests/fixtures/sector_summary.html")).rows.map((s) =>
              `${s.code}|${s.name}`
            ).sort()
          )
        }))

      it.effect("moving the portal's last session to the next recorded day (2026-05-25, real eod figures in a synthesised market-watch page) extends histories and quotes, served with no restart", () =>
        Effect.gen(function*() {
          const crawler = yield* PortalCrawler
          const fake = yield* FakePortal
          const clock = yield* MovableClock
          const next = fake.advance()
          assert.strictEqual(next, "2026-05-25")
          clock.moveTo(MONDAY_EVENING)
          const summary = yield* crawler.pass({ datasets: ["market_watch", "eod"], symbols: [...eodSymbols] })
          const board = summary.datasets.find((d) => d.dataset === "market_watch")!
          assert.strictEqual(board.fetched, 1)
          assert.isAbove(board.written, 0)
          const eod = summary.datasets.find((d) => d.dataset === "eod")!
          assert.strictEqual(eod.written, 0, "the eod series agrees with the day the board closed: nothing to correct")
          yield* caughtUp
          yield* until(servedHistory("OGDC"), (b) => b.items?.[0]?.date === next, `OGDC's close of ${next}`)
          for (const symbol of eodSymbols) {
            const recorded = recordedUpTo(symbol, next)
            const prices = yield* servedHistory(symbol)
            assert.deepStrictEqual(
              prices.items.map((i) => [i.date, i.close, i.volume]),
              recorded.map((r) => [r.date, r.close, r.volume]),
              symbol
            )
            const quote = yield* get(`/v1/quotes/${symbol}`)
            assertOk(quote, 200, `${symbol}: fresh on Monday evening, no allow_stale needed`)
            assert.deepStrictEqual([quote.body.price, quote.body.previous_close], [
              recorded[0]!.close,
              recorded[1]!.close
            ], symbol)
          }
          const again = yield* crawler.pass({ datasets: ["market_watch"] })
          assert.strictEqual(again.datasets[0]!.written, 0, "reading an unchanged board again writes nothing")
        }))

      it.effect("a portal that hangs, answers 403 or 500, or renames its table headers changes nothing stored, and freshness reports it", () =>
        Effect.gen(function*() {
          const crawler = yield* PortalCrawler
          const fake = yield* FakePortal
          const datasets = ["sectors", "screener", "kse100", "market_watch", "eod", "company"]
          const good = yield* crawler.pass({ datasets: [...datasets, "symbols"], symbols: ["HBL", "MEBL"] })
          assert.isUndefined(good.stopped, "the last good data, first")
          const before = yield* storeFingerprint
          for (const fault of ["hang", "403", "500", "headers"] as const) {
            fake.setFault(fault)
            const summary = yield* crawler.pass({ datasets, symbols: ["HBL", "MEBL"] })
            fake.setFault("none")
            assert.deepStrictEqual(yield* storeFingerprint, before, `${fault}: nothing stored changed`)
            const failed = summary.datasets.filter((d) => d.failed > 0).map((d) => d.dataset)
            if (fault === "headers") {
              // The JSON route (eod) has no headers to change; every HTML page is refused, naming its route.
              assert.deepStrictEqual(failed, ["sectors", "screener", "kse100", "market_watch", "company"])
              assert.include(Object.keys(summary.datasets[0]!.reasons)[0], "unknown table headers")
            } else {
              assert.isString(summary.stopped, `${fault}: the pass backs off after repeated refusals`)
              assert.deepStrictEqual(
                failed,
                ["sectors", "screener", "kse100"],
                `${fault}: three refusals, then the pass stops`
              )
            }
            const freshness = yield* get("/v1/freshness")
            assertSucceeded(freshness)
            const crawl = freshness.body.crawl ?? []
            const screener = crawl.find((c) => c.dataset === "screener")
            assert.exists(screener)
            assert.isString(screener.last_error, `${fault}: freshness shows the screener's last error`)
            assert.include(screener.last_error, fault === "headers" ? "unknown table headers" : "PSX portal")
            assert.isString(
              freshness.body.datasets.find((d) => d.dataset === "portal_screener")?.as_of,
              "the last good as-of stays"
            )
          }
        }))
    }
  )
})

describe("prefetching fundamentals from the live portal", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 300_000 })("GET /v1/ingest/fundamentals", (it) => {
    it.effect("fetches the company page and payouts of the n stalest symbols; concurrent calls never fetch one symbol twice", () =>
      Effect.gen(function*() {
        const crawler = yield* PortalCrawler
        const fake = yield* FakePortal
        yield* crawler.pass({ datasets: ["sectors", "symbols"] })
        // Every company page tried once, except three recorded ones: those are now the stalest (never fetched).
        const sql = yield* SqlClient.SqlClient
        const listed =
          (yield* sql<{ symbol: string }>`SELECT symbol FROM securities WHERE NOT is_debt`.pipe(Effect.orDie)).map((
            r
          ) => r.symbol)
        const fresh = ["HBL", "MEBL", "TRG"]
        const tried = yield* crawler.pass({ datasets: ["company"], symbols: listed.filter((s) => !fresh.includes(s)) })
        assert.isAbove(tried.requests, 700)
        const before = fake.seen.length
        const [a, b] = yield* Effect.all([get("/v1/ingest/fundamentals?n=2"), get("/v1/ingest/fundamentals?n=2")], {
          concurrency: 2
        })
        assertOk(a)
        assertOk(b)
        const warmedSymbols = [...a.body.symbols, ...b.body.symbols].sort()
        assert.deepStrictEqual(warmedSymbols, fresh, "the never-fetched symbols, each claimed by one call")
        assert.strictEqual(a.body.warmed + b.body.warmed, 3, "all three pages were recorded")
        const companyRequests = fake.seen.slice(before).filter((r) =>
          r.url.startsWith("/company/") && r.url !== "/company/payouts"
        )
        assert.deepStrictEqual(
          companyRequests.map((r) => r.url).sort(),
          fresh.map((s) => `/company/${s}`),
          "one request per symbol"
        )
        assert.isAbove(a.body.universe, 700)
        assert.include(a.body.source, "portal")
        const financials = yield* until(
          get("/v1/financials/MEBL"),
          (r) => r.ok && r.body.periods.length > 0,
          "MEBL's income statement"
        )
        assertSucceeded(financials)
        assert.isAbove(financials.body.periods.length, 0)
        const none = yield* get("/v1/ingest/fundamentals?n=5")
        assertSucceeded(none)
        assert.deepStrictEqual(
          none.body.symbols,
          [],
          "nothing is due: recently fetched and recently failed pages wait their turn"
        )
      }))
  })
})

describe("two instances on one store", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 300_000 })("the crawl leader", (it) => {
    it.effect("on PostgreSQL only the instance holding the advisory lock crawls, and another takes over when it goes (the embedded store is one process: it always leads)", () =>
      Effect.gen(function*() {
        const db = yield* Database
        const fake = yield* FakePortal
        const instance = Effect.map(
          Layer.build(PortalRefresh.layer.pipe(Layer.provide(PortalLeader.layer))),
          (ctx) => Context.get(ctx, PortalRefresh)
        )
        const scopeA = yield* Scope.make()
        const scopeB = yield* Scope.make()
        const a = yield* instance.pipe(Scope.provide(scopeA))
        const b = yield* instance.pipe(Scope.provide(scopeB))
        const before = fake.seen.length
        const first = yield* a.tick
        assert.isDefined(first, "the first instance leads after Friday's close")
        assert.isAbove(fake.seen.length, before, "and crawls")
        const afterA = fake.seen.length
        const second = yield* b.tick
        if (db.mode === "embedded") {
          assert.isDefined(second, "the embedded store has one process: every instance of it leads")
          return
        }
        assert.isUndefined(second, "the second instance does not lead")
        assert.strictEqual(fake.seen.length, afterA, "and sent no request")
        yield* Scope.close(scopeA, Exit.void)
        assert.isDefined(yield* b.tick, "once the leader's connection is gone, the other instance takes the lock")
        yield* Scope.close(scopeB, Exit.void)
      }))
  })
})
