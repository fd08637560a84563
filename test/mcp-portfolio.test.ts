/**
 * The portfolio tools for agents, with the official MCP SDK
 * client: over streamable HTTP against the test app, and over stdio against a
 * spawned `node src/main.ts mcp` whose key comes from PSX_API_KEY. Each tool
 * is a portfolio route, so each answer is compared with that route's answer
 * for the same key; the figures checked by hand are worked in comments.
 * Runs on the embedded store and, with DATABASE_URL, on PostgreSQL.
 */
import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { compactRecord } from "../src/mcp/Compact.ts"
import { PORTFOLIO_TOOLS as ROUTE_TOOLS } from "../src/mcp/PortfolioTools.ts"
import { errorRecord } from "../src/mcp/RouteToolCall.ts"
import { MARKET_TOOLS as SERVED } from "../src/mcp/Server.ts"
import { baseUrl } from "./support/McpClients.ts"
import { templateName } from "./support/PackTemplate.ts"
import { call, startService, type Store } from "./support/ServiceProcess.ts"
import { assertFailed, assertOk, bodyOf, del, get, post, TestApp } from "./support/TestApp.ts"
import { isRealPostgres, throwawayDatabase } from "./support/TestDatabase.ts"

const NOW = "2026-06-15T06:00:00.000Z"
const READ_TOOLS = ["get_entitlements", "get_holdings", "get_ledger", "get_performance", "get_tax_statement"]
const WRITE_TOOLS = ["accept_entitlement", "dismiss_entitlement", "record_transaction"]
const PORTFOLIO_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS]
const MARKET_TOOLS = SERVED.map((t) => t.name).sort()

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** An SDK client over streamable HTTP, with `key` as its bearer credential on every request (none: no header). */
const clientWith = (key?: string) =>
  Effect.gen(function*() {
    const url = new URL("/mcp", yield* baseUrl)
    const transport = new StreamableHTTPClientTransport(
      url,
      key === undefined ? {} : { requestInit: { headers: bearer(key) } }
    )
    const client = new Client({ name: "psx-portfolio-test", version: "1.0.0" })
    return yield* Effect.acquireRelease(promise(() => client.connect(transport)).pipe(Effect.as(client)), (c) =>
      promise(() => c.close()))
  })

interface Answer {
  readonly name: string
  readonly isError: boolean
  readonly record: any
  readonly structured: unknown
  readonly status: unknown
}

const callTool = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.map(promise(() => client.callTool({ name, arguments: args })), (r): Answer => ({
    name,
    isError: r.isError === true,
    record: JSON.parse((r.content as Array<{ text: string }>)[0]!.text),
    structured: r.structuredContent,
    status: r._meta?.["psx/status"]
  }))

/** A new portfolio: its session token (both grants), a read-only key and a write-only key. */
const portfolio = Effect.gen(function*() {
  const session = yield* post("/v1/me/session", {})
  assertOk(session, 201)
  const token = session.body.token
  const reader = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(token))).key
  const writer = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(token))).key
  return { token, reader, writer }
})

const BUY_OGDC = { kind: "buy", symbol: "OGDC", quantity: 100, price: 208.95, trade_date: "2025-05-26" }

const ajv = new Ajv2020({ strict: false, validateFormats: false })

interface Replied {
  readonly status: number
  readonly body?: unknown
}

/** The same call as a tool and as the route: both answers, and the route's reply. */
const both = <R extends Replied, X>(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  http: Effect.Effect<R, never, X>
) => Effect.all([callTool(client, tool, args), http])

/** A tool's refusal is the route's error record with its status. */
const sameRefusal = ([tool, http]: readonly [Answer, Replied], status: number, code: string) => {
  assert.isTrue(tool.isError, JSON.stringify(tool.record))
  assert.strictEqual(http.status, status, JSON.stringify(http.body))
  // The route's record, its message in MCP's words (an argument error also lists the tool's arguments).
  assert.deepStrictEqual(
    tool.record,
    errorRecord(ROUTE_TOOLS.find((t) => t.name === tool.name)!, status, http.body as any)
  )
  assert.strictEqual(tool.record.error, code)
  assert.strictEqual(tool.status, status)
  assert.isUndefined(tool.structured)
}

