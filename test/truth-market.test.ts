/**
 * Issue 19, market items: every figure served holds up against the
 * recordings (the bundled pack: I-Zaifa /timeseries/eod, ChubsB as traded,
 * the exchange's 2021-01-21 market summary, the MEBL/LUCK payout pages, the
 * 2026-04-08 screener). Each test names the symbol, date and recording it
 * checks. The clock starts at NOW, so the answers are the same in any year.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MarketReadModel } from "../src/market/readmodel/ReadModel.ts"
import { assertOk, assertSucceeded, bodyOf, get, TestApp } from "./support/TestApp.ts"

/** 11:00 in Karachi on Monday 15 June 2026: three weeks after the pack's last recorded session (25 May). */
const NOW = "2026-06-15T06:00:00.000Z"

const snapshot = Effect.flatMap(MarketReadModel, (m) => m.snapshot)

layer(TestApp({ withPack: true, now: NOW }), { timeout: 600_000, excludeTestServices: true })("issue 19: market truth", (it) => {
  it.effect("1. AHCL 2021-01-01..06-30: the market summary's as-traded 40.49 (2021-01-21) is not served beside the eod 3.73 (2021-05-26)", () =>
    Effect.gen(function*() {
      const r = yield* get("/v1/prices/AHCL?date_from=2021-01-01&date_to=2021-06-30&limit=200")
      assertOk(r)
      assert.strictEqual(r.body.series, "eod")
      assert.strictEqual(r.body.restated_by_source, "unknown")
      assert.match(r.body.note ?? "", /not known/)
      const closes = r.body.items.map((i) => i.close)
      assert.notInclude(closes, 40.49)
      assert.include(closes, 3.73)
      // The as-traded series still holds the summary's row, labelled as traded.
      const at = yield* get("/v1/prices/AHCL?series=as_traded&date_from=2021-01-21&date_to=2021-01-21")
      assertSucceeded(at)
      assert.deepStrictEqual([at.body.items[0]!.close, at.body.restated_by_source], [40.49, false])
    }))

  it.effect("1. THCCL, CLOV, FNEL, BNL, KML (market summary 2021-01-21 vs eod from 2021-05-26): one source per answer, verdict unknown", () =>
    Effect.gen(function*() {
      for (const symbol of ["THCCL", "CLOV", "FNEL", "BNL", "KML"]) {
        const r = yield* get(`/v1/prices/${symbol}?date_from=2021-01-01&date_to=2021-06-30&limit=200`)
        assertSucceeded(r)
        assert.strictEqual(r.body.series, "eod", symbol)
        assert.strictEqual(r.body.restated_by_source, "unknown", symbol)
        assert.notInclude(r.body.items.map((i) => i.date), "2021-01-21", symbol)
        assert.deepStrictEqual(r.body.sources.map((s) => s.dataset), ["prices_eod"], symbol)
      }
    }))

  it.effect("1. every symbol gets a verdict from evidence: LUCK true ×0.2, HUBC false (ChubsB overlap), the rest of the eod-only names unknown", () =>
    Effect.gen(function*() {
      const s = yield* snapshot
      const luck = yield* get("/v1/prices/LUCK?date_from=2023-05-01&date_to=2023-05-31")
      assertSucceeded(luck)
      assert.deepStrictEqual([luck.body.series, luck.body.restated_by_source], ["eod", true])
      const hubc = yield* get("/v1/prices/HUBC?series=eod&date_from=2023-05-01&date_to=2023-05-31")
      assertSucceeded(hubc)
      assert.deepStrictEqual([hubc.body.series, hubc.body.restated_by_source], ["eod", false])
      const count = { true: 0, false: 0, unknown: 0 }
      for (const d of s.symbols.values()) {
        if (d.eod === undefined) continue
        count[String(d.restatement.restated) as keyof typeof count]++
        // Never merged unless verified as traded.
        if (d.prices?.series === "merged") assert.strictEqual(d.restatement.restated, false, d.security.symbol)
      }
      assert.strictEqual(count.true, 8)
      assert.isAbove(count.false, 80)
      assert.isAbove(count.unknown, 400)
    }))

  it.effect("2. OGDC 2021-10-25: the eod 84.97 is served; ChubsB's repeated 84.43 is flagged as the wrong source (price_disagreements verdict)", () =>
    Effect.gen(function*() {
      const auto = yield* get("/v1/prices/OGDC?date_from=2021-10-22&date_to=2021-10-26")
      assertSucceeded(auto)
      assert.strictEqual(auto.body.series, "merged")
      const day = auto.body.items.find((i) => i.date === "2021-10-25")
      assert.exists(day)
      assert.deepStrictEqual([day.close, day.flag], [84.97, undefined])
      assert.deepStrictEqual(auto.body.items.map((i) => i.close), [83.73, 84.97, 84.43])
      const at = yield* get("/v1/prices/OGDC?series=as_traded&date_from=2021-10-25&date_to=2021-10-25")
      assertSucceeded(at)
      assert.strictEqual(at.body.items[0]!.close, 84.43)
      assert.match(at.body.items[0]!.flag ?? "", /source_glitch: .*wrong one/)
    }))

  it.effect("4. MEBL 70% (F), book closure from 2025-08-27 (uzairbukhari payouts page): xd_date 2025-08-25, the XD day of the eod drop 409.19 → 396.42", () =>
    Effect.gen(function*() {
      const d = yield* get("/v1/stocks/MEBL/dividends")
      assertSucceeded(d)
      const row = d.body.items.find((r) => r.book_closure_from === "2025-08-27")
      assert.exists(row)
      assert.deepStrictEqual([row.ex_date, row.last_buy_date, row.xd_date], ["2025-08-27", "2025-08-22", "2025-08-25"])
      const p = yield* get("/v1/prices/MEBL?date_from=2025-08-22&date_to=2025-08-25")
      assertSucceeded(p)
      assert.deepStrictEqual(p.body.items.map((i) => i.close), [396.42, 409.19])
    }))

  it.effect("5. cement lines (screener 2026-04-08): LPCL and PAKCEM have no market_cap (0 is a blank); 0 P/E lines are unknown, not loss-makers (issue 34 item 6); JVDCR1 is not LUCK's peer", () =>
    Effect.gen(function*() {
      const sector = bodyOf(yield* get("/v1/sectors/cement"))
      for (const symbol of ["LPCL", "PAKCEM"]) {
        const line = sector.members.find((p) => p.symbol === symbol)
        assert.isDefined(line, symbol)
        assert.notProperty(line, "market_cap", symbol)
      }
      const v = yield* get("/v1/sectors/cement/valuation")
      assertSucceeded(v)
      assert.strictEqual(v.body.loss_makers_excluded, 0)
      assert.strictEqual(v.body.pe_peers + v.body.loss_makers_excluded + v.body.without_pe + v.body.not_trading, sector.ordinary_constituents)
      const luck = yield* get("/v1/stocks/LUCK")
      assertSucceeded(luck)
      assert.notInclude(luck.body.peers.map((p) => p.symbol), "JVDCR1")
      assert.notInclude(luck.body.peers.map((p) => p.symbol), "FLYNGR1")
    }))

  it.effect("7. OGDC: circuit bounds served for the session after its last close (2026-05-25 → 2026-05-26), ±10% of 330.05 (eod recording)", () =>
    Effect.gen(function*() {
      const r = yield* get("/v1/stocks/OGDC")
      assertSucceeded(r)
      const cb = r.body.derived.circuit_breaker
      assert.exists(cb)
      assert.deepStrictEqual([cb.session, cb.previous_close, cb.lower, cb.upper], ["2026-05-26", 330.05, 297.05, 363.06])
      assert.match(cb.rule, /10%.*2024-07-22/)
    }))

  it.effect("8. OGDC: /v1/stocks and /analytics give the same 52-week window (one definition) ending 2026-05-25", () =>
    Effect.gen(function*() {
      const stock = yield* get("/v1/stocks/OGDC")
      assertSucceeded(stock)
      const analytics = yield* get("/v1/stocks/OGDC/analytics")
      assertSucceeded(analytics)
      const w = stock.body.derived.week52, a = analytics.body.week52
      assert.exists(w)
      assert.exists(a)
      assert.deepStrictEqual([w.from, w.to, w.high, w.low], [a.from, a.to, a.high, a.low])
      assert.strictEqual(w.to, "2026-05-25")
      assert.isTrue(w.from >= "2025-05-27", w.from)
    }))

  it.effect("3. KOHC (eod restated ×0.2 against ChubsB): analytics, technicals, derived and research say so; value traded is withheld", () =>
    Effect.gen(function*() {
      const a = yield* get("/v1/stocks/KOHC/analytics")
      assertSucceeded(a)
      assert.exists(a.body.price_series)
      assert.deepStrictEqual([a.body.price_series.series, a.body.price_series.restated_by_source], ["eod", true])
      assert.notProperty(a.body.liquidity_30d ?? {}, "value_traded")
      assert.include(a.body.unavailable.map((u) => u.figure), "liquidity_30d.value_traded")
      const t = yield* get("/v1/stocks/KOHC/technicals")
      assertSucceeded(t)
      assert.exists(t.body.price_series)
      assert.strictEqual(t.body.price_series.restated_by_source, true)
      const stock = yield* get("/v1/stocks/KOHC")
      assertSucceeded(stock)
      assert.exists(stock.body.derived.price_series)
      assert.strictEqual(stock.body.derived.price_series.restated_by_source, true)
      const research = yield* get("/v1/stocks/KOHC/research")
      assertSucceeded(research)
      assert.include(research.body.caveats.map((c) => c.code), "restated_series")
      // HUBC, verified as traded, keeps its value traded and says false.
      const hubc = yield* get("/v1/stocks/HUBC/analytics")
      assertSucceeded(hubc)
      assert.exists(hubc.body.price_series)
      assert.strictEqual(hubc.body.price_series.restated_by_source, false)
      assert.exists(hubc.body.liquidity_30d)
      assert.isNumber(hubc.body.liquidity_30d.value_traded)
    }))
})

