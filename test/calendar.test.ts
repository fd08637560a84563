/**
 * Calendar rules from PSX notices (docs/PSX-FACTS.md), the closures derived from
 * the recorded prices, and entitlement to payouts. Every instant is explicit.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { DAY_MS, fromDay, toDay } from "../domain/Karachi.ts"
import { entitlement, openPayouts } from "../domain/market/board/DividendCalendar.ts"
import {
  circuitBounds,
  currentMarketStatus,
  holidays2026,
  isTradingDay,
  lastBuyDate,
  lastCompletedSession,
  marketStatus,
  marketStatusRecord,
  quoteIsFresh,
  settlementDate,
  settlementDays,
  tradingDayStatus
} from "../domain/market/calendar/Calendar.ts"
import { deriveClosures } from "../domain/market/calendar/DeriveCalendar.ts"
import { recordedCalendar } from "../domain/market/calendar/RecordedCalendar.ts"
import { MarketStatus } from "../domain/market/calendar/StatusSchema.ts"
import { weekday } from "../domain/market/calendar/TradingDays.ts"
import type { PayoutRecord } from "../domain/market/filings/Dividends.ts"
import { parsePriceCsv } from "../domain/psx/PriceCsv.ts"

const at = (iso: string) => Date.parse(iso)
/** Karachi wall-clock time to an instant (UTC+5). */
const pkt = (date: string, time: string) => at(`${date}T${time}:00+05:00`)
const statusAt = (ms: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(ms)
    return yield* currentMarketStatus
  })

