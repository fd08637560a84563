/**
 * The research datasets of the pack on the vendored recordings
 * (test/fixtures/research) and through the API over the bundled pack:
 * filings dated from the title, not the export's read date; sales equal to
 * the recording; EPS and payouts from the company pages; news as events with
 * their sources.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { readFileSync } from "node:fs"
import { newsEvents, parseFeedFile } from "../domain/news/News.ts"
import { newsTagger } from "../domain/news/Tagger.ts"
import { parseAnnouncementExport } from "../domain/psx/CompanyAnnouncements.ts"
import { parseCompanyPage, parseCompanyPagePayouts } from "../domain/psx/CompanyPage.ts"
import { csvRecords } from "../domain/psx/Csv.ts"
import { parseSalesExport, parseScreenerExport } from "../domain/psx/ScreenerExport.ts"
import { companyAliases } from "../src/ingest/CompanyAliases.ts"
import type { ItemOf } from "./support/ReplyTypes.ts"
import { assertOk, assertSucceeded, bodyOf, get, SharedTestApp } from "./support/TestApp.ts"

const fixture = (f: string) => readFileSync(new URL(`./fixtures/research/${f}`, import.meta.url), "utf8")
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
/** "Oct 27, 2025 Title…" → 2025-10-27, read here independently of the parser. */
const titleDate = (headline: string) => {
  const m = /^(\w{3}) (\d{1,2}), (\d{4}) /.exec(headline)!
  return `${m[3]}-${String(MONTHS.indexOf(m[1]!.toLowerCase()) + 1).padStart(2, "0")}-${m[2]!.padStart(2, "0")}`
}

const exportRows = csvRecords(fixture("announcements_ABOT_AIRLINK.csv"))
const ogdcSales = JSON.parse(fixture("financials_OGDC_AABS.json"))["OGDC"] as Record<string, number>
const mcbPage = parseCompanyPage(fixture("MCB_psx_financials_payouts.html"))
const trgPayouts = parseCompanyPagePayouts("TRG", fixture("TRG_psx_financials_payouts.html"))

describe("parsers on the vendored recordings", () => {
  it("ABOT and AIRLINK filings carry the date at the start of the title, never the export's read date", () => {
    const parsed = parseAnnouncementExport(fixture("announcements_ABOT_AIRLINK.csv"))
    assert.strictEqual(parsed.rows.length, exportRows.length)
    for (const symbol of ["ABOT", "AIRLINK"]) {
      const mine = exportRows.filter((r) => r["symbol"] === symbol)
      assert.isAbove(mine.length, 5)
      for (const raw of mine) {
        const id = /(\d+)\.pdf$/.exec(raw["pdf_url"]!)?.[1]
        const headline = raw["headline"]!.replace(/\s+/g, " ").trim()
        const a = parsed.rows.find((x) =>
          x.symbol === symbol && (id !== undefined ? x.id === id : headline.endsWith(x.title))
        )!
        assert.strictEqual(a.publishedOn, titleDate(headline), headline)
        assert.isUndefined(a.publishedAt, "a date-only filing has no time")
        assert.isTrue(headline.endsWith(` ${a.title}`))
      }
    }
    // The export's own column is the day it read the page for most rows: it must not survive anywhere.
    const readDay = exportRows.filter((r) => r["announcement_date"] === "2026-01-23").length
    assert.isAbove(readDay, 10)
    assert.isFalse(parsed.rows.some((a) => a.publishedOn === "2026-01-23"))
  })

  it("OGDC sales 2022-2025 in thousands of rupees, annual, equal to the recording", () => {
    const lines = parseSalesExport(JSON.parse(fixture("financials_OGDC_AABS.json"))).rows.filter((l) =>
      l.symbol === "OGDC"
    )
    assert.deepStrictEqual(Object.fromEntries(lines.map((l) => [l.period, l.value])), ogdcSales)
    assert.isTrue(lines.every((l) => l.periodType === "annual" && l.units === "thousands" && l.line === "Sales"))
  })

  it("MCB EPS from its company page: rupees, annual and quarterly apart", () => {
    const eps = mcbPage.statements.filter((l) => /^EPS/.test(l.line))
    assert.deepStrictEqual(eps.filter((l) => l.periodType === "annual").map((l) => [l.period, l.value]), [
      ["2024", 48.62],
      ["2023", 50.32],
      ["2022", 27.63],
      ["2021", 26]
    ])
    assert.isTrue(eps.every((l) => l.units === "rupees"))
    assert.isTrue(eps.filter((l) => l.periodType === "quarterly").every((l) => /^Q\d \d{4}$/.test(l.period)))
  })

  it("TRG payouts from its company page, including the old rows with the letter O for zero and rights in words", () => {
    const rows = trgPayouts.rows.map((r) => [r.details.trim(), r.bookClosureFrom ?? null])
    assert.deepStrictEqual(rows, [
      ["44%(i) (D)", "2021-06-14"],
      ["22.45% AT PAR (R)", "2015-08-28"],
      ["15.57% AT PAR VALEU (R)", "2014-08-25"],
      ["0.1%(i) (D)", "2009-05-20"],
      ["6O% (R)", "2006-05-13"],
      ["6O% (R)", null]
    ])
    assert.deepStrictEqual(trgPayouts.skipped, { "unreadable details": 2 }) // the two "DIVIDEND … NIL" rows
  })

  it("a story carried by Business Recorder and by Google News is one event with two sources", () => {
    const items =
      parseFeedFile(JSON.parse(fixture("news_OGDC_and_one_republished.json")), newsTagger(companyAliases())).rows
    const events = newsEvents([...items, ...items]) // overlapping fetches repeat items
    const mari = events.filter((e) => /Letter of Award for Spinwam/.test(e.title))
    assert.strictEqual(mari.length, 1)
    assert.deepStrictEqual(mari[0]!.sources.map((s) => s.publisher), ["Business Recorder", "Business Recorder"])
    assert.deepStrictEqual(mari[0]!.symbols, ["MARI"])
    assert.strictEqual(new Set(events.flatMap((e) => e.sources.map((s) => s.url))).size, items.length)
  })
})