const ACCEPT = { accept: "application/json, text/event-stream", "content-type": "application/json" }

layer(TestApp({ withPack: true, now: NOW }), { timeout: 600_000, excludeTestServices: true })(
  "MCP portfolio tools over HTTP",
  (it) => {
    it.effect("without a key only the market tools are listed, and a portfolio tool is not found", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* clientWith()
        const { tools } = yield* promise(() => client.listTools())
        assert.deepStrictEqual(tools.map((t) => t.name).sort(), MARKET_TOOLS)
        const refused = yield* promise(() =>
          client.callTool({ name: "get_holdings", arguments: {} }).then(() => undefined, (e) => e)
        )
        assert.instanceOf(refused, McpError)
        assert.strictEqual((refused as McpError).code, -32602)
        assert.match((refused as McpError).message, /get_holdings.*not found/)
      })))

    it.effect("each key is listed the tools its grants allow beside the market tools, each naming its grant", () =>
      Effect.scoped(Effect.gen(function*() {
        const { reader, writer, token } = yield* portfolio
        const namesFor = (key: string) =>
          Effect.flatMap(
            clientWith(key),
            (c) => Effect.map(promise(() => c.listTools()), (l) => l.tools.map((t) => t.name).sort())
          )
        assert.deepStrictEqual(yield* namesFor(writer), [...MARKET_TOOLS, ...WRITE_TOOLS].sort(), "a write-only key")
        const client = yield* clientWith(token)
        const { tools } = yield* promise(() => client.listTools())
        assert.deepStrictEqual(tools.map((t) => t.name).sort(), [...MARKET_TOOLS, ...PORTFOLIO_TOOLS].sort())
        const byName = new Map(tools.map((t) => [t.name, t]))
        for (const name of PORTFOLIO_TOOLS) {
          const tool = byName.get(name)!
          assert.strictEqual(tool.inputSchema.type, "object", name)
          assert.isTrue(ajv.validateSchema(tool.inputSchema) as boolean, `${name}: ${ajv.errorsText(ajv.errors)}`)
          assert.isBelow(tool.description!.length, 250, `${name}'s description stays short`)
        }
        const readOnly = (yield* promise(() => client.listTools())).tools.filter((t) => READ_TOOLS.includes(t.name))
        assert.strictEqual(readOnly.length, READ_TOOLS.length)
        assert.deepStrictEqual(yield* namesFor(reader), [...MARKET_TOOLS, ...READ_TOOLS].sort(), "a read-only key")
        for (const name of ["get_holdings", "get_ledger", "get_entitlements"]) {
          assert.match(byName.get(name)!.description!, /Grant: portfolio:read\.$/, name)
        }
        assert.match(byName.get("record_transaction")!.description!, /Grant: portfolio:write\.$/)
        assert.deepInclude(byName.get("record_transaction")!.annotations!, {
          readOnlyHint: false,
          destructiveHint: false
        })
        assert.deepInclude(byName.get("get_ledger")!.annotations!, { readOnlyHint: true, openWorldHint: false })
        const record = ajv.compile(byName.get("record_transaction")!.inputSchema)
        assert.isTrue(record({ body: BUY_OGDC, idempotency_key: "k" }) as boolean, ajv.errorsText(record.errors))
        // An argument the route does not take is refused when called (before the route), naming the accepted ones.
        const extra = yield* callTool(client, "record_transaction", { body: BUY_OGDC, dry_run: true })
        assert.isTrue(extra.isError)
        assert.match(extra.record.message, /unknown argument `dry_run`: record_transaction takes .*body/)
        const ledger = ajv.compile(byName.get("get_ledger")!.inputSchema)
        assert.isTrue(ledger({ limit: 5, cursor: "c" }) as boolean)
        assert.isFalse(ledger({ limit: 1001 }) as boolean, "the route's bound on limit (1,000) is the tool's")
        const catalogue = (headers: Record<string, string>) =>
          Effect.map(get("/v1/ai/tools", headers), (r) => bodyOf(r).tools.map((t) => t.name).sort())
        assert.deepStrictEqual(
          yield* catalogue(bearer(reader)),
          tools.map((t) => t.name).sort(),
          "the catalogue lists every tool a key may be given"
        )
        assert.deepStrictEqual(yield* catalogue({}), MARKET_TOOLS)
      })))

    it.effect("get_holdings after a trade is GET /v1/me/holdings' body for the same key", () =>
      Effect.scoped(Effect.gen(function*() {
        const { reader, token } = yield* portfolio
        assertOk(yield* post("/v1/me/transactions", BUY_OGDC, bearer(token)), 201)
        const client = yield* clientWith(reader)
        const [answer, http] = yield* both(client, "get_holdings", {}, get("/v1/me/holdings", bearer(reader)))
        assert.isFalse(answer.isError, JSON.stringify(answer.record))
        assertOk(http)
        assert.deepStrictEqual(answer.structured, compactRecord(http.body))
        assert.deepStrictEqual(answer.record, compactRecord(http.body))
        assert.strictEqual(answer.status, 200)
        // 100 shares bought at Rs 208.95 with no fees: cost 100 × 208.95 = Rs 20,895.00, average cost 208.95.
        assert.deepInclude(http.body.items[0], { symbol: "OGDC", quantity: 100, cost: 20_895, average_cost: 208.95 })
        const [entitlements, httpEntitlements] = yield* both(
          client,
          "get_entitlements",
          { limit: 5 },
          get("/v1/me/entitlements?limit=5", bearer(reader))
        )
        assert.deepStrictEqual(entitlements.structured, compactRecord(httpEntitlements.body))
      })))

    it.effect("record_transaction with a read-only key is not a tool to it (the route would be 403), and records nothing", () =>
      Effect.scoped(Effect.gen(function*() {
        const { reader } = yield* portfolio
        const client = yield* clientWith(reader)
        const refused = yield* Effect.flip(
          Effect.tryPromise(() => client.callTool({ name: "record_transaction", arguments: { body: BUY_OGDC } }))
        )
        assert.match(String((refused as any).cause?.message ?? refused), /record_transaction.*not found/)
        assertFailed(yield* post("/v1/me/transactions", BUY_OGDC, bearer(reader)), 403, "FORBIDDEN")
        const ledger = yield* callTool(client, "get_ledger", {})
        assert.strictEqual(ledger.record.total, 0)
      })))

    it.effect("with a write key it records through the decider, and get_ledger and get_holdings show it", () =>
      Effect.scoped(Effect.gen(function*() {
        const { token, writer } = yield* portfolio
        const writing = yield* clientWith(writer)
        const bought = yield* callTool(writing, "record_transaction", { body: BUY_OGDC })
        assert.isFalse(bought.isError, JSON.stringify(bought.record))
        assert.strictEqual(bought.status, 201)
        assert.isUndefined(bought.record.holding, "a key without portfolio:read is not shown the holding, as on HTTP")
        const sell = { kind: "sell", symbol: "OGDC", quantity: 40, price: 210, trade_date: "2025-05-27" }
        const reading = yield* clientWith(token)
        const sold = yield* callTool(reading, "record_transaction", { body: sell })
        assert.strictEqual(sold.status, 201)
        // Sold 40 of 100 bought at 208.95 for 210: realised 40 × (210 − 208.95) = Rs 42.00; 60 shares left
        // at cost 60 × 208.95 = Rs 12,537.00.
        assert.deepInclude(sold.record.holding, { symbol: "OGDC", quantity: 60, cost: 12_537, realized_pnl: 42 })
        const [ledger, httpLedger] = yield* both(
          reading,
          "get_ledger",
          { limit: 1 },
          get("/v1/me/ledger?limit=1", bearer(token))
        )
        assert.deepStrictEqual(ledger.structured, compactRecord(httpLedger.body))
        assert.strictEqual(ledger.record.total, 2)
        assert.deepStrictEqual(ledger.record.items.map((i: any) => i.event_id), [sold.record.event.event_id])
        const older = yield* callTool(reading, "get_ledger", { limit: 1, cursor: ledger.record.next_cursor })
        assert.deepStrictEqual(older.record.items.map((i: any) => i.event_id), [bought.record.event.event_id])
        const [holdings, httpHoldings] = yield* both(reading, "get_holdings", {}, get("/v1/me/holdings", bearer(token)))
        assert.deepStrictEqual(holdings.structured, compactRecord(httpHoldings.body))
      })))

    it.effect("bad input gets the route's own 400 INVALID_REQUEST record", () =>
      Effect.scoped(Effect.gen(function*() {
        const { token } = yield* portfolio
        const client = yield* clientWith(token)
        const negative = { ...BUY_OGDC, quantity: -5 }
        sameRefusal(
          yield* both(
            client,
            "record_transaction",
            { body: negative },
            post("/v1/me/transactions", negative, bearer(token))
          ),
          400,
          "INVALID_REQUEST"
        )
        const future = { ...BUY_OGDC, trade_date: "2026-06-16" }
        sameRefusal(
          yield* both(
            client,
            "record_transaction",
            { body: future },
            post("/v1/me/transactions", future, bearer(token))
          ),
          400,
          "INVALID_REQUEST"
        )
        const oversell = { kind: "sell", symbol: "OGDC", quantity: 1, price: 210, trade_date: "2025-05-27" }
        sameRefusal(
          yield* both(
            client,
            "record_transaction",
            { body: oversell },
            post("/v1/me/transactions", oversell, bearer(token))
          ),
          400,
          "INVALID_REQUEST"
        )
        sameRefusal(
          yield* both(client, "get_ledger", { limit: 0 }, get("/v1/me/ledger?limit=0", bearer(token))),
          400,
          "INVALID_REQUEST"
        )
        const unknown = yield* callTool(client, "record_transaction", { body: BUY_OGDC, dry_run: true })
        assert.deepStrictEqual(unknown.record, {
          error: "INVALID_REQUEST",
          message: "unknown argument `dry_run`: record_transaction takes body, idempotency_key"
        })
        assert.strictEqual((yield* callTool(client, "get_ledger", {})).record.total, 0, "nothing was recorded")
      })))

    it.effect("an idempotency_key is the route's Idempotency-Key: replayed across transports, 409 for another body", () =>
      Effect.scoped(Effect.gen(function*() {
        const { token } = yield* portfolio
        const client = yield* clientWith(token)
        const first = yield* callTool(client, "record_transaction", { body: BUY_OGDC, idempotency_key: "agent-1" })
        assert.isFalse(first.record.replayed)
        const again = yield* post("/v1/me/transactions", BUY_OGDC, { ...bearer(token), "idempotency-key": "agent-1" })
        assertOk(again, 201)
        assert.isTrue(again.body.replayed)
        assert.strictEqual(again.body.event.event_id, first.record.event.event_id)
        const other = { ...BUY_OGDC, quantity: 50 }
        sameRefusal(
          yield* both(
            client,
            "record_transaction",
            { body: other, idempotency_key: "agent-1" },
            post("/v1/me/transactions", other, { ...bearer(token), "idempotency-key": "agent-1" })
          ),
          409,
          "INVALID_REQUEST"
        )
        assert.strictEqual((yield* callTool(client, "get_ledger", {})).record.total, 1)
      })))

    it.effect("a session whose key was revoked lists no portfolio tool, and a call of one is not found (the route: 401)", () =>
      Effect.scoped(Effect.gen(function*() {
        const { token, reader } = yield* portfolio
        const client = yield* clientWith(reader)
        assert.includeMembers((yield* promise(() => client.listTools())).tools.map((t) => t.name), READ_TOOLS)
        const keys = bodyOf(yield* get("/v1/me/keys", bearer(token))).items
        const readerId = keys.find((k: any) => k.kind === "key" && k.grants.join() === "portfolio:read")!.id
        assertOk(yield* del(`/v1/me/keys/${readerId}`, bearer(token)))
        assert.deepStrictEqual((yield* promise(() => client.listTools())).tools.map((t) => t.name).sort(), MARKET_TOOLS)
        const refused = yield* Effect.flip(
          Effect.tryPromise(() => client.callTool({ name: "get_holdings", arguments: {} }))
        )
        assert.match(String((refused as any).cause?.message ?? refused), /get_holdings.*not found/)
        assertFailed(yield* get("/v1/me/holdings", bearer(reader)), 401, "UNAUTHORIZED")
      })))

    it.effect("a session keeps the credential it started with: another one, or none, is 403 with a JSON-RPC error", () =>
      Effect.gen(function*() {
        const a = yield* portfolio
        const b = yield* portfolio
        const init = yield* post("/mcp", {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
        }, { ...ACCEPT, ...bearer(a.reader) })
        assertOk(init)
        const session = {
          ...ACCEPT,
          "mcp-session-id": init.headers["mcp-session-id"]!,
          "mcp-protocol-version": "2025-06-18"
        }
        const list = { jsonrpc: "2.0", id: 2, method: "tools/list" }
        const own = yield* post("/mcp", list, { ...session, ...bearer(a.reader) })
        assertOk(own)
        assert.includeMembers((own.body as any).result.tools.map((t: any) => t.name), READ_TOOLS)
        for (const headers of [bearer(b.reader), bearer(a.token), {}]) {
          const other = yield* post("/mcp", list, { ...session, ...headers })
          assert.strictEqual(other.status, 403)
          assert.strictEqual((other.body as any).id, 2, "the refusal answers the request's id")
          assert.strictEqual((other.body as any).error.code, -32000)
          assert.match((other.body as any).error.message, /another Authorization credential/)
        }
      }))
  }
)

