import { assert, describe, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { migrate } from "../src/db/Database.ts"
import { type AnyReply, assertFailed, assertOk, get, post } from "./support/TestApp.ts"
import { TestApp } from "./support/TestApp.ts"
import { DbProxy } from "./support/TestDatabase.ts"

layer(TestApp())("service foundation", (it) => {
  it.effect("health is 200 and names the service", () =>
    Effect.gen(function*() {
      const r = yield* get("/health")
      assertOk(r)
      assert.deepStrictEqual(r.body, { status: "ok", service: "psx-data-service", version: "1.0.0" })
      assert.isString((yield* get("/openapi.json")).headers["x-request-id"], "every other answer names its request")
    }))

  it.effect("an unknown route is a 404 error record", () =>
    Effect.gen(function*() {
      const r = yield* get("/nope")
      assertFailed(r, 404, "DATA_NOT_FOUND")
    }))

  it.effect("malformed JSON, a wrong type and a body over 1 MiB are 400 INVALID_REQUEST naming the problem", () =>
    Effect.gen(function*() {
      const malformed = yield* post("/v1/donations", "{amount:")
      assertFailed(malformed, 400, "INVALID_REQUEST")
      const wrongType = yield* post("/v1/donations", { amount: "lots" })
      assertFailed(wrongType, 400, "INVALID_REQUEST", "amount")
      const big = yield* post("/v1/donations", JSON.stringify({ amount: 5, note: "x".repeat(2 * 1024 * 1024) }))
      assertFailed(big, 400, "INVALID_REQUEST")
      assert.include(big.body.message, "too large")
    }))

  it.effect("openapi.json is generated, version 1.0.0, and lists /health and /ready", () =>
    Effect.gen(function*() {
      const r = yield* get("/openapi.json")
      assertOk(r)
      assert.strictEqual(r.body.info.version, "1.0.0")
      assert.property(r.body.paths, "/health")
      assert.property(r.body.paths, "/ready")
    }))

  it.effect("the docs page is served", () =>
    Effect.gen(function*() {
      const r = yield* get("/docs")
      assertOk(r)
      assert.include(String(r.body), "<html")
    }))

  it.effect("ready goes 503 once the database goes away (the probe gives up after 1 s of clock time), and back to 200", () =>
    Effect.gen(function*() {
      const proxy = yield* DbProxy
      assert.strictEqual((yield* get("/ready")).status, 200)
      yield* proxy.cut
      // The probe either fails at once (connection refused) or waits out its
      // 1-second timeout on the test clock: no wall-clock measurement.
      const probe = yield* Effect.forkChild(get("/ready"))
      yield* TestClock.adjust("1 second")
      const down = yield* Fiber.join(probe)
      assertFailed(down, 503, "SOURCE_UNAVAILABLE")
      yield* proxy.restore
      // A dropped pooled connection may answer the first probe after the
      // restore; each probe replaces one, so a few probes in a row suffice.
      const up = yield* get("/ready").pipe(Effect.repeat({ until: (r) => r.status === 200, times: 10 }))
      assertOk(up)
    }))

  it.effect("migrations run twice change nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const before = yield* sql<{ n: string }>`select count(*)::text as n from effect_sql_migrations`
      const applied = yield* migrate
      const after = yield* sql<{ n: string }>`select count(*)::text as n from effect_sql_migrations`
      assert.deepStrictEqual(applied, [])
      assert.strictEqual(after[0]?.n, before[0]?.n)
      assert.isAbove(Number(before[0]?.n), 0)
    }))
})

describe("rate limiting", () => {
  layer(TestApp({ rateLimit: { perSecond: 1, burst: 3 } }))("with a burst of 3", (it) => {
    it.effect("the fourth quick request is 429 with Retry-After; health stays exempt", () =>
      Effect.gen(function*() {
        const statuses: Array<number> = []
        let last: AnyReply | undefined
        for (let i = 0; i < 4; i++) {
          last = yield* get("/openapi.json")
          statuses.push(last.status)
        }
        assert.deepStrictEqual(statuses, [200, 200, 200, 429])
        assert.exists(last)
        assertFailed(last, 429, "RATE_LIMITED")
        assert.isAtLeast(Number(last.headers["retry-after"]), 1)
        assert.strictEqual((yield* get("/health")).status, 200)
        // A made-up credential is not a client of its own: it counts against the address.
        assert.strictEqual((yield* get("/openapi.json", { authorization: "Bearer other-client" })).status, 429)
      }))
  })
})
