/**
 * The ledger's write path without a database: Portfolio.record and LedgerWriter over an event store in
 * memory (support/MemoryEventStore.ts) and market services mocked with `Layer.mock`, whose members a
 * test does not provide die when called. Each test says given (the stream), when (the command), then
 * (the answer, what was appended, and what was never asked for).
 *
 * Figures are real: HUBC's recorded close of 215.42 on Friday 2026-05-22 (eod recording) gives the
 * circuit-breaker bounds 193.88–236.96 for Monday 2026-05-25; settlement is T+1 since 9 Feb 2026.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Ref } from "effect"
import { HttpServerRequest } from "effect/http"
import { TestClock } from "effect/testing"
import { WriteConflict } from "../../domain/Errors.ts"
import type { Command } from "../../domain/ledger/Decider.ts"
import type { Principal } from "../../domain/ledger/Grants.ts"
import type { Position } from "../../domain/ledger/Replay.ts"
import type { Ticker } from "../../domain/market/shared/Ticker.ts"
import { beginCommit, deadlinePasses } from "../../src/http/WriteDeadline.ts"
import { MarketFacts } from "../../src/ledger/portfolio/MarketFacts.ts"
import { Portfolio } from "../../src/ledger/portfolio/Portfolio.ts"
import { LedgerWriter } from "../../src/ledger/portfolio/Writer.ts"
import { Filings } from "../../src/market/filings/Filings.ts"
import { Quotes } from "../../src/market/quotes/Quotes.ts"
import { Cursors } from "../../src/paging/Cursors.ts"
import { emptyStream, memoryEventStore, type MemoryOptions, type MemoryStream } from "../support/MemoryEventStore.ts"

const owner: Principal = { userId: "u1", keyId: "s1", kind: "session", grants: [] }
const writeOnly: Principal = { userId: "u1", keyId: "k1", kind: "key", grants: ["portfolio:write"] }
const buy: Command = { kind: "buy", symbol: "HUBC", quantity: 100, price: 215.42, trade_date: "2026-05-25" }

/** The market as the ledger asks it: HUBC listed, its 2026-05-25 bounds known, no quote (holdings carry no market fields). */
const market = Layer.mergeAll(
  Layer.mock(MarketFacts, {
    trade: (_symbol: string, date: string) =>
      Effect.succeed(
        date === "2026-05-25" ? { circuit: { lower: 193.88, upper: 236.96, previous_date: "2026-05-22" } } : {}
      )
  }),
  Layer.mock(Filings, { requireListed: (symbol: string) => Effect.succeed(symbol as Ticker) }),
  Layer.mock(Quotes, { latest: () => Effect.succeed(undefined) }),
  Layer.succeed(Cursors, Cursors.make("ledger-write test"))
)

/**
 * Portfolio.record over `given` (a stream in memory), with the store members `options` allow; returns the
 * stream after. The service's clock is set to 2026-06-15 (so "today" is the same in any year).
 */
const recording = <A, E>(
  given: MemoryStream,
  options: MemoryOptions,
  use: (p: typeof Portfolio.Service) => Effect.Effect<A, E>
) => Effect.andThen(TestClock.setTime(Date.parse("2026-06-15T06:00:00.000Z")), recordingNow(given, options, use))

/** `recording` on the clock in scope (a test on the live clock: a retry's backoff sleeps really pass). */
const recordingNow = <A, E>(
  given: MemoryStream,
  options: MemoryOptions,
  use: (p: typeof Portfolio.Service) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const stream = yield* Ref.make(given)
    const layer = Portfolio.layer.pipe(
      Layer.provide(LedgerWriter.layer),
      Layer.provide(Layer.merge(memoryEventStore(stream, options), market))
    )
    const exit = yield* Effect.exit(
      Effect.gen(function*() {
        return yield* use(yield* Portfolio)
      }).pipe(Effect.provide(layer))
    )
    return { exit, after: yield* Ref.get(stream) }
  })

const hubc = (quantity: number, cost: number): Position => ({
  symbol: "HUBC",
  quantity,
  cost,
  realized_pnl: 0,
  dividends_gross: 0,
  dividends_net: 0,
  tax_withheld: 0,
  fractional_entitlements: 0
})

/** A stream holding HUBC buys, given by appending them through the same path. */
const withBuys = (...buys: ReadonlyArray<Command>) =>
  Effect.map(
    recording(emptyStream, { allow: ["head", "readStream", "append"] }, (p) =>
      Effect.forEach(buys, (b) =>
        p.record(owner, b, {}))),
    ({ after }) => ({ ...after, appends: [] })
  )