const BURST = 12

layer(TestApp({ withPack: true, now: NOW, rateLimit: { perSecond: 0.001, burst: BURST } }), {
  timeout: 600_000,
  excludeTestServices: true
})(
  "MCP portfolio tools and the rate limit",
  (it) => {
    it.effect("a tool call takes a token from the key's bucket as its route does; an empty bucket is the route's 429 record", () =>
      Effect.scoped(Effect.gen(function*() {
        const session = yield* post("/v1/me/session", {})
        assertOk(session, 201)
        const token = session.body.token
        // The first request of a credential is charged to its address's bucket for unchecked credentials; from then on
        // its requests are charged to its user's bucket (and its address's for authenticated requests), BURST tokens.
        assertOk(yield* get("/v1/me/holdings", bearer(token)))
        const client = yield* clientWith(token)
        for (let i = 0; i < 3; i++) assert.isFalse((yield* callTool(client, "get_holdings", {})).isError)
        // The three tool calls took 3 of the user's 12 tokens (refill 0.001 a second: under one token in the
        // test's time), so HTTP gets 12 − 3 = 9 more before the 429.
        let answered = 0
        for (;;) {
          const reply = yield* get("/v1/me/holdings", bearer(token))
          if (reply.status === 429) break
          assertOk(reply)
          answered++
        }
        assert.strictEqual(answered, BURST - 3)
        const limited = yield* callTool(client, "get_holdings", {})
        assert.isTrue(limited.isError)
        assert.strictEqual(limited.record.error, "RATE_LIMITED")
        assert.strictEqual(limited.status, 429)
        assert.isFalse(
          (yield* callTool(client, "get_market_snapshot", {})).isError,
          "the /mcp request itself is charged to the address's public bucket"
        )
      })))
  }
)

