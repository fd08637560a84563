/**
 * Adjusted series (`adjust=splits|total_return`) on prices, analytics and
 * compare, over the bundled pack with the clock stopped (the answers
 * sample's NOW and cursor key, so `adjust=none` can be held to the recorded
 * answer byte for byte). Every expected figure is worked by hand below from
 * the recordings:
 * - BOP (ChubsB__KSE-100-Data/BOP.csv, as traded): bonuses 12.5% (XB
 *   2022-03-21) and 10% (XB 2023-03-21) from the company page's payouts
 *   (aabdullah27__Stock-Analysis-PSX BOP_psx.html, in the pack as
 *   payouts_company_pages_2025_09).
 * - MEBL (I-Zaifa__psx-analyzer MEBL.csv, the eod series): cash dividends of
 *   Rs 10 face value (FaceValues.ts) from the exchange's payouts.
 * - LUCK: its eod series restated by the exchange for the 5-for-1
 *   sub-division of 28 Apr 2025 (face value Rs 10 → Rs 2, FaceValues.ts).
 */
import { assert, describe, it as test, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import type { PayoutRecord } from "../domain/market/filings/Dividends.ts"
import { adjustSeries, payoutRecordStart } from "../domain/market/prices/Adjustment.ts"
import { corporateActions, symbolActions } from "../domain/market/prices/AdjustmentActions.ts"
import { priceAction } from "../domain/market/prices/AdjustmentFactors.ts"
import type { PriceSeries } from "../domain/market/snapshot/Series.ts"
import { MarketReadModel } from "../src/market/readmodel/ReadModel.ts"
import { answersDir, CURSOR_SECRET, NOW } from "./support/AnswerSample.ts"
import { FrozenClockLayer } from "./support/ShiftedClock.ts"
import { assertFailed, assertOk, get, getText, TestApp } from "./support/TestApp.ts"

const App = TestApp({ withPack: true, cursorSecret: Option.some(Redacted.make(CURSOR_SECRET)) }).pipe(
  Layer.provideMerge(FrozenClockLayer(NOW))
)

type Row = { date: string; open?: number; high?: number; low?: number; close: number; volume?: number }
const rowOn = (items: ReadonlyArray<Row>, date: string) => {
  const row = items.find((r) => r.date === date)
  assert.isDefined(row, `a row on ${date}`)
  return row!
}
/** The rows of a price answer from `from` to `to`, in one page. */
const prices = (path: string, from: string, to: string) =>
  Effect.map(
    get(`${path}${path.includes("?") ? "&" : "?"}date_from=${from}&date_to=${to}&limit=1000` as "/v1/prices/BOP"),
    (r) => {
      assertOk(r, 200, path)
      return r.body
    }
  )

layer(App, { timeout: 600_000, excludeTestServices: true })("adjusted price series", (it) => {
  it.effect("adjust=none is today's answer, byte for byte (the recorded sample)", () =>
    Effect.gen(function*() {
      const sampled: ReadonlyArray<readonly [string, string]> = [
        ["/v1/prices/HUBC", "GET_v1_prices_HUBC.txt"],
        ["/v1/prices/HUBC?range=1M", "GET_v1_prices_HUBC_range=1M.txt"]
      ]
      for (const [path, file] of sampled) {
        const recorded = readFileSync(`${answersDir}${file}`, "utf8").split("\n").slice(1).join("\n")
        const none = yield* getText(`${path}${path.includes("?") ? "&" : "?"}adjust=none`)
        const plain = yield* getText(path)
        assert.strictEqual(none.status, 200)
        assert.strictEqual(none.text, recorded, `${path}&adjust=none`)
        assert.strictEqual(plain.text, recorded, path)
      }
    }))

  it.effect("splits: BOP's two bonuses, hand-worked, scale the closes and volumes before them", () =>
    Effect.gen(function*() {
      const plain = yield* prices("/v1/prices/BOP", "2022-03-01", "2023-03-31")
      const adj = yield* prices("/v1/prices/BOP?adjust=splits", "2022-03-01", "2023-03-31")
      assert.isFalse(plain.adjusted)
      assert.notProperty(plain, "adjustment")
      assert.isTrue(adj.adjusted)
      assert.strictEqual(adj.adjustment!.adjust, "splits")
      // As traded (BOP.csv): 2022-03-18 O 7.79 H 7.85 L 7.65 C 7.69 V 3,092,500; 2023-03-20 C 4.43 V 2,463,000; 2023-03-21 C 4.07.
      assert.deepInclude(rowOn(plain.items, "2022-03-18"), {
        open: 7.79,
        high: 7.85,
        low: 7.65,
        close: 7.69,
        volume: 3_092_500
      })
      // 10% (B), XB 2023-03-21: 100 / 110 = 10/11. 12.50% (B), XB 2022-03-21: 100 / 112.5 = 8/9; before both 10/11 × 8/9 = 80/99
      // (the exact fraction: the product of the two rounded doubles is one unit off in the last place).
      const [b10, b125] = adj.adjustment!.factors
      assert.deepInclude(b10, {
        date: "2023-03-21",
        kind: "bonus",
        factor: 10 / 11,
        cumulative: 10 / 11,
        volume_factor: 1.1
      })
      assert.deepInclude(b125, {
        date: "2022-03-21",
        kind: "bonus",
        factor: 8 / 9,
        cumulative: 80 / 99,
        volume_factor: 1.125
      })
      assert.strictEqual(b125!.source, "payouts_company_pages_2025_09")
      // 2023-03-20, before the 10% bonus only: 4.43 × 10/11 = 4.02727 → 4.03; 2,463,000 × 1.1 = 2,709,300.
      // (The exchange's own change on 2023-03-21, +0.04 to 4.07, is from this same ex-bonus close 4.03.)
      assert.deepInclude(rowOn(adj.items, "2023-03-20"), { close: 4.03, volume: 2_709_300 })
      // 2022-03-18, before both: × 10/11 × 8/9 = 80/99. C 7.69 → 6.21414 → 6.21; O 7.79 → 6.29495 → 6.29; H 7.85 → 6.34343 → 6.34;
      // L 7.65 → 6.18182 → 6.18; V 3,092,500 × 99/80 = 3,826,968.75 → 3,826,969. (The exchange's change on 2022-03-21,
      // +0.03 to 6.87, is from 7.69 × 8/9 = 6.8356 → 6.84.)
      assert.deepInclude(rowOn(adj.items, "2022-03-18"), {
        open: 6.29,
        high: 6.34,
        low: 6.18,
        close: 6.21,
        volume: 3_826_969
      })
      // From the ex day on, nothing to adjust: as traded.
      assert.deepStrictEqual(rowOn(adj.items, "2023-03-21"), rowOn(plain.items, "2023-03-21"))
      assert.strictEqual(adj.adjustment!.price_decimals, 2)
      // Cut at the first sourced price limit (2017-12-07): the 2017 right (its subscription price rests on a face value not
      // recorded) is older still, and listed.
      assert.strictEqual(adj.adjustment!.cut_before, "2017-12-07")
      const around = yield* prices("/v1/prices/BOP?adjust=splits", "2017-11-01", "2017-12-31")
      assert.strictEqual(around.items[around.items.length - 1]!.date, "2017-12-07")
      assert.isTrue(
        (yield* prices("/v1/prices/BOP", "2017-11-01", "2017-12-31")).items.some((r) => r.date < "2017-12-07")
      )
      const right = adj.adjustment!.unknown_terms.find((u) => u.kind === "right" && u.by === "2017-05-11")
      assert.isDefined(right)
      assert.match(right!.reason, /face value/)
      assert.isTrue(adj.sources.some((s) => s.dataset === "payouts_company_pages_2025_09"))
    }))

  it.effect("total_return: MEBL's cash dividends, (P − D) / P from the close before each XD day", () =>
    Effect.gen(function*() {
      const plain = yield* prices("/v1/prices/MEBL", "2026-03-01", "2026-05-25")
      const adj = yield* prices("/v1/prices/MEBL?adjust=total_return", "2026-03-01", "2026-05-25")
      // 75%(i) of Rs 10 = Rs 7.50, XD 2026-05-05; the close before it, 2026-05-04, 486.80 (MEBL.csv): (486.80 − 7.50) / 486.80.
      // 70%(F) of Rs 10 = Rs 7, XD 2026-03-24; the close before it, 2026-03-19 (20–23 Mar closed), 437.32: 430.32 / 437.32.
      assert.strictEqual(rowOn(plain.items, "2026-05-04").close, 486.8)
      assert.strictEqual(rowOn(plain.items, "2026-03-19").close, 437.32)
      // The window's factors: those dated after its first row (2026-03-02), newest first.
      assert.deepStrictEqual(adj.adjustment!.factors.map((f) => f.date), ["2026-05-05", "2026-03-24"])
      const [may, march] = adj.adjustment!.factors
      assert.deepInclude(may, {
        date: "2026-05-05",
        kind: "cash_dividend",
        factor: 479.3 / 486.8,
        applied_to: "prices"
      })
      assert.deepInclude(march, { date: "2026-03-24", kind: "cash_dividend", applied_to: "prices" })
      assert.closeTo(march!.factor, 430.32 / 437.32, 1e-15)
      assert.closeTo(march!.cumulative, (430.32 / 437.32) * (479.3 / 486.8), 1e-15)
      // 2026-05-04: 486.80 × 479.30 / 486.80 = 479.30 exactly; its volume is not a dividend's to change (2,872,627).
      assert.deepInclude(rowOn(adj.items, "2026-05-04"), { close: 479.3, volume: 2_872_627 })
      // 2026-03-19: 437.32 × 430.32/437.32 × 479.30/486.80 = 430.32 × 479.30 / 486.80 = 423.690 → 423.69.
      assert.strictEqual(rowOn(adj.items, "2026-03-19").close, 423.69)
      // On and after the last XD day in the series, as recorded; the payout of 2026-08-18 is after the last row (2026-05-25).
      assert.strictEqual(rowOn(adj.items, "2026-05-25").close, rowOn(plain.items, "2026-05-25").close)
      assert.isTrue(adj.adjustment!.adjustment_notes.some((n) => n.includes("after the series' last row (2026-05-25)")))
      // The payout record starts with 30%(i) (XD 2023-04-27): older payouts are not known, so nothing before is served.
      assert.strictEqual(adj.adjustment!.cut_before, "2023-04-27")
      assert.match(adj.adjustment!.cut_reason!, /payout record/)
      const start = yield* prices("/v1/prices/MEBL?adjust=total_return", "2023-01-01", "2023-06-30")
      assert.strictEqual(start.items[start.items.length - 1]!.date, "2023-04-27")
    }))

  it.effect("an action whose terms are unknown cuts the series there, with the day and the reason", () =>
    Effect.gen(function*() {
      // BOP's 10%(i) cash dividend, XD 2025-09-10: BOP's face value is not recorded, so its rupees are not known.
      const bop = yield* prices("/v1/prices/BOP?adjust=total_return", "2025-08-01", "2025-10-31")
      assert.strictEqual(bop.adjustment!.cut_before, "2025-09-10")
      assert.match(bop.adjustment!.cut_reason!, /10%\(i\) \(D\).*face value on 2025-09-10 is not recorded/)
      assert.deepInclude(bop.adjustment!.unknown_terms[0], { kind: "cash_dividend", date: "2025-09-10" })
      assert.strictEqual(bop.items[bop.items.length - 1]!.date, "2025-09-10")
      assert.deepStrictEqual(bop.adjustment!.factors, [])
      // No payout record at all (OGDC): nothing can be adjusted, so no row is served.
      const ogdc = yield* prices("/v1/prices/OGDC?adjust=splits", "2004-01-01", "2026-12-31")
      assert.strictEqual(ogdc.total, 0)
      assert.deepStrictEqual(ogdc.items, [])
      assert.strictEqual(ogdc.adjustment!.cut_before, "2026-05-26")
      assert.match(ogdc.adjustment!.cut_reason!, /no payout record/)
    }))

  it.effect("a series the source restated is not adjusted again: LUCK's eod prices are served as restated", () =>
    Effect.gen(function*() {
      const plain = yield* prices("/v1/prices/LUCK", "2025-01-01", "2026-05-25")
      const adj = yield* prices("/v1/prices/LUCK?adjust=splits", "2025-01-01", "2026-05-25")
      assert.strictEqual(adj.series, "eod")
      assert.isTrue(adj.restated_by_source)
      assert.isTrue(adj.adjustment!.adjustment_notes.some((n) => n.includes("restated this series' prices")))
      assert.strictEqual(adj.items.length, 174, "2025-09-17 (the payout record's start) to 2026-05-25")
      for (const r of adj.items) assert.strictEqual(r.close, rowOn(plain.items, r.date).close, r.date)
    }))

  it.effect("the split rule on LUCK's restated series: face value Rs 10 → Rs 2 is 2/10 on volumes only", () =>
    Effect.gen(function*() {
      const snapshot = yield* (yield* MarketReadModel).snapshot
      const luck = snapshot.symbols.get("LUCK")!
      const actions = symbolActions(luck)
      const split = actions.find((a) => a.kind === "split")!
      // FaceValues.ts: Rs 10 until 2025-04-18, Rs 2 from 2025-04-28 (5-for-1): prices × 2/10 = 1/5, volumes × 5.
      assert.strictEqual(split.date, "2025-04-28")
      assert.deepStrictEqual(split.terms, { type: "fixed", factor: { n: 1n, d: 5n }, volume: { n: 5n, d: 1n } })
      // LUCK's payout record starts in Sep 2025, after the split; to see the split rule alone, take a record from 2025-01-01.
      assert.strictEqual(payoutRecordStart(actions)?.from, "2025-09-17")
      const out = adjustSeries({
        series: luck.eod!,
        mode: "splits",
        actions,
        restatement: luck.restatement,
        payoutRecord: { from: "2025-01-01", first: "given" }
      })
      const i = out.series.dates.indexOf("2025-04-18"), j = luck.eod!.dates.indexOf("2025-04-18")
      // The eod close of 2025-04-18 (350.29 = 0.2 × the as-traded close) is already on the new basis: unchanged.
      // Its volume, 1,109,330 (the eod series keeps the as-traded volume), × 5 = 5,546,650.
      assert.strictEqual(out.series.close[i], 350.29)
      assert.strictEqual(luck.eod!.volume[j], 1_109_330)
      assert.strictEqual(out.series.volume[i], 5_546_650)
      assert.deepInclude(out.factors[0], {
        date: "2025-04-28",
        kind: "split",
        factor: 0.2,
        volume_factor: 5,
        applied_to: "volumes"
      })
      assert.strictEqual(out.factors[0]!.cumulative, 1)
      // Had the verdict been unknown, the split could not be placed (cut at it) and the volumes' basis would not be known.
      const unknown = adjustSeries({
        series: luck.eod!,
        mode: "splits",
        actions,
        restatement: { ...luck.restatement, restated: "unknown" },
        payoutRecord: { from: "2025-01-01", first: "given" }
      })
      assert.deepStrictEqual([unknown.cut?.before, unknown.volumes], ["2025-04-28", "left_out"])
      assert.isTrue(unknown.series.volume.every(Number.isNaN))
      // Had the exchange restated by 0.5, the recorded 0.2 would not make it up: a split is missing from the record, every row cut.
      const missing = adjustSeries({
        series: luck.eod!,
        mode: "splits",
        actions,
        restatement: { ...luck.restatement, factor: 0.5 },
        payoutRecord: { from: "2025-01-01", first: "given" }
      })
      assert.strictEqual(missing.series.dates.length, 0)
      assert.match(missing.cut!.reason, /restated this series by 0.5/)
    }))

  it.effect("analytics and compare take the same parameter, on the same adjusted series", () =>
    Effect.gen(function*() {
      const a = yield* get("/v1/stocks/MEBL/analytics?adjust=total_return")
      assertOk(a, 200)
      // 20 sessions before 2026-05-25 is 2026-04-24, close 494.48, before the 2026-05-05 dividend: × 479.30/486.80 = 486.8617 → 486.86.
      assert.strictEqual(a.body.reference.close_20d_ago_date, "2026-04-24")
      assert.strictEqual(a.body.reference.close_20d_ago, 486.86)
      // performance_20d = (490.20 / 486.86 − 1) × 100 = 0.68603 → 0.686 (unadjusted it is a fall: 490.20 / 494.48).
      assert.strictEqual(a.body.performance_20d_pct, 0.686)
      assert.strictEqual(a.body.adjustment!.adjust, "total_return")
      assert.strictEqual(a.body.adjustment!.factors[0]!.date, "2026-05-05")
      assert.isTrue(a.body.week52!.adjusted)
      const c = yield* get("/v1/compare?symbols=MEBL,OGDC&adjust=total_return")
      assertOk(c, 200)
      const perf = c.body.head_to_head!.measures.find((m) => m.measure === "performance_20d_pct")!
      // MEBL's adjusted figure; OGDC has no payout record, so its adjusted series is empty and the measure unknown.
      assert.deepStrictEqual(perf.values.map(({ as_of: _asOf, ...v }) => v), [
        { symbol: "MEBL", value: 0.686, band: 2 },
        { symbol: "OGDC" }
      ])
      assert.strictEqual(perf.outcome, "unknown")
      assert.deepStrictEqual(c.body.adjustments!.map((x) => [x.symbol, x.cut_before]), [["MEBL", "2023-04-27"], [
        "OGDC",
        "2026-05-26"
      ]])
      const none = yield* get("/v1/stocks/OGDC/analytics?adjust=splits")
      assertFailed(none, 404, "DATA_NOT_FOUND")
    }))

  it.effect("adjust=bogus is 400 INVALID_REQUEST on prices, analytics and compare", () =>
    Effect.gen(function*() {
      for (
        const path of [
          "/v1/prices/BOP?adjust=bogus",
          "/v1/stocks/BOP/analytics?adjust=bogus",
          "/v1/compare?symbols=BOP,MEBL&adjust=bogus"
        ]
      ) {
        const r = yield* get(path as "/v1/prices/BOP")
        assertFailed(r, 400, "INVALID_REQUEST")
      }
    }))

  it.effect("an adjusted page's cursor serves the next adjusted page, and no other", () =>
    Effect.gen(function*() {
      const first = yield* get("/v1/prices/BOP?adjust=splits&limit=2")
      assertOk(first, 200)
      const cursor = first.body.next_cursor!
      const next = yield* get(`/v1/prices/BOP?adjust=splits&limit=2&cursor=${cursor}` as "/v1/prices/BOP")
      assertOk(next, 200)
      assert.isTrue(next.body.items[0]!.date < first.body.items[1]!.date)
      assertFailed(yield* get(`/v1/prices/BOP?limit=2&cursor=${cursor}` as "/v1/prices/BOP"), 400, "INVALID_REQUEST")
    }))
})

describe("rights: the subscription price from the recorded details, then TERP / P", () => {
  // BOP's recorded rights (payouts_company_pages_2025_09); their face value is not recorded, so take Rs 10 as given here.
  const right = (details: string, percent: number): PayoutRecord => ({
    symbol: "BOP",
    kind: "right",
    details,
    percent,
    bookClosureFrom: "2025-09-12",
    announcedAt: "2025-08-29T12:56:00.000Z"
  })
  const given = (): { rupees: number; source: string } | undefined => ({ rupees: 10, source: "given" })
  const termsOf = (p: PayoutRecord, face = given) =>
    corporateActions({ symbol: "BOP", payouts: [p], rows: [], faceValue: face }).find((a) => a.kind === "right")!

  test("at a premium of Rs 2 over Rs 10 is Rs 12; at par Rs 10; no price, or no face value, is unknown", () => {
    assert.deepInclude(termsOf(right("70% AT A PREMIUM OF Rs.2/= PER SHARE (R)", 70)).terms, {
      type: "right",
      perShare: { n: 7n, d: 10n },
      price: { n: 12n, d: 1n }
    })
    assert.deepInclude(termsOf(right("47.3882818% AT PAR VALUE (R)", 47.3882818)).terms, {
      type: "right",
      price: { n: 10n, d: 1n }
    })
    assert.strictEqual(termsOf(right("6O% (R)", 60)).unknown, "no subscription price is recorded")
    assert.match(
      termsOf(right("22.45% AT PAR (R)", 22.45), () => undefined).unknown!,
      /face value, which is not recorded/
    )
  })

  test("TERP = (P + r·S) / (1 + r): 7 rights per 10 at Rs 12 after a close of Rs 20 is Rs 16.7059, a factor of 0.835294", () => {
    // (20 + 0.7 × 12) / 1.7 = 28.4 / 1.7 = 16.70588…; / 20 = 284/340 = 71/85 = 0.8352941…
    const a = termsOf(right("70% AT A PREMIUM OF Rs.2/= PER SHARE (R)", 70))
    const s: PriceSeries = {
      symbol: "BOP",
      series: "eod",
      dates: ["2025-09-09", "2025-09-10"],
      open: new Float64Array([NaN, NaN]),
      high: new Float64Array([NaN, NaN]),
      low: new Float64Array([NaN, NaN]),
      close: new Float64Array([20, 17]),
      volume: new Float64Array([NaN, NaN]),
      flag: [],
      datasets: ["worked example"],
      datasetIndex: new Uint8Array([0, 0])
    }
    const priced = priceAction(s, { ...a, date: "2025-09-10" })
    assert.isObject(priced)
    const p = priced as Exclude<typeof priced, string | undefined>
    assert.deepStrictEqual(p.price, { n: 71n, d: 85n })
    assert.include(p.terms, "TERP = (P + r·S) / (1 + r) = Rs 16.7059")
  })
})
