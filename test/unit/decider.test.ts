/**
 * The portfolio decider as given/when/then (emmett style): `given(events)
 * .when(command, facts).then(events)` or `.thenRejects(message)`, and the
 * replay's figures after it. Real symbols and dates: HUBC closes from the eod
 * recording (215.42 on 2026-05-22), LUCK's and MEBL's recorded payouts
 * (MEBL's book closure from 2025-08-27 traded XD on 2025-08-25), the PSX
 * settlement rule (T+2 to 6 Feb 2026, T+1 from 9 Feb 2026) and the 2026
 * holiday list from domain/market/calendar/Calendar.ts. The ledger's truth items
 * are named where they are checked.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  type Command,
  type Context,
  decide,
  draftEntry,
  type Entry,
  evolve,
  initialState,
  replay,
  type State
} from "../../domain/ledger/Decider.ts"
import type { PortfolioEvent } from "../../domain/ledger/Events.ts"
import { checkDecisions } from "../../domain/ledger/ReplayCheck.ts"
import { isTradingDay, settlementDate } from "../../domain/market/calendar/Calendar.ts"

const facts: Context = { today: "2026-11-21", isTradingDay, settlementDate }

const entriesOf = (events: ReadonlyArray<PortfolioEvent>): Array<Entry> =>
  events.map((event, i) => ({ event_id: `e${i + 1}`, version: i + 1, effective_date: event.trade_date, event }))

/** The state after `events`, folded with `evolve` from `initialState` (the decider's own way). */
const stateOf = (events: ReadonlyArray<PortfolioEvent>): State => entriesOf(events).reduce(evolve, initialState)

const given = (...events: ReadonlyArray<PortfolioEvent>) => ({
  when: (body: Command, context: Context = facts) => {
    const state = stateOf(events)
    const d = decide({ body, facts: context }, state)
    const accepted = () => {
      assert.strictEqual(d._tag, "Accepted", d._tag === "Rejected" ? d.rejection.message : "")
      return d._tag === "Accepted" ? d.events : []
    }
    return {
      then: (expected: ReadonlyArray<Partial<PortfolioEvent>>) => {
        const got = accepted()
        assert.strictEqual(got.length, expected.length)
        got.forEach((e, i) => assert.deepInclude(e, expected[i]!))
      },
      /** The position of `symbol` after the accepted events, replayed from scratch. */
      thenHolds: (symbol: string) => {
        const r = replay(entriesOf([...events, ...accepted()]))
        assert.strictEqual(r._tag, "Ok", JSON.stringify(r))
        return r._tag === "Ok" ? r.state.get(symbol)! : undefined!
      },
      thenRejects: (pattern: RegExp) => {
        assert.strictEqual(d._tag, "Rejected")
        if (d._tag === "Rejected") assert.match(d.rejection.message, pattern)
        return d._tag === "Rejected" ? d.rejection.message : ""
      }
    }
  }
})

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
const buy = (q: number, p: number, d: string, fees = 0) => trade("buy", "HUBC", q, p, d, fees)
const sell = (q: number, p: number, d: string, fees = 0) => trade("sell", "HUBC", q, p, d, fees)

