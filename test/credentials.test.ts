/**
 * Credentials at the edge: a private route's rate limit is charged to the
 * authenticated principal (made-up tokens count against the address's private
 * bucket and add no buckets), public routes to the address,
 * the limiter's memory is capped, and no log line ever carries a token or a
 * key. The limiter's own rules run under TestClock; the HTTP checks run the
 * whole service on loopback with every log line captured.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { TestClock } from "effect/testing"
import { MAX_BUCKETS, RateLimiter } from "../src/http/RateLimiter.ts"
import { BodyLimit } from "../src/http/Server.ts"
import { Routes, Services } from "../src/Layers.ts"
import { FundamentalsPrefetch } from "../src/market/provenance/FundamentalsPrefetch.ts"
import { capturedLogs } from "./support/CapturedLogs.ts"
import { waitUntil } from "./support/Eventually.ts"
import { assertOk, get, post } from "./support/TestApp.ts"
import { TestStore } from "./support/TestApp.ts"
import { TestConfig } from "./support/TestDatabase.ts"

describe("rate limiter", () => {
  it.effect("rotating made-up bearer tokens from one address drains that address's one bucket", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make(1, 5)
      const waits: Array<number> = []
      for (let i = 0; i < 20; i++) {
        waits.push(yield* limiter.take(limiter.bucketOf("private", `Bearer psx_s_made_up_${i}`, "203.0.113.7")))
      }
      assert.deepStrictEqual(waits.slice(0, 5), [0, 0, 0, 0, 0])
      assert.isTrue(waits.slice(5).every((w) => w > 0), "every later request waits")
      assert.strictEqual(limiter.size(), 1, "one bucket, however many tokens were invented")
    }))

  it.effect("a credential seen to authenticate is charged to its user, until revoked or a minute passes", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make(1, 5)
      const address = "198.51.100.4"
      const privateKey = (authorization: string | undefined, from = address) =>
        limiter.bucketOf("private", authorization, from).key
      assert.strictEqual(privateKey("Bearer psx_k_real"), `private:${address}`, "not yet authenticated")
      limiter.authenticated("psx_k_real", "user-1", "key-1", 0)
      assert.strictEqual(privateKey("Bearer psx_k_real"), "principal:user-1")
      assert.strictEqual(privateKey("bearer   psx_k_real ", "192.0.2.1"), "principal:user-1", "from any address")
      assert.strictEqual(
        limiter.bucketOf("public", "Bearer psx_k_real", address).key,
        `ip:${address}`,
        "public routes: the address"
      )
      assert.strictEqual(privateKey("Bearer psx_k_other"), `private:${address}`)
      assert.strictEqual(privateKey(undefined), `private:${address}`)
      limiter.forgetKey("key-1")
      assert.strictEqual(privateKey("Bearer psx_k_real"), `private:${address}`, "a revoked key is forgotten")
      limiter.authenticated("psx_k_real", "user-1", "key-1", 0)
      yield* TestClock.adjust("61 seconds")
      yield* limiter.take({ key: "anyone", limit: "requests" })
      assert.strictEqual(privateKey("Bearer psx_k_real"), `private:${address}`, "remembered for a minute only")
    }))

  it.effect("memory is capped: the least recently used buckets go first", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make(1, 3, 100)
      const busy = { key: "ip:busy", limit: "requests" } as const
      for (let i = 0; i < 3; i++) yield* limiter.take(busy)
      for (let i = 0; i < 1000; i++) {
        yield* limiter.take({ key: `ip:10.0.${i >> 8}.${i & 255}`, limit: "requests" })
        if (i % 50 === 0) yield* limiter.take(busy)
      }
      assert.isAtMost(limiter.size(), 100)
      assert.isAbove(yield* limiter.take(busy), 0, "a recently active bucket survives eviction, still empty")
      assert.strictEqual(MAX_BUCKETS, 10_000)
    }))
})

// Every log line the service writes, at every level.
const { lines: captured, layer: CapturedLogs } = capturedLogs("All")

const App = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(BodyLimit),
  Layer.provideMerge(Services),
  Layer.provide(FundamentalsPrefetch.pack),
  Layer.provideMerge(CapturedLogs),
  Layer.provideMerge(TestStore()),
  Layer.provideMerge(TestConfig({ rateLimit: { perSecond: 1, burst: 12 } }))
)

layer(App, { timeout: 120_000, excludeTestServices: true })("credentials over HTTP", (it) => {
  it.effect("made-up tokens meet 429 from one address; the authenticated user keeps its own bucket; logs carry no secret", () =>
    Effect.gen(function*() {
      const s = yield* post("/v1/me/session", {})
      assertOk(s, 201)
      const token = s.body.token as string
      const bearer = { authorization: `Bearer ${token}` }
      const k = yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer)
      assertOk(k, 201)
      const key = k.body.key as string
      assert.strictEqual((yield* get("/v1/me/holdings", { authorization: `Bearer ${key}` })).status, 200)
      const statuses: Array<number> = []
      const fakes: Array<string> = []
      for (let i = 0; i < 30; i++) {
        const fake = `psx_s_${Math.random().toString(36).slice(2)}${i}`
        fakes.push(fake)
        statuses.push((yield* get("/v1/me/holdings", { authorization: `Bearer ${fake}` })).status)
      }
      assert.isAtLeast(statuses.filter((x) => x === 429).length, 15, statuses.join(","))
      assert.isTrue(statuses.every((x) => x === 401 || x === 429), statuses.join(","))
      const limiter = yield* RateLimiter
      assert.isAtMost(limiter.size(), 3, "invented tokens add no buckets")
      // The owner's credential was seen to authenticate: charged to the owner, not the drained address.
      assert.strictEqual((yield* get("/v1/me/holdings", bearer)).status, 200)
      assert.strictEqual((yield* get("/v1/me/holdings", { authorization: `Bearer ${key}` })).status, 200)
      const requestLines = () => captured.filter((line) => line.includes("\"msg\":\"request\"")).length
      yield* waitUntil("every request's log line is captured", Effect.sync(() => requestLines() >= 35))
      const logs = captured.join("\n")
      assert.include(logs, "request", "request lines were captured")
      for (const secret of [token, key, ...fakes]) assert.notInclude(logs, secret)
      assert.notInclude(logs, token.slice(6), "not even the random part of the token")
    }))
})
