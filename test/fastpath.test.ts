/**
 * The node:http fast path (src/http/FastPath.ts) behind the real front door,
 * in the layers `npm start` runs (Server.FrontDoorLive and Layers.AppLive):
 *
 * - for a sample over each cached endpoint, the fast path answers (it does
 *   not hand the request on) with the status, content type, length, body and
 *   request id header the HttpApi pipeline gives (`Cache-Control: no-cache`):
 *   the same handler, encoded by the endpoint's own schemas; the plain quote's
 *   409 and an unknown symbol's 404 included;
 * - /health is answered there too, as the guard treats a probe: no charge, no
 *   log line, no request id;
 * - what it does not keep (a lower-case ticker, a query that does not decode,
 *   another endpoint, a signed answer) is handed on untouched;
 * - it charges the address's rate limit like the guard, with the 429 record;
 * - it writes one access log line per request it answers, with the guard's fields.
 *
 * (test/answers.test.ts compares every recorded public answer through the
 * same front door.)
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Redacted, References } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as FrontDoor from "../src/http/FrontDoor.ts"
import * as Server from "../src/http/Server.ts"
import { AppLive } from "../src/Layers.ts"
import { FundamentalsPrefetch } from "../src/market/provenance/FundamentalsPrefetch.ts"
import { CURSOR_SECRET, NOW } from "./support/AnswerSample.ts"
import { pollUntil } from "./support/Eventually.ts"
import { FrozenClockLayer } from "./support/ShiftedClock.ts"
import { assertFailed, TestClient, TestStore } from "./support/TestApp.ts"
import { TestConfig } from "./support/TestDatabase.ts"

/** URLs the fast path handed on to the Effect pipeline. */
const handedOn = new Set<string>()

/** The front door's slot, recording what the fast path hands on. */
const RecordingSlot = Layer.effect(
  FrontDoor.FastPathSlot,
  Effect.gen(function*() {
    const door = yield* FrontDoor.FastPathSlot
    return FrontDoor.FastPathSlot.of({
      attach: (fast) =>
        door.attach((request, response, next) =>
          fast(request, response, () => {
            handedOn.add(request.url!)
            next()
          })
        )
    })
  })
)

/** Every log entry's message, as the loggers in force receive it. */
const logged: Array<unknown> = []
const CaptureLogs = Layer.mergeAll(
  Logger.layer([Logger.make((options) => void logged.push(options.message))]),
  Layer.succeed(References.MinimumLogLevel, "Info")
)

const App = AppLive.pipe(
  Layer.provide(RecordingSlot),
  Layer.provideMerge(CaptureLogs),
  Layer.provide(FundamentalsPrefetch.pack),
  Layer.provideMerge(TestClient),
  Layer.provideMerge(Server.FrontDoorLive),
  Layer.provideMerge(TestStore({ withPack: true })),
  Layer.provideMerge(TestConfig({
    port: 0,
    host: "127.0.0.1",
    rateLimit: { perSecond: 1, burst: 400 },
    cursorSecret: Option.some(Redacted.make(CURSOR_SECRET))
  })),
  Layer.provideMerge(FrozenClockLayer(NOW))
)

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    // Retried once: a pooled connection may be closed by the server just as it is reused.
    const response = yield* client.execute(HttpClientRequest.get(url).pipe(HttpClientRequest.setHeaders(headers))).pipe(
      Effect.retry({ times: 1 })
    )
    return { status: response.status, headers: response.headers, text: yield* response.text }
  }).pipe(Effect.orDie)

/**
 * One request per endpoint the fast path keeps (and its aliases). At NOW (Monday 15 June 2026, 11:00 in
 * Karachi, trading) HUBC's last quote (25 May) is stale: the plain quote is the 409 DATA_STALE; NOPE is a
 * well-formed ticker not listed: 404.
 */
const KEPT = [
  "/v1/quotes/HUBC?allow_stale=true", "/v1/quotes/MEBL?allow_stale=true", "/v1/quotes/HUBC", "/v1/stocks/HUBC", "/v1/companies/HUBC",
  "/v1/companies/NOPE", "/v1/quotes/NOPE", "/v1/prices/HUBC", "/v1/prices/HUBC?range=1Y", "/v1/prices/SYS?range=5Y",
  "/v1/companies?limit=50", "/v1/companies?limit=5&inside_kse100=true", "/v1/market/board", "/v1/sectors/board",
  "/v1/stocks/LUCK/research", "/v1/stocks/LUCK/rh", "/v1/ai/research/LUCK", "/v1/screener?pe_max=15&limit=5"
]

