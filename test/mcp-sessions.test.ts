/**
 * Hostile MCP clients, through the whole service:
 *
 * - memory: 200 `initialize` calls of ~900 KB, and hundreds of sessions
 *   each as large as allowed, leave the heap bounded (measured after a full
 *   collection, never by timing);
 * - one address, or one credential, flooding `initialize` never ends another
 *   client's session;
 * - a deeply nested or oversized `initialize` is a 400 JSON-RPC error with a
 *   request id, never a bare 500, whatever spelling of /mcp the router takes.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { request as httpRequest } from "node:http"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { makeSessionRegistry } from "../src/mcp/SessionRegistry.ts"
import { TestApp } from "./support/TestApp.ts"

setFlagsFromString("--expose-gc")
const collect = runInNewContext("gc") as () => void

/** The heap in use after a full collection, in MB. */
const heapMb = () => {
  collect()
  collect()
  return process.memoryUsage().heapUsed / 1_048_576
}

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: any
}

/** POST /mcp (or `path`) from a given loopback address (127.0.0.x), as a client there would. */
const mcpFrom = (from: string, body: string, headers: Record<string, string> = {}, path = "/mcp") =>
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.promise(() =>
      new Promise<Answer>((resolve, reject) => {
        const port = "port" in server.address ? server.address.port : 0
        const req = httpRequest({
          host: "127.0.0.1",
          port,
          localAddress: from,
          method: "POST",
          path,
          agent: false,
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }
        }, (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (chunk: Buffer) => chunks.push(chunk))
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8")
            const json = (res.headers["content-type"] ?? "").includes("json") && text !== ""
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json ? JSON.parse(text) : text })
          })
        })
        req.on("error", reject)
        req.end(body)
      })
    ))

const initializeText = (params: Record<string, unknown> = {}) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "sessions-test", version: "1" },
      ...params
    }
  })

/** Opens a session from `from`; its id. */
const open = (from: string, headers: Record<string, string> = {}) =>
  Effect.map(mcpFrom(from, initializeText(), headers), (r) => {
    assert.strictEqual(r.status, 200, JSON.stringify(r.body))
    assert.isString(r.headers["mcp-session-id"])
    return r.headers["mcp-session-id"] as string
  })

/** tools/list in a session from `from` (with the credential it was started with): 200 while the session is kept, 404 once ended. */
const listStatus = (from: string, session: string, headers: Record<string, string> = {}) =>
  Effect.map(
    mcpFrom(from, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), {
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-06-18",
      ...headers
    }),
    (r) => r.status
  )

/** An `experimental` capability of `keys` empty objects: what the attacker of item 1 sent. */
const bloated = (keys: number) => Object.fromEntries(Array.from({ length: keys }, (_, i) => [`x${i}`, {}]))

/** A 400 JSON-RPC error -32602 with the server's request id, and no session. */
const assertRefused = (r: Answer, mentions: RegExp) => {
  assert.strictEqual(r.status, 400, JSON.stringify(r.body))
  assert.strictEqual(r.body.jsonrpc, "2.0")
  assert.strictEqual(r.body.error.code, -32602)
  assert.match(r.body.error.message, mentions)
  assert.isString(r.headers["x-request-id"])
  assert.isUndefined(r.headers["mcp-session-id"])
}

const quick = { timeout: 600_000, excludeTestServices: true } as const

