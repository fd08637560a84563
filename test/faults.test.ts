/**
 * Fault injection without touching the shared PostgreSQL server:
 *
 * - the store goes away under a load of reads and writes (the test store's
 *   loopback proxy drops every connection and refuses new ones): market reads
 *   keep answering from the in-memory read model, ledger reads and writes
 *   answer 503 SOURCE_UNAVAILABLE records instead of hanging, `/ready` says 503
 *   within a second; when the store comes back the service recovers without a
 *   restart, the ledger verifies, and every acknowledged append is there once;
 * - the service process is SIGKILLed during writes and restarted on the same
 *   store: every acknowledged write is present once, nothing unacknowledged is
 *   half-present (a retry with the same Idempotency-Key either replays it or
 *   appends it whole), and the ledger verifies.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Fiber, Ref } from "effect"
import { waitUntil } from "./support/Eventually.ts"
import { call, startService, throwawayStore } from "./support/ServiceProcess.ts"
import {
  type AnyReply,
  assertFailed,
  assertOk,
  assertSucceeded,
  bodyOf,
  get,
  post,
  TestApp
} from "./support/TestApp.ts"
import { DbProxy } from "./support/TestDatabase.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
// HUBC closed at 215.42 on 2026-05-22 (recorded eod series); one share per event so holdings count events.
const buyOne = { kind: "buy", symbol: "HUBC", quantity: 1, price: 215.42, trade_date: "2026-05-22" }

interface Attempt {
  readonly key: string
  readonly status: number
  readonly eventId: string | undefined
  readonly ms: number
}

/** An error record with the given code, or a success; anything else is described. */
const recordProblem = (r: AnyReply, allowed: ReadonlyArray<number>) =>
  allowed.includes(r.status) && (r.ok || (typeof r.body.error === "string" && typeof r.body.message === "string"))
    ? undefined
    : `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`

/** Every acknowledged event once, versions 1..n, the chain verified; retries of the rest settle exactly once. */
const ledgerIntact = (
  unordered: ReadonlyArray<{ event_id: string; version: number }>,
  acknowledged: ReadonlyArray<string>
) => {
  const events = [...unordered].sort((a, b) => a.version - b.version)
  const ids = events.map((e) => e.event_id)
  assert.strictEqual(new Set(ids).size, ids.length, "no event twice")
  for (const id of acknowledged) assert.include(ids, id, `acknowledged event ${id} is in the ledger`)
  assert.deepStrictEqual(events.map((e) => e.version), events.map((_, i) => i + 1), "contiguous versions")
}

