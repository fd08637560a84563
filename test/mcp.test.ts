/**
 * The tool endpoint as real MCP hosts use it: the official TypeScript SDK
 * client over streamable HTTP (POST /mcp on the test app) and over stdio
 * (a spawned `node src/main.ts mcp`), on the bundled pack.
 *
 * Each tool mirrors one HTTP route (TOOLS below): its structuredContent must
 * equal that route's body, on both transports. The table holds all fifteen
 * SPEC 4.6 tools; an entry whose tool is not served yet is skipped and says so
 * in its test name (as does one whose route is not served yet).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { Api } from "../src/http/Api.ts"
import { MAX_BATCH } from "../src/mcp/Envelope.ts"
import { errorRecord } from "../src/mcp/RouteToolCall.ts"
import { MARKET_TOOLS } from "../src/mcp/Server.ts"
import { baseUrl, httpClient, StdioMcp, withStdioMcp } from "./support/McpClients.ts"
import { assertOk, assertSucceeded, get, post, TestApp } from "./support/TestApp.ts"
import { toolRecordOf } from "./support/ToolRecord.ts"

const NOW = "2026-06-15T06:00:00.000Z"

interface Entry {
  readonly tool: string
  readonly args: Record<string, unknown>
  /** The route the tool mirrors, as declared in the HttpApi (`:param` paths). */
  readonly route: string
  /** The concrete request whose body the tool's result must equal. */
  readonly request: { readonly method: "GET" | "POST"; readonly path: string; readonly body?: unknown }
}

const getting = (tool: string, args: Record<string, unknown>, route: string, path: string): Entry => ({
  tool,
  args,
  route: `GET ${route}`,
  request: { method: "GET", path }
})

/** SPEC 4.6's fifteen tools and the four added since, each with the route it mirrors and real symbols of the pack. */
const TOOLS: ReadonlyArray<Entry> = [
  getting("get_company", { symbol: "HUBC" }, "/v1/companies/:symbol", "/v1/companies/HUBC"),
  getting("get_quote", { symbol: "HUBC", allow_stale: true }, "/v1/quotes/:symbol", "/v1/quotes/HUBC?allow_stale=true"),
  getting(
    "get_price_history",
    { symbol: "OGDC", range: "1Y", limit: 20 },
    "/v1/prices/:symbol",
    "/v1/prices/OGDC?range=1Y&limit=20"
  ),
  getting("get_financials", { symbol: "ENGRO" }, "/v1/financials/:symbol", "/v1/financials/ENGRO"),
  getting("get_dividends", { symbol: "MEBL" }, "/v1/dividends/:symbol", "/v1/dividends/MEBL"),
  getting("get_corporate_actions", { symbol: "MEBL" }, "/v1/corporate-actions/:symbol", "/v1/corporate-actions/MEBL"),
  getting(
    "get_announcements",
    { symbol: "HUBC", limit: 5 },
    "/v1/announcements",
    "/v1/announcements?symbol=HUBC&limit=5"
  ),
  getting("get_news", { limit: 5 }, "/v1/news", "/v1/news?limit=5"),
  getting("get_sector", { id: "0824" }, "/v1/sectors/:id", "/v1/sectors/0824"),
  getting("get_sector_peers", { id: "0824" }, "/v1/sectors/:id/peers", "/v1/sectors/0824/peers"),
  getting("get_sector_valuation", { id: "0824" }, "/v1/sectors/:id/valuation", "/v1/sectors/0824/valuation"),
  {
    tool: "screen_stocks",
    args: { dividend_yield_min: 5, pe_max: 15, limit: 10 },
    route: "POST /v1/screener",
    request: { method: "POST", path: "/v1/screener", body: { dividend_yield_min: 5, pe_max: 15, limit: 10 } }
  },
  getting("compare_stocks", { symbols: "HUBC,KAPCO,NCPL" }, "/v1/compare", "/v1/compare?symbols=HUBC,KAPCO,NCPL"),
  getting("get_market_snapshot", {}, "/v1/market/snapshot", "/v1/market/snapshot"),
  getting("get_index", { id: "KSE100", constituents: true }, "/v1/indices/:id", "/v1/indices/KSE100"),
  getting("search_symbols", { q: "Hub Power" }, "/v1/search", "/v1/search?q=Hub%20Power"),
  getting("get_research", { symbol: "HUBC" }, "/v1/stocks/:symbol/research", "/v1/stocks/HUBC/research"),
  getting("get_valuation", { symbol: "HUBC" }, "/v1/stocks/:symbol/valuation", "/v1/stocks/HUBC/valuation"),
  getting("get_technicals", { symbol: "HUBC" }, "/v1/stocks/:sym/technicals", "/v1/stocks/HUBC/technicals")
]

