/**
 * One path, one spelling, through the real request gate. Each guard is tried with every spelling of its path: exact,
 * trailing slash, upper case, double slash, percent-encoded, `;x` and
 * absolute-form. A spelling that names the same URI (percent-encoded
 * unreserved characters, absolute-form) meets the guard as the exact path;
 * every other spelling names no route (404 record) — none reaches a handler
 * past a guard that did not see it as that handler's path.
 *
 * Requests go out by node:http with the path sent byte for byte, each test
 * from its own loopback address (its own buckets); the clock is frozen, so
 * no bucket refills.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Cause, Effect, Layer, Logger, Option, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { request as httpRequest } from "node:http"
import { canonicalUrl } from "../src/http/CanonicalUrl.ts"
import { FastPathLive } from "../src/http/FastPath.ts"
import { RateLimiter } from "../src/http/RateLimiter.ts"
import * as RequestGate from "../src/http/RequestGate.ts"
import { BodyLimit } from "../src/http/Server.ts"
import { Routes, Services } from "../src/Layers.ts"
import { FundamentalsPrefetch } from "../src/market/provenance/FundamentalsPrefetch.ts"
import { jsonLine } from "../src/observability/JsonLogger.ts"
import { redactSecrets } from "../src/observability/Redact.ts"
import { CURSOR_SECRET, NOW } from "./support/AnswerSample.ts"
import { capturedLogs } from "./support/CapturedLogs.ts"
import { waitUntil } from "./support/Eventually.ts"
import { FrozenClockLayer } from "./support/ShiftedClock.ts"
import { TestStore } from "./support/TestApp.ts"
import { TestConfig } from "./support/TestDatabase.ts"

/** The limits of this file: a bucket of 60 requests, and of 6 session creations (a tenth, at least 5). */
const BURST = 60
const SESSION_BURST = 6

// Every log line the service writes, as the service's logger would see it (without its own redaction).
const { lines: captured, layer: CapturedLogs } = capturedLogs("Info")

const App = Layer.mergeAll(HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }), FastPathLive)
  .pipe(
    Layer.provide(BodyLimit),
    Layer.provideMerge(Services),
    Layer.provide(FundamentalsPrefetch.pack),
    Layer.provide(CapturedLogs),
    Layer.provideMerge(RequestGate.layer({ port: 0, host: "127.0.0.1", deadlineMs: 30_000, maxBodyBytes: 1_048_576 })),
    Layer.provideMerge(TestStore({ withPack: true })),
    Layer.provideMerge(
      TestConfig({ rateLimit: { perSecond: 1, burst: BURST }, cursorSecret: Option.some(Redacted.make(CURSOR_SECRET)) })
    ),
    Layer.provideMerge(FrozenClockLayer(NOW))
  )

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
}

/** One request with its target sent as it is, from a loopback address of the test's own. */
const send = (from: string, method: string, target: string, headers: Record<string, string> = {}, body?: string) =>
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.callback<Answer>((resume) => {
      const port = "port" in server.address ? server.address.port : 0
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        localAddress: from,
        method,
        path: target,
        headers,
        agent: false
      }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () =>
          resume(
            Effect.succeed({
              status: res.statusCode!,
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8")
            })
          ))
      })
      req.on("error", (e) => resume(Effect.die(e)))
      req.end(body)
    }))

/** The spellings of a path (the first segment's first letter is the one escaped and upper-cased). */
const spellingsOf = (path: string) => {
  const first = path.charAt(1)
  const rest = path.slice(2)
  const segmentEnd = path.indexOf("/", 1) === -1 ? path.length : path.indexOf("/", 1)
  return {
    exact: path,
    percent: `/%${first.charCodeAt(0).toString(16).toUpperCase()}${rest}`,
    percentLower: `/%${first.charCodeAt(0).toString(16)}${rest}`,
    absolute: `http://psx.example${path}`,
    trailing: `${path}/`,
    upper: path.slice(0, segmentEnd).toUpperCase() + path.slice(segmentEnd),
    double: `/${path}`,
    semicolon: `${path};x`
  }
}
type Spelling = keyof ReturnType<typeof spellingsOf>
/** Spellings of the same URI as the exact path. */
const SAME: ReadonlyArray<Spelling> = ["exact", "percent", "percentLower", "absolute"]
/** Spellings of another path, which has no route. */
const OTHER: ReadonlyArray<Spelling> = ["trailing", "upper", "double", "semicolon"]