describe("buy and sell", () => {
  it("a buy on a trading day is recorded with its T+1 settlement date", () =>
    given().when({ kind: "buy", symbol: "HUBC", quantity: 100, price: 215.42, fees: 120, trade_date: "2026-05-22" }, {
      ...facts,
      circuit: { lower: 193.88, upper: 236.96 }
    }).then([
      {
        type: "TradeRecorded",
        side: "buy",
        quantity: 100,
        price: 215.42,
        fees: 120,
        settlement_date: "2026-05-25",
        flags: []
      }
    ]))
  it("a buy on 6 Feb 2026 settles T+2, with the 9 Feb trades, on 10 Feb", () => {
    given().when({ kind: "buy", symbol: "HUBC", quantity: 10, price: 150, trade_date: "2026-02-06" }).then([{
      settlement_date: "2026-02-10"
    }])
    given().when({ kind: "buy", symbol: "HUBC", quantity: 10, price: 150, trade_date: "2026-02-09" }).then([{
      settlement_date: "2026-02-10"
    }])
  })
  it("15: selling more than held is rejected without saying how many are held", () => {
    const message = given(buy(100, 215.42, "2026-05-22"))
      .when({ kind: "sell", symbol: "HUBC", quantity: 101, price: 219.5, trade_date: "2026-05-25" })
      .thenRejects(/more HUBC than is held on 2026-05-25/)
    assert.notMatch(message, /100|-1\b/, "the quantity held is not revealed")
  })
  it("a backdated sale that would make a later position negative is rejected", () =>
    given(buy(100, 215.42, "2026-05-20"), sell(100, 219.5, "2026-05-25"))
      .when({ kind: "sell", symbol: "HUBC", quantity: 50, price: 215.42, trade_date: "2026-05-22" })
      .thenRejects(/more HUBC than is held on 2026-05-25/))
  it("a sale dated before the buy is rejected even though the total would be positive", () =>
    given(buy(100, 215.42, "2026-05-22")).when({
      kind: "sell",
      symbol: "HUBC",
      quantity: 10,
      price: 215,
      trade_date: "2026-05-21"
    })
      .thenRejects(/held on 2026-05-21/))
  it("a future trade date or a non-trading day is rejected", () => {
    given().when({ kind: "buy", symbol: "HUBC", quantity: 5, price: 215, trade_date: "2026-11-23" }).thenRejects(
      /future/
    )
    given().when({ kind: "buy", symbol: "HUBC", quantity: 5, price: 215, trade_date: "2026-11-21" }).thenRejects(
      /not a PSX trading day/
    )
    given().when({ kind: "buy", symbol: "HUBC", quantity: 5, price: 215, trade_date: "2026-08-14" }).thenRejects(
      /not a PSX trading day/
    )
  })
})

describe("12: circuit-breaker flags", () => {
  it("a price outside the bounds from the previous trading day's as-traded close is accepted and flagged", () =>
    given().when(
      { kind: "buy", symbol: "HUBC", quantity: 5, price: 240, trade_date: "2026-05-25" },
      { ...facts, circuit: { lower: 193.88, upper: 236.96, previous_date: "2026-05-22" } }
    ).then([{ flags: ["price 240 is outside 2026-05-25's circuit-breaker bounds 193.88–236.96"] }]))
  it("without the previous trading day's close the check says unknown, never a bound from an older close", () =>
    given().when({ kind: "buy", symbol: "HUBC", quantity: 5, price: 240, trade_date: "2026-05-25" })
      .then([{
        flags: ["circuit-breaker check unknown: no as-traded close of HUBC is recorded for the previous trading day"]
      }]))
})

