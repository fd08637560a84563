/**
 * How long a cached answer stays true (src/market/readmodel/AnswerValidity.ts):
 * the next phase boundary of the trading day (PSX-FACTS timetable: Monday to
 * Thursday pre-open 09:15–09:30, order matching 09:30–09:32, trading
 * 09:32–15:30, post-close 16:00–16:15; Friday two sessions), and a quote's
 * answers until it turns stale or the next boundary. Instants are Karachi
 * wall-clock times, UTC+5: 11:00 PKT is 06:00Z.
 */
import { assert, describe, it } from "@effect/vitest"
import { lastCompletedSession, quoteIsFresh } from "../../domain/market/calendar/Calendar.ts"
import type { SymbolData } from "../../domain/market/snapshot/Snapshot.ts"
import { nextSessionBoundary, quoteValidUntil } from "../../src/market/readmodel/AnswerValidity.ts"

const at = (iso: string) => Date.parse(iso)
const withQuote = (asOf: string) => ({ quote: { as_of: asOf } }) as unknown as SymbolData

describe("answer validity", () => {
  it("the next boundary is the next phase start or end of the Karachi trading day, else the next Karachi midnight", () => {
    // Monday 15 June 2026 (a trading day; 2026-06-15 is 165 days after Thursday 1 January, 165 mod 7 = 4).
    assert.strictEqual(
      nextSessionBoundary(at("2026-06-15T03:00:00Z")),
      at("2026-06-15T04:15:00Z"),
      "08:00 → pre-open 09:15"
    )
    assert.strictEqual(
      nextSessionBoundary(at("2026-06-15T04:30:30Z")),
      at("2026-06-15T04:32:00Z"),
      "09:30:30 → trading 09:32"
    )
    assert.strictEqual(
      nextSessionBoundary(at("2026-06-15T06:00:00Z")),
      at("2026-06-15T10:30:00Z"),
      "11:00 → trading ends 15:30"
    )
    assert.strictEqual(
      nextSessionBoundary(at("2026-06-15T10:45:00Z")),
      at("2026-06-15T11:00:00Z"),
      "15:45 → post-close 16:00"
    )
    assert.strictEqual(
      nextSessionBoundary(at("2026-06-15T11:20:00Z")),
      at("2026-06-15T19:00:00Z"),
      "16:20 → midnight, 19:00Z"
    )
    // Friday 19 June: between the sessions (12:00–14:15) the next boundary is the second pre-open.
    assert.strictEqual(
      nextSessionBoundary(at("2026-06-19T07:30:00Z")),
      at("2026-06-19T09:15:00Z"),
      "Friday 12:30 → 14:15"
    )
    // Saturday 20 June: no phase, the next Karachi midnight.
    assert.strictEqual(nextSessionBoundary(at("2026-06-20T05:00:00Z")), at("2026-06-20T19:00:00Z"))
  })

  it("what a DATA_STALE answer says (the last completed session) changes only at a boundary", () => {
    // At 11:00 on Monday the last completed session is Friday 12 June; at the close, 15:30, it is Monday.
    const boundary = nextSessionBoundary(at("2026-06-15T06:00:00Z"))
    assert.strictEqual(lastCompletedSession(at("2026-06-15T06:00:00Z")), "2026-06-12")
    assert.strictEqual(lastCompletedSession(boundary - 1), "2026-06-12")
    assert.strictEqual(lastCompletedSession(boundary), "2026-06-15")
  })

  it("a stale quote's answers stay until the next boundary; a fresh one's until it turns stale, within that", () => {
    const now = at("2026-06-15T06:00:00Z")
    // A quote of 25 May is stale on 15 June (the last session opened today): true until trading ends at 15:30.
    assert.isFalse(quoteIsFresh(at("2026-05-25T10:30:00Z"), now))
    assert.strictEqual(quoteValidUntil(withQuote("2026-05-25T10:30:00Z"), now), at("2026-06-15T10:30:00Z"))
    // As of 10:50 during trading (a 30-minute delay allowed, by the minute): fresh to 11:20:59, stale from 11:21:00
    // (cutoff 11:21 − 30 min = 10:51 > 10:50), to the millisecond.
    assert.strictEqual(quoteValidUntil(withQuote("2026-06-15T05:50:00Z"), now), at("2026-06-15T06:21:00Z"))
    // As of 10:50:30.5: the cutoff passes it at the minute 10:50:30.5 + 30 min rounds down to, plus one: 11:21:00.
    assert.strictEqual(quoteValidUntil(withQuote("2026-06-15T05:50:30.500Z"), now), at("2026-06-15T06:21:00Z"))
    assert.isTrue(quoteIsFresh(at("2026-06-15T05:50:30.500Z"), at("2026-06-15T06:20:59.999Z")))
    assert.isFalse(quoteIsFresh(at("2026-06-15T05:50:30.500Z"), at("2026-06-15T06:21:00Z")))
    assert.isTrue(quoteIsFresh(at("2026-06-15T05:50:00Z"), at("2026-06-15T06:20:59.999Z")))
    assert.isFalse(quoteIsFresh(at("2026-06-15T05:50:00Z"), at("2026-06-15T06:21:00Z")))
    // As of 15:10 at 15:20: still fresh when trading ends at 15:30, where the rule changes: true until 15:30.
    assert.strictEqual(
      quoteValidUntil(withQuote("2026-06-15T10:10:00Z"), at("2026-06-15T10:20:00Z")),
      at("2026-06-15T10:30:00Z")
    )
    // No quote: the answer (404) depends on the snapshot alone.
    assert.strictEqual(quoteValidUntil(undefined, now), Infinity)
  })
})