const assertNoRoute = (answer: Answer, label: string) => {
  assert.strictEqual(answer.status, 404, `${label}: ${answer.text.slice(0, 200)}`)
  assert.strictEqual(JSON.parse(answer.text).error, "DATA_NOT_FOUND", label)
  assert.isDefined(answer.headers["x-request-id"], label)
}

describe("canonical URL", () => {
  it("leaves a canonical URL as it is and rewrites the same URI to it", () => {
    const url = "/v1/quotes/HUBC?allow_stale=true"
    assert.strictEqual(canonicalUrl(url), url)
    assert.strictEqual(canonicalUrl("/%6Dcp"), "/mcp")
    assert.strictEqual(canonicalUrl("/v1/me/%73ession?x=%41"), "/v1/me/session?x=%41", "the query is not touched")
    assert.strictEqual(canonicalUrl("/v1/sectors/Commercial%20Banks/peers"), "/v1/sectors/Commercial%20Banks/peers")
    assert.strictEqual(canonicalUrl("/a%2Fb%2e"), "/a%2Fb.", "an escaped slash stays escaped")
    assert.strictEqual(canonicalUrl("/mcp;x?y=1"), "/mcp%3Bx?y=1")
    assert.strictEqual(canonicalUrl("/mcp#x"), "/mcp%23x")
    assert.strictEqual(canonicalUrl("HTTP://h:1/v1/me/session?x"), "/v1/me/session?x")
    assert.strictEqual(canonicalUrl("*"), "/*")
  })

  it("redacts what is shaped like a credential, keeping ids", () => {
    const id = "0b9c5f0e-1234-4a6b-9c0d-112233445566"
    assert.strictEqual(redactSecrets(`/v1/me/keys/psx_k_${"A".repeat(32)}`), "/v1/me/keys/psx_k_[redacted]")
    assert.strictEqual(redactSecrets(`/x/${"bC".repeat(12)}/y`), "/x/[redacted]/y")
    assert.strictEqual(redactSecrets(`/v1/me/keys/${id}`), `/v1/me/keys/${id}`)
    assert.strictEqual(redactSecrets("/v1/quotes/HUBC"), "/v1/quotes/HUBC")
    assert.strictEqual(
      redactSecrets("/v1/sectors/oil-and-gas-exploration-companies"),
      "/v1/sectors/oil-and-gas-exploration-companies"
    )
    assert.strictEqual(redactSecrets(`/x/${"0123456789abcdef".repeat(2)}`), "/x/[redacted]", "a hex digest")
  })

  it.effect("a request charged to its user and its address is refused, taking neither token, when either is empty", () =>
    Effect.gen(function*() {
      const limiter = RateLimiter.make(1, 2)
      limiter.authenticated("psx_k_one", "user-1", "key-1", 0)
      limiter.authenticated("psx_k_two", "user-2", "key-2", 0)
      const take = (credential: string, address: string) =>
        limiter.take(limiter.bucketOf("private", `Bearer ${credential}`, address))
      assert.deepStrictEqual([yield* take("psx_k_one", "192.0.2.1"), yield* take("psx_k_one", "192.0.2.1")], [0, 0])
      assert.isAbove(yield* take("psx_k_two", "192.0.2.1"), 0, "another user from the spent address")
      // The refused request took none of user-2's two tokens.
      assert.deepStrictEqual([yield* take("psx_k_two", "192.0.2.2"), yield* take("psx_k_two", "192.0.2.2")], [0, 0])
      assert.isAbove(yield* take("psx_k_two", "192.0.2.3"), 0, "user-2 is spent from any address")
    }))

  it("the JSON logger drops the service's tokens from any field of a line", () => {
    const secret = `psx_s_${"Zz9_-".repeat(6)}ab`
    const line = jsonLine({
      message: { msg: "boom", detail: `bearer ${secret}` },
      logLevel: "Error",
      cause: Cause.fail(new Error(`rejected ${secret}`)),
      date: new Date(0),
      fiber: { getRef: () => ({}) }
    } as unknown as Logger.Options<unknown>)
    assert.notInclude(line, secret.slice(6))
    assert.include(line, "psx_s_[redacted]")
  })
})

