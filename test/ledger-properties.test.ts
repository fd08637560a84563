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
import { addDays, isTradingDay, settlementDate } from "../domain/market/Calendar.ts"
import { type Command, type Context, decide, type Entry, evolve, initialState, type State } from "../domain/ledger/Decider.ts"
import { hasPlaces } from "../domain/ledger/Money.ts"
import { quantityOn, replay } from "../domain/ledger/Replay.ts"
import { checkDecisions } from "../domain/ledger/ReplayCheck.ts"

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
const closure = fc.tuple(day, day).map(([a, b]) => (a <= b ? { book_closure_from: a, trade_date: b } : { book_closure_from: b, trade_date: a }))

type Step = { readonly body: Command } | { readonly reverse: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("buy" as const), symbol, quantity: fc.integer({ min: 1, max: 500 }), price: fc.integer({ min: 1, max: 100_000 }).map((p) => p / 100), fees: fc.integer({ min: 0, max: 5_000 }).map((f) => f / 100), trade_date: day }).map((body) => ({ body })) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("sell" as const), symbol, quantity: fc.integer({ min: 1, max: 500 }), price: fc.integer({ min: 1, max: 100_000 }).map((p) => p / 100), trade_date: day }).map((body) => ({ body })) },
  { weight: 3, arbitrary: fc.tuple(symbol, fc.integer({ min: 1, max: 10_000 }).map((p) => p / 100), closure).map(([s, percent, c]) => ({ body: { kind: "bonus" as const, symbol: s, percent, ...c } })) },
  { weight: 3, arbitrary: fc.tuple(symbol, fc.integer({ min: 1, max: 500_000 }).map((p) => p / 10_000), closure, fc.boolean()).map(([s, per_share, c, filer]) => ({ body: { kind: "dividend" as const, symbol: s, per_share, filer, ...c } })) },
  { weight: 1, arbitrary: fc.tuple(symbol, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }), day).map(([s, numerator, denominator, trade_date]) => ({ body: { kind: "split" as const, symbol: s, numerator, denominator, trade_date } })) },
  { weight: 1, arbitrary: fc.tuple(fc.boolean(), day).map(([filer, trade_date]) => ({ body: { kind: "tax_status" as const, filer, trade_date } })) },
  { weight: 2, arbitrary: fc.nat().map((reverse) => ({ reverse })) }
)

/** Decides each step against the folded state; returns the stream and the state. */
const run = (steps: ReadonlyArray<Step>) => {
  let state: State = initialState
  const stream: Array<Entry> = []
  for (const s of steps) {
    const body: Command = "body" in s
      ? s.body
      : { kind: "reversal", event_id: stream.length > 0 ? stream[s.reverse % stream.length]!.event_id : "none", reason: "property test" }
    const d = decide({ body, facts }, state)
    if (d._tag === "Rejected") continue
    for (const event of d.events) {
      const target = event.type === "TransactionReversed" ? stream.find((e) => e.event_id === event.reverses) : undefined
      const entry: Entry = { event_id: `e${stream.length + 1}`, version: stream.length + 1, effective_date: target?.effective_date ?? event.trade_date, event }
      stream.push(entry)
      state = evolve(state, entry)
    }
  }
  return { stream, state }
}

const sequences = fc.array(step, { minLength: 1, maxLength: 40 })

describe("ledger properties", () => {
  it("no negative or fractional position and no entitlement without its shares; a from-scratch replay and verify agree", () =>
    fc.assert(fc.property(sequences, (steps) => {
      const { state, stream } = run(steps)
      const r = replay(stream)
      assert.strictEqual(r._tag, "Ok", JSON.stringify(r))
      if (r._tag !== "Ok") return
      for (const p of r.state.values()) {
        assert.isTrue(Number.isInteger(p.quantity) && p.quantity >= 0, `${p.symbol}: ${p.quantity} shares`)
        assert.isTrue(p.fractional_entitlements >= 0 && p.fractional_entitlements < 1e6, `${p.symbol}: fraction ${p.fractional_entitlements}`)
        for (const money of [p.cost, p.realized_pnl, p.dividends_gross, p.dividends_net, p.tax_withheld]) {
          assert.isTrue(hasPlaces(money, 2), `${p.symbol}: ${money} is not in paisa`)
        }
      }
      const reversed = new Set(stream.flatMap((e) => (e.event.type === "TransactionReversed" ? [e.event.reverses] : [])))
      for (const e of stream) {
        const ev = e.event
        if ((ev.type !== "BonusRecorded" && ev.type !== "DividendRecorded") || reversed.has(e.event_id)) continue
        assert.isAbove(quantityOn(stream, ev.symbol, ev.entitlement_date!) ?? 0, 0, `${e.event_id}: an entitlement without its shares`)
      }
      assert.deepStrictEqual(state.positions, r.state, "the state folded by evolve equals a from-scratch replay")
      assert.isUndefined(checkDecisions(stream), "verify's replay check accepts every event the decider accepted")
    }), { numRuns: 300 }))

  it("every accepted prefix replays too: a rejection is the only way a command can fail", () =>
    fc.assert(fc.property(sequences, (steps) => {
      const { stream } = run(steps)
      for (let n = 1; n <= stream.length; n++) assert.strictEqual(replay(stream.slice(0, n))._tag, "Ok")
    }), { numRuns: 100 }))

  it("a trade dated last is decided the same from the kept positions as from the whole stream", () =>
    fc.assert(fc.property(sequences, fc.integer({ min: 1, max: 800 }), symbol, (steps, quantity, s) => {
      const { state } = run(steps)
      const kept: State = { version: state.version, lastEffective: state.lastEffective, positions: state.positions }
      const body: Command = { kind: "sell", symbol: s, quantity, price: 100, trade_date: state.lastEffective || DAYS[0]! }
      assert.deepStrictEqual(decide({ body, facts }, kept), decide({ body, facts }, state))
    }), { numRuns: 200 }))
})