describe("market status from the Clock (Asia/Karachi)", () => {
  it.effect("a Monday at 09:00: closed before the pre-open, today's session next", () =>
    Effect.gen(function*() {
      const s = yield* statusAt(pkt("2026-11-23", "09:00"))
      assert.deepStrictEqual([s.weekday, s.state, s.phase, s.is_trading_day, s.calendar], [
        "Monday",
        "closed",
        "before_open",
        true,
        "published"
      ])
      assert.deepStrictEqual(s.today_sessions, [{
        session: "regular",
        pre_open: { start: "09:15", end: "09:30" },
        order_matching: { start: "09:30", end: "09:32" },
        trading: { start: "09:32", end: "15:30" },
        post_close: { start: "16:00", end: "16:15" }
      }])
      assert.deepStrictEqual([s.next_session.date, s.next_session.pre_open.start], ["2026-11-23", "09:15"])
      assert.strictEqual(s.now, "2026-11-23T04:00:00.000Z")
      assert.isUndefined(s.closed_reason)
      Schema.decodeUnknownSync(MarketStatus)(Schema.encodeSync(MarketStatus)(s))
    }))

  it.effect("a Monday at 09:40: open in the regular session; the next session is Tuesday's", () =>
    Effect.gen(function*() {
      const s = yield* statusAt(pkt("2026-11-23", "09:40"))
      assert.deepStrictEqual([s.state, s.phase, s.session], ["open", "trading", "regular"])
      assert.deepStrictEqual([s.next_session.date, s.next_trading_day, s.settlement], [
        "2026-11-24",
        "2026-11-24",
        "T+1"
      ])
    }))

  it.effect("a Monday at 15:45: trading ended at 15:30, post-close not until 16:00", () =>
    Effect.gen(function*() {
      const s = yield* statusAt(pkt("2026-11-23", "15:45"))
      assert.deepStrictEqual([s.state, s.phase, s.session], ["closed", "after_trading", "regular"])
      const post = yield* statusAt(pkt("2026-11-23", "16:05"))
      assert.deepStrictEqual([post.state, post.phase], ["post-close", "post_close"])
      const matching = yield* statusAt(pkt("2026-11-23", "09:31"))
      assert.deepStrictEqual([matching.state, matching.phase], ["pre-open", "order_matching"])
    }))

  it.effect("a Friday at 12:30: between the two sessions; the second opens at 14:15", () =>
    Effect.gen(function*() {
      const s = yield* statusAt(pkt("2026-11-20", "12:30"))
      assert.deepStrictEqual([s.weekday, s.state, s.phase], ["Friday", "closed", "between_sessions"])
      assert.isUndefined(s.session)
      assert.deepStrictEqual(
        s.today_sessions.map((t) => [t.session, t.pre_open.start, t.trading.start, t.trading.end]),
        [
          ["first", "09:00", "09:17", "12:00"],
          ["second", "14:15", "14:32", "16:30"]
        ]
      )
      assert.deepStrictEqual([s.next_session.date, s.next_session.session, s.next_session.pre_open.start], [
        "2026-11-20",
        "second",
        "14:15"
      ])
      const second = yield* statusAt(pkt("2026-11-20", "15:00"))
      assert.deepStrictEqual([second.state, second.session], ["open", "second"])
      const first = yield* statusAt(pkt("2026-11-20", "09:05"))
      assert.deepStrictEqual([first.state, first.session], ["pre-open", "first"])
      const opening = yield* statusAt(pkt("2026-11-20", "09:16"))
      assert.deepStrictEqual(
        [opening.state, opening.phase],
        ["pre-open", "opening"],
        "unnamed minutes before Friday's trading"
      )
      const after = yield* statusAt(pkt("2026-11-20", "17:20"))
      assert.deepStrictEqual([after.state, after.phase, after.next_session.date], [
        "closed",
        "after_close",
        "2026-11-23"
      ])
    }))

  it.effect("a Saturday: closed for the weekend, Monday next", () =>
    Effect.gen(function*() {
      const s = yield* statusAt(pkt("2026-11-21", "11:00"))
      assert.deepStrictEqual(
        [s.state, s.phase, s.is_trading_day, s.closed_reason, s.next_trading_day, s.previous_trading_day],
        ["closed", "non_trading_day", false, "weekend", "2026-11-23", "2026-11-20"]
      )
      assert.deepStrictEqual(s.today_sessions, [])
      assert.deepStrictEqual([s.next_session.date, s.next_session.session], ["2026-11-23", "regular"])
    }))

  it.effect("14 Aug 2026: closed for Independence Day, Monday 17 Aug next", () =>
    Effect.gen(function*() {
      const s = yield* statusAt(pkt("2026-08-14", "10:00"))
      assert.deepStrictEqual(
        [s.state, s.is_trading_day, s.closed_reason, s.holiday, s.holiday_provisional, s.next_trading_day],
        ["closed", false, "holiday", "Independence Day", false, "2026-08-17"]
      )
    }))

  it.effect("9 Feb 2026: the first T+1 day; the previous trading day is Friday 6 Feb", () =>
    Effect.gen(function*() {
      const s = yield* statusAt(pkt("2026-02-09", "10:00"))
      assert.deepStrictEqual([s.state, s.settlement, s.previous_trading_day], ["open", "T+1", "2026-02-06"])
      const friday = yield* statusAt(pkt("2026-02-06", "10:00"))
      assert.strictEqual(friday.settlement, "T+2")
      const kashmirDay = yield* statusAt(pkt("2026-02-05", "10:00"))
      assert.deepStrictEqual([kashmirDay.holiday, kashmirDay.previous_trading_day], ["Kashmir Day", "2026-02-04"])
    }))

  it("marketStatus is the record without now and time_zone", () => {
    const ms = pkt("2026-11-19", "10:00")
    const { now: _now, time_zone: _tz, ...rest } = marketStatusRecord(ms)
    assert.deepStrictEqual(marketStatus(ms), rest)
  })
})

