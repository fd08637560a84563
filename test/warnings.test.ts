/**
 * `warnings` on the market answers whose coverage is partial, and on the portfolio's performance, over the bundled
 * pack: expected facts read from the recordings in data/pack (never from the service).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { getAsOf, readPack } from "./support/KnownTable.ts"
import { bearer, created, send, session } from "./support/Portfolios.ts"
import { bodyOf, get, SharedTestApp } from "./support/TestApp.ts"

const NOW = "2026-11-21T05:00:00.000Z"

type Payout = { symbol: string; bookClosureFrom?: string; parts: ReadonlyArray<{ kind: string; percent?: number }> }
type Listing = { symbol: string; sectorName?: string; sectorCode?: string }
type ScreenerLine = { symbol: string; listedIn: ReadonlyArray<string> }

const payouts = [
  ...(readPack("payouts.json") as ReadonlyArray<Payout>),
  ...(readPack("payouts_company_pages_2025_09.json") as ReadonlyArray<Payout>)
]
const manifest = readPack("manifest.json") as { datasets: ReadonlyArray<{ id: string; asOf: string }> }
const asOfOf = (id: string) => manifest.datasets.find((d) => d.id === id)!.asOf.slice(0, 10)

describe("warnings", () => {
  layer(SharedTestApp(NOW), { timeout: 300_000, excludeTestServices: true })(
    "over the pack",
    (it) => {
      it.effect("HBL, a bank with no payout record in the sources: its dividends say absence is not 'no dividend'", () =>
        Effect.gen(function*() {
          const hbl = (readPack("universe.json") as ReadonlyArray<Listing>).find((l) => l.symbol === "HBL")!
          assert.strictEqual(hbl.sectorName, "COMMERCIAL BANKS")
          assert.isFalse(payouts.some((p) => p.symbol === "HBL"), "no payout of HBL is recorded")
          const r = bodyOf(yield* get("/v1/dividends/HBL"))
          assert.strictEqual(r.coverage, "unknown")
          assert.deepStrictEqual(r.items, [])
          assert.match(r.warnings?.[0] ?? "", /^no payout record for HBL in the sources/u)
          assert.match(r.warnings![0]!, /not the absence of a dividend/u)
          // MEBL's payouts are recorded: no such warning; its two yields are told apart.
          assert.isTrue(payouts.some((p) => p.symbol === "MEBL"))
          const mebl = bodyOf(yield* get("/v1/dividends/MEBL"))
          assert.strictEqual(mebl.coverage, "recorded")
          assert.isFalse((mebl.warnings ?? []).some((w) => w.startsWith("no payout record")))
          assert.isDefined(mebl.ttm_dividend_yield_pct)
          assert.isDefined(mebl.yield_as_published)
          assert.isTrue((mebl.warnings ?? []).some((w) => w.includes("the yield the screener and valuation rank by")))
        }))

      it.effect("KSE-100's newest list (the 2026-08-04 screener's) gives no weights; the 2026-04-08 list did", () =>
        Effect.gen(function*() {
          const listed = (readPack("screener_2026_08_04.json.gz") as ReadonlyArray<ScreenerLine>).filter((l) =>
            l.listedIn.includes("KSE100")
          )
          const weighted = readPack("index_kse100.json") as ReadonlyArray<{ weightPct?: number }>
          assert.isTrue(weighted.every((w) => w.weightPct !== undefined))
          const r = bodyOf(yield* get("/v1/indices/KSE100"))
          assert.strictEqual(r.constituents.length, listed.length)
          assert.deepStrictEqual(r.warnings, [
            `${listed.length} of ${listed.length} KSE100 constituents as of ${
              asOfOf("screener_2026_08_04")
            } carry no weight (weight_pct absent): the recorded list of that date gives membership only; the newest ` +
            `list with weights is of ${asOfOf("index_kse100")}`
          ])
          // Sent once more after a client-side transport error (the instant's snapshot is built in process).
          const path = "/v1/indices/KSE100?as_of=2026-05-01" as "/v1/indices/:id"
          const before = bodyOf(yield* getAsOf(path).pipe(Effect.catchDefect(() => getAsOf(path))))
          assert.strictEqual(before.constituents.length, weighted.length)
          assert.isUndefined(before.warnings, "every constituent of the 2026-04-08 list has its weight")
        }))

      it.effect("the banks' valuation names the lines without a figure, by field, and the yield screens use", () =>
        Effect.gen(function*() {
          const r = bodyOf(yield* get("/v1/sectors/0807/valuation"))
          // The exchange's screener shows a 0 yield (no figure) for BML, JSBL and SBL (documented on the route).
          assert.isAtLeast(r.without_yield, 1)
          const warnings = r.warnings ?? []
          assert.include(
            warnings,
            `${r.without_yield} lines without a dividend yield (without_yield): median_dividend_yield_pct is over the ${r.yield_peers} with one`
          )
          assert.isTrue(
            warnings.some((w) => w.startsWith("median_dividend_yield_pct is over the exchange's screener yield"))
          )
          const sector = bodyOf(yield* get("/v1/sectors/0807"))
          assert.deepStrictEqual(sector.warnings, r.warnings)
        }))

      it.effect("a screen that leaves out securities whose filtered figure is unknown says how many, per filter", () =>
        Effect.gen(function*() {
          const r = bodyOf(yield* get("/v1/screener?pe_max=12&limit=1"))
          assert.isAbove(r.left_out_unknown, 0)
          assert.strictEqual(
            r.warnings?.[0],
            `${r.left_out_unknown} securities left out because a filtered figure is unknown (unknown per filter: ` +
              `pe_max: ${r.unknown_by_filter["pe_max"]}); unknown never matches`
          )
          const all = bodyOf(yield* get("/v1/screener?limit=1"))
          assert.isUndefined(all.warnings, "no filter, nothing left out")
        }))

      it.effect("performance: dividends reads 0 while MEBL's 80% interim (Rs 800 on 100 shares) is due, and says so", () =>
        Effect.gen(function*() {
          // data/pack/payouts.json: MEBL 80(ii) (D), book closure 2026-08-19; face value Rs 10: Rs 8 a share.
          const due = payouts.find((p) => p.symbol === "MEBL" && p.bookClosureFrom === "2026-08-19")!
          const gross = (due.parts[0]!.percent! / 100) * 10 * 100
          const t = yield* session
          created(
            yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 100, price: 464.83, trade_date: "2026-05-18" })
          )
          const a = bodyOf(yield* get("/v1/me/performance", bearer(t)))
          const silent = a.periods.filter((p) => p.dividends === 0).map((p) => p.period)
          assert.include(silent, "since_inception")
          assert.strictEqual(a.entitlements_due?.cash_dividends_gross, gross)
          assert.include(
            a.warnings ?? [],
            `dividends reads Rs 0 for ${
              silent.join(", ")
            } while Rs ${gross} of cash dividends (gross) are due and not recorded: owed, not absent`
          )
        }))
    }
  )
})
