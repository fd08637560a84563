/**
 * Contract tests of the market-data endpoints over the real bundled pack,
 * imported into the test store (PGlite, or the real PostgreSQL in CI), read
 * through the market read model. The service's clock starts at NOW (a Monday
 * in June 2026, during trading hours), so staleness and ages are the same in
 * any year the suite runs.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { readFileSync } from "node:fs"
import { parseAnnouncements } from "../domain/psx/Filings.ts"
import { PackImport } from "../src/ingest/PackImport.ts"
import { MarketReadModel } from "../src/market/readmodel/ReadModel.ts"
import { readPsx } from "./support/Fixtures.ts"
import { mcpSession } from "./support/McpSession.ts"
import type { SuccessOf } from "./support/ReplyTypes.ts"
import {
  assertFailed,
  assertOk,
  assertSucceeded,
  bodyOf,
  get,
  type Reply,
  SharedTestApp,
  TestApp
} from "./support/TestApp.ts"

/** Listed securities: the April listing's 1,029 (/symbols) and the 10 the 2026-08-04 screener shows besides. */
const LISTED = 1029 + 10

/** 11:00 in Karachi on Monday 15 June 2026: three weeks after the pack's last recorded session (25 May). */
const NOW = "2026-06-15T06:00:00.000Z"

const RAW = new URL("./fixtures/market-raw/", import.meta.url)
/** Document ids of the three recorded POST /announcements answers (the pack's `announcements`). */
const portalFilingIds = [
  "yasir-a__psx-data/tests/fixtures/announcements_hubc.html",
  "umairsandhu__psx-dps/tests/fixtures/announcements.html",
  "afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/announcements_sample.html"
].flatMap((f) => parseAnnouncements(readPsx(f)).rows.map((a) => a.id))
/** Document ids of the essashahid filings inventory's filings dated on or after `day` ("Apr 30, 2026" read by hand). */
const inventoryIdsSince = (day: string) => {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  const entries =
    JSON.parse(readFileSync(new URL("./fixtures/research/filings-inventory.json", import.meta.url), "utf8")).entries
  return Object.values(entries as Record<string, Record<string, { date: string; url: string } | null>>).flatMap((e) =>
    [e["interim"], e["annual"]].flatMap((f) => {
      const m = f ? /^(\w{3}) (\d{1,2}), (\d{4})$/.exec(f.date) : null
      const iso = m ? `${m[3]}-${String(months.indexOf(m[1]!) + 1).padStart(2, "0")}-${m[2]!.padStart(2, "0")}` : ""
      return f && iso >= day ? [/(\d+)\.pdf$/.exec(f.url)![1]!] : []
    })
  )
}
const csvRow = (file: string, date: string) =>
  readFileSync(new URL(file, RAW), "utf8").split("\n").find((l) => l.includes(date))!.split(",")

