/**
 * The benchmark comparisons of domain/ledger/Performance.ts, pure, on recorded closes:
 * HUBC from the eod recording (test/fixtures/ledger, with its PROVENANCE) and KSE-100 from I-Zaifa__psx-analyzer
 * data/csv/macro_kse100.csv. KSE100PR has no daily closes in the recordings: where a test needs two, it says
 * which figures it takes and works the arithmetic from them. And the domain's purity.
 *
 * HUBC closes: 2026-05-21 215.99, 05-22 215.42, 05-25 219.50.
 * KSE-100 closes: 2026-05-20 164,831.42, 05-21 168,514.44, 05-22 167,844.24, 05-25 171,725.29.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import type { Entry } from "../domain/ledger/Decider.ts"
import type { PortfolioEvent } from "../domain/ledger/Events.ts"
import { performanceOf, type PerformanceRequest, type PerformanceResult } from "../domain/ledger/Performance.ts"
import type { IndexCloses } from "../domain/market/board/IndexHistory.ts"
import { settlementDate } from "../domain/market/calendar/Calendar.ts"
import { parsePriceCsv } from "../domain/psx/PriceCsv.ts"

const rows = parsePriceCsv(readFileSync(new URL("./fixtures/ledger/HUBC.csv", import.meta.url), "utf8")).rows.filter((
  r
) => r.date >= "2026-05-01")
const closes = new Map([["HUBC", { dates: rows.map((r) => r.date), close: rows.map((r) => r.close) }]])
const index = (code: string, points: ReadonlyArray<readonly [string, number]>): IndexCloses => ({
  code,
  dates: points.map((p) => p[0]),
  close: points.map((p) => p[1]),
  dataset: points.map(() => "test")
})
const KSE100 = [["2026-05-20", 164831.42], ["2026-05-21", 168514.44], ["2026-05-22", 167844.24], [
  "2026-05-25",
  171725.29
]] as const

const buy = (quantity: number, price: number, trade_date: string): PortfolioEvent => ({
  type: "TradeRecorded",
  side: "buy",
  symbol: "HUBC",
  quantity,
  price,
  fees: 0,
  trade_date,
  settlement_date: settlementDate(trade_date),
  flags: []
})
const entries = (...events: ReadonlyArray<PortfolioEvent>): ReadonlyArray<Entry> =>
  events.map((event, i) => ({
    event_id: `e${i}`,
    version: i + 1,
    effective_date: "trade_date" in event ? event.trade_date : "",
    event
  }))
const inception = (req: Partial<PerformanceRequest> & Pick<PerformanceRequest, "entries">) => {
  const r: PerformanceResult | { _tag: string } = performanceOf({
    closes,
    index: undefined,
    today: "2026-11-21",
    ...req
  })
  if ("_tag" in r) throw new Error(r._tag)
  const p = r.periods.find((x) => x.period === "since_inception")
  assert.exists(p)
  return p!
}
const six = (x: number) => Math.round(x * 1e6) / 1e6

describe("a difference only over the same days", () => {
  const held = entries(buy(100, 215.99, "2026-05-21"))

  it("KSE-100 with closes on the period's first and last sessions: twr − its change", () => {
    // TWR 219.50 / 215.99 − 1 = 0.016251 (bought at the close); KSE-100 171,725.29 / 168,514.44 − 1 = 0.019054.
    const p = inception({ entries: held, index: index("KSE100", KSE100) })
    assert.deepStrictEqual([p.from, p.to, p.twr, p.kse100?.change], ["2026-05-21", "2026-05-25", 0.016251, 0.019054])
    assert.strictEqual(p.difference, six(0.016251 - 0.019054))
    assert.notProperty(p, "benchmark_note")
  })

  it("KSE-100 without a close on the period's first session: its change from the day before is shown, no difference", () => {
    // The same closes with 2026-05-21 left out: KSE-100's change runs from 05-20 (164,831.42), a day more than the
    // portfolio's, so no difference is given.
    const p = inception({ entries: held, index: index("KSE100", KSE100.filter(([d]) => d !== "2026-05-21")) })
    assert.deepStrictEqual([p.twr, p.kse100?.from, p.kse100?.to, p.kse100?.change], [
      0.016251,
      "2026-05-20",
      "2026-05-25",
      six(171725.29 / 164831.42 - 1)
    ])
    assert.notProperty(p, "difference")
    assert.match(p.benchmark_note!, /KSE-100 has no close on 2026-05-21/u)
  })
})

describe("KSE-100 is total return; KSE100PR is price return", () => {
  // 100 HUBC bought at 210 on 05-21; a dividend of Rs 500 gross, 75 withheld, Rs 425 net on 05-25.
  const e = entries(buy(100, 210, "2026-05-21"), {
    type: "DividendRecorded",
    symbol: "HUBC",
    trade_date: "2026-05-25",
    gross_amount: 500,
    tax_withheld: 75,
    net_amount: 425
  })

  it("the total return (dividends in) is set against KSE-100; without KSE100PR's closes no price return is compared", () => {
    // TWR (21,950 + 425) / 21,000 − 1 = 0.065476; KSE-100 171,725.29 / 168,514.44 − 1 = 0.019054.
    const p = inception({ entries: e, index: index("KSE100", KSE100) })
    assert.deepStrictEqual([p.twr, p.difference], [0.065476, six(0.065476 - 0.019054)])
    for (const key of ["price_twr", "kse100pr", "price_difference"]) assert.notProperty(p, key)
  })

  it("the price return (dividends out) is set against KSE100PR where its closes are recorded", () => {
    // KSE100PR taken as 50,000.00 on 05-21 and 50,500.00 on 05-25: change 0.01. Price TWR 21,950 / 21,000 − 1 = 0.045238;
    // price_difference 0.045238 − 0.01 = 0.035238.
    const p = inception({
      entries: e,
      index: index("KSE100", KSE100),
      priceIndex: index("KSE100PR", [["2026-05-21", 50000], ["2026-05-25", 50500]])
    })
    assert.deepStrictEqual([p.price_twr, p.kse100pr?.change, p.price_difference], [0.045238, 0.01, 0.035238])
    assert.strictEqual(p.twr, 0.065476, "the total return is unchanged")
  })
})

describe("the domain keeps no state between calls", () => {
  it("the performance and tax modules hold no module-level mutable state", () => {
    const files = [
      "DailyValuation",
      "Performance",
      "PerformancePeriods",
      "PerformanceDays",
      "Returns",
      "Xirr",
      "TaxYear",
      "TaxStatement",
      "Taxes"
    ]
    for (const name of files) {
      const source = readFileSync(new URL(`../domain/ledger/${name}.ts`, import.meta.url), "utf8")
      const state = source.split("\n").filter((line) =>
        /^(let|var) /u.test(line) || /^(export )?const \w+ = new (Map|WeakMap|Set|WeakSet)\b/u.test(line)
      )
      assert.deepStrictEqual(state, [], `domain/ledger/${name}.ts`)
    }
  })
})
