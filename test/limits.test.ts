/**
 * Bounded resources at the edge, over HTTP on the whole service:
 *
 * - MCP sessions end after their idle time, at most `cap` are kept (the least
 *   recently used ended first), DELETE /mcp ends one, and an oversized
 *   clientInfo is refused;
 * - public routes are charged to the address whatever bearer is sent: ten
 *   sessions do not multiply an address's limit;
 * - a private route with a valid credential is charged to its user, even
 *   while its address is over the public limit;
 * - creating sessions has a small limit of its own.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Clock, Effect, Schedule } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { createHash } from "node:crypto"
import { CLIENT_INFO_MAX } from "../src/mcp/Sessions.ts"
import { assertOk, get, post, TestApp } from "./support/TestApp.ts"

const accept = { accept: "application/json, text/event-stream", "content-type": "application/json" }

const initialize = (clientInfo: unknown = { name: "limits-test", version: "1" }) =>
  post("/mcp", {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo }
  }, accept)

const listTools = (session: string) =>
  post("/mcp", { jsonrpc: "2.0", id: 2, method: "tools/list" }, {
    ...accept,
    "mcp-session-id": session,
    "mcp-protocol-version": "2025-06-18"
  })

const open = Effect.gen(function*() {
  const init = yield* initialize()
  assertOk(init)
  const session = init.headers["mcp-session-id"]
  assert.isString(session)
  return session!
})

describe("MCP sessions", () => {
  layer(TestApp({ mcpSessions: { idleMinutes: 0.02, cap: 1_000 } }), { timeout: 240_000, excludeTestServices: true })(
    "idle time 1.2 s",
    (it) => {
      it.effect("a session idle past its time is ended; one in use is kept", () =>
        Effect.gen(function*() {
          const idle = yield* open
          const busy = yield* open
          // Keep one busy (every 200 ms) until the idle time (1.2 s) has passed for the other, which is not touched.
          const opened = yield* Clock.currentTimeMillis
          yield* Effect.gen(function*() {
            assert.strictEqual((yield* listTools(busy)).status, 200, "a session in use is kept")
            if ((yield* Clock.currentTimeMillis) - opened < 1_500) return yield* Effect.fail("not idle long enough yet")
          }).pipe(Effect.retry(Schedule.spaced("200 millis")), Effect.timeout("30 seconds"))
          const idleStatus = yield* listTools(idle)
          assert.strictEqual(idleStatus.status, 404)
          assert.strictEqual(idleStatus.body.error?.code, -32001)
        }))
    }
  )

  layer(TestApp({ mcpSessions: { idleMinutes: 30, cap: 3 } }), { timeout: 240_000, excludeTestServices: true })(
    "cap 3",
    (it) => {
      it.effect("at most 3 sessions: the least recently used is ended first", () =>
        Effect.gen(function*() {
          const a = yield* open
          const b = yield* open
          const c = yield* open
          assert.strictEqual((yield* listTools(a)).status, 200) // a is now the most recently used
          const d = yield* open
          assert.strictEqual((yield* listTools(b)).status, 404, "b was the least recently used")
          for (const kept of [a, c, d]) assert.strictEqual((yield* listTools(kept)).status, 200)
        }))

      it.effect("DELETE /mcp ends a session", () =>
        Effect.gen(function*() {
          const s = yield* open
          const client = yield* HttpClient.HttpClient
          const ended = yield* client.execute(
            HttpClientRequest.delete("/mcp").pipe(
              HttpClientRequest.setHeaders({ "mcp-session-id": s, "mcp-protocol-version": "2025-06-18" })
            )
          ).pipe(Effect.orDie)
          assert.strictEqual(ended.status, 204)
          assert.strictEqual((yield* listTools(s)).status, 404)
        }))

      it.effect("an oversized clientInfo is refused", () =>
        Effect.gen(function*() {
          const r = yield* initialize({ name: "x".repeat(CLIENT_INFO_MAX + 1), version: "1" })
          assert.strictEqual(r.status, 400)
          assert.strictEqual(r.body.error?.code, -32602)
          assert.isUndefined(r.headers["mcp-session-id"])
        }))
    }
  )
})

describe("rate limits", () => {
  layer(TestApp({ rateLimit: { perSecond: 1, burst: 20 } }), { timeout: 240_000, excludeTestServices: true })(
    "burst 20",
    (it) => {
      it.effect("ten sessions do not multiply an address's public limit; a valid credential still reaches its own data", () =>
        Effect.gen(function*() {
          const tokens: Array<string> = []
          for (let i = 0; i < 5; i++) {
            const s = yield* post("/v1/me/session", {})
            assertOk(s, 201)
            tokens.push(s.body.token as string)
          }
          // Each token authenticates once, so the limiter knows its user.
          for (const t of tokens) {
            assert.strictEqual((yield* get("/v1/me/holdings", { authorization: `Bearer ${t}` })).status, 200)
          }
          // Public requests, each with one of the tokens: all charged to the one address.
          const statuses: Array<number> = []
          for (let i = 0; i < 60; i++) {
            statuses.push(
              (yield* get("/v1/market/status", { authorization: `Bearer ${tokens[i % tokens.length]}` })).status
            )
          }
          const ok = statuses.filter((s) => s === 200).length
          assert.isAtMost(ok, 25, `one address's burst (20, plus refill), not five: ${statuses.join(",")}`)
          assert.isAtLeast(statuses.filter((s) => s === 429).length, 30)
          // The address is over its public limit; a user's private route is charged to the user.
          assert.strictEqual((yield* get("/v1/me/holdings", { authorization: `Bearer ${tokens[0]}` })).status, 200)
        }))

      it.effect("creating sessions has a small limit of its own (at least 5 in a burst)", () =>
        Effect.gen(function*() {
          const statuses: Array<number> = []
          for (let i = 0; i < 12; i++) statuses.push((yield* post("/v1/me/session", {})).status)
          assert.includeMembers(statuses, [429], statuses.join(","))
          assert.isAtMost(statuses.filter((s) => s === 201).length, 6, statuses.join(","))
        }))
    }
  )
})

describe("/docs", () => {
  layer(TestApp(), { timeout: 240_000, excludeTestServices: true })("docs page", (it) => {
    it.effect("has its own strict CSP: its inline scripts by hash, no framing", () =>
      Effect.gen(function*() {
        const r = yield* get("/docs")
        assertOk(r)
        const csp = r.headers["content-security-policy"]
        assert.isString(csp)
        assert.include(csp, "frame-ancestors 'none'")
        assert.notInclude(csp, "'unsafe-inline' 'sha256", "scripts are allowed by hash only")
        const scripts = [...String(r.body).matchAll(/<script>([\s\S]*?)<\/script>/gu)].map((m) => m[1]!)
        assert.isAbove(scripts.length, 0)
        for (const s of scripts) {
          assert.include(csp!, `'sha256-${createHash("sha256").update(s).digest("base64")}'`)
        }
        assert.match(csp!, /script-src 'sha256-[^;]*;/u)
      }))
  })
})
