/**
 * Two service processes on one PostgreSQL (DATABASE_URL only; the embedded
 * store serves one process): concurrent appends to the same portfolios through
 * both, with the same session tokens, lose and duplicate nothing, versions are
 * contiguous and the ledger verifies. Rate limiting is measured across the two:
 * it is per process today (each instance keeps its own buckets), as the README
 * says; this test pins that down so a change to it is noticed.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, type Service, startService, throwawayStore } from "./support/ServiceProcess.ts"
import { isRealPostgres } from "./support/TestDatabase.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const buyOne = { kind: "buy", symbol: "HUBC", quantity: 1, price: 215.42, trade_date: "2026-05-22" }

const append = (service: Service, token: string, key: string) =>
  call(`${service.url}/v1/me/transactions`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(buyOne)
  })

describe.skipIf(!isRealPostgres)("two service processes on one PostgreSQL", () => {
  it.live(
    "concurrent appends to the same portfolios through both: none lost or doubled, contiguous versions, verify ok",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const a = yield* startService(store, { awaitPack: true, env: { CURSOR_SECRET: "instances-test" } })
        const b = yield* startService(store, { awaitPack: true, env: { CURSOR_SECRET: "instances-test" } })
        for (const s of [a, b]) {
          yield* Effect.gen(function*() {
            if ((yield* call(`${s.url}/v1/companies/HUBC`)).status !== 200) return yield* Effect.fail("loading")
          }).pipe(Effect.eventually, Effect.timeout("60 seconds"))
        }
        const tokens = [
          (yield* call(`${a.url}/v1/me/session`, { method: "POST" })).body.token as string,
          (yield* call(`${b.url}/v1/me/session`, { method: "POST" })).body.token as string
        ]
        const PER_WRITER = 8
        const jobs = tokens.flatMap((token, u) =>
          [a, b, a, b].map((service, w) =>
            Effect.forEach(Array.from({ length: PER_WRITER }, (_, i) => `u${u}-w${w}-${i}`), (key) =>
              Effect.map(
                append(service, token, key),
                (r) => ({ token, key, status: r.status, eventId: r.body?.event?.event_id as string | undefined })
              ))
          )
        )
        const results = (yield* Effect.all(jobs, { concurrency: "unbounded" })).flat()
        const statuses = new Map<number, number>()
        for (const r of results) {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        }
        // Whatever did not succeed at first (a conflict answered to the client) is retried with its key.
        for (const r of results.filter((x) => x.status !== 201)) {
          const again = yield* append(a, r.token, r.key)
          assert.strictEqual(again.status, 201, again.text)
        }
        for (const token of tokens) {
          for (const s of [a, b]) {
            const ledger = yield* call(`${s.url}/v1/me/ledger?limit=1000`, { headers: bearer(token) })
            const events = (ledger.body.items as Array<{ event_id: string; version: number }>).sort((x, y) =>
              x.version - y.version
            )
            assert.strictEqual(events.length, 4 * PER_WRITER, "one event per append")
            assert.strictEqual(new Set(events.map((e) => e.event_id)).size, events.length, "no event twice")
            assert.deepStrictEqual(events.map((e) => e.version), events.map((_, i) => i + 1), "contiguous versions")
            for (const r of results.filter((x) => x.token === token && x.eventId !== undefined)) {
              assert.include(events.map((e) => e.event_id), r.eventId!, "every acknowledged append is present")
            }
            const verify = yield* call(`${s.url}/v1/me/ledger/verify`, { headers: bearer(token) })
            assert.isTrue(verify.body.ok, verify.text)
            const holdings = yield* call(`${s.url}/v1/me/holdings`, { headers: bearer(token) })
            assert.strictEqual(
              holdings.body.items[0].quantity,
              4 * PER_WRITER,
              "the projection agrees on both instances"
            )
          }
        }
        console.log(
          `two instances: ${results.length} concurrent appends (2 users × 4 writers, 2 per instance); first answers ${
            JSON.stringify(Object.fromEntries(statuses))
          }; all present once, versions contiguous, verify ok on both`
        )
      }),
    600_000
  )

  it.live(
    "rate limiting is per process: a client refused by one instance is served by the other",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const env = { RATE_LIMIT_PER_SECOND: "0.2", RATE_LIMIT_BURST: "5", PSX_AUTO_IMPORT: "false" }
        const a = yield* startService(store, { env })
        const b = yield* startService(store, { env })
        const burst = (s: Service) =>
          Effect.forEach(
            Array.from({ length: 10 }),
            () => Effect.map(call(`${s.url}/v1/market/status`), (r) => r.status)
          )
        const onA = yield* burst(a)
        const onB = yield* burst(b)
        const ok = (xs: ReadonlyArray<number>) => xs.filter((x) => x !== 429).length
        console.log(`rate limit (burst 5): instance A served ${ok(onA)} of 10, then instance B served ${ok(onB)} of 10`)
        assert.isAtMost(ok(onA), 6, "one instance enforces its limit")
        assert.isAtLeast(onA.filter((x) => x === 429).length, 4)
        assert.isAtLeast(ok(onB), 5, "the other instance has its own buckets: limits are per process (README)")
      }),
    300_000
  )
})