describe("14: bad input is refused before anything is recorded", () => {
  const body = { kind: "buy", symbol: "HUBC", quantity: 100, price: 215.42, trade_date: "2026-05-22" } as const
  it("quantity 1e302 at price 1e-300, fractional shares, floats beyond paisa, negative fees", () => {
    given().when({ ...body, quantity: 1e302, price: 1e-300 }).thenRejects(/quantity/)
    given().when({ ...body, quantity: 10.5 }).thenRejects(/quantity/)
    given().when({ ...body, price: 215.425 }).thenRejects(/price.*decimal/)
    // Too large is said as too large: 1e302 prints as "1e+302", which has no decimals to count.
    given().when({ ...body, price: 1e302 }).thenRejects(/`price`: Expected a value less than or equal to 1000000$/)
    given().when({ ...body, fees: 1e302 }).thenRejects(/`fees`: Expected a value less than or equal to/)
    given().when({ ...body, price: 0 }).thenRejects(/price/)
    given().when({ ...body, fees: -1 }).thenRejects(/fees/)
    given().when({ ...body, quantity: 1_000_000_000, price: 999_999 }).thenRejects(/beyond the ledger's bound/)
  })
  it("dates: 2026-02-30 is not a date, 1900-01-02 is before the first recorded session, or the symbol's", () => {
    given().when({ ...body, trade_date: "2026-02-30" }).thenRejects(/not a calendar date/)
    given().when({ kind: "dividend", symbol: "HUBC", per_share: 5, trade_date: "2026-02-30", filer: true }).thenRejects(
      /not a calendar date/
    )
    given().when({ ...body, trade_date: "1900-01-02" }).thenRejects(
      /before the first recorded PSX session \(2004-01-01\)/
    )
    given().when({ ...body, trade_date: "2021-02-08" }, { ...facts, firstSession: "2021-02-09" })
      .thenRejects(/before HUBC's first recorded session \(2021-02-09\)/)
  })
  it("a symbol delisted on a day: no buy or sell on or after it; trades before it stand", () => {
    const delisted = { ...facts, delistedOn: "2026-05-22" }
    given().when(body, delisted).thenRejects(/HUBC left the exchange's listing on 2026-05-22/)
    given(trade("buy", "HUBC", 100, 215, "2026-05-18")).when(
      { ...body, kind: "sell", trade_date: "2026-05-25" },
      delisted
    )
      .thenRejects(/cannot be bought or sold on or after that day/)
    given().when({ ...body, trade_date: "2026-05-21" }, delisted).then([{
      type: "TradeRecorded",
      symbol: "HUBC",
      trade_date: "2026-05-21"
    }])
  })
})

describe("9 and 10: bonus fractions and entitlement dates", () => {
  it("9: a 10% bonus on 15 shares credits 16 and records the 0.5 as a cash entitlement", () => {
    const p = given(trade("buy", "LUCK", 15, 350, "2026-05-18"))
      .when({ kind: "bonus", symbol: "LUCK", percent: 10, book_closure_from: "2026-05-22", trade_date: "2026-05-25" })
      .thenHolds("LUCK")
    assert.deepStrictEqual([p.quantity, p.fractional_entitlements, p.cost], [16, 0.5, 5250])
  })
  it("10: MEBL's closure from 2025-08-27 (T+2) makes 2025-08-22 the last buy date: a buy on 08-25 is not entitled", () => {
    const g = given(trade("buy", "MEBL", 100, 400, "2025-08-22"), trade("buy", "MEBL", 50, 409, "2025-08-25"))
    g.when({
      kind: "dividend",
      symbol: "MEBL",
      per_share: 7,
      book_closure_from: "2025-08-27",
      trade_date: "2025-09-15",
      filer: true
    })
      .then([{ entitlement_date: "2025-08-22", book_closure_from: "2025-08-27", per_share: 7, tax_rate_pct: 15 }])
    const p = g.when({
      kind: "dividend",
      symbol: "MEBL",
      per_share: 7,
      book_closure_from: "2025-08-27",
      trade_date: "2025-09-15",
      filer: true
    })
      .thenHolds("MEBL")
    assert.deepStrictEqual(
      [p.dividends_gross, p.tax_withheld, p.dividends_net],
      [700, 105, 595],
      "100 shares × Rs 7, 15% withheld"
    )
  })
  it("10: under T+1 a closure from Friday 2026-05-22 has its last buy date on Wednesday 05-20", () =>
    given(trade("buy", "LUCK", 100, 350, "2026-05-20"))
      .when({ kind: "bonus", symbol: "LUCK", percent: 10, book_closure_from: "2026-05-22", trade_date: "2026-05-22" })
      .then([{ entitlement_date: "2026-05-20" }]))
  it("10: without a book closure and no recorded payout, the entitlement date cannot be known: refused", () =>
    given(trade("buy", "LUCK", 100, 350, "2026-05-20"))
      .when({ kind: "bonus", symbol: "LUCK", percent: 10, trade_date: "2026-05-22" })
      .thenRejects(/book_closure_from.*register at book closure/))
  it("10: the recorded payout's book closure is used when the body names none", () =>
    given(trade("buy", "LUCK", 100, 350, "2026-05-20"))
      .when({ kind: "bonus", symbol: "LUCK", percent: 10, trade_date: "2026-05-25" }, {
        ...facts,
        bookClosure: "2026-05-22"
      })
      .then([{ book_closure_from: "2026-05-22", entitlement_date: "2026-05-20" }]))
})

describe("11: dependent events are re-derived (the issue's LUCK sequence)", () => {
  const luck = [
    trade("buy", "LUCK", 100, 350, "2026-05-18"),
    {
      type: "BonusRecorded",
      symbol: "LUCK",
      trade_date: "2026-05-22",
      percent: 10,
      book_closure_from: "2026-05-22",
      entitlement_date: "2026-05-20"
    },
    {
      type: "DividendRecorded",
      symbol: "LUCK",
      trade_date: "2026-05-22",
      per_share: 5,
      book_closure_from: "2026-05-22",
      entitlement_date: "2026-05-20",
      tax_rule: "wht-dividend-2019-07",
      tax_rate_pct: 15,
      filer: true
    }
  ] as const satisfies ReadonlyArray<PortfolioEvent>
  it("a backdated sell of all 100 on the last buy date would leave both entitlements without shares: refused, naming them", () =>
    given(...luck).when({ kind: "sell", symbol: "LUCK", quantity: 100, price: 360, trade_date: "2026-05-20" })
      .thenRejects(
        /no LUCK held on 2026-05-20, the entitlement date of the 10% bonus credited on 2026-05-22 \(event e2\)/
      ))
  it("a backdated sell of 50 re-derives the bonus (5 shares) and the dividend (Rs 250 gross)", () => {
    const p = given(...luck).when({ kind: "sell", symbol: "LUCK", quantity: 50, price: 360, trade_date: "2026-05-20" })
      .thenHolds("LUCK")
    assert.deepStrictEqual([p.quantity, p.dividends_gross, p.tax_withheld, p.dividends_net], [55, 250, 37.5, 212.5])
  })
  it("a sale after the last buy date keeps the entitlement: 10 bonus shares at no cost", () => {
    const p = given(...luck).when({ kind: "sell", symbol: "LUCK", quantity: 100, price: 360, trade_date: "2026-05-21" })
      .thenHolds("LUCK")
    assert.deepStrictEqual([p.quantity, p.cost, p.dividends_gross], [10, 0, 500])
  })
  it("verify's replay check re-runs the rules: a stored sell that orphaned the entitlements is named", () => {
    const stream = entriesOf([...luck, trade("sell", "LUCK", 100, 360, "2026-05-20")])
    assert.deepInclude(checkDecisions(stream), { event_id: "e4", version: 4 })
    assert.match(checkDecisions(stream)!.reason, /entitlement date/)
    assert.isUndefined(checkDecisions(entriesOf(luck)))
  })
  it("verify's replay check finds an event the rules would not have written (a settlement date off the rule)", () => {
    const bad = { ...trade("buy", "HUBC", 10, 215.42, "2026-05-22"), settlement_date: "2026-05-26" } as const
    assert.match(
      checkDecisions(entriesOf([bad]))!.reason,
      /settlement 2026-05-26 where the settlement rule gives 2026-05-25/
    )
  })
})

describe("13: withholding tax by dated rule and filer status", () => {
  const held = trade("buy", "MEBL", 200, 400, "2025-08-22")
  const cash = {
    kind: "dividend",
    symbol: "MEBL",
    per_share: 7,
    book_closure_from: "2025-08-27",
    trade_date: "2025-09-15"
  } as const
  it("a non-filer pays double: 30%", () => {
    const p = given(held).when({ ...cash, filer: false }).thenHolds("MEBL")
    assert.deepStrictEqual([p.dividends_gross, p.tax_withheld, p.dividends_net], [1400, 420, 980])
  })
  it("the portfolio's recorded status applies when the body gives none; with none recorded, it is asked for", () => {
    given({ type: "TaxStatusRecorded", filer: true, trade_date: "2025-01-01" }, held).when(cash)
      .then([{ tax_rate_pct: 15, filer: true, tax_rule: "wht-dividend-2019-07" }])
    given(held).when(cash).thenRejects(/filer/)
  })
  it("the warrant's gross and tax are taken as given; tax above the gross is refused", () => {
    given(held).when({
      kind: "dividend",
      symbol: "MEBL",
      gross_amount: 1400,
      tax_withheld: 105,
      book_closure_from: "2025-08-27",
      trade_date: "2025-09-15"
    })
      .then([{ gross_amount: 1400, tax_withheld: 105 }])
    given(held).when({
      kind: "dividend",
      symbol: "MEBL",
      gross_amount: 100,
      tax_withheld: 101,
      book_closure_from: "2025-08-27",
      trade_date: "2025-09-15"
    })
      .thenRejects(/tax_withheld/)
  })
})

describe("splits and reversals", () => {
  it("a 1-for-5 consolidation of 7 shares credits 1 and owes 0.4 in cash; cost is conserved", () => {
    const p = given(buy(7, 200, "2026-05-20")).when({
      kind: "split",
      symbol: "HUBC",
      numerator: 1,
      denominator: 5,
      trade_date: "2026-05-22"
    })
      .thenHolds("HUBC")
    assert.deepStrictEqual([p.quantity, p.fractional_entitlements, p.cost], [1, 0.4, 1400])
  })
  it("an event can be reversed once, with a reason; reversing a buy that later sales need is refused", () => {
    given(buy(100, 215.42, "2026-05-22")).when({ kind: "reversal", event_id: "e1", reason: "typed the wrong price" })
      .then([{ type: "TransactionReversed", reverses: "e1", reason: "typed the wrong price" }])
    given(buy(100, 215.42, "2026-05-22")).when({ kind: "reversal", event_id: "e9", reason: "x" }).thenRejects(
      /no event e9/
    )
    given(buy(100, 215.42, "2026-05-20"), sell(60, 219.5, "2026-05-25")).when({
      kind: "reversal",
      event_id: "e1",
      reason: "mistake"
    })
      .thenRejects(/more HUBC than is held/)
  })
})

describe("decide(command, state) with evolve and initialState", () => {
  it("average cost in paisa: fees in the cost, a sale realises against the average", () => {
    const p = stateOf([
      buy(100, 200, "2026-05-20", 100),
      buy(100, 220, "2026-05-21", 100),
      sell(50, 230, "2026-05-25", 25)
    ]).positions.get("HUBC")!
    // cost 42,200 for 200 → 211 average; selling 50 removes 10,550 and realises 11,500 − 25 − 10,550 = 925.
    assert.deepStrictEqual([p.quantity, p.cost, p.realized_pnl], [150, 31650, 925])
  })
})

describe("decide is total over the state evolve folds", () => {
  const history = [buy(100, 215.42, "2026-05-20"), sell(30, 219.5, "2026-05-22")]
  it("given a backdated sale, when it would leave −1 on a later date, then it is refused from the folded state (no partial answer)", () => {
    // 100 bought on 05-20; 71 sold on 05-21 leaves 29, and the sale of 30 on 05-22 would take it to −1.
    const d = decide({
      body: { kind: "sell", symbol: "HUBC", quantity: 71, price: 219.5, trade_date: "2026-05-21" },
      facts
    }, stateOf(history))
    assert.deepStrictEqual(d, {
      _tag: "Rejected",
      rejection: {
        message: "this would sell more HUBC than is held on 2026-05-22 (a position can never be negative, on any date)",
        symbol: "HUBC"
      }
    })
  })
  it("a NeedsHistory-style partial state (head and positions without the history) is not a State, and is never answered from", () => {
    const full = stateOf(history)
    // @ts-expect-error the history is required: a state is what evolve folded, never the positions alone
    const partial: State = { version: full.version, lastEffective: full.lastEffective, positions: full.positions }
    const backdated: Command = { kind: "sell", symbol: "HUBC", quantity: 71, price: 219.5, trade_date: "2026-05-21" }
    assert.throws(() => decide({ body: backdated, facts }, partial), TypeError)
  })
  it("given the same stream, when each kind of command comes, then each is Accepted or Rejected, never a third answer", () => {
    const state = stateOf(history)
    const commands: ReadonlyArray<Command> = [
      { kind: "sell", symbol: "HUBC", quantity: 70, price: 219.5, trade_date: "2026-05-21" },
      { kind: "buy", symbol: "HUBC", quantity: 1, price: 219.5, trade_date: "2026-05-25" },
      { kind: "split", symbol: "HUBC", numerator: 2, denominator: 1, trade_date: "2026-05-21" },
      { kind: "bonus", symbol: "HUBC", percent: 10, book_closure_from: "2026-05-26", trade_date: "2026-06-01" },
      { kind: "reversal", event_id: "e1", reason: "typo" },
      { kind: "tax_status", filer: true, trade_date: "2026-05-20" }
    ]
    // Reversing the buy of 100 leaves the sale of 30 with nothing held: refused. The rest replay.
    assert.deepStrictEqual(commands.map((body) => decide({ body, facts }, state)._tag), [
      "Accepted",
      "Accepted",
      "Accepted",
      "Accepted",
      "Rejected",
      "Accepted"
    ])
  })
  it("given a backdated split, when evolve folds it, then the positions after it are a from-scratch replay's (evolve never throws)", () => {
    const split: PortfolioEvent = {
      type: "SplitRecorded",
      symbol: "HUBC",
      trade_date: "2026-05-21",
      numerator: 2,
      denominator: 1
    }
    // 100 doubled to 200 on 05-21, then 30 sold on 05-22: 170 held, cost 21,542 less 30/200 of it (3,231.30) = 18,310.70.
    const p = stateOf([...history, split]).positions.get("HUBC")!
    assert.deepStrictEqual([p.quantity, p.cost], [170, 18310.7])
  })
  it("states are values: two commands evolved from one state each see only their own event", () => {
    const base = stateOf(history)
    const a = evolve(base, draftEntry(buy(5, 220, "2026-05-25"), 3))
    const b = evolve(base, draftEntry(sell(70, 220, "2026-05-25"), 3))
    assert.deepStrictEqual([
      a.positions.get("HUBC")!.quantity,
      b.positions.get("HUBC")!.quantity,
      base.positions.get("HUBC")!.quantity
    ], [75, 0, 70])
    assert.deepStrictEqual([a.history.entries().length, b.history.entries().length, base.history.entries().length], [
      3,
      3,
      2
    ])
    // After both branches grew, the first still decides from its own history: 75 held, so selling 75 is accepted, 76 not.
    assert.strictEqual(
      decide({ body: { kind: "sell", symbol: "HUBC", quantity: 75, price: 1, trade_date: "2026-05-26" }, facts }, a)
        ._tag,
      "Accepted"
    )
    assert.strictEqual(
      decide({ body: { kind: "sell", symbol: "HUBC", quantity: 76, price: 1, trade_date: "2026-05-26" }, facts }, a)
        ._tag,
      "Rejected"
    )
  })
})

describe("a trade stays within the ledger's exact range", () => {
  // 9,007,199 × 1000³ = 9,007,199,000,000,000 shares: just under 2^53 = 9,007,199,254,740,992.
  const split = (trade_date: string): PortfolioEvent => ({
    type: "SplitRecorded",
    symbol: "OGDC",
    trade_date,
    numerator: 1000,
    denominator: 1
  })
  const ogdc = (quantity: number, trade_date: string) => trade("buy", "OGDC", quantity, 0.01, trade_date)
  const history = [ogdc(9_007_199, "2026-05-18"), split("2026-05-19"), split("2026-05-20"), split("2026-05-21")]

  it("the issue's sequence: after three 1000:1 splits a buy of 1,000,000,000 @ 0.01 would hold 9,007,200,000,000,000: refused", () => {
    const full = stateOf(history)
    assert.strictEqual(full.positions.get("OGDC")!.quantity, 9_007_199_000_000_000)
    const body: Command = {
      kind: "buy",
      symbol: "OGDC",
      quantity: 1_000_000_000,
      price: 0.01,
      trade_date: "2026-05-22"
    }
    const d = decide({ body, facts }, full)
    assert.deepStrictEqual(d, {
      _tag: "Rejected",
      rejection: { message: "this would take OGDC's figures beyond the ledger's exact range", symbol: "OGDC" }
    })
    assert.strictEqual(
      replay([...entriesOf(history), draftEntry({ ...trade("buy", "OGDC", 1_000_000_000, 0.01, "2026-05-22") }, 5)])
        ._tag,
      "TooLarge",
      "a full replay refuses it the same way"
    )
    assert.isUndefined(checkDecisions(entriesOf(history)), "what was accepted verifies")
  })
  it("a split that would push a holding past 2^53 shares is refused; a sale dated last is still accepted", () => {
    given(ogdc(9_007_200, "2026-05-18"), split("2026-05-19"), split("2026-05-20"))
      .when({ kind: "split", symbol: "OGDC", numerator: 1000, denominator: 1, trade_date: "2026-05-21" })
      .thenRejects(/OGDC's figures beyond the ledger's exact range/)
    given(...history).when({ kind: "sell", symbol: "OGDC", quantity: 1, price: 0.01, trade_date: "2026-05-22" })
      .then([{ type: "TradeRecorded", side: "sell", quantity: 1 }])
  })
  it("money beyond 2^51 paisa (Rs 22,517,998,136,852.48) is refused: kept as rupees it would not read back the same", () => {
    // 23 buys of 1,000,000,000 @ 1,000 (Rs 10^12 each, the largest trade) cost 2.3 × 10^15 paisa > 2^51 = 2,251,799,813,685,248.
    const big = Array.from({ length: 22 }, () => trade("buy", "OGDC", 1_000_000_000, 1000, "2026-05-18"))
    given(...big).when({ kind: "buy", symbol: "OGDC", quantity: 1_000_000_000, price: 1000, trade_date: "2026-05-18" })
      .thenRejects(/beyond the ledger's exact range/)
    given(...big.slice(1)).when({
      kind: "buy",
      symbol: "OGDC",
      quantity: 1_000_000_000,
      price: 1000,
      trade_date: "2026-05-18"
    })
      .then([{ type: "TradeRecorded", side: "buy" }])
  })
})

describe("a payout is counted once", () => {
  // LUCK's 250% final: book closure from 2026-08-18 (its last buy date 2026-08-14), credited 2026-08-25.
  const luck = trade("buy", "LUCK", 20, 440, "2026-08-13")
  const accepted: PortfolioEvent = {
    type: "DividendRecorded",
    symbol: "LUCK",
    trade_date: "2026-08-25",
    per_share: 25,
    book_closure_from: "2026-08-18",
    entitlement_date: "2026-08-14",
    tax_rule: "wht-dividend-2019-07",
    tax_rate_pct: 15,
    filer: true
  }
  const warrant: Command = {
    kind: "dividend",
    symbol: "LUCK",
    gross_amount: 500,
    tax_withheld: 75,
    book_closure_from: "2026-08-18",
    trade_date: "2026-08-25"
  }
  it("given the entitlement recorded, when the same warrant is recorded by hand, then it is refused naming event e2", () => {
    const message = given(luck, accepted).when(warrant).thenRejects(/already recorded as event e2/)
    assert.match(message, /LUCK dividend with book closure from 2026-08-18/)
    const d = decide({ body: warrant, facts }, stateOf([luck, accepted]))
    assert.strictEqual(d._tag === "Rejected" ? d.rejection.recordedIn : undefined, "e2")
  })
  it("given the payout reversed, when the warrant is recorded, then it is accepted; a bonus of the same closure is another payout", () => {
    const reversal: PortfolioEvent = {
      type: "TransactionReversed",
      reverses: "e2",
      symbol: "LUCK",
      trade_date: "2026-08-25",
      reason: "record the warrant"
    }
    given(luck, accepted, reversal).when(warrant).then([{
      type: "DividendRecorded",
      gross_amount: 500,
      tax_withheld: 75
    }])
    given(luck, accepted).when({
      kind: "bonus",
      symbol: "LUCK",
      percent: 10,
      book_closure_from: "2026-08-18",
      trade_date: "2026-08-25"
    })
      .then([{ type: "BonusRecorded", percent: 10 }])
    given(luck, accepted).when({ ...warrant, book_closure_from: "2026-08-19" }).then([{ type: "DividendRecorded" }])
  })
})
