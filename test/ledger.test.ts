/**
 * The portfolio ledger over HTTP and in the store: identity and grants,
 * recording and rejections, idempotency, the database refusing changes to
 * events, tamper detection, rebuilds, catch-up readers and concurrent
 * writers. Runs on the embedded store and, in CI, on the real PostgreSQL
 * (the tests that need several connections at once run there only).
 */
import { assert, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { Audit } from "../src/ledger/Audit.ts"
import { EMPTY_HEAD, EventStore } from "../src/ledger/EventStore.ts"
import { Keys } from "../src/ledger/Keys.ts"
import { Portfolio, streamOf } from "../src/ledger/Portfolio.ts"
import { positionsOf, readHoldings, samePositions } from "../src/ledger/Projection.ts"
import { get, post, type Reply, TestApp } from "./support/TestApp.ts"
import { isRealPostgres } from "./support/TestDatabase.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const isError = (r: Reply, status: number, code: string) => {
  assert.strictEqual(r.status, status, JSON.stringify(r.body))
  assert.strictEqual(r.body.error, code)
}
const session = Effect.map(post("/v1/me/session", {}), (r) => {
  assert.strictEqual(r.status, 201)
  return r.body.token as string
})
const send = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  post("/v1/me/transactions", body, { ...bearer(token), ...headers })

// HUBC closes recorded in the eod series: 215.42 (2026-05-22), 219.50 (2026-05-25).
const buyHubc = { kind: "buy", symbol: "HUBC", quantity: 100, price: 215.42, fees: 120, trade_date: "2026-05-22" }

