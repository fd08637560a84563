/**
 * The tax-year statement over HTTP on the bundled pack (both stores). The service's clock
 * starts at 2026-11-21 10:00 Karachi time: the current tax year is 2027 (2026-07-01 to 2027-06-30).
 *
 * Hand-worked, LUCK (face value Rs 2 since 28 Apr 2025, domain/market/filings/FaceValues.ts), a filer from 2024-07-01:
 * - buy 100 on 2026-05-18 at Rs 350, fees Rs 35: cost Rs 35,035.00, average Rs 350.35 (tax year 2026).
 * - sell 30 on Tue 2026-06-30 (the last day of tax year 2026) at Rs 400, fees Rs 12: proceeds 12,000 − 12 =
 *   Rs 11,988.00; cost 35,035 × 30/100 = Rs 10,510.50; gain Rs 1,477.50; held 2026-05-18 → 06-30 = 43 days.
 *   Bought after 2024-07-01 by a filer: 15% rule, 1,477.50 × 15% = 221.625 → Rs 221.63 (half up to the paisa).
 *   Left: 70 shares at Rs 24,524.50.
 * - sell 20 on Wed 2026-07-01 (the first day of tax year 2027) at Rs 420, fees Rs 8.40: proceeds 8,400 − 8.40 =
 *   Rs 8,391.60; cost 24,524.50 × 20/70 = Rs 7,007.00; gain Rs 1,384.60; 44 days; 15% = Rs 207.69.
 *   Left: 50 shares at Rs 17,517.50 (average still Rs 350.35).
 * - LUCK "250%(F) (D)", book closure 2026-08-18 to 08-25, last buy date 2026-08-13: 50 shares × 250% × Rs 2 =
 *   Rs 5 a share, Rs 250.00 gross, a filer's 15% = Rs 37.50 withheld, Rs 212.50 net, paid 2026-08-25 (tax year 2027).
 * - a donation of Rs 1,500 recorded today (tax year 2027).
 *
 * BOP, a bonus at zero cost (the pack's "10% (B)", book closure 2023-03-23 to 03-29):
 * - buy 105 on 2023-03-01 at Rs 4.60: cost Rs 483.00. The bonus: 105 × 10% = 10.5 → 10 whole shares credited on
 *   2023-03-29 (tax year 2023), half a share owed in cash; cost unchanged, average 483 / 105 = 4.60 → 483 / 115 = 4.20.
 * - sell 115 on 2023-09-05 (tax year 2024) at Rs 5, fees Rs 5.75: proceeds 575 − 5.75 = Rs 569.25, cost Rs 483.00,
 *   gain Rs 86.25; first in, first out: 105 held 188 days (from 03-01), 10 bonus shares 160 days (from 03-29).
 *   Bought before 2024-07-01: no rate recorded, no tax computed.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { setOffOf } from "../domain/ledger/LossSetOff.ts"
import { LotBook } from "../domain/ledger/Lots.ts"
import { taxYearOf, taxYearPeriod } from "../domain/ledger/TaxYear.ts"
import { assertFailed, assertOk, bodyOf, get, post, type Reply, SharedTestApp } from "./support/TestApp.ts"

const START = "2026-11-21T05:00:00.000Z"
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const session = Effect.map(post("/v1/me/session", {}), (r) => bodyOf(r).token as string)
const send = (token: string, body: unknown) => post("/v1/me/transactions", body, bearer(token))
const created = <B, F>(r: Reply<B, F>) => {
  assertOk(r, 201)
  return r.body
}
const statement = (token: string, year: number) =>
  Effect.map(get(`/v1/me/tax-statement?tax_year=${year}`, bearer(token)), (r) => bodyOf(r))
const acceptOne = (token: string, symbol: string, closure: string) =>
  Effect.gen(function*() {
    const list = bodyOf(yield* get("/v1/me/entitlements", bearer(token)))
    const e = list.items.find((x) => x.symbol === symbol && x.book_closure_from === closure)
    assert.exists(e, `an entitlement of ${symbol} at ${closure}`)
    const done = bodyOf(yield* post(`/v1/me/entitlements/${e!.id}/accept`, {}, bearer(token)))
    assert.isTrue(done.recorded_now)
    return done.event_id!
  })

describe("tax year and lots (pure)", () => {
  it("30 June closes a tax year and 1 July opens the next, named by the year it ends", () => {
    assert.deepStrictEqual([
      taxYearOf("2026-06-30"),
      taxYearOf("2026-07-01"),
      taxYearOf("2025-07-01"),
      taxYearOf("2026-01-15")
    ], [2026, 2027, 2026, 2026])
    assert.deepStrictEqual(taxYearPeriod(2026), { from: "2025-07-01", to: "2026-06-30" })
  })

  it("a sale takes the oldest lots first; a split rescales them to the position's whole shares", () => {
    const lots = new LotBook()
    lots.add("X", { acquired: "2025-01-01", quantity: 3, how: "buy" })
    lots.add("X", { acquired: "2025-02-01", quantity: 4, how: "buy" })
    // 7 shares split 3 for 2: 10.5 → 10 whole (the replay's figure); lots 4 and 6 (3 × 1.5 = 4.5 → 4, 4 × 1.5 = 6).
    lots.split("X", 3, 2, 10)
    assert.deepStrictEqual(lots.of("X").map((l) => l.quantity), [4, 6])
    const taken = lots.take("X", 5, "2025-03-01")
    assert.deepStrictEqual(taken.map((l) => [l.acquired, l.quantity, l.days]), [["2025-01-01", 4, 59], [
      "2025-02-01",
      1,
      28
    ]])
    assert.deepStrictEqual(lots.of("X").map((l) => l.quantity), [5])
  })
})

describe("capital losses set off, section 37A (pure, paisa)", () => {
  it("a net loss is set off against later net gains, oldest first, for three tax years after its own, then lapses", () => {
    // Tax year 2025: a net loss of Rs 4,000. 2026: a net gain of Rs 1,000 takes 1,000 of it (3,000 left). 2027: nothing.
    // 2028 (2025 + 3, its last year): a net gain of Rs 5,000 takes the 3,000 left; 2,000 is taxable.
    const earlier = [{ year: 2025, gains: 0, losses: 400_000 }, { year: 2026, gains: 100_000, losses: 0 }, {
      year: 2027,
      gains: 0,
      losses: 0
    }]
    const y28 = setOffOf(earlier, { year: 2028, gains: 500_000, losses: 0 })
    assert.deepStrictEqual(y28.brought_forward, [{
      from_tax_year: 2025,
      available: 300_000,
      set_off: 300_000,
      carried_forward: 0,
      last_tax_year: 2028
    }])
    assert.deepStrictEqual([y28.net, y28.taxable, y28.loss_carried_forward], [500_000, 200_000, 0])
    // In 2029 the 2025 loss has lapsed, used or not: the whole net gain of Rs 5,000 is taxable.
    const y29 = setOffOf([...earlier, { year: 2028, gains: 0, losses: 0 }], { year: 2029, gains: 500_000, losses: 0 })
    assert.deepStrictEqual([y29.brought_forward, y29.taxable], [[], 500_000])
  })
})

layer(SharedTestApp(START), { timeout: 600_000, excludeTestServices: true })(
  "tax-year statement",
  (it) => {
    it.effect("a buy in one tax year and sales either side of 30 June; the LUCK dividend at Rs 2 face value; a donation", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* send(t, { kind: "tax_status", filer: true, trade_date: "2024-07-01" }))
        created(
          yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 100, price: 350, fees: 35, trade_date: "2026-05-18" })
        )
        const s1 = created(
          yield* send(t, { kind: "sell", symbol: "LUCK", quantity: 30, price: 400, fees: 12, trade_date: "2026-06-30" })
        )
        const s2 = created(
          yield* send(t, {
            kind: "sell",
            symbol: "LUCK",
            quantity: 20,
            price: 420,
            fees: 8.4,
            trade_date: "2026-07-01"
          })
        )
        const dividend = yield* acceptOne(t, "LUCK", "2026-08-18")
        const donation = bodyOf(yield* post("/v1/me/donations", { amount: 1500, note: "Edhi Foundation" }, bearer(t)))

        const y26 = yield* statement(t, 2026)
        assert.deepStrictEqual([y26.period, y26.complete, y26.cost_method], [
          { from: "2025-07-01", to: "2026-06-30" },
          true,
          "average cost"
        ])
        assert.deepStrictEqual(y26.sales.map((s) => s.event_id), [s1.event.event_id], "the 30 June sale only")
        const a = y26.sales[0]!
        assert.deepStrictEqual(
          [
            a.proceeds,
            a.cost,
            a.average_cost,
            a.gain,
            a.holding_days_min,
            a.holding_days_max,
            a.position_acquired_from,
            a.filer
          ],
          [11988, 10510.5, 350.35, 1477.5, 43, 43, "2026-05-18", true]
        )
        assert.deepStrictEqual(a.lots, [{ acquired: "2026-05-18", quantity: 30, how: "buy", days: 43 }])
        assert.deepStrictEqual(a.capital_gains_tax, { rule: "cgt-securities-2024-07", rate_pct: 15, amount: 221.63 })
        assert.deepStrictEqual([y26.dividends.length, y26.donations.length], [0, 0])
        assert.deepStrictEqual(y26.closing_positions, [{
          symbol: "LUCK",
          quantity: 70,
          cost: 24524.5,
          average_cost: 350.35
        }])

        const y27 = yield* statement(t, 2027)
        assert.deepStrictEqual([y27.period.from, y27.complete], ["2026-07-01", false])
        assert.deepStrictEqual(
          y27.sales.map((
            s
          ) => [s.event_id, s.proceeds, s.cost, s.gain, s.holding_days_max, s.capital_gains_tax?.amount]),
          [
            [s2.event.event_id, 8391.6, 7007, 1384.6, 44, 207.69]
          ],
          "the 1 July sale opens tax year 2027"
        )
        assert.deepStrictEqual(
          y27.dividends.map((
            d
          ) => [
            d.event_id,
            d.credit_date,
            d.shares,
            d.per_share,
            d.gross,
            d.tax_withheld,
            d.net,
            d.tax_basis,
            d.tax_rate_pct
          ]),
          [[dividend, "2026-08-25", 50, 5, 250, 37.5, 212.5, "rule", 15]]
        )
        assert.deepStrictEqual(y27.donations.map((d) => [d.event_id, d.amount, d.status, d.note]), [[
          donation.event_id,
          1500,
          "pending",
          "Edhi Foundation"
        ]])
        assert.deepStrictEqual(y27.totals.sales, {
          count: 1,
          proceeds: 8391.6,
          cost: 7007,
          gains: 1384.6,
          losses: 0,
          net_gain: 1384.6
        })
        assert.deepStrictEqual(y27.totals.dividends, { count: 1, gross: 250, tax_withheld: 37.5, net: 212.5 })
        assert.strictEqual(y27.totals.capital_gains_tax?.tax_at_rate, 207.69)
        assert.strictEqual(y27.totals.donations.amount, 1500)
        assert.deepStrictEqual(y27.closing_positions, [{
          symbol: "LUCK",
          quantity: 50,
          cost: 17517.5,
          average_cost: 350.35
        }])
        const needs = new Map(y27.return_needs.map((n) => [n.item, n.amount]))
        assert.deepStrictEqual(
          [
            needs.get("Capital gain or loss on listed securities"),
            needs.get("Dividends received, gross"),
            needs.get("Tax withheld on dividends"),
            needs.get("Donations")
          ],
          [1384.6, 250, 37.5, 1500]
        )
        const holding = bodyOf(yield* get("/v1/me/holdings", bearer(t))).items.find((h) => h.symbol === "LUCK")
        assert.deepStrictEqual(
          [holding?.realized_pnl, holding?.cost],
          [1477.5 + 1384.6, 17517.5],
          "the gains are what the holdings realised"
        )
        const v = bodyOf(yield* get("/v1/me/ledger/verify", bearer(t)))
        assert.isTrue(v.ok && v.projection_matches, "the donation in the portfolio's stream verifies")
      }))

    it.effect("a bonus comes at zero cost and lowers the average as the holdings show it; its shares' holding period runs from the credit", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* send(t, { kind: "tax_status", filer: true, trade_date: "2023-01-02" }))
        created(yield* send(t, { kind: "buy", symbol: "BOP", quantity: 105, price: 4.6, trade_date: "2023-03-01" }))
        const bonus = yield* acceptOne(t, "BOP", "2023-03-23")
        const y23 = yield* statement(t, 2023)
        assert.deepStrictEqual(
          y23.bonuses.map((
            b
          ) => [
            b.event_id,
            b.credit_date,
            b.percent,
            b.shares_received,
            b.fractional_entitlement,
            b.cost,
            b.position_cost,
            b.average_cost_before,
            b.average_cost_after
          ]),
          [[bonus, "2023-03-29", 10, 10, 0.5, 0, 483, 4.6, 4.2]]
        )
        const holding = bodyOf(yield* get("/v1/me/holdings", bearer(t))).items.find((h) => h.symbol === "BOP")
        assert.deepStrictEqual(
          [holding?.quantity, holding?.cost, holding?.average_cost],
          [115, 483, 4.2],
          "the same average as the holdings"
        )
        const sale = created(
          yield* send(t, { kind: "sell", symbol: "BOP", quantity: 115, price: 5, fees: 5.75, trade_date: "2023-09-05" })
        )
        const y24 = yield* statement(t, 2024)
        const s = y24.sales[0]!
        assert.deepStrictEqual([s.event_id, s.proceeds, s.cost, s.gain, s.holding_days_min, s.holding_days_max], [
          sale.event.event_id,
          569.25,
          483,
          86.25,
          160,
          188
        ])
        assert.deepStrictEqual(s.lots.map((l) => [l.acquired, l.quantity, l.how, l.days]), [[
          "2023-03-01",
          105,
          "buy",
          188
        ], ["2023-03-29", 10, "bonus", 160]])
        assert.notProperty(s, "capital_gains_tax", "bought before 2024-07-01: no rate recorded")
        assert.include(s.tax_note ?? "", "before 2024-07-01")
        assert.notProperty(y24.totals, "capital_gains_tax")
        assert.deepStrictEqual((yield* statement(t, 2023)).sales, [], "the sale is not in tax year 2023")
      }))

    it.effect("a Rs 5,000 gain and a Rs 2,000 loss in one tax year, a filer's purchases after 1 July 2024: 15% × 3,000 = 450", () =>
      Effect.gen(function*() {
        // Given a filer from 2024-07-01 who, in tax year 2027, bought 100 LUCK at 400 and sold them at 450 (gain 5,000), and
        // bought 100 MEBL at 500 and sold them at 480 (loss 2,000), no fees:
        const t = yield* session
        created(yield* send(t, { kind: "tax_status", filer: true, trade_date: "2024-07-01" }))
        for (const [symbol, buy, sell] of [["LUCK", 400, 450], ["MEBL", 500, 480]] as const) {
          created(yield* send(t, { kind: "buy", symbol, quantity: 100, price: buy, trade_date: "2026-07-02" }))
          created(yield* send(t, { kind: "sell", symbol, quantity: 100, price: sell, trade_date: "2026-07-10" }))
        }
        // When the statement of tax year 2027 is read, then the loss is set off: 15% of 5,000 − 2,000 = 450 (not 750).
        const y27 = yield* statement(t, 2027)
        assert.deepStrictEqual(y27.sales.map((s) => [s.symbol, s.gain, s.capital_gains_tax?.amount]), [[
          "LUCK",
          5000,
          750
        ], ["MEBL", -2000, 0]])
        const cgt = y27.totals.capital_gains_tax!
        assert.deepStrictEqual(
          [
            cgt.gains_covered,
            cgt.losses_covered,
            cgt.net_covered,
            cgt.losses_brought_forward,
            cgt.taxable_gain,
            cgt.tax_at_rate,
            cgt.loss_carried_forward
          ],
          [5000, 2000, 3000, [], 3000, 450, 0]
        )
      }))

    it.effect("a net loss of tax year 2026 is its own line in 2027, set off before the rate: 15% × (3,000 − 1,000) = 300", () =>
      Effect.gen(function*() {
        // Given the same tax year 2027 as above, after 100 MEBL bought at 500 and sold at 490 in June 2026 (tax year 2026):
        const t = yield* session
        created(yield* send(t, { kind: "tax_status", filer: true, trade_date: "2024-07-01" }))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 100, price: 500, trade_date: "2026-06-02" }))
        created(yield* send(t, { kind: "sell", symbol: "MEBL", quantity: 100, price: 490, trade_date: "2026-06-10" }))
        for (const [symbol, buy, sell] of [["LUCK", 400, 450], ["MEBL", 500, 480]] as const) {
          created(yield* send(t, { kind: "buy", symbol, quantity: 100, price: buy, trade_date: "2026-07-02" }))
          created(yield* send(t, { kind: "sell", symbol, quantity: 100, price: sell, trade_date: "2026-07-10" }))
        }
        // Then tax year 2026 has a net loss of 1,000, no tax, carried forward to 2027–2029:
        const y26 = (yield* statement(t, 2026)).totals.capital_gains_tax!
        assert.deepStrictEqual([y26.net_covered, y26.taxable_gain, y26.tax_at_rate, y26.loss_carried_forward], [
          -1000,
          0,
          0,
          1000
        ])
        // and tax year 2027 sets it off against its net gain of 3,000: 2,000 taxable, Rs 300.
        const y27 = (yield* statement(t, 2027)).totals.capital_gains_tax!
        assert.deepStrictEqual(y27.losses_brought_forward, [{
          from_tax_year: 2026,
          available: 1000,
          set_off: 1000,
          carried_forward: 0,
          last_tax_year: 2029
        }])
        assert.deepStrictEqual([y27.net_covered, y27.taxable_gain, y27.tax_at_rate], [3000, 2000, 300])
      }))

    it.effect("tax_year is bounded (400), defaults to the current year, and the route needs portfolio:read (401/403)", () =>
      Effect.gen(function*() {
        const t = yield* session
        for (const bad of ["2003", "2101", "2028", "abc", "2026.5", ""]) {
          assertFailed(yield* get(`/v1/me/tax-statement?tax_year=${bad}`, bearer(t)), 400)
        }
        assertFailed(yield* get("/v1/me/tax-statement?tax_year=2028", bearer(t)), 400, "INVALID_REQUEST", "2027")
        const current = bodyOf(yield* get("/v1/me/tax-statement", bearer(t)))
        assert.deepStrictEqual([current.tax_year, current.period.to, current.sales.length], [2027, "2027-06-30", 0])
        assert.strictEqual((yield* statement(t, 2004)).tax_year, 2004)
        assertFailed(yield* get("/v1/me/tax-statement?tax_year=2026"), 401)
        const writer = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(t))).key as string
        const reader = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(t))).key as string
        assertFailed(yield* get("/v1/me/tax-statement?tax_year=2026", bearer(writer)), 403)
        assertOk(yield* get("/v1/me/tax-statement?tax_year=2026", bearer(reader)))
        assertFailed(yield* post("/v1/me/donations", { amount: 10 }, bearer(reader)), 403)
        assertFailed(yield* post("/v1/me/donations", { amount: 0 }, bearer(t)), 400)
        assertOk(yield* post("/v1/me/donations", { amount: 250.5 }, bearer(writer)))
        created(yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 1, price: 350, trade_date: "2026-11-20" }))
        const ledger = bodyOf(yield* get("/v1/me/ledger", bearer(t)))
        assert.deepStrictEqual(
          ledger.items.map((i) => i.type),
          ["TradeRecorded", "DonationRecorded"],
          "a write after a donation in the stream"
        )
        assert.strictEqual((yield* statement(t, 2027)).totals.donations.amount, 250.5)
      }))
  }
)