/** Requests the fast path hands on: not kept (a lower-case ticker…), not decodable (the HttpApi answers the 400), or signed. */
const HANDED_ON = [
  "/v1/quotes/hubc?allow_stale=true", "/v1/prices/HUBC?range=2W", "/v1/prices/HUBC?limit=5", "/v1/screener?pe_maxx=1",
  "/v1/stocks/HUBC/analytics", "/v1/quotes/H%00?allow_stale=true", "/v1/stocks/HUBC?signed=true",
  "/v1/quotes/HUBC?allow_stale=true&unknown=1", "/v1/prices/BOP?range=1Y&from=2023-01-01"
]

layer(App, { timeout: 600_000, excludeTestServices: true })("fast path", (it) => {
  it.effect("the fast path answers each kept endpoint with the HttpApi pipeline's status, headers and bytes", () =>
    Effect.gen(function*() {
      for (const url of KEPT) {
        const fast = yield* get(url)
        assert.isFalse(handedOn.has(url), `${url} was answered by the fast path`)
        const full = yield* get(url, { "cache-control": "no-cache" })
        assert.strictEqual(fast.status, full.status, url)
        assert.strictEqual(fast.text, full.text, url)
        for (const h of ["content-type", "content-length"]) assert.strictEqual(fast.headers[h], full.headers[h], `${url} ${h}`)
        assert.match(fast.headers["x-request-id"] ?? "", /^[0-9a-z]+-[0-9a-z]+$/u, url)
        assert.notStrictEqual(fast.headers["x-request-id"], full.headers["x-request-id"], url)
      }
    }))

  it.effect("/health is answered there as the guard answers a probe: the handler's bytes, no charge, no log line, no id", () =>
    Effect.gen(function*() {
      const before = logged.length
      const fast = yield* get("/health")
      assert.isFalse(handedOn.has("/health"), "answered by the fast path")
      const full = yield* get("/health", { "cache-control": "no-cache" })
      assert.deepStrictEqual([fast.status, fast.text], [200, '{"status":"ok","service":"psx-data-service","version":"1.0.0"}'])
      assert.deepStrictEqual([fast.status, fast.text, fast.headers["content-length"]], [full.status, full.text, full.headers["content-length"]])
      assert.isUndefined(fast.headers["x-request-id"])
      assert.isUndefined(full.headers["x-request-id"])
      const lines = logged.slice(before).flat().filter((m) => typeof m === "object" && m !== null && (m as { msg?: unknown }).msg === "request")
      assert.deepStrictEqual(lines, [], "probes are not logged")
    }))

  it.effect("a signed answer asked for by header goes to the Effect pipeline", () =>
    Effect.gen(function*() {
      const url = "/v1/stocks/HUBC"
      handedOn.delete(url)
      yield* get(url)
      assert.isFalse(handedOn.has(url))
      yield* get(url, { "accept-signature": "ed25519" })
      assert.isTrue(handedOn.has(url))
    }))

  it.effect("Cache-Control's no-cache directive, in any case and among others, sends the request to the Effect pipeline", () =>
    Effect.gen(function*() {
      const url = "/v1/stocks/HUBC"
      for (const value of ["max-age=0", "no-store"]) {
        handedOn.delete(url)
        yield* get(url, { "cache-control": value })
        assert.isFalse(handedOn.has(url), `${value}: answered by the fast path`)
      }
      for (const value of ["no-cache", "No-Cache", "max-age=0, no-cache", "no-cache ,no-store"]) {
        handedOn.delete(url)
        yield* get(url, { "cache-control": value })
        assert.isTrue(handedOn.has(url), `${value}: handed on`)
      }
    }))

  it.effect("each answer the fast path gives is one access log line with the guard's fields", () =>
    Effect.gen(function*() {
      const requestLine = (id: string | undefined) =>
        logged.flat().filter((m): m is Record<string, unknown> => typeof m === "object" && m !== null && (m as { requestId?: unknown }).requestId === id)
      const fast = yield* get("/v1/stocks/HUBC")
      const full = yield* get("/v1/stocks/HUBC", { "cache-control": "no-cache" })
      const [fastLine, ...moreFast] = requestLine(fast.headers["x-request-id"])
      const [fullLine] = requestLine(full.headers["x-request-id"])
      assert.deepStrictEqual(moreFast, [], "one line per request")
      assert.deepStrictEqual(
        { ...fastLine, requestId: "", ms: typeof fastLine?.["ms"] },
        { msg: "request", requestId: "", method: "GET", path: "/v1/stocks/HUBC", status: 200, ms: "number" }
      )
      assert.deepStrictEqual(Object.keys(fastLine!).sort(), Object.keys(fullLine!).sort(), "the guard's fields")
    }))

  it.effect("what the fast path does not keep is handed on to the HttpApi pipeline", () =>
    Effect.gen(function*() {
      for (const url of HANDED_ON) {
        const answer = yield* get(url)
        assert.isTrue(handedOn.has(url), url)
        assert.isDefined(answer.headers["x-request-id"], url)
      }
    }))

  it.effect("a query parameter the route does not take is refused, naming it, whether the answer is kept or not", () =>
    Effect.gen(function*() {
      for (const [url, field] of [["/v1/prices/BOP?range=1Y&from=2023-01-01", "from"], ["/v1/stocks/HUBC/analytics?rnage=1Y", "rnage"]]) {
        for (const headers of [{}, { "cache-control": "no-cache" }]) {
          const answer = yield* get(url!, headers)
          assertFailed(answer, 400)
          assert.include(JSON.parse(answer.text).message, `\`${field}\``, url)
        }
      }
    }))

  it.effect("a point-in-time read is kept once its snapshot is made, with the pipeline's status, bytes and as-of headers", () =>
    Effect.gen(function*() {
      const url = "/v1/quotes/HUBC?allow_stale=true&as_of=2026-06-10"
      // The first has the instant's snapshot made, in the pipeline (told to come back, 429, while it takes long).
      const first = yield* pollUntil("the instant's snapshot is made", get(url), (a) => a.status !== 429, { within: "90 seconds", every: "500 millis" })
      assert.isTrue(handedOn.has(url), "the first request has the snapshot made, in the pipeline")
      handedOn.delete(url)
      const kept = yield* get(url)
      assert.isFalse(handedOn.has(url), "the second is answered from the kept bytes")
      const full = yield* get(url, { "cache-control": "no-cache" })
      for (const answer of [first, kept]) {
        assert.deepStrictEqual(
          [answer.status, answer.text, answer.headers["x-as-of"], answer.headers["x-as-of-known"]],
          [full.status, full.text, full.headers["x-as-of"], full.headers["x-as-of-known"]]
        )
      }
      // The end of 10 June in Karachi is 19:00 UTC that day.
      assert.strictEqual(kept.headers["x-as-of"], "2026-06-10T19:00:00.000Z")
      const live = yield* get("/v1/quotes/HUBC?allow_stale=true")
      assert.isUndefined(live.headers["x-as-of"], "a live answer is not an instant's")
    }))

  it.effect("the fast path charges the address's public bucket, answering 429 with the error record", () =>
    Effect.gen(function*() {
      // The bucket holds 400 tokens and refills one a second (the clock is frozen): these exhaust it.
      const statuses: Array<number> = []
      for (let i = 0; i < 420; i++) statuses.push((yield* get("/v1/stocks/HUBC")).status)
      assert.include(statuses, 429)
      const limited = yield* get("/v1/stocks/HUBC")
      assertFailed(limited, 429)
      assert.strictEqual(limited.headers["content-type"], "application/json")
      assert.isDefined(limited.headers["retry-after"])
      assert.isDefined(limited.headers["x-request-id"])
      assert.deepStrictEqual(JSON.parse(limited.text), {
        error: "RATE_LIMITED",
        message: `rate limit exceeded; retry after ${limited.headers["retry-after"]} s`
      })
      // The same bucket as the guard's: a route the fast path does not keep is refused too.
      assert.strictEqual((yield* get("/v1/stocks/HUBC/analytics")).status, 429)
    }))
})