/**
 * A throwaway store holding the pack: on PostgreSQL a copy of the pack's template database, on the embedded store
 * an empty data directory that the service fills from the pack's prebuilt image on its first start.
 */
const packStore = Effect.gen(function*() {
  if (isRealPostgres) {
    const url = yield* throwawayDatabase(process.env["DATABASE_URL"]!, templateName())
    // The service's start finds the pack in it and says so (data_pack installed) without importing it again.
    return { env: { DATABASE_URL: url.toString() }, mode: "postgres" } satisfies Store
  }
  const dir = mkdtempSync(join(tmpdir(), "psx-mcp-portfolio-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  return { env: { PSX_DATA_DIR: join(dir, "pg") }, mode: "embedded" } satisfies Store
})

/** `node src/main.ts mcp` as a desktop host launches it, on `store`, with the SDK's stdio client connected. */
const stdioClient = (store: Store, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["src/main.ts", "mcp"],
        cwd: resolve(import.meta.dirname, ".."),
        env: {
          PATH: process.env["PATH"] ?? "",
          HOME: process.env["HOME"] ?? "/tmp",
          LOG_LEVEL: "Warn",
          ...store.env,
          ...env
        },
        stderr: "pipe"
      })
      const client = new Client({ name: "psx-portfolio-test", version: "1.0.0" })
      await client.connect(transport)
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const json = (body: unknown, key: string) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...bearer(key) },
  body: JSON.stringify(body)
})

