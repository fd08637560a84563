/**
 * Returns against hand computation on recorded closes (HUBC and MEBL from the eod recording, 2026-05-19 to
 * 2026-05-25; vendored under test/fixtures/ledger with their PROVENANCE): the one time-weighted return
 * (domain/ledger/Returns.ts) through the daily valuation, XIRR (domain/ledger/Xirr.ts) and the periods.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import type { Entry } from "../domain/ledger/Decider.ts"
import type { PortfolioEvent } from "../domain/ledger/Events.ts"
import { performanceOf, type PerformanceResult } from "../domain/ledger/Performance.ts"
import { periodStart } from "../domain/ledger/Returns.ts"
import { xirr } from "../domain/ledger/Xirr.ts"
import { settlementDate } from "../domain/market/calendar/Calendar.ts"
import { parsePriceCsv } from "../domain/psx/PriceCsv.ts"

const closesOf = (symbol: string) => {
  const rows = parsePriceCsv(readFileSync(new URL(`./fixtures/ledger/${symbol}.csv`, import.meta.url), "utf8")).rows
    .filter((r) => r.date >= "2026-05-01")
  return { dates: rows.map((r) => r.date), close: rows.map((r) => r.close) }
}
const closes = new Map([["HUBC", closesOf("HUBC")], ["MEBL", closesOf("MEBL")]])

const trade = (
  side: "buy" | "sell",
  symbol: string,
  quantity: number,
  price: number,
  trade_date: string,
  fees = 0
): PortfolioEvent => ({
  type: "TradeRecorded",
  side,
  symbol,
  quantity,
  price,
  fees,
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
const run = (
  e: ReadonlyArray<Entry>,
  to?: string
): PerformanceResult & { days: NonNullable<PerformanceResult["days"]> } => {
  const r = performanceOf({ entries: e, closes, index: undefined, today: "2026-05-25", to, days: "daily" })
  if ("_tag" in r) throw new Error(r._tag)
  return { ...r, days: r.days ?? [] }
}
const period = (r: PerformanceResult, name: string) => {
  const p = r.periods.find((x) => x.period === name)
  assert.exists(p, name)
  return p!
}
const six = (x: number) => Math.round(x * 1e6) / 1e6

describe("time-weighted return", () => {
  it("one buy held: the return is the last close over the cost, whatever the closes between", () => {
    // 100 HUBC bought at 210 on 2026-05-21; close 219.50 on 2026-05-25: 21,950 / 21,000 − 1 = 0.045238.
    const p = period(run(entries(trade("buy", "HUBC", 100, 210, "2026-05-21"))), "since_inception")
    assert.deepStrictEqual([p.from, p.to, p.twr, p.total_return, p.gain], [
      "2026-05-21",
      "2026-05-25",
      0.045238,
      0.045238,
      950
    ])
  })

  it("a second purchase is a flow, not a gain: each day's return is chain-linked, money in at the start of its day", () => {
    const e = entries(trade("buy", "HUBC", 100, 210, "2026-05-21"), trade("buy", "MEBL", 50, 480, "2026-05-22"))
    const d21 = (100 * 215.99) / 21000
    const d22 = (100 * 215.42 + 50 * 479.56) / (100 * 215.99 + 50 * 480)
    const d25 = (100 * 219.5 + 50 * 490.2) / (100 * 215.42 + 50 * 479.56)
    assert.strictEqual(period(run(e), "since_inception").twr, six(d21 * d22 * d25 - 1))
  })

  it("a sale's proceeds leave at the end of its day: selling everything is the day's price move, not −100%", () => {
    // Bought 100 at 210 on 05-21 (close 215.99); all sold at 216 on 05-22: 21,600 / 21,599 on the second day.
    const e = entries(trade("buy", "HUBC", 100, 210, "2026-05-21"), trade("sell", "HUBC", 100, 216, "2026-05-22"))
    const r = run(e)
    assert.strictEqual(period(r, "since_inception").twr, six((21599 / 21000) * (21600 / 21599) - 1))
    assert.deepStrictEqual(r.days.map((d) => [d.date, d.value, d.net_flow]), [
      ["2026-05-21", 21599, 21000],
      ["2026-05-22", 0, -21600],
      ["2026-05-25", 0, 0]
    ])
  })

  it("dividends received count as return", () => {
    const e = entries(
      trade("buy", "HUBC", 100, 210, "2026-05-21"),
      {
        type: "DividendRecorded",
        symbol: "HUBC",
        trade_date: "2026-05-25",
        gross_amount: 500,
        tax_withheld: 75,
        net_amount: 425
      }
    )
    const p = period(run(e), "since_inception")
    assert.strictEqual(p.twr, six((21950 + 425) / 21000 - 1))
    assert.strictEqual(p.dividends, 425)
  })

  it("standard periods end at the newest close; a portfolio younger than the period says so and runs from inception", () => {
    const r = run(entries(trade("buy", "HUBC", 100, 210, "2026-05-21")))
    const oneMonth = period(r, "1M")
    assert.deepStrictEqual([oneMonth.covers_whole_period, oneMonth.from_inception, oneMonth.twr], [
      false,
      true,
      0.045238
    ])
    assert.deepStrictEqual([r.first_event, r.last_session], ["2026-05-21", "2026-05-25"])
  })

  it("a period inside the portfolio's life starts from the close of its start session", () => {
    // `to` 2026-05-22 keeps the rows to that day; a `from` of 05-22 adds `range`: from the close of 05-21.
    const r = performanceOf({
      entries: entries(trade("buy", "HUBC", 100, 210, "2026-05-21")),
      closes,
      index: undefined,
      today: "2026-05-25",
      from: "2026-05-22",
      days: "daily"
    })
    if ("_tag" in r) throw new Error(r._tag)
    const range = period(r, "range")
    assert.deepStrictEqual([range.from, range.to, range.from_inception, range.twr], [
      "2026-05-21",
      "2026-05-25",
      false,
      six(21950 / 21599 - 1)
    ])
    assert.deepStrictEqual(r.days?.map((d) => d.date), ["2026-05-22", "2026-05-25"])
  })

  it("a holding with no recorded close makes the value and the return unknown, not zero", () => {
    const r = run(entries(trade("buy", "OGDC", 10, 300, "2026-05-21")))
    const p = period(r, "since_inception")
    assert.isUndefined(p.twr)
    assert.notProperty(p, "value_end")
    assert.notProperty(r.days[0]!, "value")
    assert.deepStrictEqual(r.days[0]!.flags, ["no_close:OGDC"])
  })

  it("a month back from the 31st is the previous month's last day", () => {
    assert.deepStrictEqual(
      [
        periodStart("1M", "2026-03-31"),
        periodStart("3M", "2026-05-31"),
        periodStart("1Y", "2024-02-29"),
        periodStart("YTD", "2026-05-25")
      ],
      ["2026-02-28", "2026-02-28", "2023-02-28", "2025-12-31"]
    )
  })
})

describe("XIRR (actual/365)", () => {
  it("two flows: the rate is (out / in)^(365 / days) − 1", () => {
    // Rs 20,895 in on 2025-05-26, Rs 33,005 back on 2026-05-25 (364 days): (33005 / 20895)^(365/364) − 1 = 0.581550…
    const r = xirr([{ date: "2025-05-26", amount: -20895 }, { date: "2026-05-25", amount: 33005 }])!
    assert.closeTo(r, Math.pow(33005 / 20895, 365 / 364) - 1, 1e-12)
    assert.strictEqual(six(r), 0.58155)
  })

  it("three flows: the rate zeroes their present value", () => {
    const flows = [{ date: "2025-01-01", amount: -1000 }, { date: "2025-07-02", amount: -500 }, {
      date: "2026-01-01",
      amount: 1700
    }]
    const r = xirr(flows)!
    const npv = -1000 - 500 / Math.pow(1 + r, 182 / 365) + 1700 / Math.pow(1 + r, 365 / 365)
    assert.closeTo(npv, 0, 1e-8)
  })

  it("absent without money both ways, or within one day", () => {
    assert.isUndefined(xirr([{ date: "2025-01-01", amount: -1000 }]))
    assert.isUndefined(xirr([{ date: "2025-01-01", amount: -1000 }, { date: "2025-01-01", amount: 1200 }]))
    assert.isUndefined(xirr([]))
  })

  it("a loss of nearly everything and a gain far above 100% a year both converge", () => {
    assert.closeTo(xirr([{ date: "2025-01-01", amount: -1000 }, { date: "2026-01-01", amount: 1 }])!, -0.999, 1e-9)
    assert.closeTo(
      xirr([{ date: "2025-01-01", amount: -1000 }, { date: "2025-01-31", amount: 2000 }])!,
      Math.pow(2, 365 / 30) - 1,
      1e-3
    )
  })
})