describe("MCP sessions under attack", () => {
  layer(TestApp(), quick)("default limits", (it) => {
    it.effect(
      "200 initialize calls of ~900 KB each are refused with 400 and leave the heap where it was",
      () =>
        Effect.gen(function*() {
          const hostile = initializeText({ capabilities: { experimental: bloated(76_000) } })
          assert.isAbove(hostile.length, 880_000)
          // Warm the path first, so the baseline holds what any request leaves behind.
          assertRefused(yield* mcpFrom("127.0.0.1", hostile), /at most 8192 bytes/)
          const before = heapMb()
          for (let i = 1; i <= 200; i++) {
            const r = yield* mcpFrom("127.0.0.1", hostile)
            assert.strictEqual(r.status, 400, `call ${i}`)
            // Checked as it goes: before the bound, 25 such sessions already held ~250 MB.
            if (i % 25 === 0) assert.isBelow(heapMb() - before, 32, `heap growth after ${i} calls`)
          }
        }),
      { timeout: 900_000 }
    )

    it.effect("clientInfo nested 5,000 and 100,000 levels deep: 400 with a request id, never a bare 500", () =>
      Effect.gen(function*() {
        for (const levels of [5_000, 100_000]) {
          const deep = "{\"a\":".repeat(levels) + "{}" + "}".repeat(levels)
          const text = `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
            `"capabilities":{},"clientInfo":{"name":"x","version":"1","more":${deep}}}}`
          const r = yield* mcpFrom("127.0.0.1", text)
          assertRefused(r, /at most 8192 bytes/)
          assert.strictEqual(r.body.id, 7, "the error answers the request's id")
        }
        // Within the byte limit, 1,500 levels (7.5 KB) are refused for their depth.
        const deep = "[".repeat(1_500) + "]".repeat(1_500)
        assertRefused(
          yield* mcpFrom("127.0.0.1", initializeText({ _meta: { deep: JSON.parse(deep) } })),
          /nest at most 32 levels/
        )
        // An escaped method name is still an initialize.
        const escaped = initializeText({ capabilities: { experimental: bloated(2_000) } }).replace(
          "\"initialize\"",
          "\"initiali\\u007ae\""
        )
        assertRefused(yield* mcpFrom("127.0.0.1", escaped), /at most 8192 bytes/)
        assert.strictEqual(yield* listStatus("127.0.0.1", yield* open("127.0.0.1")), 200, "the service still serves")
      }))

    it.effect("an oversized clientInfo and a batched initialize are refused with request ids", () =>
      Effect.gen(function*() {
        assertRefused(
          yield* mcpFrom("127.0.0.1", initializeText({ clientInfo: { name: "x".repeat(1_100), version: "1" } })),
          /clientInfo/
        )
        const batch = `[${initializeText()}]`
        const r = yield* mcpFrom("127.0.0.1", batch)
        assert.strictEqual(r.status, 400)
        assert.strictEqual(r.body.error.code, -32600)
        assert.isString(r.headers["x-request-id"])
        assert.isUndefined(r.headers["mcp-session-id"])
      }))

    it.effect("other spellings of /mcp never create a session past the bounds", () =>
      Effect.gen(function*() {
        const hostile = initializeText({ capabilities: { experimental: bloated(76_000) } })
        for (const path of ["/mcp/", "/MCP", "//mcp", "/%6Dcp", "/mcp;x", "/mcp?x=1"]) {
          const r = yield* mcpFrom("127.0.0.1", hostile, {}, path)
          assert.include([400, 404], r.status, `${path}: ${JSON.stringify(r.body)}`)
          assert.isUndefined(r.headers["mcp-session-id"], path)
          assert.isString(r.headers["x-request-id"], path)
        }
      }))
  })

  layer(
    TestApp({
      mcpSessionLimits: { perClient: 5, initializeBytes: 8_192, budgetBytes: 8_388_608 },
      mcpSessions: { idleMinutes: 30, cap: 8 }
    }),
    quick
  )(
    "5 sessions per client, 8 in all",
    (it) => {
      it.effect("a flood from one address ends only its own sessions, least recently used first", () =>
        Effect.gen(function*() {
          const victim = yield* open("127.0.0.2")
          const flood: Array<string> = []
          for (let i = 0; i < 30; i++) flood.push(yield* open("127.0.0.3"))
          assert.strictEqual(yield* listStatus("127.0.0.2", victim), 200, "the victim's session is kept")
          for (const s of flood.slice(0, 25)) assert.strictEqual(yield* listStatus("127.0.0.3", s), 404)
          for (const s of flood.slice(25)) assert.strictEqual(yield* listStatus("127.0.0.3", s), 200)
        }))

      it.effect("floods from two addresses past the overall cap end the largest holders' sessions, not the victim's", () =>
        Effect.gen(function*() {
          const victim = yield* open("127.0.0.4")
          for (let round = 0; round < 20; round++) {
            yield* open("127.0.0.5")
            yield* open("127.0.0.6")
          }
          assert.strictEqual(yield* listStatus("127.0.0.4", victim), 200, "the victim's session is kept")
        }))

      it.effect("one credential from many addresses holds at most 5 sessions", () =>
        Effect.gen(function*() {
          const bearer = { authorization: "Bearer the-same-credential" }
          const sessions: Array<string> = []
          for (let i = 0; i < 7; i++) sessions.push(yield* open(`127.0.1.${i + 1}`, bearer))
          const statuses: Array<number> = []
          for (const [i, s] of sessions.entries()) statuses.push(yield* listStatus(`127.0.1.${i + 1}`, s, bearer))
          assert.deepStrictEqual(statuses, [404, 404, 200, 200, 200, 200, 200])
        }))
    }
  )

  layer(TestApp({ mcpSessionLimits: { perClient: 1_000, initializeBytes: 8_192, budgetBytes: 1_048_576 } }), quick)(
    "a 1 MiB budget",
    (it) => {
      it.effect(
        "300 sessions each as large as allowed under a 1 MiB budget: the first are ended by the budget alone, the heap stays bounded",
        () =>
          Effect.gen(function*() {
            // 8 KB of _meta keys (kept) and 8 KB-worth of experimental keys would be dropped anyway.
            const meta = Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`m${i}`, i]))
            const large = initializeText({ _meta: meta })
            assert.isAbove(large.length, 7_500)
            assert.isBelow(large.length, 8_192)
            yield* open("127.0.0.1")
            const before = heapMb()
            const sessions: Array<string> = []
            for (let i = 0; i < 300; i++) {
              const r = yield* mcpFrom("127.0.0.1", large)
              assert.strictEqual(r.status, 200, JSON.stringify(r.body))
              sessions.push(r.headers["mcp-session-id"] as string)
            }
            const grown = heapMb() - before
            // 1 MiB / (~7.6 KB + 8 KB) is at most 67 sessions.
            assert.strictEqual(yield* listStatus("127.0.0.1", sessions[0]!), 404, "the first were ended")
            assert.strictEqual(yield* listStatus("127.0.0.1", sessions[299]!), 200, "the last is kept")
            assert.isBelow(grown, 8, "heap growth for 300 large sessions")
          }),
        { timeout: 600_000 }
      )
    }
  )
})

describe("the session registry's choices (no HTTP)", () => {
  const limits = { ttlMs: 1_000, cap: 100, perClient: 3, budgetBytes: 10_000 }
  const a = { address: "a", principal: undefined }
  const b = { address: "b", principal: undefined }

  it("past the byte budget, the largest holder's least recently used session ends first", () => {
    const registry = makeSessionRegistry(limits)
    assert.deepStrictEqual(registry.admit("b1", b, 2_000, 0), [])
    assert.deepStrictEqual(registry.admit("a1", a, 3_000, 1), [])
    assert.deepStrictEqual(registry.admit("a2", a, 3_000, 2), [])
    // 8,000 kept; 3,000 more is 11,000 > 10,000: a holds 6,000, b 2,000, so a's oldest ends.
    assert.deepStrictEqual(registry.admit("b2", b, 3_000, 3), ["a1"])
    assert.deepStrictEqual(registry.size(), { sessions: 3, bytes: 8_000 })
  })

  it("a client at its limit ends its own least recently used session; touching one keeps it", () => {
    const registry = makeSessionRegistry(limits)
    registry.admit("b1", b, 100, 0)
    for (const id of ["a1", "a2", "a3"]) registry.admit(id, a, 100, 1)
    assert.isTrue(registry.touch("a1", 2))
    assert.deepStrictEqual(registry.admit("a4", a, 100, 3), ["a2"])
    assert.deepStrictEqual(registry.expire(1_001), ["b1", "a3"])
    assert.isFalse(registry.touch("b1", 1_002))
  })
})
