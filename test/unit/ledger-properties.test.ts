/**
 * Properties of the portfolio ledger over arbitrary command sequences
 * (fast-check): buys, sells, trades dated before earlier ones, bonus issues,
 * splits and consolidations, dividends with their book closures, tax status
 * and reversals of any earlier event, on HUBC and LUCK, over trading days
 * from 2026-01-26 to 2026-03-13 (across the T+2 → T+1 change of 9 Feb 2026
 * and the Kashmir Day and Eid closures of the 2026 holiday list). Each
 * command is decided against the state folded with `evolve`; accepted events
 * are appended. Synthetic commands, real calendar and settlement rules.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import {
  type Command,
  type Context,
  decide,
  draftEntry,
  type Entry,
  evolve,
  initialState,
  type State
} from "../../domain/ledger/Decider.ts"
import { FRACTION_UNITS, fromPaisa, hasPlaces, toPaisa } from "../../domain/ledger/Money.ts"
import { quantityOn, replay } from "../../domain/ledger/Replay.ts"
import { checkDecisions } from "../../domain/ledger/ReplayCheck.ts"
import { addDays, isTradingDay, settlementDate } from "../../domain/market/calendar/Calendar.ts"

const facts: Context = { today: "2026-11-21", isTradingDay, settlementDate }
const DAYS = (() => {
  const out: Array<string> = []
  for (let d = "2026-01-26"; d <= "2026-03-13"; d = addDays(d, 1)) if (isTradingDay(d)) out.push(d)
  return out
})()
const SYMBOLS = ["HUBC", "LUCK"] as const

const day = fc.integer({ min: 0, max: DAYS.length - 1 }).map((i) => DAYS[i]!)
const symbol = fc.constantFrom(...SYMBOLS)
/** A credit date on or after the book closure. */
const closure = fc.tuple(day, day).map((
  [a, b]
) => (a <= b ? { book_closure_from: a, trade_date: b } : { book_closure_from: b, trade_date: a }))

type Step = { readonly body: Command } | { readonly reverse: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("buy" as const),
      symbol,
      quantity: fc.integer({ min: 1, max: 500 }),
      price: fc.integer({ min: 1, max: 100_000 }).map((p) => p / 100),
      fees: fc.integer({ min: 0, max: 5_000 }).map((f) => f / 100),
      trade_date: day
    }).map((body) => ({ body }))
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("sell" as const),
      symbol,
      quantity: fc.integer({ min: 1, max: 500 }),
      price: fc.integer({ min: 1, max: 100_000 }).map((p) => p / 100),
      trade_date: day
    }).map((body) => ({ body }))
  },
  {
    weight: 3,
    arbitrary: fc.tuple(symbol, fc.integer({ min: 1, max: 10_000 }).map((p) => p / 100), closure).map((
      [s, percent, c]
    ) => ({ body: { kind: "bonus" as const, symbol: s, percent, ...c } }))
  },
  {
    weight: 3,
    arbitrary: fc.tuple(symbol, fc.integer({ min: 1, max: 500_000 }).map((p) => p / 10_000), closure, fc.boolean()).map(
      ([s, per_share, c, filer]) => ({ body: { kind: "dividend" as const, symbol: s, per_share, filer, ...c } })
    )
  },
  {
    weight: 1,
    arbitrary: fc.tuple(symbol, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }), day).map((
      [s, numerator, denominator, trade_date]
    ) => ({ body: { kind: "split" as const, symbol: s, numerator, denominator, trade_date } }))
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.boolean(), day).map(([filer, trade_date]) => ({
      body: { kind: "tax_status" as const, filer, trade_date }
    }))
  },
  { weight: 2, arbitrary: fc.nat().map((reverse) => ({ reverse })) }
)

/** Decides each step against the folded state; returns the stream and the state. */
const run = (steps: ReadonlyArray<Step>) => {
  let state: State = initialState
  const stream: Array<Entry> = []
  for (const s of steps) {
    const body: Command = "body" in s
      ? s.body
      : {
        kind: "reversal",
        event_id: stream.length > 0 ? stream[s.reverse % stream.length]!.event_id : "none",
        reason: "property test"
      }
    const d = decide({ body, facts }, state)
    if (d._tag !== "Accepted") continue
    for (const event of d.events) {
      const target = event.type === "TransactionReversed"
        ? stream.find((e) => e.event_id === event.reverses)
        : undefined
      const entry: Entry = {
        event_id: `e${stream.length + 1}`,
        version: stream.length + 1,
        effective_date: target?.effective_date ?? event.trade_date,
        event
      }
      stream.push(entry)
      state = evolve(state, entry)
    }
  }
  return { stream, state }
}