describe("trading days on published, recorded and unverified calendars", () => {
  it("2026 answers from the published list", () => {
    assert.deepStrictEqual(tradingDayStatus("2026-11-09"), {
      date: "2026-11-09",
      trading: false,
      calendar: "published",
      reason: "holiday",
      holiday: "Iqbal Day",
      holiday_provisional: false
    })
    assert.deepStrictEqual(tradingDayStatus("2026-11-20"), { date: "2026-11-20", trading: true, calendar: "published" })
    assert.isFalse(isTradingDay("2026-11-21"), "Saturday")
  })

  it("a past holiday the recordings show: Thursday 14 Aug 2025, Independence Day, is not a trading day", () => {
    assert.deepStrictEqual(tradingDayStatus("2025-08-14"), {
      date: "2025-08-14",
      trading: false,
      calendar: "recorded",
      reason: "holiday",
      holiday: "Independence Day",
      note: "No trade recorded in any symbol; named by its fixed date"
    })
    assert.isFalse(isTradingDay("2025-08-14"))
    assert.isTrue(isTradingDay("2025-08-13"))
    assert.strictEqual(tradingDayStatus("2025-08-13").calendar, "recorded")
  })

  it("a recorded closure off the fixed-date holidays stays unnamed (Eid-ul-Fitr 2025, 31 Mar – 2 Apr)", () => {
    for (const d of ["2025-03-31", "2025-04-01", "2025-04-02"]) {
      const s = tradingDayStatus(d)
      assert.deepStrictEqual([s.trading, s.calendar, s.reason, s.holiday], [false, "recorded", "closure", undefined], d)
    }
    assert.deepStrictEqual([tradingDayStatus("2008-12-25").holiday, tradingDayStatus("2019-02-05").holiday], [
      "Quaid Day",
      "Kashmir Day"
    ])
  })

  it("a date outside every calendar is unverified: 2031 weekdays are assumed open, and say so", () => {
    const s = tradingDayStatus("2031-08-14")
    assert.deepStrictEqual([s.trading, s.calendar], [true, "unverified"])
    assert.deepStrictEqual([tradingDayStatus("2031-08-16").trading, tradingDayStatus("2031-08-16").reason], [
      false,
      "weekend"
    ])
    assert.strictEqual(tradingDayStatus("2003-12-31").calendar, "unverified")
    assert.isFalse(marketStatus(pkt("2031-08-14", "10:00")).holidays_known)
  })

  it("the derived closures agree with the published 2026 list where they overlap", () => {
    const derived = recordedCalendar.closures.filter((d) => d >= "2026-01-01")
    const published = holidays2026.map((h) => h.date).filter((d) =>
      d <= recordedCalendar.last && !["0", "6"].includes(String(new Date(d).getUTCDay()))
    )
    assert.deepStrictEqual(derived, published)
    assert.deepStrictEqual([recordedCalendar.first, recordedCalendar.last], ["2004-01-01", "2026-05-25"])
  })

  it("deriving from recorded eod rows (August 2025, three symbols) finds 14 Aug as the only closure", () => {
    const dir = join(import.meta.dirname, "fixtures/market/eod_2025-08")
    const traded = new Set<string>()
    for (const f of readdirSync(dir)) {
      for (const r of parsePriceCsv(readFileSync(join(dir, f), "utf8")).rows) {
        if ((r.volume ?? 0) > 0) traded.add(r.date)
      }
    }
    assert.deepStrictEqual(deriveClosures(traded), {
      first: "2025-08-01",
      last: "2025-08-29",
      closures: ["2025-08-14"],
      weekend_sessions: []
    })
  })
})