layer(TestApp({ withPack: true, now: "2026-06-15T06:00:00.000Z" }), { timeout: 600_000, excludeTestServices: true })(
  "the store goes away under load",
  (it) => {
    it.effect("cut: market reads 200, ledger 503 records, /ready 503 within 1 s; restore: recovers, nothing lost or doubled", () =>
      Effect.gen(function*() {
        const proxy = yield* DbProxy
        const token = bodyOf(yield* post("/v1/me/session", {})).token as string
        const attempts = yield* Ref.make<Array<Attempt>>([])
        const problems = yield* Ref.make<Array<string>>([])
        const running = yield* Ref.make(true)
        let n = 0
        const write = Effect.gen(function*() {
          const key = `fault-${++n}`
          const start = Date.now()
          const r = yield* post("/v1/me/transactions", buyOne, { ...bearer(token), "idempotency-key": key })
          // 500 is today's answer during an outage (see the next test); asserted there, tolerated here.
          const problem = recordProblem(r, [201, 500, 503])
          if (problem !== undefined) yield* Ref.update(problems, (p) => [...p, `write: ${problem}`])
          yield* Ref.update(
            attempts,
            (
              a
            ) => [...a, {
              key,
              status: r.status,
              eventId: r.ok ? r.body.event.event_id : undefined,
              ms: Date.now() - start
            }]
          )
        })
        const read = (path: string, allowed: ReadonlyArray<number>) =>
          Effect.flatMap(get(path, bearer(token)), (r) => {
            const problem = recordProblem(r, allowed)
            return problem === undefined ? Effect.void : Ref.update(problems, (p) => [...p, `${path}: ${problem}`])
          })
        const worker = <R>(step: Effect.Effect<void, never, R>) =>
          Effect.forkChild(Effect.gen(function*() {
            while (yield* Ref.get(running)) yield* step
          }))
        const fibers = [
          yield* worker(write),
          yield* worker(write),
          yield* worker(read("/v1/companies/HUBC", [200])),
          yield* worker(read("/v1/prices/ENGRO?range=1M", [200])),
          yield* worker(read("/v1/me/holdings", [200, 500, 503]))
        ]
        const count = (which: (a: Attempt) => boolean) =>
          Effect.map(Ref.get(attempts), (all) => all.filter(which).length)
        const acknowledged = (a: Attempt) => a.status === 201
        yield* waitUntil("writes are acknowledged under load", Effect.map(count(acknowledged), (n) => n >= 3))
        yield* proxy.cut
        const cutAt = Date.now()

        // /ready answers from memory and learns of the cut from its next probe (every 200 ms): ask until it says
        // 503, for at most 5 s; the time it took is bounded below.
        let ready = yield* get("/ready")
        while (ready.status !== 503 && Date.now() - cutAt < 5_000) ready = yield* get("/ready")
        const readyMs = Date.now() - cutAt
        assertFailed(ready, 503)
        assert.strictEqual(ready.body.error, "SOURCE_UNAVAILABLE")
        const market = yield* get("/v1/quotes/HUBC?allow_stale=true", { "cache-control": "no-cache" })
        assertOk(market, 200, "market reads come from the read model")
        const slowDuringCut = Date.now()
        yield* get("/v1/me/ledger", bearer(token))
        const ledgerReadMs = Date.now() - slowDuringCut

        yield* waitUntil("writes meet the outage", Effect.map(count((a) => a.status !== 201), (n) => n >= 2))
        yield* proxy.restore
        const restoredAt = Date.now()
        yield* Effect.gen(function*() {
          const r = yield* get("/ready")
          if (r.status !== 200) return yield* Effect.fail("not yet")
        }).pipe(Effect.eventually, Effect.timeout("30 seconds"))
        const recoveryMs = Date.now() - restoredAt
        const ackedBefore = yield* count(acknowledged)
        yield* waitUntil(
          "a write is acknowledged after the restore",
          Effect.map(count(acknowledged), (n) => n > ackedBefore)
        )
        yield* Ref.set(running, false)
        yield* Fiber.joinAll(fibers)

        const all = yield* Ref.get(attempts)
        const acked = all.filter((a) => a.status === 201)
        const failed = all.filter((a) => a.status !== 201)
        const slowest = Math.max(...all.map((a) => a.ms))
        console.log(
          `cut: /ready 503 after ${readyMs} ms; a ledger read answered after ${ledgerReadMs} ms; ` +
            `recovered ${recoveryMs} ms after restore; ${all.length} writes under load: ${acked.length} acknowledged, ` +
            `${failed.length} refused (${[...new Set(failed.map((a) => a.status))].join("/")}); slowest ${slowest} ms`
        )
        assert.deepStrictEqual(yield* Ref.get(problems), [], "every answer under load is a success or a 503 record")
        assert.isAtMost(readyMs, 1_500, "/ready answers 503 within about a second (its ping times out at 1 s)")
        assert.isAtMost(ledgerReadMs, 5_000, "a ledger read during the outage answers, it does not hang")
        assert.isAtMost(slowest, 10_000, "no write hangs through the outage")
        assert.isAtLeast(acked.length, 1)
        assert.isAtLeast(failed.length, 1, "some writes met the outage")

        // Retrying the refused writes with their keys settles each exactly once (replayed if it had committed).
        let replayed = 0
        for (const a of failed) {
          const r = yield* post("/v1/me/transactions", buyOne, { ...bearer(token), "idempotency-key": a.key })
          assertOk(r, 201)
          if (r.body.replayed === true) replayed++
        }
        const ledger = yield* get("/v1/me/ledger?limit=1000", bearer(token))
        assertOk(ledger)
        ledgerIntact(ledger.body.items, acked.map((a) => a.eventId!))
        const events = ledger.body.items as Array<unknown>
        assert.strictEqual(
          events.length,
          all.length,
          `one event per write attempted (${replayed} had committed unacknowledged)`
        )
        const verify = yield* get("/v1/me/ledger/verify", bearer(token))
        assertSucceeded(verify)
        assert.isTrue(verify.body.ok, JSON.stringify(verify.body))
        const holdings = yield* get("/v1/me/holdings", bearer(token))
        assertSucceeded(holdings)
        assert.strictEqual(holdings.body.items[0]?.quantity, events.length, "the projection matches the events")
      }))

    // Found by this suite: during an outage every authenticated request was 500 INTERNAL, because
    // Keys.authenticate turned the SqlError into a defect and the bearer middleware declared only Unauthorized.
    // Keys now maps store failures to SOURCE_UNAVAILABLE, which the middleware declares.
    it.effect("during an outage, ledger reads and writes are 503 SOURCE_UNAVAILABLE records, not 500", () =>
      Effect.gen(function*() {
        const proxy = yield* DbProxy
        const token = bodyOf(yield* post("/v1/me/session", {})).token as string
        yield* proxy.cut
        const read = yield* get("/v1/me/ledger", bearer(token))
        const write = yield* post("/v1/me/transactions", buyOne, { ...bearer(token), "idempotency-key": "during-cut" })
        yield* proxy.restore
        yield* Effect.gen(function*() {
          if ((yield* get("/ready")).status !== 200) return yield* Effect.fail("not yet")
        }).pipe(Effect.eventually, Effect.timeout("30 seconds"))
        for (const r of [read, write]) {
          assertFailed(r, 503)
          assert.strictEqual(r.body.error, "SOURCE_UNAVAILABLE")
        }
      }))
  }
)