const sequences = fc.array(step, { minLength: 1, maxLength: 40 })

describe("ledger properties", () => {
  it("no negative or fractional position and no entitlement without its shares; a from-scratch replay and verify agree", () =>
    fc.assert(
      fc.property(sequences, (steps) => {
        const { state, stream } = run(steps)
        const r = replay(stream)
        assert.strictEqual(r._tag, "Ok", JSON.stringify(r))
        if (r._tag !== "Ok") return
        for (const p of r.state.values()) {
          assert.isTrue(Number.isInteger(p.quantity) && p.quantity >= 0, `${p.symbol}: ${p.quantity} shares`)
          assert.isTrue(
            p.fractional_entitlements >= 0 && p.fractional_entitlements < 1e6,
            `${p.symbol}: fraction ${p.fractional_entitlements}`
          )
          for (const money of [p.cost, p.realized_pnl, p.dividends_gross, p.dividends_net, p.tax_withheld]) {
            assert.isTrue(hasPlaces(money, 2), `${p.symbol}: ${money} is not in paisa`)
          }
        }
        const reversed = new Set(
          stream.flatMap((e) => (e.event.type === "TransactionReversed" ? [e.event.reverses] : []))
        )
        for (const e of stream) {
          const ev = e.event
          if ((ev.type !== "BonusRecorded" && ev.type !== "DividendRecorded") || reversed.has(e.event_id)) continue
          assert.isAbove(
            quantityOn(stream, ev.symbol, ev.entitlement_date!) ?? 0,
            0,
            `${e.event_id}: an entitlement without its shares`
          )
        }
        assert.deepStrictEqual(state.positions, r.state, "the state folded by evolve equals a from-scratch replay")
        assert.isUndefined(checkDecisions(stream), "verify's replay check accepts every event the decider accepted")
      }),
      { numRuns: 300 }
    ))

  it("every accepted prefix replays too: a rejection is the only way a command can fail", () =>
    fc.assert(
      fc.property(sequences, (steps) => {
        const { stream } = run(steps)
        for (let n = 1; n <= stream.length; n++) assert.strictEqual(replay(stream.slice(0, n))._tag, "Ok")
      }),
      { numRuns: 100 }
    ))

  it("a trade on any day is accepted exactly when the stream with it replays from scratch (the oracle: Replay.ts replay)", () =>
    fc.assert(
      fc.property(
        sequences,
        fc.integer({ min: 1, max: 800 }),
        symbol,
        day,
        fc.boolean(),
        (steps, quantity, s, d, selling) => {
          const { state, stream } = run(steps)
          const body: Command = { kind: selling ? "sell" : "buy", symbol: s, quantity, price: 100, trade_date: d }
          const decided = decide({ body, facts }, state)
          const event = decide({ body: { ...body, kind: "buy" }, facts }, initialState)
          if (event._tag !== "Accepted") return
          const trial = { ...event.events[0]!, side: body.kind } as typeof event.events[0]
          const oracle = replay([...stream, draftEntry(trial!, stream.length + 1)])
          assert.strictEqual(decided._tag, oracle._tag === "Ok" ? "Accepted" : "Rejected", JSON.stringify(body))
        }
      ),
      { numRuns: 300 }
    ))
})

/**
 * Histories that reach the edges of the ledger's exact range: quantities up to the bound of
 * 1,000,000,000, prices from 0.01 to 1,000, splits up to 1000:1 (9,007,199 shares split three times is just
 * under 2^53), dated anywhere in the window so that some trades are backdated.
 */