const served = new Set(MARKET_TOOLS.map((t) => t.name))
const routes = new Set(
  Object.values(Api.groups).flatMap((group) => Object.values(group.endpoints).map((e) => `${e.method} ${e.path}`))
)
const status = (e: Entry) =>
  !served.has(e.tool)
    ? "skipped: tool not served yet"
    : !routes.has(e.route)
    ? "skipped: route not served yet"
    : undefined
const title = (e: Entry) => `${e.tool} ↔ ${e.route}${status(e) ? ` (${status(e)})` : ""}`

/** compare_stocks may take its symbols as a list or as the route's comma-separated string. */
const argsFor = (e: Entry, inputSchema: any) =>
  e.tool === "compare_stocks" && inputSchema?.properties?.symbols?.type === "array"
    ? { ...e.args, symbols: String(e.args["symbols"]).split(",") }
    : e.args

const httpBody = (e: Entry) =>
  Effect.map(e.request.method === "GET" ? get(e.request.path) : post(e.request.path, e.request.body), (r) => {
    assertOk(r, 200, `${e.request.method} ${e.request.path}: ${JSON.stringify(r.body)}`)
    return r
  })

/** Fields that name a process rather than a figure: a cursor is signed per process, retrieval is per import. */
const perProcess = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(perProcess)
    : typeof value === "object" && value !== null
    ? Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "next_cursor"
          ? v !== null
          : k === "retrieved_at" || k === "generated_at" || k === "quote_age_seconds"
          ? typeof v
          : perProcess(v)
      ])
    )
    : value

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.promise(() => client.callTool({ name, arguments: args }))

/**
 * A call refused for its arguments or its name. Up to protocol 2025-06-18 that is a JSON-RPC error
 * (-32602); 2025-11-25, which the SDK client negotiates, makes it a tool result with isError so the
 * model can correct itself. Either way the message names what was wrong.
 */
const refused = (client: Client, name: string, args: unknown) =>
  Effect.tryPromise({
    try: () => client.callTool({ name, arguments: args as Record<string, unknown> }),
    catch: (e) => e
  }).pipe(
    Effect.map((result): string => {
      assert.isTrue(result.isError, `${name} ${JSON.stringify(args)} was accepted`)
      return (result.content as Array<{ text: string }>)[0]!.text
    }),
    Effect.catch((e) =>
      Effect.sync(() => {
        assert.instanceOf(e, McpError)
        assert.strictEqual((e as McpError).code, -32602)
        return (e as McpError).message
      })
    )
  )

const text = (result: any) => JSON.parse(result.content[0].text)

/** Checks one served tool's result against its route's body. */
const mirrors = (client: Client, e: Entry, compare: (x: unknown) => unknown) =>
  Effect.gen(function*() {
    const { tools } = yield* Effect.promise(() => client.listTools())
    const tool = tools.find((t) => t.name === e.tool)!
    const result = yield* call(client, e.tool, argsFor(e, tool.inputSchema))
    assert.notStrictEqual(result.isError, true, JSON.stringify(result.content))
    assert.isDefined(result.structuredContent, "a tool with an output schema returns structuredContent")
    assert.deepStrictEqual(text(result), result.structuredContent, "the text content is the same record")
    assert.deepStrictEqual(compare(result.structuredContent), compare(toolRecordOf(yield* httpBody(e))))
  })

const ajv = new Ajv2020({ strict: false, validateFormats: false })

const App = withStdioMcp(TestApp({ withPack: true, now: NOW }), NOW)

