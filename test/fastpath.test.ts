/**
 * The node:http fast path (src/http/FastPath.ts) and the answer cache behind the real request gate, in the
 * layers `npm start` runs (Server.RequestGateLive and Layers.AppLive):
 *
 * - a cached endpoint's first answer is made by the HttpApi pipeline and cached as its bytes under the URL;
 *   the next request is answered by the fast path with the same status, bytes and headers, its own request
 *   id, a strong ETag (a SHA-256 digest of the bytes) and Cache-Control; If-None-Match gets 304 there;
 * - /health is answered there too, as the guard treats a probe: no charge, no log line, no request id;
 * - what is not kept (a lower-case ticker, a query that does not decode, another endpoint, a signed answer,
 *   `Cache-Control: no-cache`) is handed on;
 * - it charges the address's rate limit like the guard, with the same 429 record, and writes the guard's
 *   access line;
 * - a kept quote is served fresh 1 ms before the instant it turns stale and stale 1 ms after.
 *
 * (test/answers.test.ts compares every recorded public answer through the same request gate.)
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest, HttpServer } from "effect/http"
import { createHash } from "node:crypto"
import { request as nodeRequest } from "node:http"
import * as RequestGate from "../src/http/RequestGate.ts"
import { NOW } from "./support/AnswerSample.ts"
import { pollUntil } from "./support/Eventually.ts"
import { type LoggedEntry, requestGateApp } from "./support/RequestGateApp.ts"
import { wallClock } from "./support/ShiftedClock.ts"
import { assertFailed } from "./support/TestApp.ts"

/** URLs the fast path handed on to the Effect pipeline. */
const handedOn = new Set<string>()

/** The request gate's slot, recording what the fast path hands on. */
const RecordingSlot = Layer.effect(
  RequestGate.FastPathSlot,
  Effect.gen(function*() {
    const gate = yield* RequestGate.FastPathSlot
    return RequestGate.FastPathSlot.of({
      attach: (fast) =>
        gate.attach((request, response, next) =>
          fast(request, response, () => {
            handedOn.add(request.url!)
            next()
          })
        )
    })
  })
)

/** The wall clock, stopped at `frozenAt` (a test may move it). */
let frozenAt = Date.parse(NOW)
const StoppedClock = Layer.succeed(Clock.Clock, wallClock(() => frozenAt))

/** Every log entry, as the loggers in force receive it. */
const entries: Array<LoggedEntry> = []
/** The messages logged from entry `from` on. */
const messages = (from = 0) => entries.slice(from).map((e) => e.message).flat()

const App = requestGateApp({ burst: 400, clock: StoppedClock, logged: entries, slot: RecordingSlot })

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
  "/v1/quotes/HUBC?allow_stale=true",
  "/v1/quotes/MEBL?allow_stale=true",
  "/v1/quotes/HUBC",
  "/v1/stocks/HUBC",
  "/v1/companies/HUBC",
  "/v1/companies/NOPE",
  "/v1/quotes/NOPE",
  "/v1/prices/HUBC",
  "/v1/prices/HUBC?range=1Y",
  "/v1/prices/SYS?range=5Y",
  "/v1/companies?limit=50",
  "/v1/companies?limit=5&inside_kse100=true",
  "/v1/market/board",
  "/v1/sectors/board",
  "/v1/stocks/LUCK/research",
  "/v1/stocks/LUCK/rh",
  "/v1/ai/research/LUCK",
  "/v1/screener?pe_max=15&limit=5"
]

/** Requests the fast path hands on: not kept (a lower-case ticker…), not decodable (the HttpApi answers the 400), or signed. */
const HANDED_ON = [
  "/v1/quotes/hubc?allow_stale=true",
  "/v1/prices/HUBC?range=2W",
  "/v1/prices/HUBC?limit=5",
  "/v1/screener?pe_maxx=1",
  "/v1/stocks/HUBC/analytics",
  "/v1/quotes/H%00?allow_stale=true",
  "/v1/stocks/HUBC?signed=true",
  "/v1/quotes/HUBC?allow_stale=true&unknown=1",
  "/v1/prices/BOP?range=1Y&from=2023-01-01"
]

/**
 * A GET through node:http, with exactly the headers given: fetch (the test client) adds `Cache-Control: no-cache`
 * to a request that carries `If-None-Match`, as the Fetch standard says; a cache in front (nginx, a CDN) does not.
 */