const edgeTrade = fc.record({
  kind: fc.constantFrom("buy" as const, "buy" as const, "sell" as const),
  symbol,
  quantity: fc.oneof(
    fc.integer({ min: 1, max: 1_000 }),
    fc.integer({ min: 1_000_000, max: 1_000_000_000 }),
    fc.constantFrom(1_000_000_000, 9_007_199, 9_007_200)
  ),
  price: fc.oneof(fc.constant(0.01), fc.constant(1_000), fc.integer({ min: 1, max: 100_000 }).map((p) => p / 100)),
  fees: fc.integer({ min: 0, max: 5_000 }).map((f) => f / 100),
  trade_date: day
})
const edgeSplit = fc.record({
  kind: fc.constant("split" as const),
  symbol,
  numerator: fc.oneof({ weight: 3, arbitrary: fc.constant(1_000) }, {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 1_000 })
  }),
  denominator: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 1_000 })
  }),
  trade_date: day
})
/** Commands in date order, mostly (a trade dated last takes the fast path), with a backdated one now and then. */
const edgeCommands = fc.array(
  fc.tuple(
    fc.oneof({ weight: 3, arbitrary: edgeTrade }, { weight: 2, arbitrary: edgeSplit }),
    fc.boolean(),
    fc.boolean()
  ),
  {
    minLength: 1,
    maxLength: 40
  }
)
/**
 * Half the histories start a hair under the range's edge, where a buy of up to 1,000,000,000 crosses it:
 * 9,007,199 shares split 1000:1 three times (the sequence), on the symbol most later commands touch.
 */
const edgeHistory = fc.tuple(fc.boolean(), edgeCommands).map(([seeded, steps]) => {
  let at = 3
  const seed: ReadonlyArray<Command> = seeded
    ? [
      { kind: "buy", symbol: "HUBC", quantity: 9_007_199, price: 0.01, trade_date: DAYS[0]! },
      ...[1, 2, 3].map((i): Command => ({
        kind: "split",
        symbol: "HUBC",
        numerator: 1_000,
        denominator: 1,
        trade_date: DAYS[i]!
      }))
    ]
    : []
  return [
    ...seed,
    ...steps.map(([body, next, backdated]): Command => {
      if (next && at < DAYS.length - 1) at++
      return backdated ? body : { ...body, trade_date: DAYS[at]! }
    })
  ]
})

describe("at the edges of the exact range, the evolved state decides as a full replay does", () => {
  it("every trade and split: accepted exactly when the stream with it replays, and the positions after it equal a replay", () =>
    fc.assert(
      fc.property(edgeHistory, (commands) => {
        let full: State = initialState
        const stream: Array<Entry> = []
        for (const body of commands) {
          const decided = decide({ body, facts }, full)
          if (decided._tag === "Accepted") {
            const entry = draftEntry(decided.events[0]!, stream.length + 1)
            const replayed = replay([...stream, entry])
            assert.strictEqual(replayed._tag, "Ok", "what the decider accepts replays")
            if (replayed._tag === "Ok") {
              assert.deepStrictEqual(
                evolve(full, entry).positions,
                replayed.state,
                "the evolved positions equal a replay"
              )
            }
          }
          if (decided._tag !== "Accepted") continue
          const event = decided.events[0]!
          const entry: Entry = {
            event_id: `e${stream.length + 1}`,
            version: stream.length + 1,
            effective_date: event.trade_date,
            event
          }
          stream.push(entry)
          full = evolve(full, entry)
        }
        assert.isUndefined(checkDecisions(stream), "verify accepts every event the decider accepted")
      }),
      { numRuns: 400 }
    ))
})

describe("the exact range is one the kept rupee figures read back from", () => {
  it("every integer of paisa or ten-thousandths of a share within ±2^51 survives its decimal form", () =>
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
          fc.double({ min: -(2 ** 51), max: 2 ** 51, noNaN: true }).map(Math.trunc)
        ),
        (units) => {
          assert.strictEqual(toPaisa(fromPaisa(units)), units)
          assert.strictEqual(Math.round((units / FRACTION_UNITS) * FRACTION_UNITS), units)
        }
      ),
      { numRuns: 20_000 }
    ))
  it("above it some do not (so a wider range would let the kept positions drift from a replay)", () => {
    // 3,518,479,091,135,688 paisa ≈ 2^51.64 reads back one paisa off.
    assert.notStrictEqual(toPaisa(fromPaisa(3_518_479_091_135_688)), 3_518_479_091_135_688)
  })
})