/** 11:00 in Karachi on Monday 23 November 2026. */
const NOW = "2026-11-23T06:00:00.000Z"

layer(SharedTestApp(NOW), { timeout: 600_000, excludeTestServices: true })(
  "the research datasets through the API",
  (it) => {
    it.effect("ABOT and AIRLINK filings are served with their real dates, once each", () =>
      Effect.gen(function*() {
        for (const symbol of ["ABOT", "AIRLINK"]) {
          const r = yield* get(`/v1/announcements?symbol=${symbol}&limit=200`)
          assertOk(r)
          const ids = r.body.items.map((a) => a.id)
          assert.strictEqual(new Set(ids).size, ids.length)
          for (const raw of exportRows.filter((x) => x["symbol"] === symbol && x["pdf_url"] !== "")) {
            const id = /(\d+)\.pdf$/.exec(raw["pdf_url"]!)![1]
            const a: ItemOf<"/v1/announcements"> | undefined = r.body.items.find((x) => x.id === id)
            assert.isDefined(a, `${symbol} document ${id}`)
            assert.strictEqual(a.published_on, titleDate(raw["headline"]!))
            assert.notProperty(a, "published_at", "the company page gives a date, not a time")
            assert.strictEqual(a.source_type, "filing")
          }
          assert.include(r.body.sources.map((s) => s.dataset), "announcements_company_pages")
        }
      }))

    it.effect("OGDC sales 2022-2025 equal the recording; MCB EPS from its page; annual and quarterly periods apart", () =>
      Effect.gen(function*() {
        const ogdc = bodyOf(yield* get("/v1/financials/OGDC"))
        assert.strictEqual(ogdc.coverage, "recorded")
        const sales = Object.fromEntries(
          ogdc.periods.filter((p) => p.period_type === "annual").map((p) => [
            p.period,
            p.lines.find((l) => l.line === "Sales")?.value
          ])
        )
        assert.deepStrictEqual(sales, ogdcSales)
        assert.include(ogdc.sources.map((s) => s.dataset), "financials_sales")
        const mcb = bodyOf(yield* get("/v1/financials/MCB"))
        const eps = (type: string) =>
          mcb.periods.filter((p) => p.period_type === type).map((p) => [
            p.period,
            p.lines.find((l) => /^EPS/.test(l.line))?.value
          ])
        const fromPage = (type: string) =>
          mcbPage.statements.filter((l) => l.periodType === type && /^EPS/.test(l.line)).map((l) => [l.period, l.value])
        assert.deepStrictEqual(eps("annual"), fromPage("annual"))
        assert.deepStrictEqual(eps("quarterly"), fromPage("quarterly"))
        assert.isTrue(mcb.periods.every((p) => p.period_type === (/^Q/.test(p.period) ? "quarterly" : "annual")))
        assert.include(mcb.units, "thousands")
      }))

    it.effect("TRG payouts: book closure, last buy date and the day it trades ex", () =>
      Effect.gen(function*() {
        const d = bodyOf(yield* get("/v1/dividends/TRG"))
        assert.strictEqual(d.coverage, "recorded")
        const cash = d.items.find((i) => i.details.trim() === "44%(i) (D)")
        // Book closure from 14 Jun 2021 (a Monday) under T+2: last buy Wed 9 Jun; XD from Thu 10 Jun.
        assert.exists(cash)
        assert.deepStrictEqual([cash.ex_date, cash.book_closure_from, cash.last_buy_date, cash.xd_date], [
          "2021-06-14",
          "2021-06-14",
          "2021-06-09",
          "2021-06-10"
        ])
        const actions = bodyOf(yield* get("/v1/corporate-actions/TRG")).items
        const xd = actions.find((a) => a.kind === "cash_dividend" && a.details.includes("44%(i)"))
        assert.exists(xd)
        assert.strictEqual(xd.xd_date, "2021-06-10")
        assert.strictEqual(
          d.items.filter((i) => i.kind === "right").length,
          trgPayouts.rows.filter((r) => r.parts[0]?.kind === "right").length
        )
      }))

    it.effect("/v1/news?symbol=OGDC gives only OGDC items, published_at from the publisher, no event_date", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/news?symbol=OGDC&limit=200")
        assertOk(r)
        assert.strictEqual(r.body.coverage, "recorded")
        assert.isAbove(r.body.total, 5)
        assert.isTrue(r.body.items.every((n) => n.symbols.includes("OGDC")))
        // The feeds' items (June-August 2026) carry the publisher's time; the headline digests (31 Jan-3 Feb 2026) their first fetch.
        assert.isTrue(
          r.body.items.every((n) => n.published_at_basis === (n.published_at < "2026-03" ? "first_seen" : "publisher"))
        )
        assert.isTrue(r.body.items.every((n) => !("event_date" in n)))
        // The recorded items whose headline or summary names OGDC (by ticker, OGDCL or its registered name).
        const fixtureItems = parseFeedFile(
          JSON.parse(fixture("news_OGDC_and_one_republished.json")),
          newsTagger(companyAliases())
        ).rows
          .filter((i) => /\bOGDCL?\b|Oil (and|&) Gas Development/.test(`${i.title} ${i.summary ?? ""}`))
        for (const item of fixtureItems) {
          const served: ItemOf<"/v1/news"> | undefined = r.body.items.find((n) =>
            n.sources.some((s) => s.url === item.url)
          )
          assert.isDefined(served, item.title)
          assert.strictEqual(served.sources.find((s) => s.url === item.url)!.published_at, item.publishedAt)
        }
        const page = yield* get(`/v1/news?symbol=OGDC&limit=3`)
        assertSucceeded(page)
        const next = yield* get(`/v1/news?symbol=OGDC&limit=3&cursor=${page.body.next_cursor}`)
        assertSucceeded(next)
        assert.deepStrictEqual(
          [...page.body.items, ...next.body.items].map((n) => n.id),
          r.body.items.slice(0, 6).map((n) => n.id)
        )
        const none = yield* get("/v1/news?symbol=ABOT")
        assertSucceeded(none)
        assert.strictEqual(none.body.coverage, "unknown")
      }))

    it.effect("a republished item is served once, with both sources", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/news?date_from=2026-08-03&date_to=2026-08-03&limit=200")
        assertSucceeded(r)
        const mari = r.body.items.filter((n) => /Letter of Award for Spinwam/.test(n.title))
        assert.strictEqual(mari.length, 1)
        assert.isTrue(mari[0]!.republished)
        assert.strictEqual(mari[0]!.sources.length, 2)
        const sources = yield* get("/v1/ai/sources/OGDC")
        assertSucceeded(sources)
        const news = sources.body.areas.find((a) => a.area === "news")
        assert.exists(news)
        assert.strictEqual(news.coverage, "recorded")
        assert.strictEqual(news.rows, bodyOf(yield* get("/v1/news?symbol=OGDC&limit=1")).total)
      }))

    it.effect("KSE-100 membership as of 2026-08-04 from that day's screener; both snapshots kept, the newest served and named", () =>
      Effect.gen(function*() {
        const slice = parseScreenerExport(JSON.parse(fixture("screener_2026-08-04_slice.json")))
        assert.strictEqual(slice.takenAt, "2026-08-04T17:23:38.308Z")
        const kse = bodyOf(yield* get("/v1/indices/KSE100"))
        assert.strictEqual(kse.constituents_as_of, "2026-08-04")
        assert.strictEqual(kse.constituents.length, 100)
        assert.include(kse.sources.map((s) => s.dataset), "screener_2026_08_04")
        const members = new Set(kse.constituents.map((c) => c.symbol))
        for (const r of slice.rows) assert.strictEqual(members.has(r.symbol), r.listedIn.includes("KSE100"), r.symbol)
        const ogdc = bodyOf(yield* get("/v1/companies/OGDC"))
        const row = slice.rows.find((r) => r.symbol === "OGDC")!
        assert.exists(ogdc.ratios)
        assert.strictEqual(ogdc.ratios.as_of, slice.takenAt)
        assert.strictEqual(ogdc.ratios.market_cap, row.marketCap)
        assert.include(ogdc.sources.map((s) => s.dataset), "screener_2026_08_04")
        const sql = yield* SqlClient.SqlClient
        const kept = yield* sql<{ dataset: string; as_of: string }>`
        select dataset, as_of from fundamentals_snapshots where symbol = 'OGDC' order by as_of`
        assert.deepStrictEqual(kept.map((k) => k.dataset), ["screener", "screener_2026_08_04"])
      }))
  }
)
