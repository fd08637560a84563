/**
 * Agents first, with the official MCP SDK client over streamable HTTP, on the bundled pack: names to tickers, unknown
 * symbols that name their close matches (HTTP and MCP), as_of and adjust on the market tools, the screener's
 * sectors, sort and fields, compact answers, holidays said, listings by grant within 20 KB, long resource URIs
 * refused without echo. Expected values come from the pack's recordings (data/pack).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { pollUntil } from "./support/Eventually.ts"
import { baseUrl, httpClient } from "./support/McpClients.ts"
import { assertFailed, assertOk, bodyOf, get, post, SharedTestApp } from "./support/TestApp.ts"
import { toolRecordOf } from "./support/ToolRecord.ts"

const NOW = "2026-06-15T06:00:00.000Z"
const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.map(promise(() => client.callTool({ name, arguments: args })), (r) => ({
    isError: r.isError === true,
    text: (r.content as Array<{ text: string }>)[0]!.text,
    record: JSON.parse((r.content as Array<{ text: string }>)[0]!.text),
    structured: r.structuredContent as any
  }))

const clientWith = (key: string) =>
  Effect.gen(function*() {
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", yield* baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } }
    })
    const client = new Client({ name: "psx-agents-test", version: "1.0.0" })
    return yield* Effect.acquireRelease(promise(() => client.connect(transport)).pipe(Effect.as(client)), (c) =>
      promise(() => c.close()))
  })

layer(SharedTestApp(NOW), { timeout: 600_000, excludeTestServices: true })(
  "MCP for agents",
  (it) => {
    describe("search", () => {
      it.effect("names, aliases and near misses resolve to tickers; over MCP as over GET /v1/search", () =>
        Effect.scoped(Effect.gen(function*() {
          const client = yield* httpClient
          // data/pack/universe.json: HUBC "The Hub Power Company Limited", MEBL "Meezan Bank Limited", LUCK "Lucky Cement Limited";
          // domain/news/company-aliases.json gives HUBC the alias "HUBCO".
          for (
            const [q, symbol] of [["Hub Power", "HUBC"], ["Meezan", "MEBL"], ["Lucky Cement", "LUCK"], [
              "hubco",
              "HUBC"
            ], ["Meezn Bank", "MEBL"]] as const
          ) {
            const answer = yield* call(client, "search_symbols", { q, limit: 3 })
            assert.strictEqual(answer.record.items[0]?.symbol, symbol, `${q}: ${answer.text}`)
            const http = yield* get(`/v1/search?q=${encodeURIComponent(q)}&limit=3`)
            assertOk(http)
            assert.deepStrictEqual(answer.structured, toolRecordOf(http))
          }
          assert.strictEqual(
            (yield* call(client, "search_symbols", { q: "Meezn Bank" })).record.items[0].match,
            "near_miss"
          )
        })))

      it.effect("an unknown symbol's error names its close matches, on HTTP and MCP", () =>
        Effect.scoped(Effect.gen(function*() {
          const client = yield* httpClient
          for (
            const path of [
              "/v1/quotes/HUBCO",
              "/v1/prices/HUBCO",
              "/v1/dividends/HUBCO",
              "/v1/compare?symbols=HUBCO,OGDC"
            ]
          ) {
            const reply = yield* get(path)
            assertFailed(reply, 404, "DATA_NOT_FOUND")
            assert.match((reply.body as any).message, /unknown symbol HUBCO; close matches: HUBC \(/, path)
          }
          const answer = yield* call(client, "get_company", { symbol: "HUBCO" })
          assert.isTrue(answer.isError)
          assert.match(answer.record.message, /close matches: HUBC \(/)
        })))
    })

    describe("market tools take what their routes take", () => {
      it.effect("as_of, adjust and the route's own argument errors, which list the accepted arguments", () =>
        Effect.scoped(Effect.gen(function*() {
          const client = yield* httpClient
          // The market as of an instant is loaded by the first request about it (429 meanwhile, as on HTTP).
          const asOf = yield* pollUntil(
            "the market as of 2026-05-22 is loaded",
            call(client, "get_quote", { symbol: "OGDC", as_of: "2026-05-22", allow_stale: true }),
            (a) => a.record.error !== "RATE_LIMITED" && a.record.error !== "SOURCE_UNAVAILABLE",
            { every: "200 millis" }
          )
          const http = yield* get("/v1/quotes/OGDC?as_of=2026-05-22&allow_stale=true")
          // The route's answer as of that day, whatever it is (before the import of 2026-07-08 no quote of OGDC was known).
          assert.strictEqual(asOf.text, JSON.stringify(toolRecordOf(http)))
          assert.notMatch(asOf.text, /INVALID_REQUEST/, "as_of is an argument, not refused")
          const adjusted = yield* call(client, "get_price_history", {
            symbol: "MEBL",
            range: "1Y",
            adjust: "splits",
            limit: 1
          })
          assert.isFalse(adjusted.isError, adjusted.text)
          assert.strictEqual(adjusted.record.adjusted, true)
          const wrong = yield* call(client, "get_quote", { symbol: "OGDC", nope: 1 })
          assert.isTrue(wrong.isError)
          assert.match(wrong.record.message, /unknown argument `nope`: get_quote takes symbol, .*as_of/)
        })))

      it.effect("a holiday in the window asked for is said: 2026-05-01 (Labour Day) has no row", () =>
        Effect.scoped(Effect.gen(function*() {
          const client = yield* httpClient
          const answer = yield* call(client, "get_price_history", {
            symbol: "OGDC",
            date_from: "2026-05-01",
            date_to: "2026-05-01"
          })
          assert.deepStrictEqual(answer.record.items, [])
          assert.match(answer.record.warnings.join(), /2026-05-01 was a holiday/)
        })))
    })

    describe("screen_stocks", () => {
      it.effect("takes every sector id, code and name the server hands out; an unknown one is an error naming psx://sectors", () =>
        Effect.scoped(Effect.gen(function*() {
          const client = yield* httpClient
          // data/pack/sectors.json: 0807 COMMERCIAL BANKS (id commercial-banks).
          const byId = yield* call(client, "screen_stocks", { sectors: ["commercial-banks"], limit: 200 })
          const byCode = yield* call(client, "screen_stocks", { sectors: ["0807"], limit: 200 })
          const byName = yield* call(client, "screen_stocks", { sectors: ["Commercial Banks"], limit: 200 })
          assert.isAbove(byId.record.total, 10)
          assert.deepStrictEqual(byId.record.items, byCode.record.items)
          assert.deepStrictEqual(byName.record.items, byCode.record.items)
          const unknown = yield* call(client, "screen_stocks", { sectors: ["banks-of-mars"] })
          assert.isTrue(unknown.isError)
          assert.match(unknown.record.message, /psx:\/\/sectors/)
          assertFailed(yield* post("/v1/screener", { sectors: ["banks-of-mars"] }), 400, "INVALID_REQUEST")
        })))

      it.effect("sort orders by any item field (unknown last) and fields keeps only those", () =>
        Effect.scoped(Effect.gen(function*() {
          const client = yield* httpClient
          const sorted = yield* call(client, "screen_stocks", {
            sectors: ["0807"],
            inside_kse100: true,
            sort: "-dividend_yield_pct",
            fields: ["dividend_yield_pct"],
            limit: 5
          })
          assert.isFalse(sorted.isError, sorted.text)
          const items = sorted.record.items as Array<any>
          assert.strictEqual(items.length, 5)
          for (const item of items) {
            assert.deepStrictEqual(
              Object.keys(item).sort(),
              ["dividend_yield_pct", "symbol"].filter((k) => k in item).sort()
            )
          }
          const yields = items.map((i) => i.dividend_yield_pct).filter((y) => y !== undefined)
          assert.deepStrictEqual(yields, [...yields].sort((x, y) => y - x))
          const bad = yield* call(client, "screen_stocks", { sort: "nonsense" })
          assert.isTrue(bad.isError)
          assert.match(bad.record.message, /unknown item field `nonsense`/)
        })))
    })

    describe("compact and by grant", () => {
      it.effect("get_index leaves out the constituents unless asked", () =>
        Effect.scoped(Effect.gen(function*() {
          const client = yield* httpClient
          const compact = yield* call(client, "get_index", { id: "KSE100" })
          // data/pack/index_kse100.json lists 100 constituents.
          assert.deepStrictEqual([compact.record.constituents.length, compact.record.constituents_left_out], [0, 100])
          const full = yield* call(client, "get_index", { id: "KSE100", constituents: true })
          assert.strictEqual(full.record.constituents.length, 100)
          assert.isAbove(full.text.length - compact.text.length, 1_000)
        })))

      it.effect("tools/list stays within 20 KB without a key and with a read key; a 900 KB resource URI is not echoed", () =>
        Effect.scoped(Effect.gen(function*() {
          const session = bodyOf(yield* post("/v1/me/session", {}))
          const reader = bodyOf(
            yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, { authorization: `Bearer ${session.token}` })
          ).key
          for (const client of [yield* httpClient, yield* clientWith(reader)]) {
            const bytes = Buffer.byteLength(JSON.stringify(yield* promise(() => client.listTools())), "utf8")
            assert.isAtMost(bytes, 20_000)
          }
          const uri = `psx://schemas/${"x".repeat(900_000)}`
          const reply = yield* post("/mcp", { jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri } }, {
            accept: "application/json, text/event-stream"
          })
          const text = JSON.stringify(reply.body)
          assert.isBelow(text.length, 1_000)
          assert.strictEqual((reply.body as any).id, 7)
          assert.match(text, /at most 1024 characters/)
        })))
    })
  }
)
