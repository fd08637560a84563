/**
 * Time-weighted returns against hand computation on recorded closes
 * (HUBC and MEBL from the eod recording, 2026-05-19 to 2026-05-25; vendored
 * under test/fixtures/ledger with their PROVENANCE).
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { settlementDate } from "../domain/market/Calendar.ts"
import type { Entry } from "../domain/ledger/Decider.ts"
import type { PortfolioEvent } from "../domain/ledger/Events.ts"
import { periodReturns, twr } from "../domain/ledger/Returns.ts"
import { parsePriceCsv } from "../domain/psx/PriceCsv.ts"

const closesOf = (symbol: string) =>
  parsePriceCsv(readFileSync(new URL(`./fixtures/ledger/${symbol}.csv`, import.meta.url), "utf8"))
    .rows.filter((r) => r.date >= "2026-05-01").map((r) => ({ date: r.date, close: r.close }))
const closes = new Map([["HUBC", closesOf("HUBC")], ["MEBL", closesOf("MEBL")]])

const trade = (side: "buy" | "sell", symbol: string, quantity: number, price: number, trade_date: string, fees = 0): PortfolioEvent => ({
  type: "TradeRecorded", side, symbol, quantity, price, fees, trade_date, settlement_date: settlementDate(trade_date), flags: []
})
const entries = (...events: ReadonlyArray<PortfolioEvent>): ReadonlyArray<Entry> =>
  events.map((event, i) => ({ event_id: `e${i}`, version: i + 1, effective_date: "trade_date" in event ? event.trade_date : "", event }))

describe("time-weighted return", () => {
  it("one buy held: the return is the last close over the cost, whatever the closes between", () => {
    // 100 HUBC bought at 210 on 2026-05-21; close 219.50 on 2026-05-25: 21,950 / 21,000 − 1 = 4.5238%.
    const r = twr(entries(trade("buy", "HUBC", 100, 210, "2026-05-21")), closes, "2026-05-20", "2026-05-25")
    assert.strictEqual(r, 4.5238)
  })

  it("a second purchase is a flow, not a gain: each day's return is chain-linked", () => {
    // Day 21: 100 × 215.99 / 21,000 − 1; day 22: (100 + 50 MEBL) flows at the start of the day at cost;
    // day 25: value ratio. Hand computation below with the recorded closes.
    const e = entries(trade("buy", "HUBC", 100, 210, "2026-05-21"), trade("buy", "MEBL", 50, 480, "2026-05-22"))
    const d21 = (100 * 215.99) / 21000
    const d22 = (100 * 215.42 + 50 * 479.56) / (100 * 215.99 + 50 * 480)
    const d25 = (100 * 219.5 + 50 * 490.2) / (100 * 215.42 + 50 * 479.56)
    assert.strictEqual(twr(e, closes, "2026-05-20", "2026-05-25"), Math.round((d21 * d22 * d25 - 1) * 1_000_000) / 10_000)
  })

  it("dividends received count as return", () => {
    const e = entries(
      trade("buy", "HUBC", 100, 210, "2026-05-21"),
      { type: "DividendRecorded", symbol: "HUBC", trade_date: "2026-05-25", gross_amount: 500, tax_withheld: 75, net_amount: 425 }
    )
    assert.strictEqual(twr(e, closes, "2026-05-20", "2026-05-25"), Math.round(((21950 + 425) / 21000 - 1) * 1_000_000) / 10_000)
  })

  it("standard periods end at the newest close; a portfolio younger than the period says so", () => {
    const p = periodReturns(entries(trade("buy", "HUBC", 100, 210, "2026-05-21")), closes, "2026-05-25")
    const oneMonth = p.find((x) => x.period === "1M")!
    assert.isFalse(oneMonth.covers_whole_period)
    assert.strictEqual(oneMonth.return_pct, 4.5238)
    assert.strictEqual(p.find((x) => x.period === "since_inception")!.from, "2026-05-20")
  })

  it("a holding with no recorded close makes the return unknown, not zero", () => {
    assert.isUndefined(twr(entries(trade("buy", "OGDC", 10, 300, "2026-05-21")), closes, "2026-05-20", "2026-05-25"))
  })
})