describe("calendar-day arithmetic", () => {
  it("toDay and fromDay agree with Date's UTC calendar on every day from 1600 to 2400, and take what Date takes", () => {
    const viaDate = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)
    for (let day = toDay("1600-01-01"); day <= toDay("2400-12-31"); day++) {
      const date = viaDate(day)
      if (fromDay(day) !== date || toDay(date) !== day) {
        assert.fail(`${day}: ${fromDay(day)} / ${toDay(date)}, Date says ${date}`)
      }
    }
    // A day past the month's end rolls over as Date.parse does; a month or day out of range, or another shape, is NaN.
    assert.strictEqual(fromDay(toDay("2026-02-30")), "2026-03-02")
    for (const bad of ["2026-13-01", "2026-00-10", "2026-01-32", "2026-1-01", "abcd-ef-gh", "+02026-01-01"]) {
      assert.isNaN(toDay(bad), bad)
    }
    assert.strictEqual(fromDay(toDay("2026-05")), "2026-05-01")
    assert.strictEqual(weekday("2026-05-22"), 5)
    assert.strictEqual(weekday("1970-01-01"), 4)
    assert.strictEqual(weekday("1969-12-28"), 0)
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

  it("last buy dates for book closures starting 9, 10 and 11 Feb 2026", () => {
    // 9 Feb: Wed 4 Feb (T+2) settles Mon 9 Feb, too late; Tue 3 Feb settles Fri 6 Feb (Kashmir Day skipped).
    assert.strictEqual(lastBuyDate("2026-02-09"), "2026-02-03")
    // 10 Feb: Fri 6 Feb and Mon 9 Feb both settle on 10 Feb; Wed 4 Feb settles Mon 9 Feb.
    assert.strictEqual(lastBuyDate("2026-02-10"), "2026-02-04")
    // 11 Feb: Mon 9 Feb (T+1) settles Tue 10 Feb.
    assert.strictEqual(lastBuyDate("2026-02-11"), "2026-02-09")
  })

  it("recorded closures: MEBL 80% (ii) 19 Aug 2026 (T+1) and MEBL 70% (F) 24 Mar 2025 (T+2)", () => {
    assert.strictEqual(lastBuyDate("2026-08-19"), "2026-08-17")
    assert.strictEqual(lastBuyDate("2025-03-24"), "2025-03-19")
    // The recorded closures of 28 Mar and 31 Mar – 2 Apr 2025 are skipped: for a closure from Thu 3 Apr,
    // Wed 26 Mar (T+2) would settle on 3 Apr itself; Tue 25 Mar settles Thu 27 Mar.
    assert.strictEqual(lastBuyDate("2025-04-03"), "2025-03-25")
  })

  it("buying today earns the payout only on a trading day before the close, on or before the last buy date", () => {
    const before = entitlement("2026-08-19", pkt("2026-08-17", "10:00"))!
    assert.deepStrictEqual(
      [before.last_buy_date, before.settlement_cycle, before.settles_on, before.buying_today_earns, before.calendar],
      ["2026-08-17", "T+1", "2026-08-18", true, "published"]
    )
    const afterClose = entitlement("2026-08-19", pkt("2026-08-17", "15:45"))!
    assert.deepStrictEqual([
      afterClose.buying_today_earns,
      afterClose.next_trade_date,
      afterClose.buying_next_session_earns
    ], [false, "2026-08-18", false])
    const weekend = entitlement("2026-08-19", pkt("2026-08-15", "10:00"))!
    assert.deepStrictEqual([weekend.buying_today_earns, weekend.next_trade_date, weekend.buying_next_session_earns], [
      false,
      "2026-08-17",
      true
    ])
    assert.strictEqual(entitlement("2031-03-12", pkt("2031-03-03", "10:00"))?.calendar, "unverified")
  })

  it("open payouts from the recorded payouts: on 12 Aug 2026 MEBL 80% (ii) and LUCK 250% (F)", () => {
    const Payouts = Schema.Array(Schema.Struct({
      symbol: Schema.String,
      details: Schema.String,
      parts: Schema.Array(
        Schema.Struct({ kind: Schema.Literals(["cash", "bonus", "right"]), percent: Schema.optionalKey(Schema.Finite) })
      ),
      announcedAt: Schema.optionalKey(Schema.String),
      bookClosureFrom: Schema.optionalKey(Schema.String),
      bookClosureTo: Schema.optionalKey(Schema.String)
    }))
    const raw = Schema.decodeUnknownSync(Payouts)(
      JSON.parse(readFileSync(join(import.meta.dirname, "../data/pack/payouts.json"), "utf8"))
    )
    const records: Array<PayoutRecord> = raw.map((p) => ({
      symbol: p.symbol,
      details: p.details,
      kind: p.parts[0]!.kind,
      ...(p.parts[0]!.percent !== undefined ? { percent: p.parts[0]!.percent } : {}),
      ...(p.announcedAt !== undefined ? { announcedAt: p.announcedAt } : {}),
      ...(p.bookClosureFrom !== undefined ? { bookClosureFrom: p.bookClosureFrom } : {}),
      ...(p.bookClosureTo !== undefined ? { bookClosureTo: p.bookClosureTo } : {})
    }))
    const open = openPayouts(records, pkt("2026-08-12", "12:00"))
    assert.deepStrictEqual(open.map((p) => [p.symbol, p.book_closure_from, p.last_buy_date, p.buying_today_earns]), [
      ["LUCK", "2026-08-18", "2026-08-13", true],
      ["MEBL", "2026-08-19", "2026-08-17", true]
    ])
    // SPEC 2.3: ex_date is the closure's first day; the XD day (after the last buy date) is xd_date. MEBL's recorded
    // closure starts Wed 19 Aug 2026: last buy Mon 17 Aug (T+1 settles Tue 18 Aug), XD Tue 18 Aug. LUCK's closure
    // starts Tue 18 Aug: last buy Thu 13 Aug (Fri 14 Aug is Independence Day), XD Mon 17 Aug.
    assert.deepStrictEqual(open.map((p) => [p.symbol, p.ex_date, p.last_buy_date, p.xd_date]), [
      ["LUCK", "2026-08-18", "2026-08-13", "2026-08-17"],
      ["MEBL", "2026-08-19", "2026-08-17", "2026-08-18"]
    ])
    assert.deepStrictEqual(openPayouts(records, pkt("2026-11-22", "12:00")), [])
  })
})

describe("price limits", () => {
  it("±10% or Rs 1 since 22 Jul 2024; the 2024 step-up by its notice; 7.5% from 16 Mar 2020 (by the recorded closes); nothing before 7 Dec 2017", () => {
    assert.deepStrictEqual(circuitBounds(343.72, "2026-01-28")?.lower, 309.35)
    const five = circuitBounds(5, "2026-01-28")!
    assert.deepStrictEqual([five.lower, five.upper, five.session], [4, 6, "2026-01-28"])
    assert.match(five.rule, /^±10% of previous close or Rs 1, whichever is higher \(from 2024-07-22, effective/)
    assert.strictEqual(circuitBounds(100, "2024-06-10")?.upper, 108.5)
    assert.strictEqual(circuitBounds(100, "2024-07-19")?.upper, 109.5)
    assert.strictEqual(circuitBounds(100, "2023-06-01")?.upper, 107.5)
    assert.strictEqual(circuitBounds(100, "2020-03-13")?.upper, 107)
    assert.strictEqual(circuitBounds(100, "2020-03-16")?.upper, 107.5)
    assert.strictEqual(circuitBounds(100, "2018-06-01")?.upper, 105)
    assert.isUndefined(circuitBounds(100, "2017-12-06"), "no sourced rule: not extended back")
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
    assert.strictEqual(
      lastCompletedSession(pkt("2025-08-15", "10:00")),
      "2025-08-13",
      "the day after the recorded Independence Day closure"
    )
  })

  it("during trading a delayed quote may lag 30 minutes; after the close it must be from the last session", () => {
    assert.isTrue(quoteIsFresh(at("2026-11-19T04:50:00Z"), at("2026-11-19T05:00:00Z")))
    assert.isFalse(quoteIsFresh(at("2026-11-19T04:00:00Z"), at("2026-11-19T05:00:00Z")))
    assert.isTrue(
      quoteIsFresh(at("2026-11-20T11:00:00Z"), at("2026-11-21T06:00:00Z")),
      "Friday close, read on Saturday"
    )
    assert.isFalse(quoteIsFresh(at("2026-05-25T11:00:00Z"), at("2026-11-21T06:00:00Z")))
  })
})
