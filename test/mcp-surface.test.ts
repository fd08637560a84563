/**
 * The MCP surface an agent can afford, with the official SDK
 * client over streamable HTTP on the bundled pack: tools/list under 20 KB
 * (54,068 bytes before), resources, prompts, and bounded tool results that say
 * when they were cut and how to page.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { McpSchema } from "effect/ai"
import { boundedHandle, cutLists, MAX_BYTES, MAX_ITEMS } from "../src/mcp/Bounds.ts"
import { compactRecord } from "../src/mcp/Compact.ts"
import { MARKET_TOOLS } from "../src/mcp/Server.ts"
import { httpClient } from "./support/McpClients.ts"
import { mcpSession } from "./support/McpSession.ts"
import { assertOk, get, post, SharedTestApp } from "./support/TestApp.ts"
import { toolRecordOf } from "./support/ToolRecord.ts"

const NOW = "2026-06-15T06:00:00.000Z"
const LIST_BUDGET = 20_000

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)
const body = (path: string) =>
  Effect.map(get(path), (r) => {
    assertOk(r, 200, path)
    return r.body as any
  })
/** The route's reply as its tool answers it (compact, with data_through). */
const asTool = (path: string) =>
  Effect.map(get(path), (r) => {
    assertOk(r, 200, path)
    return toolRecordOf(r) as any
  })
const read = (client: Client, uri: string) =>
  Effect.map(promise(() => client.readResource({ uri })), (r) => JSON.parse((r.contents[0] as { text: string }).text))

/** One call of each served tool, with arguments of the pack. */
const CALLS: Record<string, Record<string, unknown>> = {
  get_company: { symbol: "HUBC" },
  get_quote: { symbol: "HUBC", allow_stale: true },
  get_price_history: { symbol: "OGDC", range: "1Y", limit: 20 },
  get_financials: { symbol: "ENGRO" },
  get_dividends: { symbol: "MEBL" },
  get_corporate_actions: { symbol: "MEBL" },
  get_announcements: { symbol: "HUBC", limit: 5 },
  get_news: { limit: 5 },
  get_index: { id: "KSE100" },
  get_market_snapshot: {},
  get_sector: { id: "0824" },
  get_sector_peers: { id: "0824" },
  get_sector_valuation: { id: "0824" },
  screen_stocks: { dividend_yield_min: 5, limit: 10 },
  compare_stocks: { symbols: "HUBC,KAPCO" },
  search_symbols: { q: "Hub Power" },
  get_research: { symbol: "HUBC" },
  get_valuation: { symbol: "HUBC" },
  get_technicals: { symbol: "HUBC" }
}

const ajv = new Ajv2020({ strict: false, validateFormats: false })