layer(Layer.empty, { timeout: 600_000, excludeTestServices: true })("MCP portfolio tools over stdio", (it) => {
  it.effect(
    "the key comes from PSX_API_KEY: get_holdings is the HTTP route's answer, record_transaction records, get_ledger shows it",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const store = yield* packStore
        // The key and a first trade, made over HTTP by the service on the same store (stopped before the stdio
        // process opens it: the embedded store has one owner at a time).
        const service = yield* startService(store, { awaitPack: true })
        const session = yield* call(`${service.url}/v1/me/session`, { method: "POST" })
        assert.strictEqual(session.status, 201, session.text)
        const created = yield* call(
          `${service.url}/v1/me/keys`,
          json({ grants: ["portfolio:read", "portfolio:write"] }, session.body.token)
        )
        assert.strictEqual(created.status, 201, created.text)
        const key = created.body.key as string
        const bought = yield* call(`${service.url}/v1/me/transactions`, json(BUY_OGDC, key))
        assert.strictEqual(bought.status, 201, bought.text)
        const holdings = yield* call(`${service.url}/v1/me/holdings`, { headers: bearer(key) })
        assert.strictEqual(holdings.status, 200, holdings.text)
        yield* service.kill("SIGTERM")

        const keyless = yield* stdioClient(store, {})
        const unlisted = yield* promise(() => keyless.listTools())
        assert.deepStrictEqual(unlisted.tools.map((t) => t.name).sort(), MARKET_TOOLS)
        yield* promise(() => keyless.close())

        const client = yield* stdioClient(store, { PSX_API_KEY: key })
        const { tools } = yield* promise(() => client.listTools())
        assert.includeMembers(tools.map((t) => t.name), PORTFOLIO_TOOLS)
        const mine = yield* callTool(client, "get_holdings", {})
        assert.deepStrictEqual(mine.structured, compactRecord(holdings.body))
        // 100 shares at Rs 208.95: cost 20,895.00.
        assert.deepInclude(holdings.body.items[0], { symbol: "OGDC", quantity: 100, cost: 20_895 })
        const sell = { kind: "sell", symbol: "OGDC", quantity: 40, price: 210, trade_date: "2025-05-27" }
        const sold = yield* callTool(client, "record_transaction", { body: sell })
        assert.strictEqual(sold.status, 201, JSON.stringify(sold.record))
        // 60 shares left at 208.95 each: 12,537.00; realised 40 × (210 − 208.95) = 42.00.
        assert.deepInclude(sold.record.holding, { quantity: 60, cost: 12_537, realized_pnl: 42 })
        const ledger = yield* callTool(client, "get_ledger", {})
        assert.strictEqual(ledger.record.total, 2)
        assert.deepStrictEqual(ledger.record.items.map((i: any) => i.event_id), [
          sold.record.event.event_id,
          bought.body.event.event_id
        ])
        const bad = yield* callTool(client, "record_transaction", { body: { ...sell, quantity: 61 } })
        assert.deepInclude(bad.record, { error: "INVALID_REQUEST" })
        assert.strictEqual(bad.status, 400)
      })),
    300_000
  )
})
