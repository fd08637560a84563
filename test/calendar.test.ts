/** Calendar rules from PSX notices (../shared/PSX-FACTS.md). */
import { assert, describe, it } from "@effect/vitest"
import {
  circuitBounds,
  isTradingDay,
  lastBuyDate,
  lastCompletedSession,
  marketStatus,
  quoteIsFresh,
  settlementDate,
  settlementDays
} from "../domain/market/Calendar.ts"

const at = (iso: string) => Date.parse(iso)

describe("trading days and sessions", () => {
  it("weekends and the 2026 holidays are closed", () => {
    assert.isFalse(isTradingDay("2026-11-21"), "Saturday")
    assert.isFalse(isTradingDay("2026-11-09"), "Iqbal Day")
    assert.isFalse(isTradingDay("2026-02-05"), "Kashmir Day")
    assert.isTrue(isTradingDay("2026-11-20"))
  })
  it("session states in Karachi time, with Friday's two sessions", () => {
    assert.strictEqual(marketStatus(at("2026-11-19T05:00:00Z")).state, "open", "10:00 PKT Thursday")
    assert.strictEqual(marketStatus(at("2026-11-19T04:20:00Z")).state, "pre_open", "09:20 PKT")
    assert.strictEqual(marketStatus(at("2026-11-19T11:00:00Z")).state, "post_close", "16:00 PKT")
    assert.strictEqual(marketStatus(at("2026-11-19T11:30:00Z")).state, "closed", "16:30 PKT")
    assert.strictEqual(marketStatus(at("2026-11-20T08:00:00Z")).state, "break", "13:00 PKT Friday")
    assert.strictEqual(marketStatus(at("2026-11-20T10:00:00Z")).state, "open", "15:00 PKT Friday second session")
    const sat = marketStatus(at("2026-11-21T06:00:00Z"))
    assert.deepStrictEqual([sat.state, sat.is_trading_day, sat.next_trading_day, sat.previous_trading_day], ["closed", false, "2026-11-23", "2026-11-20"])
  })
})

describe("settlement and entitlement", () => {
  it("T+2 until 6 Feb 2026, T+1 from 9 Feb 2026; both settle on 10 Feb", () => {
    assert.strictEqual(settlementDays("2026-02-06"), 2)
    assert.strictEqual(settlementDays("2026-02-09"), 1)
    assert.strictEqual(settlementDate("2026-02-06"), "2026-02-10")
    assert.strictEqual(settlementDate("2026-02-09"), "2026-02-10")
    assert.strictEqual(settlementDate("2026-02-04"), "2026-02-09", "skips Kashmir Day and the weekend")
  })
  it("the last buy date settles before the book closure starts", () => {
    // MEBL 80% (ii): book closure 19-20 Aug 2026 (recorded). T+1: buy by Mon 17 Aug, settles Tue 18 Aug.
    assert.strictEqual(lastBuyDate("2026-08-19"), "2026-08-17")
    // MEBL 70% (F) 2024: book closure 24 Mar 2025 (Monday), T+2: buy by Wed 19 Mar, settles Fri 21 Mar.
    assert.strictEqual(lastBuyDate("2025-03-24"), "2025-03-19")
  })
})

describe("price limits", () => {
  it("±10% or Rs 1 since 22 Jul 2024; unknown during the 2024 step-up", () => {
    assert.deepStrictEqual(circuitBounds(343.72, "2026-01-28")?.lower, 309.35)
    assert.deepStrictEqual(circuitBounds(5, "2026-01-28"), { lower: 4, upper: 6, rule: "±10% of previous close or Rs 1, whichever is higher" })
    assert.isUndefined(circuitBounds(100, "2024-06-10"))
    assert.strictEqual(circuitBounds(100, "2023-06-01")?.upper, 107.5)
  })
  it("the HBL page's own circuit breaker (308.52–377.08 on 27 Jan 2026) is ±10% of the previous close 342.80", () => {
    const b = circuitBounds(342.8, "2026-01-27")!
    assert.deepStrictEqual([b.lower, b.upper], [308.52, 377.08])
  })
})

describe("quote freshness", () => {
  it("the last completed session: today after the close, else the previous trading day", () => {
    assert.strictEqual(lastCompletedSession(at("2026-11-19T11:00:00Z")), "2026-11-19", "16:00 PKT Thursday")
    assert.strictEqual(lastCompletedSession(at("2026-11-19T05:00:00Z")), "2026-11-18", "10:00 PKT Thursday")
    assert.strictEqual(lastCompletedSession(at("2026-11-21T06:00:00Z")), "2026-11-20", "Saturday")
  })

  it("during trading a delayed quote may lag 30 minutes; after the close it must be from the last session", () => {
    assert.isTrue(quoteIsFresh(at("2026-11-19T04:50:00Z"), at("2026-11-19T05:00:00Z")))
    assert.isFalse(quoteIsFresh(at("2026-11-19T04:00:00Z"), at("2026-11-19T05:00:00Z")))
    assert.isTrue(quoteIsFresh(at("2026-11-20T11:00:00Z"), at("2026-11-21T06:00:00Z")), "Friday close, read on Saturday")
    assert.isFalse(quoteIsFresh(at("2026-05-25T11:00:00Z"), at("2026-11-21T06:00:00Z")))
  })
})