layer(SharedTestApp(NOW), { timeout: 600_000, excludeTestServices: true })("MCP surface", (it) => {
  describe("tools/list", () => {
    it.effect(`is under ${LIST_BUDGET} bytes of JSON, with valid schemas sharing repeated definitions`, () =>
      Effect.gen(function*() {
        const session = yield* mcpSession
        const listed = yield* session.list
        const bytes = Buffer.byteLength(JSON.stringify(listed.body.result), "utf8")
        assert.isBelow(bytes, LIST_BUDGET, `tools/list is ${bytes} bytes of JSON`)
        const tools = listed.body.result.tools as Array<any>
        assert.strictEqual(tools.length, MARKET_TOOLS.map((t) => t.name).length)
        for (const tool of tools) {
          assert.isTrue(ajv.validateSchema(tool.inputSchema) as boolean, `${tool.name}: ${ajv.errorsText(ajv.errors)}`)
          ajv.compile(tool.inputSchema)
          assert.isUndefined(
            tool.outputSchema,
            `${tool.name}: result schemas are psx://schemas/{tool}, not in the listing`
          )
          assert.isAtMost(
            JSON.stringify(tool.inputSchema).split("\"maximum\":1000000000000000").length - 1,
            1,
            "a bound is defined once"
          )
        }
        const screen = tools.find((t) => t.name === "screen_stocks")
        assert.isAbove(Object.keys(screen.inputSchema.$defs ?? {}).length, 0, "screen_stocks shares its number bound")
        const validate = ajv.compile(screen.inputSchema)
        assert.isTrue(validate({ dividend_yield_min: 5, pe_max: 15 }) as boolean)
        assert.isFalse(validate({ pe_max: 1e16 }) as boolean, "the shared bound still bounds")
        const refused = yield* session.rpc({
          jsonrpc: "2.0",
          id: 4,
          method: "tools/call",
          params: { name: "screen_stocks", arguments: { pe_max: 15, nope: 1 } }
        })
        assert.match(
          JSON.stringify(refused.body),
          /unknown argument `nope`: screen_stocks takes .*pe_max/,
          "an unknown argument is refused when called, naming the accepted ones"
        )
      }))

    it.effect("the official SDK client calls every tool; each result fits its complete schema (psx://schemas/{tool})", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const { tools } = yield* promise(() => client.listTools())
        assert.deepStrictEqual(tools.map((t) => t.name).sort(), Object.keys(CALLS).sort())
        for (const [name, args] of Object.entries(CALLS)) {
          const result = yield* promise(() => client.callTool({ name, arguments: args }))
          assert.notStrictEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`)
          const full = ajv.compile(yield* read(client, `psx://schemas/${name}`))
          assert.isTrue(
            full(result.structuredContent) as boolean,
            `${name} against its complete schema: ${ajv.errorsText(full.errors)}`
          )
        }
      })))
  })

  describe("resources", () => {
    it.effect("resources/list names the universe, sectors, indices and dividend calendar; each reads as its routes answer", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const { resources } = yield* promise(() => client.listResources())
        assert.deepStrictEqual(resources.map((r) => r.uri).sort(), [
          "psx://calendar/dividends",
          "psx://indices",
          "psx://sectors",
          "psx://universe"
        ])
        assert.isTrue(resources.every((r) => r.mimeType === "application/json" && (r.description ?? "").length > 20))
        assert.deepStrictEqual(yield* read(client, "psx://sectors"), yield* body("/v1/sectors"))
        assert.deepStrictEqual(yield* read(client, "psx://calendar/dividends"), yield* body("/v1/calendar/dividends"))
        const universe = yield* read(client, "psx://universe")
        const first = yield* body("/v1/companies?limit=200")
        assert.deepStrictEqual(universe.columns, ["symbol", "name", "security_type", "inside_kse100", "sector_code"])
        assert.strictEqual(universe.rows.length, first.total, "every listed security, all pages")
        assert.deepStrictEqual(
          universe.rows.slice(0, 200),
          first.items.map((i: any) => [i.symbol, i.name, i.security_type, i.inside_kse100, i.sector_code ?? null])
        )
        assert.deepStrictEqual(universe.sources, first.sources)
        const last = yield* body(
          `/v1/companies?limit=200&cursor=${(yield* body("/v1/companies?limit=200")).next_cursor}`
        )
        assert.deepStrictEqual(universe.rows[200][0], last.items[0].symbol, "the second page follows the first")
        const indices = yield* read(client, "psx://indices")
        const list = yield* body("/v1/indices")
        assert.deepStrictEqual(indices.items, list.items)
        assert.deepStrictEqual(indices.members, [yield* body("/v1/indices/KSE100")], "KSE-100 is the tracked index")
        assert.strictEqual(indices.members[0].constituents.length, 100)
      })))

    it.effect("psx://schemas/{tool} gives a tool's complete result schema; an unknown tool is refused", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const { resourceTemplates } = yield* promise(() => client.listResourceTemplates())
        assert.deepStrictEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
          "psx://schemas/{tool}",
          "psx://sources/{dataset}"
        ])
        const schema = yield* read(client, "psx://schemas/get_quote")
        assert.isTrue(ajv.validateSchema(schema) as boolean)
        const quote = yield* promise(() =>
          client.callTool({ name: "get_quote", arguments: { symbol: "HUBC", allow_stale: true } })
        )
        assert.isTrue(ajv.compile(schema)(quote.structuredContent) as boolean, ajv.errorsText(ajv.errors))
        assert.isDefined(schema.properties.corporate_actions.properties, "nested fields are described in full")
        const refused = yield* Effect.flip(
          Effect.tryPromise({ try: () => client.readResource({ uri: "psx://schemas/get_horoscope" }), catch: (e) => e })
        )
        assert.instanceOf(refused, McpError)
        assert.strictEqual((refused as McpError).code, -32602, String(refused))
      })))
  })

  describe("prompts", () => {
    it.effect("prompts/list gives three prompts; prompts/get fills them and refuses a malformed argument", () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const { prompts } = yield* promise(() => client.listPrompts())
        assert.deepStrictEqual(prompts.map((p) => p.name).sort(), [
          "plan_book_closures",
          "research_symbol",
          "review_portfolio"
        ])
        assert.deepStrictEqual(
          prompts.find((p) => p.name === "research_symbol")!.arguments!.map((a) => [a.name, a.required]),
          [["symbol", true]]
        )
        const text = (r: { messages: ReadonlyArray<any> }) => r.messages.map((m) => m.content.text).join("\n")
        const research = yield* promise(() =>
          client.getPrompt({ name: "research_symbol", arguments: { symbol: "hubc" } })
        )
        assert.strictEqual(research.messages[0]!.role, "user")
        assert.match(text(research), /HUBC.*get_research.*unknown, never zero/s)
        const review = yield* promise(() =>
          client.getPrompt({ name: "review_portfolio", arguments: { holdings: "HUBC:500, OGDC:200" } })
        )
        assert.match(text(review), /HUBC:500,OGDC:200.*psx:\/\/calendar\/dividends/s)
        const plan = yield* promise(() => client.getPrompt({ name: "plan_book_closures", arguments: {} }))
        assert.match(text(plan), /psx:\/\/calendar\/dividends.*last_buy_date/s)
        for (
          const [name, args] of [["research_symbol", { symbol: "!!; drop" }], ["review_portfolio", {
            holdings: "HUBC"
          }]] as const
        ) {
          const refused = yield* Effect.result(Effect.tryPromise(() => client.getPrompt({ name, arguments: args })))
          assert.strictEqual(refused._tag, "Failure", name)
        }
      })))
  })

  describe("bounded results", () => {
    it.effect(`a page over ${MAX_BYTES} bytes is asked again with the limit that fits: the route's page for it, a note, and the next cursor`, () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const full = yield* body("/v1/news?limit=200")
        assert.isAbove(
          Buffer.byteLength(JSON.stringify(full)),
          MAX_BYTES,
          "the pack's 200 newest news items exceed the bound"
        )
        const result = yield* promise(() => client.callTool({ name: "get_news", arguments: { limit: 200 } }))
        const page = result.structuredContent as any
        const served = page.items.length
        assert.isBelow(served, 200)
        assert.isAtMost(Buffer.byteLength(JSON.stringify(page)), MAX_BYTES)
        const route = yield* asTool(`/v1/news?limit=${served}`)
        assert.deepStrictEqual(
          { ...page, next_cursor: null },
          { ...route, next_cursor: null },
          "the route's page for the limit that fit, compact"
        )
        assert.deepStrictEqual(page.items, (compactRecord(full) as any).items.slice(0, served))
        const note = (result.content as Array<{ text: string }>)[1]!.text
        assert.match(note, new RegExp(`${served} items of the 200.*cursor "${page.next_cursor}"`, "s"))
        assert.deepInclude((result._meta as any)["psx/cut"], {
          served,
          page_would_hold: 200,
          next_cursor: page.next_cursor
        })
        const next = yield* promise(() =>
          client.callTool({ name: "get_news", arguments: { limit: served, cursor: page.next_cursor } })
        )
        const nextIds = (next.structuredContent as any).items.map((i: any) => i.id)
        assert.isAbove(nextIds.length, 0)
        const following = full.items.slice(served).map((i: any) => i.id)
        assert.deepStrictEqual(
          nextIds.slice(0, following.length),
          following.slice(0, nextIds.length),
          "paging goes on"
        )
        const screened = (yield* promise(() => client.callTool({ name: "screen_stocks", arguments: { limit: 200 } })))
          .structuredContent as any
        assert.isBelow(screened.items.length, 200, "200 screener rows are about 96 KB")
        const posted = yield* post("/v1/screener", { limit: screened.items.length })
        assertOk(posted, 200, "POST /v1/screener")
        assert.deepStrictEqual(
          screened,
          toolRecordOf(posted as any),
          "the screener's answer for the limit that fit, cursor included"
        )
      })))

    it.effect(`a page of more than ${MAX_ITEMS} items is cut to ${MAX_ITEMS}; a page within the bounds is untouched`, () =>
      Effect.scoped(Effect.gen(function*() {
        const client = yield* httpClient
        const result = yield* promise(() =>
          client.callTool({ name: "get_price_history", arguments: { symbol: "OGDC", range: "MAX", limit: 1000 } })
        )
        const page = result.structuredContent as any
        assert.strictEqual(page.items.length, MAX_ITEMS, "1,000 price rows are about 64 KB: the item bound cuts first")
        const route = yield* asTool(`/v1/prices/OGDC?range=MAX&limit=${MAX_ITEMS}`)
        assert.deepStrictEqual(page, route, "the route's answer for limit 250, cursor included")
        assert.deepStrictEqual(
          page.items,
          (compactRecord(yield* body("/v1/prices/OGDC?range=MAX&limit=1000")) as any).items.slice(0, MAX_ITEMS)
        )
        assert.isString(page.next_cursor)
        const small = yield* promise(() => client.callTool({ name: "get_news", arguments: { limit: 5 } }))
        assert.strictEqual((small.content as Array<unknown>).length, 1)
        assert.isUndefined(small._meta?.["psx/cut"])
      })))

    it.effect("a record that does not page has its longest lists cut to fit, and says which and by how much", () =>
      Effect.sync(() => {
        const record = {
          code: "X",
          members: Array.from({ length: 40 }, (_, i) => ({ symbol: `S${i}`, pad: "x".repeat(90) })),
          sources: [{ dataset: "d" }]
        }
        const { cut, totals } = cutLists(record, { maxItems: 30, maxBytes: 2_000 })
        assert.deepStrictEqual(totals, { members: 40 })
        const members = cut["members"] as Array<{ symbol: string }>
        assert.isBelow(members.length, 30)
        assert.deepStrictEqual(members, record.members.slice(0, members.length))
        assert.isAtMost(Buffer.byteLength(JSON.stringify(cut)), 2_000)
        assert.deepStrictEqual(cut["sources"], record.sources)
      }))

    it.effect("through the tool handler: the cut record, the note naming the list and total, and _meta psx/cut", () =>
      Effect.gen(function*() {
        const record = { id: "big", members: Array.from({ length: 300 }, (_, i) => ({ symbol: `S${i}` })) }
        const tool = new McpSchema.Tool({
          name: "get_sector",
          inputSchema: { type: "object", properties: { id: { type: "string" } } }
        })
        const handle = boundedHandle(
          tool,
          () =>
            Effect.succeed(
              new McpSchema.CallToolResult({
                structuredContent: record,
                content: [{ type: "text", text: JSON.stringify(record) }]
              })
            ),
          { maxItems: MAX_ITEMS, maxBytes: MAX_BYTES }
        )
        const result = (yield* handle({ id: "big" })) as McpSchema.CallToolResult
        const served = result.structuredContent as typeof record
        assert.deepStrictEqual(served.members, record.members.slice(0, MAX_ITEMS))
        assert.deepStrictEqual(JSON.parse((result.content[0] as { text: string }).text), served)
        assert.match(
          (result.content[1] as { text: string }).text,
          /members: the first 250 of 300.*get_sector does not page/s
        )
        assert.deepStrictEqual((result._meta as any)["psx/cut"].lists, { members: { served: MAX_ITEMS, total: 300 } })
      }))
  })
})