const withOneBuy = withBuys({ ...buy, trade_date: "2026-05-22" })

describe("ledger write path without a database", () => {
  it.effect("the repository keeps the folded state: a second write reads the head only, never the history again", () =>
    Effect.gen(function*() {
      let reads = 0
      const counted: MemoryOptions = { allow: ["head", "readStream", "append"], onRead: () => reads++ }
      const { exit, after } = yield* recording(
        emptyStream,
        counted,
        (p) =>
          Effect.andThen(
            p.record(owner, { ...buy, trade_date: "2026-05-22", quantity: 1 }, {}),
            p.record(owner, buy, {})
          )
      )
      assert.strictEqual(reads, 1, "the stream is read once, to fold it; the second write catches up from the snapshot")
      assert.isTrue(Exit.isSuccess(exit), String(exit))
      if (!Exit.isSuccess(exit)) return
      const answer = exit.value
      assert.deepInclude(answer.event.payload as object, {
        type: "TradeRecorded",
        side: "buy",
        settlement_date: "2026-05-26",
        flags: []
      })
      // 1 bought at 215.42, then 100 at 215.42: 101 shares costing 21,757.42, on average 215.42.
      assert.deepStrictEqual(answer.holding, {
        symbol: "HUBC",
        quantity: 101,
        average_cost: 215.42,
        cost: 21757.42,
        realized_pnl: 0,
        dividends_gross: 0,
        dividends_net: 0,
        tax_withheld: 0,
        fractional_entitlements: 0
      })
      assert.isFalse(answer.replayed)
      assert.deepStrictEqual(after.positions, [hubc(101, 21757.42)])
      assert.deepStrictEqual(
        after.appends.map((a) => a.options?.replaceAll),
        [false, false],
        "only the touched symbol's position is written"
      )
    }))

  it.effect("a price outside the day's circuit breaker is recorded with a flag", () =>
    Effect.gen(function*() {
      const { exit } = yield* recording(emptyStream, { allow: ["head", "readStream", "append"] }, (p) =>
        p.record(owner, { ...buy, price: 300 }, {}))
      assert.isTrue(Exit.isSuccess(exit), String(exit))
      if (Exit.isSuccess(exit)) {
        assert.deepStrictEqual(exit.value.flags, [
          "price 300 is outside 2026-05-25's circuit-breaker bounds 193.88–236.96"
        ])
      }
    }))

  it.effect("a backdated sell is decided from the history, and its symbol's position is rewritten", () =>
    Effect.gen(function*() {
      const given = yield* withBuys({ ...buy, trade_date: "2026-05-22" }, { ...buy, quantity: 40, price: 219.5 })
      const sell: Command = { kind: "sell", symbol: "HUBC", quantity: 60, price: 216, trade_date: "2026-05-21" }
      const refused = yield* recording(given, { allow: ["head", "readStream"] }, (p) => p.record(owner, sell, {}))
      assert.isTrue(Exit.isFailure(refused.exit), "nothing was held on 2026-05-21")
      assert.deepStrictEqual(refused.after.appends, [], "a refusal appends nothing (append is not even implemented)")
      const later = { ...sell, trade_date: "2026-05-22" }
      const { exit, after } = yield* recording(
        given,
        { allow: ["head", "readStream", "append"] },
        (p) => p.record(owner, later, {})
      )
      assert.isTrue(Exit.isSuccess(exit), String(exit))
      assert.deepStrictEqual(after.appends.map((a) => a.options?.replaceAll), [false])
      // 100 bought at 215.42, 60 of them sold at 216 on 05-22 (34.80 realised), then 40 bought at 219.50 on 05-25.
      assert.deepStrictEqual(after.positions, [{ ...hubc(80, 40 * 215.42 + 40 * 219.5), realized_pnl: 34.8 }])
    }))

  it.effect("an oversell is refused without saying how many shares are held, and nothing is appended", () =>
    Effect.gen(function*() {
      const given = yield* withOneBuy
      const oversell: Command = { kind: "sell", symbol: "HUBC", quantity: 137, price: 216, trade_date: "2026-05-25" }
      const { exit, after } = yield* recording(
        given,
        { allow: ["head", "readStream"] },
        (p) => p.record(writeOnly, oversell, {})
      )
      assert.isTrue(Exit.isFailure(exit))
      const failure = Exit.isFailure(exit) ? String(exit.cause) : ""
      assert.include(failure, "InvalidRequest")
      assert.notMatch(failure, /\b100\b|-37|\b37\b/)
      assert.deepStrictEqual(after.appends, [])
    }))

  it.effect("an Idempotency-Key replay answers the original event only; the key with another body is 409", () =>
    Effect.gen(function*() {
      const allow: MemoryOptions["allow"] = ["head", "readStream", "append", "idempotencyClaim", "readEvent"]
      const first = yield* recording(emptyStream, { allow }, (p) => p.record(owner, buy, { idempotencyKey: "order-1" }))
      assert.isTrue(Exit.isSuccess(first.exit), String(first.exit))
      const again = yield* recording(first.after, { allow }, (p) => p.record(owner, buy, { idempotencyKey: "order-1" }))
      assert.isTrue(Exit.isSuccess(again.exit) && again.exit.value.replayed)
      if (Exit.isSuccess(again.exit) && Exit.isSuccess(first.exit)) {
        assert.strictEqual(again.exit.value.event.event_id, first.exit.value.event.event_id)
        assert.notProperty(again.exit.value, "holding", "a replay returns the event only")
      }
      assert.strictEqual(again.after.events.length, 1, "nothing appended by the replay")
      const other = yield* recording(
        first.after,
        { allow },
        (p) => p.record(owner, { ...buy, quantity: 5 }, { idempotencyKey: "order-1" })
      )
      assert.include(Exit.isFailure(other.exit) ? String(other.exit.cause) : "", "IdempotencyMismatch")
    }))

  it.effect("a credential without portfolio:read gets the event, not the holding", () =>
    Effect.gen(function*() {
      const { exit } = yield* recording(emptyStream, { allow: ["head", "readStream", "append"] }, (p) =>
        p.record(writeOnly, buy, {}))
      assert.isTrue(Exit.isSuccess(exit), String(exit))
      if (Exit.isSuccess(exit)) {
        assert.notProperty(exit.value, "holding")
      }
    }))

  it.live("a write that loses a race to another writer is decided again from fresh state and lands once", () =>
    Effect.gen(function*() {
      const { exit, after } = yield* recordingNow(emptyStream, {
        allow: ["head", "readStream", "append"],
        lostRaces: 2
      }, (p) => p.record(owner, buy, {}))
      assert.isTrue(Exit.isSuccess(exit), String(exit))
      assert.strictEqual(after.appends.length, 3, "two lost races, then the append")
      assert.strictEqual(after.events.length, 1)
    }))

  it.live("a write that keeps losing races is 409 WriteConflict after 7 attempts, with nothing recorded", () =>
    Effect.gen(function*() {
      const { exit, after } = yield* recordingNow(emptyStream, {
        allow: ["head", "readStream", "append"],
        lostRaces: 100
      }, (p) => p.record(owner, buy, {}))
      assert.isTrue(Exit.isFailure(exit), String(exit))
      const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      assert.instanceOf(error, WriteConflict, "a typed 409, not a defect")
      assert.strictEqual(after.appends.length, 7, "the first attempt and six retries")
      assert.strictEqual(after.events.length, 0)
    }))
})