describe("the service process is killed during writes", () => {
  it.live(
    "SIGKILL and restart on the same store: every acknowledged write is present once, none half-written, the ledger verifies",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const first = yield* startService(store, { awaitPack: true, readyWithinMs: 480_000 })
        yield* Effect.gen(function*() {
          const r = yield* call(`${first.url}/v1/companies/HUBC`)
          if (r.status !== 200) return yield* Effect.fail("read model not loaded")
        }).pipe(Effect.eventually, Effect.timeout("60 seconds"))
        const token = (yield* call(`${first.url}/v1/me/session`, { method: "POST" })).body.token as string
        const attempts: Array<Attempt> = []
        let killed = false
        const writer = (w: number) =>
          Effect.gen(function*() {
            for (let i = 0; !killed; i++) {
              const key = `kill-${w}-${i}`
              const r = yield* call(`${first.url}/v1/me/transactions`, {
                method: "POST",
                headers: { ...bearer(token), "content-type": "application/json", "idempotency-key": key },
                body: JSON.stringify(buyOne),
                timeoutMs: 10_000
              })
              attempts.push({ key, status: r.status, eventId: r.body?.event?.event_id, ms: r.ms })
              if (r.status === 0) return
            }
          })
        const writers = yield* Effect.forkChild(Effect.all([0, 1, 2, 3].map(writer), { concurrency: "unbounded" }))
        // Kill once some writes are acknowledged, so the kill lands mid-load.
        yield* Effect.gen(function*() {
          if (attempts.filter((a) => a.status === 201).length < 20) return yield* Effect.fail("not yet")
        }).pipe(Effect.eventually, Effect.timeout("60 seconds"))
        yield* first.kill("SIGKILL")
        killed = true
        yield* Fiber.join(writers)
        const acked = attempts.filter((a) => a.status === 201)
        const unacked = attempts.filter((a) => a.status !== 201)
        assert.isTrue(
          unacked.every((a) => a.status === 0),
          "writes before the kill succeeded; those at it got no answer"
        )

        const t = Date.now()
        const second = yield* startService(store, { awaitPack: true, readyWithinMs: 480_000 })
        const restartMs = Date.now() - t
        const ledger = yield* call(`${second.url}/v1/me/ledger?limit=1000`, { headers: bearer(token) })
        assertOk(ledger)
        const events = ledger.body.items as Array<{ event_id: string; version: number }>
        ledgerIntact(events, acked.map((a) => a.eventId!))
        const verify = yield* call(`${second.url}/v1/me/ledger/verify`, { headers: bearer(token) })
        assert.isTrue(verify.body.ok, verify.text)
        const committedUnacked = events.length - acked.length
        // The unanswered writes: each is either wholly committed (replayed) or absent (appended now), never partial.
        let replayed = 0
        for (const a of unacked) {
          const r = yield* call(`${second.url}/v1/me/transactions`, {
            method: "POST",
            headers: { ...bearer(token), "content-type": "application/json", "idempotency-key": a.key },
            body: JSON.stringify(buyOne)
          })
          assertOk(r, 201)
          if (r.body.replayed === true) replayed++
        }
        assert.strictEqual(
          replayed,
          committedUnacked,
          "the unacknowledged writes found in the ledger are exactly those replayed"
        )
        const after = yield* call(`${second.url}/v1/me/ledger?limit=1000`, { headers: bearer(token) })
        assert.strictEqual(after.body.items.length, attempts.length, "one event per write attempted")
        ledgerIntact(after.body.items, acked.map((a) => a.eventId!))
        const holdings = yield* call(`${second.url}/v1/me/holdings`, { headers: bearer(token) })
        assert.strictEqual(holdings.body.items[0]?.quantity, attempts.length, "the projection matches the events")
        assert.isTrue((yield* call(`${second.url}/v1/me/ledger/verify`, { headers: bearer(token) })).body.ok)
        console.log(
          `kill (${store.mode}): ${attempts.length} writes from 4 writers; ${acked.length} acknowledged before SIGKILL, ` +
            `${unacked.length} unanswered (${committedUnacked} of them committed, replayed on retry); restarted and ready in ` +
            `${restartMs} ms; verify ok`
        )
        yield* second.kill("SIGTERM")
      }),
    900_000
  )
})
