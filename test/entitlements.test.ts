/**
 * Entitlements over HTTP on the bundled pack (both stores). The figures are worked by hand
 * from the recordings (data/pack/payouts.json) and the dated rules:
 *
 * - MEBL "80(ii) (D)", book closure 2026-08-19 to 08-20, face value Rs 10: Rs 8 a share. Under T+1 the last
 *   buy date is Mon 2026-08-17 (its trade settles Tue 08-18, before the closure; a trade of 08-18 settles on
 *   08-19), so it trades XD on 08-18. 100 shares: Rs 800 gross; a filer's 15% is Rs 120, net Rs 680.
 * - MEBL "70%(ii) (D)", book closure 2025-08-27 (T+2): last buy date Fri 2025-08-22; a buy of Mon 08-25 would
 *   settle on 08-27 and is not entitled (under T+1 it would have been). Rs 7 a share.
 * - LUCK "250%(F) (D)", book closure 2026-08-18, face value Rs 2 since the 5-for-1 sub-division of 28 Apr 2025
 *   (domain/market/filings/FaceValues.ts): Rs 5 a share. The last buy date is Thu 2026-08-13: its trade settles Mon
 *   08-17 across the Independence Day holiday (Fri 08-14); a trade of Mon 08-17 settles on 08-18 itself.
 *   40 shares: Rs 200 gross; a non-filer's 30% is Rs 60, net Rs 140.
 *
 * The service's clock starts at 2026-11-21 10:00 Karachi time.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { entitlementsOf, type PayoutFact } from "../domain/ledger/Entitlements.ts"
import { bearer, created, send, session } from "./support/Portfolios.ts"
import { assertFailed, bodyOf, get, post, SharedTestApp } from "./support/TestApp.ts"

const START = "2026-11-21T05:00:00.000Z"
const list = (token: string, path: "/v1/me/entitlements" | "/v1/me/entitlements?limit=1" = "/v1/me/entitlements") =>
  Effect.map(get(path, bearer(token)), (r) => bodyOf(r))
const findOne = (token: string, symbol: string, closure: string) =>
  Effect.map(list(token), (l) => {
    const found = l.items.find((e) => e.symbol === symbol && e.book_closure_from === closure)
    assert.exists(found, `an entitlement of ${symbol} at ${closure}: ${JSON.stringify(l.items)}`)
    return found!
  })
const accept = (token: string, id: string) => post(`/v1/me/entitlements/${id}/accept`, {}, bearer(token))
const dismiss = (token: string, id: string) => post(`/v1/me/entitlements/${id}/dismiss`, {}, bearer(token))
const filer = (token: string, isFiler: boolean) =>
  send(token, { kind: "tax_status", filer: isFiler, trade_date: "2026-01-01" })

layer(SharedTestApp(START), { timeout: 600_000, excludeTestServices: true })(
  "entitlements",
  (it) => {
    it.effect("100 MEBL bought in May 2026 are owed Rs 800 gross from the 80% interim; a filer's 15% leaves Rs 680", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* filer(t, true))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 100, price: 400, trade_date: "2026-05-25" }))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 50, price: 410, trade_date: "2026-08-18" }))
        const e = yield* findOne(t, "MEBL", "2026-08-19")
        assert.deepStrictEqual(
          [
            e.kind,
            e.state,
            e.last_buy_date,
            e.xd_date,
            e.shares_held,
            e.face_value,
            e.cash_per_share,
            e.gross,
            e.tax_rate_pct,
            e.tax_withheld,
            e.net
          ],
          ["cash_dividend", "due", "2026-08-17", "2026-08-18", 100, 10, 8, 800, 15, 120, 680],
          "the 50 bought on the XD day 08-18 are not entitled"
        )
        assert.strictEqual(e.details, "80(ii) (D)")
        assert.strictEqual(e.id, `ent-${e.payout_id}`)
        const l = yield* list(t)
        assert.isFalse(
          l.items.some((x) => x.book_closure_from === "2026-05-06"),
          "bought after the 75%(i)'s last buy date (05-04): not listed"
        )
        assert.isTrue(l.sources.some((s) => s.dataset === e.dataset), "the payout's dataset is among the sources")
        assert.strictEqual((yield* findOne(t, "MEBL", "2026-08-19")).id, e.id, "the id is stable across reads")
      }))

    it.effect("under T+2 a buy two days before the closure is not entitled: 10 of 15 MEBL owed Rs 70 from the 2025-08-27 closure", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 10, price: 400, trade_date: "2025-08-22" }))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 5, price: 409, trade_date: "2025-08-25" }))
        const e = yield* findOne(t, "MEBL", "2025-08-27")
        assert.deepStrictEqual([e.last_buy_date, e.shares_held, e.cash_per_share, e.gross], ["2025-08-22", 10, 7, 70])
        assert.notProperty(e, "tax_withheld", "no filer status recorded: tax unknown, never 0")
        assert.notProperty(e, "net")
      }))

    it.effect("LUCK's face value is Rs 2: 40 shares are owed Rs 5 each from the 250% final; the holiday moves the last buy date to 08-13", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* filer(t, false))
        created(yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 40, price: 350, trade_date: "2026-05-18" }))
        created(yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 7, price: 350, trade_date: "2026-08-17" }))
        const e = yield* findOne(t, "LUCK", "2026-08-18")
        assert.deepStrictEqual(
          [
            e.last_buy_date,
            e.xd_date,
            e.shares_held,
            e.face_value,
            e.cash_per_share,
            e.gross,
            e.tax_rate_pct,
            e.tax_withheld,
            e.net
          ],
          ["2026-08-13", "2026-08-17", 40, 2, 5, 200, 30, 60, 140]
        )
        assert.isFalse(
          (yield* list(t)).items.some((x) => x.book_closure_from === "2025-09-19"),
          "LUCK's 2025 payout: nothing held then"
        )
      }))

    it.effect("accept records the dividend once, with the payout as its source; the holding then carries Rs 800 / 120", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* filer(t, true))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 100, price: 400, trade_date: "2026-05-25" }))
        const e = yield* findOne(t, "MEBL", "2026-08-19")
        const first = bodyOf(yield* accept(t, e.id))
        assert.deepStrictEqual([first.state, first.recorded_now], ["recorded", true])
        const again = bodyOf(yield* accept(t, e.id))
        assert.deepStrictEqual([again.state, again.recorded_now, again.event_id], ["recorded", false, first.event_id])
        const ledger = bodyOf(yield* get("/v1/me/ledger", bearer(t)))
        assert.strictEqual(ledger.total, 3, "tax status, buy, one dividend")
        const item = ledger.items.find((i) => i.event_id === first.event_id)
        const meta = item?.metadata as Record<string, unknown> | undefined
        assert.include(String(meta?.source), e.payout_id)
        assert.strictEqual(meta?.causation_id, e.id)
        const mebl = bodyOf(yield* get("/v1/me/holdings", bearer(t))).items.find((h) => h.symbol === "MEBL")
        assert.deepStrictEqual([mebl?.dividends_gross, mebl?.tax_withheld, mebl?.dividends_net], [800, 120, 680])
        const now = yield* findOne(t, "MEBL", "2026-08-19")
        assert.deepStrictEqual([now.state, now.recorded_event_id, now.matches], ["recorded", first.event_id, true])
        const v = bodyOf(yield* get("/v1/me/ledger/verify", bearer(t)))
        assert.isTrue(v.ok && v.projection_matches, JSON.stringify(v))
      }))

    it.effect("a backdated buy changes the entitlement, and a recorded warrant amount that no longer matches is flagged", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 100, price: 400, trade_date: "2026-05-25" }))
        created(
          yield* send(t, {
            kind: "dividend",
            symbol: "MEBL",
            gross_amount: 800,
            tax_withheld: 120,
            book_closure_from: "2026-08-19",
            trade_date: "2026-08-20"
          })
        )
        let e = yield* findOne(t, "MEBL", "2026-08-19")
        assert.deepStrictEqual([e.state, e.matches, e.gross], ["recorded", true, 800])
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 20, price: 400, trade_date: "2026-06-01" }))
        e = yield* findOne(t, "MEBL", "2026-08-19")
        assert.deepStrictEqual(
          [e.shares_held, e.gross, e.state, e.matches],
          [120, 960, "recorded", false],
          "120 × Rs 8"
        )
        assert.include(e.mismatch ?? "", "800")
      }))

    it.effect("dismiss hides an entitlement; unknown or malformed ids, a right-less key and out-of-bound limits are refused", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 40, price: 350, trade_date: "2026-05-18" }))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 100, price: 400, trade_date: "2026-05-25" }))
        const e = yield* findOne(t, "LUCK", "2026-08-18")
        assert.strictEqual(bodyOf(yield* dismiss(t, e.id)).state, "dismissed")
        assert.strictEqual(bodyOf(yield* dismiss(t, e.id)).state, "dismissed", "twice is once")
        assert.strictEqual((yield* findOne(t, "LUCK", "2026-08-18")).state, "dismissed")
        assertFailed(yield* dismiss(t, "ent-00000000"), 404, "DATA_NOT_FOUND")
        assertFailed(yield* accept(t, "ent-../../x"), 400)
        assertFailed(yield* accept(t, e.id), 400, "INVALID_REQUEST", "filer")
        assert.strictEqual(bodyOf(yield* get("/v1/me/ledger", bearer(t))).total, 2, "a refused accept records nothing")
        const reader = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(t))).key as string
        const writer = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(t))).key as string
        assertFailed(yield* accept(reader, e.id), 403)
        assertFailed(yield* dismiss(reader, e.id), 403)
        assertFailed(yield* get("/v1/me/entitlements", bearer(writer)), 403)
        assertFailed(yield* get("/v1/me/entitlements"), 401)
        for (const bad of ["?limit=0", "?limit=501", "?limit=1e9"]) {
          assertFailed(yield* get(`/v1/me/entitlements${bad}`, bearer(t)), 400)
        }
        const one = yield* list(t, "/v1/me/entitlements?limit=1")
        assert.strictEqual(one.items.length, 1)
        assert.isAtLeast(one.total, 2)
        assert.strictEqual(one.items[0]!.book_closure_from, "2026-08-19", "newest book closure first")
      }))
  }
)

/** The bonus and right rules on the portal's own texts (domain/psx/PayoutNotation.ts examples), worked by hand. */
describe("entitlement figures for a bonus and a right (pure)", () => {
  const payout = (kind: "bonus" | "right", percent: number, details: string, face?: number): PayoutFact => ({
    id: "0000abcd",
    symbol: "XYZ",
    kind,
    details,
    percent,
    bookClosureFrom: "2026-05-22",
    dataset: "test",
    ...(face !== undefined ? { faceValue: { rupees: face, source: "test" } } : {})
  })
  const holding105 = [{
    event_id: "b1",
    version: 1,
    effective_date: "2026-05-18",
    event: {
      type: "TradeRecorded" as const,
      side: "buy" as const,
      symbol: "XYZ",
      quantity: 105,
      price: 10,
      fees: 0,
      trade_date: "2026-05-18",
      settlement_date: "2026-05-19",
      flags: []
    }
  }]

  it("a 10% bonus on 105 shares credits 10 whole shares and owes half a share in cash (its rupees not recorded)", () => {
    const [e] = entitlementsOf([payout("bonus", 10, "10% (B)")], holding105, "2026-11-21", new Set())
    assert.deepStrictEqual([e?.last_buy_date, e?.shares_held, e?.bonus_shares, e?.fractional_entitlement], [
      "2026-05-20",
      105,
      10,
      0.5
    ])
    assert.notProperty(e, "gross")
    assert.match(e?.notes.join(" ") ?? "", /fraction is paid in cash/)
  })

  it("a right at par offers whole shares at the face value; at a premium of Rs 2, at face value + 2; without a face value, no price", () => {
    const par =
      entitlementsOf([payout("right", 22.45, "22.45% AT PAR (R)", 10)], holding105, "2026-11-21", new Set())[0]
    assert.deepStrictEqual([par?.right_shares, par?.right_price], [23, 10], "105 × 22.45% = 23.57: 23 whole shares")
    const premium = entitlementsOf(
      [payout("right", 70, "70% AT A PREMIUM OF Rs.2/= PER SHARE (R)", 10)],
      holding105,
      "2026-11-21",
      new Set()
    )[0]
    assert.deepStrictEqual(
      [premium?.right_shares, premium?.right_price],
      [73, 12],
      "105 × 70% = 73.5: 73 shares at Rs 10 + 2"
    )
    const unknown = entitlementsOf(
      [payout("right", 70, "70% AT A PREMIUM OF Rs.2/= PER SHARE (R)")],
      holding105,
      "2026-11-21",
      new Set()
    )[0]
    assert.notProperty(unknown, "right_price")
  })

  it("the same payout in two recordings is listed once, under its smallest id", () => {
    const a = payout("bonus", 10, "10% (B)"), b = { ...a, id: "0000abce", announcedAt: "2026-05-01T10:00:00.000Z" }
    assert.deepStrictEqual(entitlementsOf([b, a], holding105, "2026-11-21", new Set()).map((e) => e.id), [
      "ent-0000abcd"
    ])
  })
})