const plainGet = (url: string, headers: Record<string, string>) =>
  Effect.gen(function*() {
    const address = (yield* HttpServer.HttpServer).address
    const port = "port" in address ? address.port : 0
    return yield* Effect.callback<{ status: number; headers: Record<string, string | undefined>; text: string }>(
      (resume) => {
        const req = nodeRequest(
          { host: "127.0.0.1", port, path: url, headers: { ...headers, connection: "close" } },
          (res) => {
            const chunks: Array<Buffer> = []
            res.on("data", (chunk: Buffer) => chunks.push(chunk))
            res.on("end", () =>
              resume(Effect.succeed({
                status: res.statusCode ?? 0,
                headers: res.headers as Record<string, string | undefined>,
                text: Buffer.concat(chunks).toString("utf8")
              })))
          }
        )
        req.on("error", (error) => resume(Effect.die(error)))
        req.end()
      }
    )
  })

/** A strong ETag of the bytes, as RFC 9110 writes one: the SHA-256 digest in base64url, its first 22 characters, quoted. */
const etagOf = (text: string) => `"${createHash("sha256").update(text, "utf8").digest("base64url").slice(0, 22)}"`

layer(App, { timeout: 600_000, excludeTestServices: true })("fast path", (it) => {
  it.effect("the first answer is the pipeline's, kept; the fast path then serves its bytes, ETag and Cache-Control", () =>
    Effect.gen(function*() {
      for (const url of KEPT) {
        const first = yield* get(url)
        assert.isTrue(handedOn.has(url), `${url}: the first is made by the pipeline`)
        handedOn.delete(url)
        const fast = yield* get(url)
        assert.isFalse(handedOn.has(url), `${url} was answered by the fast path`)
        const full = yield* get(url, { "cache-control": "no-cache" })
        for (const answer of [fast, full]) {
          assert.strictEqual(answer.status, first.status, url)
          assert.strictEqual(answer.text, first.text, url)
          for (const h of ["content-type", "content-length", "etag", "cache-control", "vary"]) {
            assert.strictEqual(answer.headers[h], first.headers[h], `${url} ${h}`)
          }
        }
        assert.strictEqual(fast.headers["etag"], etagOf(fast.text), `${url}: a digest of the bytes`)
        assert.strictEqual(fast.headers["vary"], "Accept-Signature", url)
        assert.match(fast.headers["x-request-id"] ?? "", /^[0-9a-z]+-[0-9a-z]+$/u, url)
        assert.notStrictEqual(fast.headers["x-request-id"], first.headers["x-request-id"], url)
      }
    }))

  it.effect("Cache-Control: public for the whole seconds the answer stays true (a minute at most), 0 and must-revalidate when stale", () =>
    Effect.gen(function*() {
      // At NOW (Monday 15 June 2026, 11:00 Karachi) HUBC's last quote (25 May) is stale: the plain quote is the
      // 409 and the allow_stale one is marked stale. The stock page is true until trading ends at 15:30 (4 h 30 min),
      // which is over the minute a cache in front may keep it.
      for (const url of ["/v1/quotes/HUBC", "/v1/quotes/HUBC?allow_stale=true"]) {
        assert.strictEqual((yield* get(url)).headers["cache-control"], "public, max-age=0, must-revalidate", url)
      }
      assert.strictEqual((yield* get("/v1/stocks/HUBC")).headers["cache-control"], "public, max-age=60")
    }))

  it.effect("If-None-Match naming the ETag (strong or weak, alone or in a list, or *) answers 304 from the fast path", () =>
    Effect.gen(function*() {
      const url = "/v1/stocks/HUBC"
      const answer = yield* get(url)
      const etag = answer.headers["etag"]!
      for (const ask of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        handedOn.delete(url)
        const revalidated = yield* plainGet(url, { "if-none-match": ask })
        assert.deepStrictEqual([revalidated.status, revalidated.text], [304, ""], ask)
        assert.isFalse(handedOn.has(url), `${ask}: answered by the fast path`)
        assert.strictEqual(revalidated.headers["etag"], etag, ask)
        assert.strictEqual(revalidated.headers["cache-control"], answer.headers["cache-control"], ask)
        assert.isDefined(revalidated.headers["x-request-id"], ask)
      }
      const changed = yield* plainGet(url, { "if-none-match": "\"not-this\"" })
      assert.deepStrictEqual([changed.status, changed.text], [200, answer.text])
      // Made by the pipeline (no-cache), the answer is revalidated the same way.
      const piped = yield* get(url, { "cache-control": "no-cache", "if-none-match": etag })
      assert.deepStrictEqual([piped.status, piped.text, piped.headers["etag"]], [304, "", etag])
    }))

  it.effect("a private answer is never cached: private, no-store, nosniff", () =>
    Effect.gen(function*() {
      for (const url of ["/v1/me/holdings", "/v1/me/transactions/export"]) {
        const answer = yield* get(url)
        assert.strictEqual(answer.headers["cache-control"], "private, no-store", url)
        assert.strictEqual(answer.headers["x-content-type-options"], "nosniff", url)
        assert.isUndefined(answer.headers["etag"], url)
      }
    }))

  it.effect("a kept quote is fresh 1 ms before the instant it turns stale and stale 1 ms after", () =>
    Effect.gen(function*() {
      // HUBC's last quote is the close of Monday 25 May 2026 (as of 16:00 Karachi). Outside trading a quote is
      // current from the start of the last trading day that has opened: before Tuesday 26 May's pre-open (09:15
      // Karachi, 04:15Z) that is Monday, so it is fresh; from 09:15 it is Tuesday, and the quote is stale.
      const url = "/v1/quotes/HUBC"
      const instant = Date.parse("2026-05-26T04:15:00.000Z")
      try {
        frozenAt = instant - 1
        const before = yield* get(url)
        assert.strictEqual(before.status, 200, "fresh 1 ms before")
        const cached = yield* get(url)
        assert.deepStrictEqual([cached.status, cached.text], [200, before.text], "cached while fresh")
        // The whole seconds left: 1 ms, so 0.
        assert.strictEqual(cached.headers["cache-control"], "public, max-age=0")
        frozenAt = instant + 1
        const after = yield* get(url)
        assertFailed(after, 409)
        assert.strictEqual(JSON.parse(after.text).error, "DATA_STALE")
      } finally {
        frozenAt = Date.parse(NOW)
      }
    }))

  it.effect("/health is answered there as the guard answers a probe: the handler's bytes, no charge, no log line, no id", () =>
    Effect.gen(function*() {
      yield* get("/health")
      handedOn.delete("/health")
      const before = entries.length
      const fast = yield* get("/health")
      assert.isFalse(handedOn.has("/health"), "answered by the fast path")
      const full = yield* get("/health", { "cache-control": "no-cache" })
      assert.deepStrictEqual([fast.status, fast.text], [
        200,
        "{\"status\":\"ok\",\"service\":\"psx-data-service\",\"version\":\"1.0.0\"}"
      ])
      assert.deepStrictEqual([fast.status, fast.text, fast.headers["content-length"]], [
        full.status,
        full.text,
        full.headers["content-length"]
      ])
      assert.isUndefined(fast.headers["x-request-id"])
      assert.isUndefined(full.headers["x-request-id"])
      const lines = messages(before).filter((m) =>
        typeof m === "object" && m !== null && (m as { msg?: unknown }).msg === "request"
      )
      assert.deepStrictEqual(lines, [], "probes are not logged")
    }))

  it.effect("a signed answer asked for by header goes to the Effect pipeline", () =>
    Effect.gen(function*() {
      const url = "/v1/stocks/HUBC"
      yield* get(url)
      handedOn.delete(url)
      yield* get(url)
      assert.isFalse(handedOn.has(url))
      yield* get(url, { "accept-signature": "sig1=(\"@status\")" })
      assert.isTrue(handedOn.has(url))
    }))

  it.effect("Cache-Control's no-cache directive, in any case and among others, sends the request to the Effect pipeline", () =>
    Effect.gen(function*() {
      const url = "/v1/stocks/HUBC"
      yield* get(url)
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
        messages().filter((m): m is Record<string, unknown> =>
          typeof m === "object" && m !== null && (m as { requestId?: unknown }).requestId === id
        )
      yield* get("/v1/stocks/HUBC")
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
        yield* get(url)
        handedOn.delete(url)
        const answer = yield* get(url)
        assert.isTrue(handedOn.has(url), `${url}: asked twice, never kept`)
        assert.isDefined(answer.headers["x-request-id"], url)
      }
    }))

  it.effect("a query parameter the route does not take is refused, naming it, whether the answer is cached or not", () =>
    Effect.gen(function*() {
      for (
        const [url, field] of [["/v1/prices/BOP?range=1Y&from=2023-01-01", "from"], [
          "/v1/stocks/HUBC/analytics?rnage=1Y",
          "rnage"
        ]]
      ) {
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
      // The first has the instant's snapshot made, in the pipeline (told to come back, 503 while it loads, or 429).
      const first = yield* pollUntil(
        "the instant's snapshot is made",
        get(url),
        (a) => a.status !== 429 && a.status !== 503,
        {
          within: "90 seconds",
          every: "500 millis"
        }
      )
      assert.isTrue(handedOn.has(url), "the first request has the snapshot made, in the pipeline")
      handedOn.delete(url)
      const kept = yield* get(url)
      assert.isFalse(handedOn.has(url), "the second is answered from the cached bytes")
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
      // The same bucket as the guard's: a route the fast path does not keep is refused too, with the same record.
      const guarded = yield* get("/v1/stocks/HUBC/analytics")
      assert.isTrue(handedOn.has("/v1/stocks/HUBC/analytics"), "refused by the guard")
      assert.deepStrictEqual(
        [guarded.status, guarded.text, guarded.headers["content-type"], guarded.headers["retry-after"]],
        [limited.status, limited.text, limited.headers["content-type"], limited.headers["retry-after"]]
      )
    }))
})