layer(App, { timeout: 600_000, excludeTestServices: true })("spellings through the request gate", (it) => {
  it.effect("session creation: after the bucket is spent, no spelling mints another session", () =>
    Effect.gen(function*() {
      const from = "127.0.0.11"
      const create = (target: string) => send(from, "POST", target, { "content-type": "application/json" }, "{}")
      for (let i = 0; i < SESSION_BURST; i++) assert.strictEqual((yield* create("/v1/me/session")).status, 201)
      const spellings = spellingsOf("/v1/me/session")
      for (const s of SAME) assert.strictEqual((yield* create(spellings[s])).status, 429, s)
      for (const s of OTHER) assertNoRoute(yield* create(spellings[s]), s)
    }))

  it.effect("MCP: each spelling of POST /mcp meets the session guard as /mcp, or names no route", () =>
    Effect.gen(function*() {
      const from = "127.0.0.12"
      const initialize = (target: string, name: string) =>
        send(
          from,
          "POST",
          target,
          { "content-type": "application/json", accept: "application/json, text/event-stream" },
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name, version: "1" } }
          })
        )
      const spellings = spellingsOf("/mcp")
      for (const s of SAME) {
        // The guard bounds clientInfo (1,024 characters of JSON): only a request it sees is refused for it.
        const oversized = yield* initialize(spellings[s], "x".repeat(2_000))
        assert.strictEqual(oversized.status, 400, `${s}: ${oversized.text}`)
        assert.include(oversized.text, "clientInfo may be at most", s)
        const fine = yield* initialize(spellings[s], "test")
        assert.strictEqual(fine.status, 200, `${s}: ${fine.text}`)
        assert.isString(fine.headers["mcp-session-id"], s)
      }
      for (const s of OTHER) assertNoRoute(yield* initialize(spellings[s], "test"), s)
    }))

  it.effect("private routes: after the address's bucket is spent, every spelling is refused", () =>
    Effect.gen(function*() {
      const from = "127.0.0.13"
      const read = (target: string) => send(from, "GET", target)
      for (let i = 0; i < BURST; i++) assert.strictEqual((yield* read("/v1/me/keys")).status, 401)
      const spellings = spellingsOf("/v1/me/keys")
      for (const s of SAME) assert.strictEqual((yield* read(spellings[s])).status, 429, s)
      // Another spelling is charged by what it looks like (under /v1/me/: the spent bucket), and has no route.
      for (const s of OTHER) {
        const answer = yield* read(spellings[s])
        if (answer.status === 429) assert.isTrue(spellings[s].startsWith("/v1/me/"), s)
        else assertNoRoute(answer, s)
      }
    }))

  it.effect("the fast path and the public bucket: the same URI is the same answer, other spellings no route, all charged", () =>
    Effect.gen(function*() {
      const from = "127.0.0.14"
      const read = (target: string) => send(from, "GET", target)
      const spellings = spellingsOf("/v1/stocks/HUBC")
      const exact = yield* read(spellings.exact)
      assert.strictEqual(exact.status, 200)
      for (const s of SAME) assert.strictEqual((yield* read(spellings[s])).text, exact.text, s)
      // `;x` is part of the symbol's segment: a symbol with a `;` is not a ticker.
      for (const s of OTHER.filter((o) => o !== "semicolon")) assertNoRoute(yield* read(spellings[s]), s)
      const semicolon = yield* read(spellings.semicolon)
      assert.strictEqual(semicolon.status, 400, semicolon.text)
      assert.strictEqual(JSON.parse(semicolon.text).error, "INVALID_SYMBOL")
      // Every request so far took a token from the address's public bucket: spend the rest.
      for (let i = 1 + SAME.length + OTHER.length; i < BURST; i++) {
        assert.strictEqual((yield* read(spellings.exact)).status, 200)
      }
      for (const s of [...SAME, ...OTHER]) assert.strictEqual((yield* read(spellings[s])).status, 429, s)
    }))

  it.effect("sessions minted from one address share its budget for private routes", () =>
    Effect.gen(function*() {
      const from = "127.0.0.15"
      const tokens: Array<string> = []
      for (let i = 0; i < 3; i++) {
        const created = yield* send(from, "POST", "/v1/me/session", { "content-type": "application/json" }, "{}")
        tokens.push(JSON.parse(created.text).token)
      }
      let served = 0
      for (let i = 0; i < 3 * BURST; i++) {
        const answer = yield* send(from, "GET", "/v1/me/holdings", { authorization: `Bearer ${tokens[i % 3]}` })
        if (answer.status === 429) break
        assert.strictEqual(answer.status, 200, answer.text)
        served++
      }
      // Each token's first read is charged to the address's bucket for unauthenticated requests (it is not yet
      // known to authenticate); every later one to its user and to the address's bucket for authenticated
      // requests, which holds BURST. Three sessions with buckets of their own would have served 3 × BURST.
      assert.strictEqual(served, 3 + BURST)
      for (const token of tokens) {
        assert.strictEqual(
          (yield* send(from, "GET", "/v1/me/holdings", { authorization: `Bearer ${token}` })).status,
          429
        )
      }
    }))

  it.effect("a secret in a path is in no log line and no error message", () =>
    Effect.gen(function*() {
      const from = "127.0.0.16"
      const json = { "content-type": "application/json" }
      const session = JSON.parse((yield* send(from, "POST", "/v1/me/session", json, "{}")).text).token as string
      const bearer = { authorization: `Bearer ${session}` }
      const created = yield* send(
        from,
        "POST",
        "/v1/me/keys",
        { ...json, ...bearer },
        JSON.stringify({ grants: ["portfolio:read"] })
      )
      assert.strictEqual(created.status, 201, created.text)
      const key = JSON.parse(created.text).key as string
      const escaped = `%70${key.slice(1)}`
      for (const target of [`/v1/me/keys/${key}`, `/v1/me/keys/${escaped}`]) {
        const revoke = yield* send(from, "DELETE", target, bearer)
        assert.strictEqual(revoke.status, 404, revoke.text)
        assert.notInclude(revoke.text, key.slice(6), revoke.text)
      }
      yield* send(from, "GET", `/v1/me/keys/${session}`, bearer)
      // An id the path's schema refuses (a control character): the 400 message names the id, redacted.
      const refused = yield* send(from, "DELETE", `/v1/me/keys/${key}%01`, bearer)
      assert.strictEqual(refused.status, 400, refused.text)
      assert.notInclude(refused.text, key.slice(6), refused.text)
      // Features name the segment they refuse ("'…' is not a ticker"): the guard redacts it from the answer.
      for (const target of [`/v1/stocks/${key}`, `/v1/sectors/${key}`, `/v1/indices/${key}`, `/market/${key}`]) {
        const answer = yield* send(from, "GET", target)
        assert.isAtLeast(answer.status, 400, target)
        assert.notInclude(answer.text.toUpperCase(), key.slice(6).toUpperCase(), answer.text)
      }
      const noRoute = yield* send(from, "GET", `/v1/nothing/${key}?q=1`)
      assertNoRoute(noRoute, "no route")
      assert.notInclude(noRoute.text, key.slice(6))
      assert.include(noRoute.text, "psx_k_[redacted]")
      const bare = `${"Q".repeat(20)}${key.slice(-12)}`
      const other = yield* send(from, "GET", `/v1/nothing/${bare}`)
      assert.notInclude(other.text, bare)
      yield* waitUntil(
        "the requests' log lines are captured",
        Effect.sync(() => captured.some((l) => l.includes("/v1/nothing/")))
      )
      for (const line of captured) {
        for (const secret of [key, session, bare]) assert.notInclude(line, secret.slice(6), line)
      }
      assert.isTrue(captured.some((l) => l.includes("/v1/me/keys/psx_k_[redacted]")), "the redacted path is logged")
    }))

  it.effect("a body of an unsupported content type is a 415 error record with the request id", () =>
    Effect.gen(function*() {
      const answer = yield* send("127.0.0.17", "POST", "/v1/donations", { "content-type": "text/plain" }, "amount=5")
      assert.strictEqual(answer.status, 415, answer.text)
      assert.strictEqual(answer.headers["content-type"], "application/json")
      assert.match(String(answer.headers["x-request-id"]), /^[0-9a-z]+-[0-9a-z]+$/u)
      assert.deepStrictEqual(JSON.parse(answer.text), {
        error: "INVALID_REQUEST",
        message: "unsupported content-type \"text/plain\": send the body as application/json"
      })
    }))
})
