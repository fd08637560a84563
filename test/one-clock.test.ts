/**
 * Figures joined in one answer share one date or each carries its own, and one name means one date, over the bundled pack. Expected values come from the recordings:
 *
 * - LUCK "250%(F) (D)", book closure 18/08/2026 - 25/08/2026 (afireseeker /payouts). Under T+1 the last buy date
 *   is Thu 2026-08-13 (its trade settles Mon 08-17 across Independence Day, Fri 08-14); it trades XD on Mon 08-17.
 *   ex_date (SPEC 2.3) is the closure's first day, 2026-08-18.
 * - The screener of 2026-08-04 (alihamza098 data_snapshot.json): MEBL at 573.7 with P/E 11.44196250498604; the
 *   banks' yields, BML, JSBL and SBL showing 0.0 (no figure).
 * - The payouts dataset joins two recordings: uzairbukhari/psx-portfolio at 984a04b386846eed3d612ed6136a56f664f2304b
 *   and afireseeker-cloud/Pakistan-Stock-Market-Events-Calendar at b243b81f78a0a96d23b9575159136bee021e1acc (their
 *   PROVENANCE.md files).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { bearer, created, send, session } from "./support/Portfolios.ts"
import { bodyOf, get, SharedTestApp } from "./support/TestApp.ts"

const SCREENER_AS_OF = "2026-08-04T17:23:38.308Z"
const UZAIR = "github.com/uzairbukhari/psx-portfolio"
const AFIRE = "github.com/afireseeker-cloud/Pakistan-Stock-Market-Events-Calendar"

layer(SharedTestApp("2026-11-21T05:00:00.000Z"), { timeout: 600_000, excludeTestServices: true })(
  "one clock",
  (it) => {
    it.effect("3. ex_date is the book closure's first day everywhere; the XD day is xd_date (LUCK 250%: 2026-08-18, XD 08-17)", () =>
      Effect.gen(function*() {
        const div = bodyOf(yield* get("/v1/dividends/LUCK")).items.find((r) => r.details.includes("250%"))!
        assert.deepStrictEqual([div.ex_date, div.book_closure_from, div.last_buy_date, div.xd_date], [
          "2026-08-18",
          "2026-08-18",
          "2026-08-13",
          "2026-08-17"
        ])

        const action = bodyOf(yield* get("/v1/corporate-actions/LUCK")).items.find((a) => a.details.includes("250%"))!
        assert.strictEqual(action.xd_date, "2026-08-17")
        assert.notProperty(action, "ex_date", "the XD day is never called ex_date")

        const quote = bodyOf(yield* get("/v1/quotes/LUCK?allow_stale=true"))
        const recent = quote.corporate_actions.recent_actions.find((a) => a.details.includes("250%"))!
        assert.strictEqual(recent.xd_date, "2026-08-17")
        assert.isTrue(quote.corporate_actions.recent_actions.every((a) => !("ex_date" in a)))

        const t = yield* session
        created(yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 40, price: 350, trade_date: "2026-05-18" }))
        const e = bodyOf(yield* get("/v1/me/entitlements", bearer(t))).items.find((x) =>
          x.symbol === "LUCK" && x.book_closure_from === "2026-08-18"
        )!
        assert.deepStrictEqual([e.book_closure_from, e.last_buy_date, e.xd_date], [
          "2026-08-18",
          "2026-08-13",
          "2026-08-17"
        ])
        assert.notProperty(e, "ex_date")
      }))

    it.effect("6. a 0 yield on the screener is no figure: banks' median yield 9.7889 over 16, BML, JSBL and SBL without one", () =>
      Effect.gen(function*() {
        const v = bodyOf(yield* get("/v1/sectors/commercial-banks/valuation"))
        // The 16 yields in order; the middle two are BAHL 9.77198697068404 and MCB 9.805790864271511:
        // (9.77198697068404 + 9.805790864271511) / 2 = 9.788888917477776 → 9.7889.
        assert.deepStrictEqual([v.median_dividend_yield_pct, v.yield_peers, v.without_yield], [9.7889, 16, 3])
        const peers = bodyOf(yield* get("/v1/sectors/0807/peers")).peers
        assert.deepStrictEqual(peers.filter((p) => p.dividend_yield_pct === undefined).map((p) => p.symbol).sort(), [
          "BML",
          "JSBL",
          "SBL"
        ])
        // The stock's own sector medians follow the same rule: the three are not counted as 0.
        const mebl = bodyOf(yield* get("/v1/stocks/MEBL/valuation"))
        assert.strictEqual(mebl.sector_medians?.yield_peers, 16)
        const hubc = bodyOf(yield* get("/v1/stocks/HUBC/valuation"))
        assert.isAbove(hubc.sector_medians?.dividend_yield_pct ?? 0, 0, "no median of mostly unknown yields read as 0")
      }))

    it.effect("2. a peer's price carries its session's date and the exchange's figures theirs (MEBL 490.2 of 05-25; P/E at 573.7 of 08-04)", () =>
      Effect.gen(function*() {
        const mebl = bodyOf(yield* get("/v1/sectors/0807/peers")).peers.find((p) => p.symbol === "MEBL")!
        assert.deepStrictEqual(
          [mebl.price, mebl.price_as_of?.slice(0, 10), mebl.pe_ttm, mebl.published_as_of, mebl.published_price],
          [490.2, "2026-05-25", 11.44196250498604, SCREENER_AS_OF, 573.7]
        )
        // Compared, each value carries the date of the price it rests on: MEBL's yield as computed at the close of 05-25
        // (28.5 / 490.2 = 5.81395% → 5.814), its P/E as the exchange published it on 08-04.
        const measures = bodyOf(yield* get("/v1/compare?symbols=MEBL,HUBC")).head_to_head!.measures
        const of = (m: string) => measures.find((x) => x.measure === m)!.values.find((v) => v.symbol === "MEBL")!
        assert.deepStrictEqual([of("dividend_yield_pct").value, of("dividend_yield_pct").as_of?.slice(0, 10)], [
          5.814,
          "2026-05-25"
        ])
        assert.deepStrictEqual([of("pe_ttm").value, of("pe_ttm").as_of], [11.442, SCREENER_AS_OF])
        // The stock page: its computed yield (5.814) beside the exchange's ratios, dated and priced; peers' figures dated.
        const stock = bodyOf(yield* get("/v1/stocks/MEBL"))
        assert.deepStrictEqual(
          [stock.ttm_dividend_yield_pct, stock.ratios?.dividend_yield_pct, stock.ratios?.as_of, stock.ratios?.price],
          [5.814, 6.298899350218805, SCREENER_AS_OF, 573.7]
        )
        assert.isTrue(stock.peers.length > 0 && stock.peers.every((p) => p.as_of === SCREENER_AS_OF))
      }))

    it.effect("10. a dataset joined from two recordings names each repository with its own commit", () =>
      Effect.gen(function*() {
        const sources = bodyOf(yield* get("/v1/dividends/LUCK")).sources
        assert.strictEqual(
          sources.find((s) => s.dataset === "payouts")?.recorded_in,
          `${UZAIR}@984a04b38684; ${AFIRE}@b243b81f78a0`
        )
        const fresh = bodyOf(yield* get("/v1/freshness")).datasets.find((d) => d.dataset === "payouts")!
        assert.strictEqual(
          fresh.recorded_in,
          `${UZAIR}@984a04b386846eed3d612ed6136a56f664f2304b; ${AFIRE}@b243b81f78a0a96d23b9575159136bee021e1acc`
        )
      }))
  }
)