layer(TestApp({ withPack: true }), { timeout: 600_000, excludeTestServices: true })("portfolio ledger", (it) => {
  it.effect("a session is 201 with a token and a user; the token works as a bearer credential", () =>
    Effect.gen(function*() {
      const r = yield* post("/v1/me/session", {})
      assert.strictEqual(r.status, 201)
      assert.match(r.body.token, /^psx_s_/)
      assert.isString(r.body.user.id)
      assert.deepStrictEqual(r.body.grants, ["portfolio:read", "portfolio:write"])
      const h = yield* get("/v1/me/holdings", bearer(r.body.token))
      assert.strictEqual(h.status, 200)
      assert.deepStrictEqual(h.body.items, [])
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ n: number }>`select count(*)::int as n from api_keys where secret_hash = ${r.body.token}`
      assert.strictEqual(stored[0]!.n, 0, "the secret itself is never stored")
    }))

  it.effect("missing, unknown and revoked credentials are 401; a key without the grant is 403", () =>
    Effect.gen(function*() {
      isError(yield* get("/v1/me/holdings"), 401, "UNAUTHORIZED")
      isError(yield* get("/v1/me/portfolio", { authorization: "Bearer psx_s_nope_nope_nope" }), 401, "UNAUTHORIZED")
      isError(yield* get("/v1/me/analyze", { authorization: "Basic abc" }), 401, "UNAUTHORIZED")
      const token = yield* session
      const readOnly = yield* post("/v1/me/keys", { grants: ["portfolio:read"], label: "reader" }, bearer(token))
      assert.strictEqual(readOnly.status, 201)
      assert.match(readOnly.body.key, /^psx_k_/)
      assert.strictEqual((yield* get("/v1/me/holdings", bearer(readOnly.body.key))).status, 200)
      isError(yield* send(readOnly.body.key, buyHubc), 403, "FORBIDDEN")
      const writeOnly = yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(token))
      assert.strictEqual((yield* send(writeOnly.body.key, buyHubc)).status, 201)
      isError(yield* get("/v1/me/holdings", bearer(writeOnly.body.key)), 403, "FORBIDDEN")
      const keys = yield* get("/v1/me/keys", bearer(token))
      assert.strictEqual(keys.body.length, 3)
      assert.isTrue(keys.body.every((k: any) => k.key === undefined), "no secrets listed")
      const revoked = yield* Effect.flatMap(
        Effect.succeed(readOnly.body.id as string),
        (id) => Effect.gen(function*() {
          const keysService = yield* Keys
          const principal = yield* keysService.authenticate(token)
          return yield* keysService.revoke(principal, id)
        })
      )
      assert.isString(revoked.revoked_at)
      isError(yield* get("/v1/me/holdings", bearer(readOnly.body.key)), 401, "UNAUTHORIZED")
    }))

  it.effect("a user can never read or write another user's ledger", () =>
    Effect.gen(function*() {
      const alice = yield* session
      const bob = yield* session
      assert.strictEqual((yield* send(alice, buyHubc)).status, 201)
      const bobs = yield* get("/v1/me/holdings", bearer(bob))
      assert.deepStrictEqual(bobs.body.items, [])
      const alices = yield* get("/v1/me/ledger", bearer(alice))
      assert.strictEqual(alices.body.total, 1)
      // Bob cannot reverse Alice's event: it is not in his stream.
      const r = yield* send(bob, { kind: "reversal", event_id: alices.body.items[0].event_id, reason: "not mine" })
      isError(r, 400, "INVALID_REQUEST")
      assert.strictEqual((yield* get("/v1/me/ledger", bearer(alice))).body.total, 1)
    }))

  it.effect("recording: holdings at the delayed quote; rejections change nothing", () =>
    Effect.gen(function*() {
      const t = yield* session
      const r = yield* send(t, buyHubc)
      assert.strictEqual(r.status, 201)
      assert.strictEqual(r.body.event.payload.settlement_date, "2026-05-25")
      assert.deepStrictEqual(r.body.holding.quantity, 100)
      assert.strictEqual(r.body.holding.average_cost, 216.62, "(100 × 215.42 + 120 fees) / 100")
      assert.strictEqual(r.body.holding.market_price, 219.5)
      assert.strictEqual(r.body.holding.market_value, 21950)
      assert.isTrue(r.body.holding.quote_stale)
      isError(yield* send(t, { ...buyHubc, kind: "sell", quantity: 101, trade_date: "2026-05-25" }), 400, "INVALID_REQUEST")
      isError(yield* send(t, { ...buyHubc, quantity: 0 }), 400, "INVALID_REQUEST")
      isError(yield* send(t, { ...buyHubc, price: -1 }), 400, "INVALID_REQUEST")
      isError(yield* send(t, { ...buyHubc, trade_date: "2026-05-23" }), 400, "INVALID_REQUEST")
      isError(yield* send(t, { ...buyHubc, trade_date: "2099-01-05" }), 400, "INVALID_REQUEST")
      isError(yield* send(t, { ...buyHubc, symbol: "ZZZZ" }), 404, "DATA_NOT_FOUND")
      isError(yield* send(t, { ...buyHubc, symbol: "HU$BC" }), 400, "INVALID_SYMBOL")
      isError(yield* send(t, { ...buyHubc, kind: "gift" }), 400, "INVALID_REQUEST")
      isError(yield* send(t, "{not json"), 400, "INVALID_REQUEST")
      assert.strictEqual((yield* get("/v1/me/ledger", bearer(t))).body.total, 1, "nothing appended by the rejections")
      const flagged = yield* send(t, { ...buyHubc, price: 300, trade_date: "2026-05-25" })
      assert.strictEqual(flagged.status, 201)
      assert.match(flagged.body.flags[0], /outside 2026-05-25's circuit-breaker bounds 193\.88–236\.96/)
      const p = yield* get("/v1/me/portfolio", bearer(t))
      assert.strictEqual(p.body.transactions.total, 2)
      assert.strictEqual(p.body.cash_flows.invested, 100 * 215.42 + 120 + 100 * 300 + 120)
      const a = yield* get("/v1/me/analyze", bearer(t))
      assert.strictEqual(a.body.overlap.symbols_in_kse100, 1)
      assert.strictEqual(a.body.sectors[0].sector, "POWER GENERATION & DISTRIBUTION")
      assert.isNumber(a.body.sectors[0].kse100_pct)
      assert.strictEqual(a.body.unavailable[0].part, "benchmark returns")
      assert.strictEqual(a.body.returns.to, "2026-05-25")
      assert.isNumber(a.body.returns.periods.find((x: any) => x.period === "since_inception").return_pct)
    }))

  it.effect("the same Idempotency-Key and body returns the original result; another body is 409", () =>
    Effect.gen(function*() {
      const t = yield* session
      const first = yield* send(t, buyHubc, { "idempotency-key": "order-1" })
      const again = yield* send(t, buyHubc, { "idempotency-key": "order-1" })
      assert.strictEqual(again.status, 201)
      assert.isTrue(again.body.replayed)
      assert.strictEqual(again.body.event.event_id, first.body.event.event_id)
      isError(yield* send(t, { ...buyHubc, quantity: 5 }, { "idempotency-key": "order-1" }), 409, "INVALID_REQUEST")
      assert.strictEqual((yield* get("/v1/me/ledger", bearer(t))).body.total, 1)
    }))

  it.effect("donations are created pending; a bad amount is 400", () =>
    Effect.gen(function*() {
      const d = yield* post("/v1/donations", { amount: 1500, currency: "PKR", note: "for the data" })
      assert.strictEqual(d.status, 200)
      assert.strictEqual(d.body.status, "pending")
      isError(yield* post("/v1/donations", { amount: 0 }), 400, "INVALID_REQUEST")
      isError(yield* post("/v1/donations", { amount: 10.001 }), 400, "INVALID_REQUEST")
      isError(yield* post("/v1/donations", { amount: 5, currency: "USD" }), 400, "INVALID_REQUEST")
    }))

  it.effect("the database refuses UPDATE, DELETE and TRUNCATE on events; verify finds an altered row", () =>
    Effect.gen(function*() {
      const t = yield* session
      yield* send(t, buyHubc)
      const second = yield* send(t, { ...buyHubc, quantity: 50, trade_date: "2026-05-25", price: 219.5 })
      yield* send(t, { kind: "sell", symbol: "HUBC", quantity: 20, price: 219.5, trade_date: "2026-05-25" })
      assert.isTrue((yield* get("/v1/me/ledger/verify", bearer(t))).body.ok)
      const sql = yield* SqlClient.SqlClient
      const id = second.body.event.event_id as string
      for (const stmt of [`UPDATE events SET payload = payload WHERE event_id = '${id}'`, `DELETE FROM events WHERE event_id = '${id}'`, "TRUNCATE events"]) {
        const r = yield* Effect.result(sql.unsafe(stmt))
        assert.strictEqual(r._tag, "Failure", `${stmt} must fail`)
      }
      // An attacker with the power to disable the trigger:
      yield* sql.unsafe("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
      yield* sql.unsafe(`UPDATE events SET payload = jsonb_set(payload, '{quantity}', '5000') WHERE event_id = '${id}'`)
      yield* sql.unsafe("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
      const v = yield* get("/v1/me/ledger/verify", bearer(t))
      assert.isFalse(v.body.ok)
      assert.strictEqual(v.body.first_failure.event_id, id)
      assert.strictEqual(v.body.first_failure.version, 2)
      assert.match(v.body.first_failure.reason, /altered/)
      const audit = yield* Audit
      const all = yield* audit.verifyAll()
      assert.include(all.failures.map((f) => f.first_failure?.event_id), id)
    }))

  it.effect("a rebuild from the events equals the live projection", () =>
    Effect.gen(function*() {
      const t = yield* session
      yield* send(t, buyHubc)
      yield* send(t, { kind: "bonus", symbol: "HUBC", percent: 15, trade_date: "2026-05-25" })
      yield* send(t, { kind: "dividend", symbol: "HUBC", per_share: 4, tax_withheld: 69, trade_date: "2026-05-25" })
      yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 10, price: 500, trade_date: "2026-05-25" })
      const keys = yield* Keys
      const principal = yield* keys.authenticate(t)
      const stream = streamOf(principal.userId)
      const store = yield* EventStore
      const sql = yield* SqlClient.SqlClient
      const live = yield* readHoldings(stream)
      const events = yield* store.readStream(stream)
      assert.isTrue(samePositions(positionsOf(events), live))
      const hubc = live.find((p) => p.symbol === "HUBC")!
      assert.deepStrictEqual([hubc.quantity, hubc.dividends_gross, hubc.dividends_net], [115, 460, 391])
      yield* sql`UPDATE holdings SET quantity = 1 WHERE stream_id = ${stream}`
      const audit = yield* Audit
      assert.isFalse((yield* audit.verifyStream(stream)).projection_matches)
      yield* audit.rebuildAll
      assert.isTrue(samePositions(yield* readHoldings(stream), live))
    }))

  it.effect.skipIf(!isRealPostgres)("a catch-up reader never skips an event committed late with a lower position", () =>
    Effect.gen(function*() {
      const store = yield* EventStore
      const sql = yield* SqlClient.SqlClient
      const start = yield* store.readAll(undefined, 1_000_000)
      const insert = (stream: string) =>
        sql`INSERT INTO events (stream_id, version, event_id, type, payload, metadata, recorded_at, effective_date, prev_hash, hash)
            VALUES (${stream}, 1, ${stream}, 'DonationRecorded', '{}'::jsonb, '{}'::jsonb, now(), current_date, 'x', 'y')`
      const inserted = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      // The slow transaction takes its position first and commits last.
      const slow = yield* sql.withTransaction(Effect.gen(function*() {
        yield* insert("catchup-slow")
        yield* Deferred.succeed(inserted, undefined)
        yield* Deferred.await(release)
      })).pipe(Effect.forkChild)
      yield* Deferred.await(inserted)
      yield* sql.withTransaction(insert("catchup-fast"))
      // Only this test's streams: earlier tests' events may still be arriving behind the horizon.
      const mine = (r: { events: ReadonlyArray<{ stream_id: string }> }) => r.events.map((e) => e.stream_id).filter((s) => s.startsWith("catchup-"))
      const during = yield* store.readAll(start.next, 100_000)
      assert.deepStrictEqual(mine(during), [], "the fast event waits behind the open slow transaction")
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(slow)
      // The horizon is the oldest transaction in flight on the whole server (other test files share it):
      // wait for it to pass both events.
      let after = yield* store.readAll(during.next, 100_000)
      let seen = mine(after)
      let checkpoint = after.next
      for (let i = 0; i < 200 && seen.length < 2; i++) {
        yield* Effect.sleep("50 millis")
        after = yield* store.readAll(checkpoint, 100_000)
        checkpoint = after.next
        seen = [...seen, ...mine(after)]
      }
      assert.deepStrictEqual(seen, ["catchup-slow", "catchup-fast"], "both arrive, in commit-safe order, none skipped")
      const positions = yield* sql<{ stream_id: string; position: string }>`
        select stream_id, position::text from events where stream_id like 'catchup-%' order by stream_id desc`
      assert.isBelow(Number(positions[0]!.position), Number(positions[1]!.position), "the slow event holds the lower position")
    }))

  it.effect.skipIf(!isRealPostgres)("two appends at the same expected version: one wins, the other is a typed conflict", () =>
    Effect.gen(function*() {
      const store = yield* EventStore
      const donation = (n: number) => ({
        type: "DonationRecorded" as const, donation_id: `race-${n}`, amount: n, currency: "PKR" as const, status: "pending" as const
      })
      const results = yield* Effect.all(
        [1, 2].map((n) => Effect.result(store.append("race-stream", EMPTY_HEAD, [donation(n)], {}))),
        { concurrency: 2 }
      )
      const failures = results.filter((r) => r._tag === "Failure")
      assert.strictEqual(failures.length, 1)
      assert.strictEqual(failures[0]!._tag === "Failure" && (failures[0] as any).failure._tag, "ConcurrencyConflict")
      assert.strictEqual((yield* store.readStream("race-stream")).length, 1)
    }))

  it.effect.skipIf(!isRealPostgres)("8 writers × 250 appends to one portfolio: exactly 2,000 events, contiguous, verified", () =>
    Effect.gen(function*() {
      const keys = yield* Keys
      const portfolio = yield* Portfolio
      const audit = yield* Audit
      const { token } = yield* keys.createSession
      const principal = yield* keys.authenticate(token)
      yield* Effect.forEach(Array.from({ length: 8 }, (_, w) => w), (w) =>
        Effect.forEach(Array.from({ length: 250 }, (_, i) => i), (i) =>
          portfolio.record(principal, { kind: "buy", symbol: "HUBC", quantity: 1 + ((w + i) % 3), price: 215.42, trade_date: "2026-05-22" }, {}),
          { discard: true }), { concurrency: 8, discard: true })
      const store = yield* EventStore
      const events = yield* store.readStream(streamOf(principal.userId))
      assert.strictEqual(events.length, 2000)
      assert.deepStrictEqual(events.map((e) => e.version), Array.from({ length: 2000 }, (_, i) => i + 1))
      const v = yield* audit.verifyStream(streamOf(principal.userId))
      assert.isTrue(v.ok)
      assert.isTrue(v.projection_matches)
    }))

  it.effect.skipIf(!isRealPostgres)("8 writers × 250 to different portfolios, and repeated Idempotency-Keys never duplicate", () =>
    Effect.gen(function*() {
      const keys = yield* Keys
      const portfolio = yield* Portfolio
      const store = yield* EventStore
      const principals = yield* Effect.forEach(Array.from({ length: 8 }), () =>
        Effect.flatMap(keys.createSession, (s) => keys.authenticate(s.token)))
      yield* Effect.forEach(principals, (p) =>
        Effect.forEach(Array.from({ length: 250 }, (_, i) => i), () =>
          portfolio.record(p, { kind: "buy", symbol: "MEBL", quantity: 2, price: 500, trade_date: "2026-05-25" }, {}),
          { discard: true }), { concurrency: 8, discard: true })
      for (const p of principals) assert.strictEqual((yield* store.readStream(streamOf(p.userId))).length, 250)
      // Eight writers send the same 250 keyed requests to one portfolio.
      const shared = principals[0]!
      const before = (yield* store.readStream(streamOf(shared.userId))).length
      yield* Effect.forEach(Array.from({ length: 8 }), () =>
        Effect.forEach(Array.from({ length: 250 }, (_, i) => i), (i) =>
          portfolio.record(shared, { kind: "buy", symbol: "MEBL", quantity: 1, price: 500, trade_date: "2026-05-25" }, { idempotencyKey: `k-${i}` }),
          { discard: true }), { concurrency: 8, discard: true })
      assert.strictEqual((yield* store.readStream(streamOf(shared.userId))).length, before + 250)
    }))
})