layer(App, { timeout: 600_000, excludeTestServices: true })("MCP: the official SDK client as hosts use it", (it) => {
  describe("over streamable HTTP (POST /mcp)", () => {
    it.effect("initialize names the server, its tool capability and what its figures are", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        assert.strictEqual(client.getServerVersion()?.name, "psx-data-service")
        assert.isDefined(client.getServerCapabilities()?.tools)
        assert.match(client.getInstructions() ?? "", /delayed.*not adjusted.*close-based.*never zero/s)
      })))

    it.effect(`tools/list: the ${served.size} served tools (of SPEC's 15), valid JSON Schemas, read-only, described for agents`, () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.deepStrictEqual(tools.map((t) => t.name).sort(), [...served].sort())
        assert.includeMembers(TOOLS.map((e) => e.tool), [...served], "every served tool is in the table")
        for (const tool of tools) {
          assert.strictEqual(tool.inputSchema.type, "object", tool.name)
          assert.isTrue(ajv.validateSchema(tool.inputSchema) as boolean, `${tool.name}: ${ajv.errorsText(ajv.errors)}`)
          ajv.compile(tool.inputSchema)
          assert.deepInclude(tool.annotations ?? {}, { readOnlyHint: true, openWorldHint: false }, tool.name)
          assert.isAbove(tool.description?.length ?? 0, 40, `${tool.name} is described for an agent`)
        }
        const describe = (name: string) => tools.find((t) => t.name === name)?.description ?? ""
        assert.match(describe("get_quote"), /delayed/)
        assert.match(describe("get_price_history"), /NOT adjusted/)
        const catalogue = yield* get("/v1/ai/tools")
        assertSucceeded(catalogue)
        assert.deepStrictEqual(catalogue.body.tools.map((t) => t.name).sort(), [...served].sort())
        assert.match(catalogue.body.authentication, /^None/)
      })))

    for (const e of TOOLS) {
      it.effect.skipIf(status(e) !== undefined)(
        `tools/call ${title(e)}: structuredContent equals the route's body`,
        () =>
          Effect.scoped(Effect.gen(function*() {
            yield* mirrors(yield* httpClient, e, (x) => x)
          }))
      )
    }

    it.effect("a data failure is the tool's result: isError with the error record, as on HTTP", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const stale = yield* call(client, "get_quote", { symbol: "HUBC" })
        assert.isTrue(stale.isError)
        const quoteTool = MARKET_TOOLS.find((t) => t.name === "get_quote")!
        assert.deepStrictEqual(text(stale), errorRecord(quoteTool, 409, (yield* get("/v1/quotes/HUBC")).body as any))
        assert.strictEqual(text(stale).error, "DATA_STALE")
        const invalid = yield* call(client, "get_company", { symbol: "!!" })
        assert.strictEqual(text(invalid).error, "INVALID_SYMBOL")
        const unknown = yield* call(client, "get_dividends", { symbol: "ZZZZ" })
        assert.deepInclude(text(unknown), { error: "DATA_NOT_FOUND", symbol: "ZZZZ" })
      })))

    it.effect("bad arguments are JSON-RPC invalid params naming the argument; an unknown tool is named", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const cases: ReadonlyArray<readonly [string, unknown, RegExp]> = [
          ["get_quote", {}, /symbol/],
          ["get_price_history", { symbol: "HUBC", limit: "abc" }, /limit/],
          ["get_price_history", { symbol: "HUBC", limit: 5000 }, /limit/],
          ["get_price_history", { symbol: "HUBC", range: "7Q" }, /range/],
          ["get_price_history", { symbol: "HUBC", date_from: "2026-02-30" }, /date_from/],
          ["get_company", { symbol: "HUBC", sym: "HUBC" }, /sym/],
          ["get_announcements", { symbol: 42 }, /symbol/],
          ["get_quote", { symbol: "HUBC", allow_stale: "yes" }, /allow_stale/]
        ]
        for (const [name, args, names] of cases) {
          assert.match(yield* refused(client, name, args), names, `${name} ${JSON.stringify(args)}`)
        }
        assert.match(yield* refused(client, "get_horoscope", {}), /get_horoscope.*not found/)
      })))

    it.effect("malformed JSON-RPC gets the JSON-RPC error it deserves, never a 500, never a hung connection", () =>
      Effect.gen(function*() {
        const url = `${yield* baseUrl}/mcp`
        const send = (body: string, headers: Record<string, string> = {}, method = "POST") =>
          Effect.promise(() =>
            fetch(url, {
              method,
              headers: {
                "content-type": "application/json",
                accept: "application/json, text/event-stream",
                ...headers
              },
              ...(method === "POST" ? { body } : {}),
              signal: AbortSignal.timeout(10_000)
            }).then(async (r) => ({ status: r.status, body: await r.json() as any }))
          )
        const initialize = (version: string) =>
          Effect.promise(() =>
            fetch(url, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
              body: JSON.stringify({
                jsonrpc: "2.0",
                id: 1,
                method: "initialize",
                params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } }
              })
            }).then((r) => ({ "mcp-session-id": r.headers.get("mcp-session-id")!, "mcp-protocol-version": version }))
          )
        const session = yield* initialize("2025-06-18")
        const expect = (r: { status: number; body: any }, status: number, code: number, message?: RegExp) => {
          assert.strictEqual(r.status, status, JSON.stringify(r.body))
          assert.strictEqual(r.body.jsonrpc, "2.0")
          assert.strictEqual(r.body.error.code, code, JSON.stringify(r.body))
          if (message) assert.match(r.body.error.message, message)
        }
        expect(yield* send("{\"jsonrpc\":", session), 200, -32700)
        expect(yield* send(JSON.stringify({ jsonrpc: "1.0", id: 2, method: "tools/list" }), session), 200, -32600)
        expect(yield* send(JSON.stringify({ id: 2, method: "tools/list" }), session), 200, -32600)
        expect(yield* send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: 7 }), session), 200, -32600)
        expect(
          yield* send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/destroy" }), session),
          200,
          -32601,
          /tools\/destroy/
        )
        const callWith = (name: string, args: unknown) =>
          JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: args } })
        // A tool's argument error is its result (isError with the route's 400 record naming the arguments), as MCP 2025-11-25 asks.
        const missing = yield* send(callWith("get_quote", {}), session)
        assert.isTrue(missing.body.result.isError)
        assert.match(missing.body.result.content[0].text, /`symbol` is required; get_quote takes symbol/)
        expect(yield* send(callWith("get_prices", { symbol: "HUBC" }), session), 200, -32602, /get_prices.*not found/)
        const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" })
        expect(yield* send(JSON.stringify([ping(4), ping(5)]), session), 400, -32600, /batch/)
        expect(yield* send("[]", session), 400, -32600)
        const old = yield* initialize("2025-03-26")
        const batch = (yield* send(JSON.stringify([ping(6), ping(7)]), old)) as any
        assertOk(batch, 200, "protocol 2025-03-26 allows a short batch")
        const long = Array.from({ length: 5_000 }, (_, i) => ping(i))
        expect(yield* send(JSON.stringify(long), old), 400, -32600, new RegExp(`at most ${MAX_BATCH}`))
        const huge = JSON.stringify({
          jsonrpc: "2.0",
          id: 8,
          method: "tools/call",
          params: { name: "get_company", arguments: { symbol: "A".repeat(2 ** 21) } }
        })
        expect(yield* send(huge, session), 413, -32600, /1 MiB/)
        expect(yield* send(JSON.stringify(ping(9)), { ...session, "mcp-session-id": "no-such-session" }), 404, -32001)
        expect(yield* send(JSON.stringify(ping(10))), 400, -32600, /initialize/)
        expect(yield* send(JSON.stringify(ping(11)), { ...session, "content-type": "text/plain" }), 415, -32000)
        expect(yield* send(JSON.stringify(ping(12)), { ...session, accept: "application/json" }), 406, -32000)
        expect(yield* send("", session, "GET"), 405, -32000)
        const after = yield* send(JSON.stringify(ping(13)), session)
        assert.deepStrictEqual(after.body, { jsonrpc: "2.0", id: 13, result: {} }, "the session still serves")
      }))
  })

  describe("over stdio (a spawned `node src/main.ts mcp`, as a desktop host launches it)", () => {
    it.effect("initialize, tools/list, resources and prompts: the same as over HTTP; stdout carries only JSON-RPC, logs go to stderr", () =>
      Effect.gen(function*() {
        const { client, stderr, transportErrors } = yield* StdioMcp
        assert.strictEqual(client.getServerVersion()?.name, "psx-data-service")
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.deepStrictEqual(tools.map((t) => t.name).sort(), [...served].sort())
        assert.isTrue(tools.every((t) => t.annotations?.readOnlyHint === true && t.inputSchema.type === "object"))
        const { resources } = yield* Effect.promise(() => client.listResources())
        assert.deepStrictEqual(resources.map((r) => r.uri).sort(), [
          "psx://calendar/dividends",
          "psx://indices",
          "psx://sectors",
          "psx://universe"
        ])
        const { prompts } = yield* Effect.promise(() => client.listPrompts())
        assert.deepStrictEqual(prompts.map((p) => p.name).sort(), [
          "plan_book_closures",
          "research_symbol",
          "review_portfolio"
        ])
        const sectors = yield* Effect.promise(() => client.readResource({ uri: "psx://sectors" }))
        assert.deepStrictEqual(
          perProcess(JSON.parse((sectors.contents[0] as { text: string }).text)),
          perProcess((yield* get("/v1/sectors")).body)
        )
        assert.deepStrictEqual(transportErrors, [], "every stdout line was a JSON-RPC message")
        assert.match(stderr(), /market read model built/, "the service's logs are on stderr")
      }))

    for (const e of TOOLS) {
      it.effect.skipIf(status(e) !== undefined)(
        `tools/call ${title(e)}: structuredContent equals the route's body`,
        () =>
          Effect.gen(function*() {
            const { client } = yield* StdioMcp
            yield* mirrors(client, e, perProcess)
          })
      )
    }

    it.effect("hostile calls: invalid params naming the argument, unknown tool, data failures as results", () =>
      Effect.gen(function*() {
        const { client, transportErrors } = yield* StdioMcp
        assert.match(yield* refused(client, "get_dividends", {}), /symbol/)
        assert.match(yield* refused(client, "get_market_snapshot", { when: "now" }), /when/)
        assert.match(yield* refused(client, "place_order", { symbol: "HUBC" }), /place_order.*not found/)
        const stale = yield* call(client, "get_quote", { symbol: "HUBC" })
        assert.isTrue(stale.isError)
        assert.strictEqual(text(stale).error, "DATA_STALE")
        assert.deepStrictEqual(transportErrors, [])
      }))
  })
})
