/**
 * The ledger's hardening findings, replayed over HTTP against the whole service
 * (items 3, 6, 9 and 12): the OGDC sequence that took a holding past
 * 2^53 shares, 150 concurrent donations, the per-user bound on live API keys
 * with the paged key list, and a key's secret sent as a path id never echoed.
 * Runs on the embedded store and on PostgreSQL (DATABASE_URL). The clock
 * starts at 2026-11-21 (`TestApp({ now })`).
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { Audit } from "../src/ledger/events/Audit.ts"
import { assertFailed, assertOk, bodyOf, del, get, post, SharedTestApp } from "./support/TestApp.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const session = Effect.map(post("/v1/me/session", {}), (r) => {
  assertOk(r, 201)
  return r.body.token as string
})

const App = SharedTestApp("2026-11-21T05:00:00.000Z")

layer(App, { timeout: 600_000, excludeTestServices: true })("ledger hardening", (it) => {
  it.effect("item 3: the issue's sequence — the buy that would hold 9,007,200,000,000,000 OGDC is a 400; verify stays ok", () =>
    Effect.gen(function*() {
      const token = yield* session
      const write = (body: Record<string, unknown>) => post("/v1/me/transactions", body, bearer(token))
      // 9,007,199 × 1000³ = 9,007,199,000,000,000 shares: under 2^53 = 9,007,199,254,740,992; one more buy of
      // 1,000,000,000 would pass it.
      assertOk(
        yield* write({ kind: "buy", symbol: "OGDC", quantity: 9_007_199, price: 0.01, trade_date: "2026-05-18" }),
        201
      )
      for (const trade_date of ["2026-05-19", "2026-05-20", "2026-05-21"]) {
        assertOk(yield* write({ kind: "split", symbol: "OGDC", numerator: 1000, denominator: 1, trade_date }), 201)
      }
      const refused = yield* write({
        kind: "buy",
        symbol: "OGDC",
        quantity: 1_000_000_000,
        price: 0.01,
        trade_date: "2026-05-22"
      })
      assertFailed(refused, 400, "INVALID_REQUEST", "beyond the ledger's exact range")
      assert.strictEqual(refused.body.symbol, "OGDC")
      const holdings = bodyOf(yield* get("/v1/me/holdings", bearer(token)))
      assert.deepStrictEqual(holdings.items.map((h) => [h.symbol, h.quantity]), [["OGDC", 9_007_199_000_000_000]])
      const verify = bodyOf(yield* get("/v1/me/ledger/verify", bearer(token)))
      assert.isTrue(verify.ok, JSON.stringify(verify))
      // Backdated trades are still decided, by a full replay: one share before the last split becomes 1,000 after
      // it (9,007,199,000,001,000, in range); one before the first would become 1,000,000,000 and cross 2^53.
      assertOk(yield* write({ kind: "buy", symbol: "OGDC", quantity: 1, price: 0.01, trade_date: "2026-05-20" }), 201)
      assertFailed(
        yield* write({ kind: "buy", symbol: "OGDC", quantity: 1, price: 0.01, trade_date: "2026-05-18" }),
        400,
        "INVALID_REQUEST",
        "exact range"
      )
      assert.isTrue(bodyOf(yield* get("/v1/me/ledger/verify", bearer(token))).ok)
    }))

  it.effect("item 6: 150 concurrent donations all answer 200 (the spec's status) promptly, none 500 or 503, and every stream verifies", () =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const replies = yield* Effect.forEach(
        Array.from({ length: 150 }, (_, i) => i + 1),
        // A reply that has not come in 60 s counts as status 0 (before the fix, many never came).
        (i) =>
          Effect.map(
            Effect.timeoutOption(post("/v1/donations", { amount: i, note: `concurrent ${i}` }), "60 seconds"),
            (r) => r._tag === "Some" ? r.value : { status: 0 } as never
          ),
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

  it.effect("item 12: at most 100 live API keys per user — the 101st is a 400 naming the limit, also when 20 race for the last 10", () =>
    Effect.gen(function*() {
      const owner = yield* session
      const create = (label: string) => post("/v1/me/keys", { grants: ["portfolio:read"], label }, bearer(owner))
      const first = yield* Effect.forEach(Array.from({ length: 90 }, (_, i) => `k${i + 1}`), create, {
        concurrency: 10
      })
      assert.deepStrictEqual(first.map((r) => r.status), Array.from({ length: 90 }, () => 201))
      // 20 concurrent creations for the last 10 places: the count is taken under a lock, so exactly 10 pass.
      const race = yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => `race${i + 1}`), create, {
        concurrency: "unbounded"
      })
      assert.deepStrictEqual(race.map((r) => r.status).sort(), [
        ...Array.from({ length: 10 }, () => 201),
        ...Array.from({ length: 10 }, () => 400)
      ])
      const refused = yield* create("one too many")
      assertFailed(refused, 400, "INVALID_REQUEST", "already holds 100 live API keys, the most allowed")
      // Revoking one frees a place; the session token was never counted.
      const revoked = bodyOf(first[0]!)
      assertOk(yield* del(`/v1/me/keys/${revoked.id}`, bearer(owner)))
      assertOk(yield* create("after a revocation"), 201)
      assertFailed(yield* create("one too many again"), 400, "INVALID_REQUEST", "100 live API keys")
    }))

  it.effect("item 12: the key list is paged with a signed cursor: every key once, oldest first; a changed or foreign cursor is a 400", () =>
    Effect.gen(function*() {
      const owner = yield* session
      for (let i = 1; i <= 24; i++) {
        assertOk(yield* post("/v1/me/keys", { grants: [], label: `p${i}` }, bearer(owner)), 201)
      }
      const seen: Array<{ readonly id: string; readonly label?: string | undefined; readonly created_at: string }> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const path: string = cursor === null
          ? "/v1/me/keys?limit=10"
          : `/v1/me/keys?limit=10&cursor=${encodeURIComponent(cursor)}`
        const page = bodyOf(yield* get(path as "/v1/me/keys", bearer(owner)))
        assert.strictEqual(page.total, 25, "24 keys and the session")
        assert.isAtMost(page.items.length, 10)
        seen.push(...page.items)
        cursor = page.next_cursor
        pages++
      } while (cursor !== null)
      assert.strictEqual(pages, 3)
      assert.strictEqual(seen.length, 25)
      assert.strictEqual(new Set(seen.map((k) => k.id)).size, 25, "no key twice")
      assert.deepStrictEqual(seen.map((k) => k.label), [
        "session",
        ...Array.from({ length: 24 }, (_, i) => `p${i + 1}`)
      ], "oldest first")
      const firstPage = bodyOf(yield* get("/v1/me/keys?limit=10" as "/v1/me/keys", bearer(owner)))
      const next = firstPage.next_cursor!
      assertFailed(
        yield* get(`/v1/me/keys?cursor=${next.slice(0, -2)}xx` as "/v1/me/keys", bearer(owner)),
        400,
        "INVALID_REQUEST",
        "cursor"
      )
      const other = yield* session
      assertFailed(
        yield* get(`/v1/me/keys?cursor=${next}` as "/v1/me/keys", bearer(other)),
        400,
        "INVALID_REQUEST",
        "another query"
      )
      assertFailed(yield* get("/v1/me/keys?limit=101" as "/v1/me/keys", bearer(owner)), 400, "INVALID_REQUEST", "limit")
      assert.strictEqual(
        bodyOf(yield* get("/v1/me/keys", bearer(owner))).items.length,
        25,
        "the default page holds 100"
      )
    }))

  it.effect("item 9: a key's secret sent as the id to revoke is not echoed in the 404; nor a token given as an event to reverse", () =>
    Effect.gen(function*() {
      const owner = yield* session
      const key = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(owner))).key
      for (const secret of [key, owner]) {
        const r = yield* del(`/v1/me/keys/${secret}`, bearer(owner))
        assertFailed(r, 404, "DATA_NOT_FOUND", "no such key")
        assert.notInclude(JSON.stringify(r.body), secret)
        assert.notInclude(JSON.stringify(r.body), secret.slice(6), "not even the secret part")
      }
      const reversal = yield* post("/v1/me/transactions", {
        kind: "reversal",
        event_id: key,
        reason: "pasted the wrong thing"
      }, bearer(owner))
      assertFailed(reversal, 400, "INVALID_REQUEST", "no event (the id given) in this portfolio")
      assert.notInclude(JSON.stringify(reversal.body), key.slice(6))
    }))
})
