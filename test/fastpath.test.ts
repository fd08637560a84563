/**
 * The node:http fast path (src/http/FastPath.ts) behind the real front door:
 *
 * - every recorded public answer (test/support/AnswerSample.ts) is the same
 *   through the front door as recorded from the HttpApi pipeline;
 * - for a sample over each endpoint it keeps, the fast path answers (it does
 *   not hand the request on) with the status, content type, length, body and
 *   request id header the HttpApi pipeline gives (`Cache-Control: no-cache`);
 * - what it does not keep (a lower-case ticker, an unknown one, a query that
 *   does not decode, another endpoint) is handed on untouched;
 * - it charges the address's rate limit like the guard, with the 429 record;
 * - it writes one access log line per request it answers, with the guard's fields.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Redacted, References } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpRouter, HttpServer } from "effect/http"
import { FastPathLive } from "../src/http/FastPath.ts"
import * as FrontDoor from "../src/http/FrontDoor.ts"
import { BodyLimit, Routes, Services } from "../src/http/Server.ts"
import { FundamentalsWarming } from "../src/market/provenance/FundamentalsWarming.ts"
import { CURSOR_SECRET, NOW, recorded, render, SAMPLE } from "./support/AnswerSample.ts"
import { sendRaw } from "./support/RawHttp.ts"
import { FrozenClockLayer } from "./support/ShiftedClock.ts"
import { assertFailed, TestStore } from "./support/TestApp.ts"
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

const Door = HttpServer.layerTestClient.pipe(
  Layer.provide(Layer.fresh(FetchHttpClient.layer).pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit)({ keepalive: false })))),
  Layer.provideMerge(FrontDoor.layer({ port: 0, host: "127.0.0.1", deadlineMs: 30_000 }))
)

/** Every log entry's message, as the loggers in force receive it. */
const logged: Array<unknown> = []
const CaptureLogs = Layer.mergeAll(
  Logger.layer([Logger.make((options) => void logged.push(options.message))]),
  Layer.succeed(References.MinimumLogLevel, "Info")
)

const App = Layer.mergeAll(HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }), FastPathLive).pipe(
  Layer.provide(RecordingSlot),
  Layer.provideMerge(CaptureLogs),
  Layer.provide(BodyLimit),
  Layer.provideMerge(Services),
  Layer.provide(FundamentalsWarming.pack),
  Layer.provideMerge(Door),
  Layer.provideMerge(TestStore({ withPack: true })),
  Layer.provideMerge(TestConfig({ rateLimit: { perSecond: 1, burst: 400 }, cursorSecret: Option.some(Redacted.make(CURSOR_SECRET)) })),
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

/** One request per endpoint the fast path keeps (and its aliases). */
const KEPT = [
  "/v1/quotes/HUBC?allow_stale=true", "/v1/quotes/MEBL?allow_stale=true", "/v1/stocks/HUBC", "/v1/companies/HUBC",
  "/v1/prices/HUBC", "/v1/prices/HUBC?range=1Y", "/v1/prices/SYS?range=5Y", "/v1/companies?limit=50",
  "/v1/companies?limit=5&inside_kse100=true", "/v1/market/board", "/v1/sectors/board", "/v1/stocks/LUCK/research",
  "/v1/stocks/LUCK/rh", "/v1/ai/research/LUCK", "/v1/screener?pe_max=15&limit=5",
  "/v1/quotes/HUBC?allow_stale=true&unknown=1"
]

/** Requests the fast path hands on: not kept (an unlisted ticker…), or not decodable (the HttpApi answers the 400). */
const HANDED_ON = [
  "/v1/companies/NOPE", "/v1/quotes/HUBC", "/v1/quotes/hubc?allow_stale=true", "/v1/prices/HUBC?range=2W", "/v1/prices/HUBC?limit=5",
  "/v1/screener?pe_maxx=1", "/v1/stocks/HUBC/analytics", "/v1/quotes/H%00?allow_stale=true"
]

layer(App, { timeout: 600_000, excludeTestServices: true })("fast path", (it) => {
  it.effect("every recorded public answer is the same through the front door", () =>
    Effect.gen(function*() {
      for (const r of SAMPLE) {
        const o = yield* sendRaw({
          method: r.method,
          url: r.url,
          headers: r.body === undefined ? {} : { "content-type": "application/json" },
          ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) })
        }, 60_000)
        const text = o._tag === "Answered" ? render(o.status, o.contentType, o.text) : `no answer: ${o.reason}`
        assert.strictEqual(text, recorded(r), `${r.method} ${r.url}`)
      }
    }))

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