describe("a write answers what it did, or is stopped before it commits", () => {
  it("the deadline answers a request only while no commit has begun; a commit begins only while the deadline has not answered", () => {
    const late = {}, committing = {}
    assert.isTrue(deadlinePasses(late), "nothing begun: the deadline answers (503)")
    assert.isFalse(beginCommit(late), "then the write must not commit")
    assert.isTrue(beginCommit(committing))
    assert.isFalse(deadlinePasses(committing), "a commit begun: the write answers itself, whatever the time")
  })

  it.effect("a write whose request the deadline already answered is interrupted before its append: nothing is recorded", () =>
    Effect.gen(function*() {
      const source = {}
      deadlinePasses(source)
      const request = HttpServerRequest.fromWeb(new Request("http://localhost/v1/me/transactions", { method: "POST" }))
      const late = Object.assign(Object.create(Object.getPrototypeOf(request) as object) as object, request, { source })
      const { exit, after } = yield* recording(
        emptyStream,
        { allow: ["head", "readStream", "append"] },
        (p) =>
          p.record(owner, buy, {}).pipe(
            Effect.provideService(HttpServerRequest.HttpServerRequest, late as HttpServerRequest.HttpServerRequest)
          )
      )
      assert.isTrue(Exit.isFailure(exit) && Cause.hasInterrupts(exit.cause), String(exit))
      assert.deepStrictEqual([after.appends.length, after.events.length], [0, 0])
    }))
})