layer(SharedTestApp(NOW), { timeout: 600_000, excludeTestServices: true })(
  "market data over the bundled pack",
  (it) => {
    it.effect("a second import of the same pack does nothing", () =>
      Effect.gen(function*() {
        const importer = yield* PackImport
        const again = yield* importer.run()
        assert.isFalse(again.imported)
      }))

    it.effect("stored closes and volumes equal the raw recordings", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const pick = (symbol: string, series: string, date: string) =>
          sql<{ close: string; volume: string | null; open: string | null }>`
          select close::text, volume::text, open::text from daily_prices where symbol = ${symbol} and series = ${series} and date = ${date}`
        // eod recording: date,close,volume
        for (const [sym, date] of [["HUBC", "2021-05-26"], ["OGDC", "2024-06-03"], ["MEBL", "2026-05-25"]] as const) {
          const raw = csvRow(`eod_${sym}.csv`, date)
          const row = (yield* pick(sym, "eod", date))[0]!
          assert.strictEqual(Number(row.close), Number(raw[1]), `${sym} ${date} close`)
          assert.strictEqual(Number(row.volume), Number(raw[2]), `${sym} ${date} volume`)
          assert.isNull(row.open, "the eod recording has no open")
        }
        // as-traded recording: "Date_","Open","High","Low","Close","Change","ChangeP","Volume"
        for (const [sym, date] of [["HUBC", "2004-01-01"], ["LUCK", "2023-05-26"], ["UBL", "2015-03-02"]] as const) {
          const raw = csvRow(`as_traded_${sym}.csv`, `"${date}T`)
          const row = (yield* pick(sym, "as_traded", date))[0]!
          assert.strictEqual(Number(row.close), Number(raw[4]), `${sym} ${date} close`)
          assert.strictEqual(Number(row.open), Number(raw[1]), `${sym} ${date} open`)
          assert.strictEqual(Number(row.volume), Number(raw[7]), `${sym} ${date} volume`)
        }
        const engro = (yield* pick("ENGRO", "as_traded", "2025-01-03"))[0]!
        assert.deepStrictEqual([Number(engro.close), Number(engro.volume)], [485.38, 4496408])
      }))

    it.effect("freshness lists every dataset with its real as-of dates; prices run to 2026-05-25", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/freshness")
        assertOk(r)
        const eod = r.body.datasets.find((d) => d.dataset === "prices_eod")
        assert.exists(eod)
        assert.strictEqual(eod.last_date, "2026-05-25")
        assert.strictEqual(eod.first_date, "2021-02-08")
        assert.exists(eod.symbols)
        assert.isAbove(eod.symbols, 600)
        assert.strictEqual(eod.age_days, 21, "2026-05-25 to the service's 2026-06-15")
        assert.strictEqual(r.body.now.slice(0, 13), NOW.slice(0, 13), "the service's clock")
        const at = r.body.datasets.find((d) => d.dataset === "prices_as_traded")
        assert.exists(at)
        assert.strictEqual(at.last_date, "2023-05-26")
        assert.isString(r.body.data_pack)
      }))

    it.effect("a repeated GET is the same answer with its own request id", () =>
      Effect.gen(function*() {
        const a = yield* get("/v1/companies/HUBC")
        const b = yield* get("/v1/companies/HUBC")
        assert.deepStrictEqual(a.body, b.body)
        assert.notStrictEqual(a.headers["x-request-id"], b.headers["x-request-id"])
      }))

    it.effect("search ranks exact ticker, then prefix, then name words, accent- and case-insensitive", () =>
      Effect.gen(function*() {
        const hbl = yield* get("/v1/search?q=hbl")
        assertSucceeded(hbl)
        assert.strictEqual(hbl.body.items[0]!.symbol, "HBL")
        assert.strictEqual(hbl.body.items[0]!.match, "exact_ticker")
        assert.strictEqual(hbl.body.items[1]!.match, "ticker_prefix")
        const meezan = yield* get("/v1/search?q=M%C3%89EZAN")
        assertSucceeded(meezan)
        assert.include(meezan.body.items.map((i) => i.symbol), "MEBL")
        assertFailed(yield* get("/v1/search?q="), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/search"), 400, "INVALID_REQUEST")
      }))

    it.effect("walking every page of /v1/companies gives exactly total distinct rows", () =>
      Effect.gen(function*() {
        const first = yield* get("/v1/companies?limit=1")
        assertSucceeded(first)
        const total = first.body.total
        assert.strictEqual(total, LISTED)
        const seen = new Set<string>()
        let cursor: string | null = null
        let pages = 0
        do {
          const r: Reply<SuccessOf<"/v1/companies">> = yield* get(
            `/v1/companies?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
          )
          assertOk(r)
          for (const c of r.body.items) seen.add(c.symbol)
          cursor = r.body.next_cursor
          pages++
        } while (cursor !== null && pages < 20)
        assert.strictEqual(seen.size, total)
        assert.strictEqual(pages, Math.ceil(total / 200))
      }))

    it.effect("companies filter by sector and KSE-100; a tampered cursor is 400", () =>
      Effect.gen(function*() {
        const banks = yield* get("/v1/companies?sector=COMMERCIAL%20BANKS&limit=200")
        assertSucceeded(banks)
        assert.isTrue(banks.body.items.every((c) => c.sector === "COMMERCIAL BANKS"))
        assert.include(banks.body.items.map((c) => c.symbol), "MEBL")
        const kse = yield* get("/v1/companies?inside_kse100=true&limit=1")
        assertSucceeded(kse)
        assert.strictEqual(kse.body.total, 100)
        const page = yield* get("/v1/companies?limit=2")
        assertSucceeded(page)
        assert.exists(page.body.next_cursor)
        const tampered = page.body.next_cursor.replace(/.$/, (c: string) => (c === "A" ? "B" : "A"))
        assertFailed(yield* get(`/v1/companies?cursor=${tampered}`), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/companies?limit=abc"), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/companies?limit=0"), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/companies?limit=201"), 400, "INVALID_REQUEST")
      }))

    it.effect("company profile: syntax errors are 400 INVALID_SYMBOL, unknown tickers 404 with the symbol", () =>
      Effect.gen(function*() {
        const hbl = yield* get("/v1/companies/hbl")
        assertOk(hbl)
        assert.strictEqual(hbl.body.symbol, "HBL")
        assert.strictEqual(hbl.body.sector, "COMMERCIAL BANKS")
        assert.isTrue(hbl.body.inside_kse100)
        // From the newest screener snapshot (2026-08-04), which the ratios name.
        assert.exists(hbl.body.ratios)
        assert.strictEqual(hbl.body.ratios.pe_ttm, 7.170988086895586)
        assert.strictEqual(hbl.body.ratios.as_of, "2026-08-04T17:23:38.308Z")
        assert.strictEqual(hbl.body.fiscal_year_end, "December")
        assert.notProperty(hbl.body.ratios, "eps", "not recorded: absent, not zero")
        assertFailed(yield* get("/v1/companies/HB$L"), 400, "INVALID_SYMBOL")
        assertFailed(yield* get("/v1/companies/ABCDEFGHIJKLMNOPQ"), 400, "INVALID_SYMBOL")
        const unknown = yield* get("/v1/companies/ZZZZ")
        assertFailed(unknown, 404, "DATA_NOT_FOUND")
        assert.strictEqual(unknown.body.symbol, "ZZZZ")
      }))

    it.effect("quotes are delayed; an old quote is 409 DATA_STALE with its as-of, allow_stale returns it marked stale", () =>
      Effect.gen(function*() {
        const stale = yield* get("/v1/quotes/HUBC")
        assertFailed(stale, 409, "DATA_STALE")
        assert.strictEqual(stale.body.as_of, "2026-05-25T11:00:00.000Z")
        const q = yield* get("/v1/quotes/HUBC?allow_stale=true")
        assertOk(q)
        assert.strictEqual(q.body.status, "delayed")
        assert.isTrue(q.body.stale)
        const raw = csvRow("eod_HUBC.csv", "2026-05-25")
        assert.strictEqual(q.body.price, Number(raw[1]))
        assert.isNull(q.body.corporate_actions.ex_dividend, "no payout record for HUBC: undetermined, not false")
        const mebl = yield* get("/v1/quotes/MEBL?allow_stale=true")
        assertSucceeded(mebl)
        assert.strictEqual(mebl.body.corporate_actions.ex_dividend, false)
        assertFailed(yield* get("/v1/quotes/ZZZZ"), 404, "DATA_NOT_FOUND")
        assertFailed(yield* get("/v1/quotes/a%20b"), 400, "INVALID_SYMBOL")
        assertFailed(yield* get("/v1/quotes/HUBC?allow_stale=maybe"), 400, "INVALID_REQUEST")
      }))

    it.effect("a quote whose day's closes disagree between sources is 409 DATA_UNVERIFIED (SYNTHETIC second close inserted)", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const model = yield* MarketReadModel
        // The service is shared with other test files (SharedTestApp): the row goes again even if an assertion fails.
        const removeRow = sql`DELETE FROM daily_prices WHERE dataset = 'synthetic_test'`.pipe(
          Effect.andThen(model.refresh),
          Effect.orDie
        )
        yield* Effect.gen(function*() {
          // OGDC's recorded close of 2026-05-25 is from the eod series; add a conflicting as-traded row for that day.
          yield* sql`INSERT INTO daily_prices (symbol, series, date, close, dataset)
                   SELECT symbol, 'as_traded', date, close * 1.03, 'synthetic_test' FROM daily_prices
                   WHERE symbol = 'OGDC' AND series = 'eod' AND date = '2026-05-25'`
          assert.isTrue(yield* model.refresh, "the write moved the store's market version")
          const r = yield* get("/v1/quotes/OGDC?allow_stale=true")
          assertFailed(r, 409, "DATA_UNVERIFIED")
          assert.include(r.body.message, "synthetic_test")
        }).pipe(Effect.ensuring(removeRow))
        assert.strictEqual((yield* get("/v1/quotes/OGDC?allow_stale=true")).status, 200)
      }))

    it.effect("prices: newest first, adjusted false, close-only rows leave open/high/low out, windows and paging", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/prices/HUBC?range=1M")
        assertOk(r)
        assert.isFalse(r.body.adjusted)
        assert.strictEqual(r.body.series, "merged")
        const dates = r.body.items.map((i) => i.date)
        assert.deepStrictEqual(dates, [...dates].sort().reverse())
        assert.strictEqual(dates[0], "2026-05-25")
        assert.notProperty(r.body.items[0], "open")
        const closes = r.body.items.filter((i) => !i.flag).map((i) => i.close)
        assert.exists(r.body.window)
        assert.strictEqual(r.body.window.high, Math.max(...closes))
        assert.strictEqual(r.body.window.low, Math.min(...closes))
        assert.strictEqual(r.body.window.last_close, closes[0])
        const old = yield* get("/v1/prices/HUBC?date_from=2004-01-01&date_to=2004-01-31&limit=5")
        assertSucceeded(old)
        assert.deepStrictEqual(Object.keys(old.body.items[old.body.items.length - 1]!).sort(), [
          "close",
          "date",
          "high",
          "low",
          "open",
          "volume"
        ])
        assert.strictEqual(old.body.items.length, 5)
        const next = yield* get(
          `/v1/prices/HUBC?date_from=2004-01-01&date_to=2004-01-31&limit=5&cursor=${old.body.next_cursor}`
        )
        assertSucceeded(next)
        assert.isTrue(next.body.items[0]!.date < old.body.items[4]!.date)
        assert.strictEqual(next.body.total, old.body.total)
        assertFailed(yield* get("/v1/prices/HUBC?date_from=2026-05-01&date_to=2026-04-01"), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/prices/HUBC?date_from=2026-02-30"), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/prices/HUBC?range=7W"), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/prices/HUBC?limit=1001"), 400, "INVALID_REQUEST")
      }))

    it.effect("a symbol the exchange restated (LUCK ×0.2) is served as one labelled series, never mixed", () =>
      Effect.gen(function*() {
        const auto = yield* get("/v1/prices/LUCK?date_from=2023-05-01&date_to=2023-06-30&limit=100")
        assertSucceeded(auto)
        assert.strictEqual(auto.body.series, "eod")
        assert.isTrue(auto.body.restated_by_source)
        assert.include(auto.body.note, "0.2")
        const asTraded = yield* get("/v1/prices/LUCK?series=as_traded&date_from=2023-05-26&date_to=2023-05-26")
        assertSucceeded(asTraded)
        const eod = auto.body.items.find((i) => i.date === "2023-05-26")
        assert.exists(eod)
        assert.strictEqual(Math.round((eod.close / asTraded.body.items[0]!.close) * 100) / 100, 0.2)
      }))

    it.effect("the 2021-10-25 source glitch is flagged on the rows of the source found wrong (PPL: ChubsB, as traded)", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/prices/PPL?series=as_traded&date_from=2021-10-25&date_to=2021-10-25")
        assertSucceeded(r)
        assert.match(r.body.items[0]?.flag ?? "", /source_glitch/)
        const eod = yield* get("/v1/prices/PPL?series=eod&date_from=2021-10-25&date_to=2021-10-25")
        assertSucceeded(eod)
        assert.notProperty(eod.body.items[0], "flag")
      }))

    it.effect("financials: income lines only, units stated; unrecorded companies say coverage unknown", () =>
      Effect.gen(function*() {
        const hbl = yield* get("/v1/stocks/HBL/financials")
        assertSucceeded(hbl)
        assert.strictEqual(hbl.body.statement, "income")
        assert.strictEqual(hbl.body.coverage, "recorded")
        const y2024 = hbl.body.periods.find((p) => p.period === "2024")
        assert.exists(y2024)
        assert.strictEqual(y2024.lines.find((l) => l.line === "Profit after Taxation")!.value, 56765819)
        // UBL: no company page and no Sales row recorded (a bank).
        assert.strictEqual(bodyOf(yield* get("/v1/financials/UBL")).coverage, "unknown")
      }))

    it.effect("dividends: recorded MEBL rows keyed by fiscal year; HUBC coverage unknown, never zero", () =>
      Effect.gen(function*() {
        const mebl = yield* get("/v1/dividends/MEBL")
        assertSucceeded(mebl)
        assert.strictEqual(mebl.body.coverage, "recorded")
        // POST /company/payouts (7 rows) and the company page's last 10 (3 of them the same payouts).
        assert.strictEqual(mebl.body.data_coverage_start, "2023-05-02")
        assert.strictEqual(mebl.body.items.length, 14)
        assert.deepStrictEqual(
          Object.keys(mebl.body.items[0]!).filter((k) =>
            ["fiscal_year", "period_end", "period_label", "calendar_year", "ex_date"].includes(k)
          ).sort(),
          ["calendar_year", "ex_date", "fiscal_year", "period_end", "period_label"]
        )
        const hubc = yield* get("/v1/stocks/HUBC/dividends")
        assertSucceeded(hubc)
        assert.strictEqual(hubc.body.coverage, "unknown")
        assert.notProperty(hubc.body, "ttm_dividend_per_share")
        assert.notProperty(hubc.body, "years_paid")
        assert.deepStrictEqual(hubc.body.items, [])
      }))

    it.effect("corporate actions, announcements (filings) and news (coverage unknown)", () =>
      Effect.gen(function*() {
        const luck = yield* get("/v1/corporate-actions/LUCK")
        assertSucceeded(luck)
        assert.include(luck.body.items.map((a) => a.kind), "restatement")
        const aabs = yield* get("/v1/corporate-actions/AABS")
        assertSucceeded(aabs)
        assert.deepStrictEqual(aabs.body.items.map((a) => [a.kind, a.xd_date]), [["ex_dividend", "2021-01-21"]])
        // HUBC: 15 from POST /announcements, 15 more from its company page (none twice).
        const ann = yield* get("/v1/announcements/HUBC?limit=200")
        assertSucceeded(ann)
        assert.strictEqual(ann.body.total, 30)
        assert.strictEqual(new Set(ann.body.items.map((a) => a.id)).size, 30)
        assert.isTrue(ann.body.items.every((a) => a.source_type === "filing" && a.symbol === "HUBC"))
        // The market-wide recordings (Feb-Sep 2026) and the filings inventory's filings from February (one of them also in
        // the market-wide recordings); the company-page recordings end on 2026-01-22.
        const since = new Set([...portalFilingIds, ...inventoryIdsSince("2026-02-01")])
        const all = yield* get("/v1/announcements?limit=5&date_from=2026-02-01")
        assertSucceeded(all)
        assert.strictEqual(all.body.total, since.size)
        assert.strictEqual(all.body.coverage, "recorded")
        const rest = yield* get(`/v1/announcements?limit=200&date_from=2026-02-01&cursor=${all.body.next_cursor}`)
        assertSucceeded(rest)
        assert.strictEqual(rest.body.items.length, since.size - 5)
        assert.sameMembers([...all.body.items, ...rest.body.items].map((a) => a.id), [...since])
        const dated = yield* get("/v1/announcements?date_from=2026-09-29&date_to=2026-09-29")
        assertSucceeded(dated)
        assert.strictEqual(dated.body.total, 3)
        // AABS is not among the symbols the recorded news feeds tag: unknown, not "no news".
        const news = yield* get("/v1/news?symbol=AABS")
        assertSucceeded(news)
        assert.strictEqual(news.body.coverage, "unknown")
        assert.isString(news.body.note)
      }))

    it.effect("the full-company payload carries peers, sector medians and a derived block; unknown parts are absent", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/stocks/HBL")
        assertOk(r)
        assert.isAbove(r.body.peers.length, 5)
        assert.exists(r.body.sector_medians)
        assert.isAbove(r.body.sector_medians.pe_peers, 5)
        assert.exists(r.body.derived.week52)
        assert.strictEqual(r.body.derived.week52.basis, "close")
        assert.exists(r.body.derived.circuit_breaker)
        assert.isNumber(r.body.derived.circuit_breaker.upper)
        assert.strictEqual(r.body.derived.net_margin_pct, 7.39)
        const hubc = yield* get("/v1/stocks/HUBC")
        assertSucceeded(hubc)
        assert.notProperty(hubc.body.derived, "net_margin_pct")
      }))

    it.effect("sources per data area name the recording; ingest/fundamentals warms in bounded batches", () =>
      Effect.gen(function*() {
        const s = yield* get("/v1/ai/sources/HUBC")
        assertSucceeded(s)
        const prices = s.body.areas.find((a) => a.area === "prices")
        assert.exists(prices)
        assert.strictEqual(prices.coverage, "recorded")
        assert.include(prices.sources.map((x) => x.dataset), "prices_eod")
        assert.strictEqual(s.body.areas.find((a) => a.area === "news")!.coverage, "recorded")
        const aabs = yield* get("/v1/ai/sources/AABS")
        assertSucceeded(aabs)
        assert.strictEqual(aabs.body.areas.find((a) => a.area === "news")!.coverage, "unknown")
        const w = yield* get("/v1/ingest/fundamentals?n=40")
        assertSucceeded(w)
        assert.deepStrictEqual([w.body.warmed, w.body.batch], [40, 40])
        const w2 = yield* get("/v1/ingest/fundamentals?n=40")
        assertSucceeded(w2)
        assert.strictEqual(w2.body.remaining, w.body.remaining - 40)
        assert.strictEqual(w2.body.universe, w.body.universe)
        assertFailed(yield* get("/v1/ingest/fundamentals?n=0"), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/ingest/fundamentals?n=41"), 400, "INVALID_REQUEST")
      }))

    it.effect("the tool endpoint: initialize, tools/list, tools/call with the same figures and error records", () =>
      Effect.gen(function*() {
        const { call, init, list: listTools } = yield* mcpSession
        assertOk(init)
        assert.strictEqual(init.body.result.serverInfo.name, "psx-data-service")
        const list = yield* listTools
        assertSucceeded(list)
        const names = list.body.result.tools.map((t) => t.name)
        assert.includeMembers(names, [
          "get_company",
          "get_quote",
          "get_price_history",
          "get_financials",
          "get_dividends",
          "get_corporate_actions",
          "get_announcements",
          "get_news",
          "get_index",
          "get_market_snapshot"
        ])
        assert.isTrue(list.body.result.tools.every((t) => t.inputSchema.type === "object"))
        const catalogue = yield* get("/v1/ai/tools")
        assertSucceeded(catalogue)
        assert.deepStrictEqual(catalogue.body.tools.map((t) => t.name).sort(), [...names].sort())
        const quote = yield* call("get_quote", { symbol: "HUBC", allow_stale: true })
        assert.isFalse(quote.isError)
        assert.strictEqual(quote.value.price, bodyOf(yield* get("/v1/quotes/HUBC?allow_stale=true")).price)
        const stale = yield* call("get_quote", { symbol: "HUBC" })
        assert.isTrue(stale.isError)
        assert.strictEqual(stale.value.error, "DATA_STALE")
        const idx = yield* call("get_index", { id: "KSE100", constituents: true })
        assert.strictEqual(idx.value.constituents.length, 100)
        assert.strictEqual(
          idx.value.history?.recorded,
          3984,
          "KSE-100 closes 2010-01-04..2026-05-25 (macro_kse100.csv)"
        )
      }))

    it.effect.prop(
      "any string as a symbol or query value gives 200, 400, 404 or 409, never 500",
      [Schema.String, Schema.String],
      ([symbol, value]) =>
        Effect.gen(function*() {
          const s = encodeURIComponent(symbol.slice(0, 30).toWellFormed()) || "%20"
          const v = encodeURIComponent(value.slice(0, 30).toWellFormed())
          for (
            const path of [
              `/v1/quotes/${s}`,
              `/v1/companies/${s}`,
              `/v1/prices/${s}?range=${v}`,
              `/v1/search?q=${v}`,
              `/v1/companies?cursor=${v}`,
              `/v1/dividends/${s}`
            ]
          ) {
            const r = yield* get(path)
            assert.include([200, 400, 404, 409], r.status, `${path} → ${r.status} ${JSON.stringify(r.body)}`)
            if (r.status !== 200) assertFailed(r, r.status)
          }
        }),
      { arbitrary: { numRuns: 25 } } as any
    )
  }
)

describe("market data without the pack", () => {
  layer(TestApp())("an empty store", (it) => {
    it.effect("answers unknown symbols with 404, not an empty success", () =>
      Effect.gen(function*() {
        assertFailed(yield* get("/v1/quotes/HUBC"), 404, "DATA_NOT_FOUND")
        assertFailed(yield* get("/v1/prices/HUBC"), 404, "DATA_NOT_FOUND")
      }))
  })
})
