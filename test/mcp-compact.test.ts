/**
 * What an agent reads over MCP, with the official SDK client on the bundled pack: compact answers (meaningful
 * digits, no field twice, sources by dataset with psx://sources/{dataset}), result schemas that name every list's
 * fields for every tool (psx://schemas/{tool}, portfolio tools included), tools/list within 20 KB with every
 * grant, errors in MCP's words, days that were not trading sessions said, and each dataset's last day
 * (`data_through`) when the route names it. The pure parts are checked against values worked by hand.
 */
import { assert, describe, it as plain, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { compactRecord, compactSchema, roundFigure } from "../src/mcp/Compact.ts"
import { dataThroughOf } from "../src/mcp/RouteCaller.ts"
import { inMcpWords, sessionWarnings } from "../src/mcp/ToolWords.ts"
import { pollUntil } from "./support/Eventually.ts"
import { baseUrl, httpClient } from "./support/McpClients.ts"
import { bodyOf, get, post, SharedTestApp } from "./support/TestApp.ts"

const NOW = "2026-06-15T06:00:00.000Z"
const LISTING_MAX = 20_000
const promise = <A>(f: () => Promise<A>) => Effect.promise(f)
const ajv = new Ajv2020({ strict: false, validateFormats: false })

describe("compact records (pure)", () => {
  plain("numbers keep their meaningful digits; integers, nulls and dates are left as they are", () => {
    assert.strictEqual(roundFigure(57.9564, "change_pct"), 57.96)
    assert.strictEqual(roundFigure(6.298899350218805, "value", "yield_as_published"), 6.299)
    assert.strictEqual(roundFigure(1234.5678, "price"), 1234.57)
    assert.strictEqual(roundFigure(208.949999999, "average_cost"), 208.95)
    assert.strictEqual(roundFigure(0.0123456, "beta"), 0.01235)
    assert.strictEqual(roundFigure(12345.678, "pe"), 12346)
    assert.strictEqual(roundFigure(0.004, "price"), 0.004, "a non-zero figure never shows as 0")
    assert.strictEqual(roundFigure(4384086, "volume"), 4384086)
    const record = compactRecord({ price: null, as_of: "2026-05-01", change_pct: -0.70925, n: 3, text: "1.23456789" })
    assert.deepStrictEqual(record, { price: null, as_of: "2026-05-01", change_pct: -0.7093, n: 3, text: "1.23456789" })
    assert.notProperty(compactRecord({ items: [{ date: "2026-05-04" }] }).items, "close", "absent stays absent")
  })

  plain("no field twice: the ledger's payload, a news source's url, a long note, a dataset source's details", () => {
    const event = { type: "TradeRecorded", side: "buy", price: 450.5 }
    const note =
      "A face-value note long enough to be worth giving once, since it is the same on every item of the list."
    const record = compactRecord({
      stream_id: "s-1",
      items: [
        { event_id: "e1", stream_id: "s-1", payload: event, event, face_value_source: note },
        { event_id: "e2", stream_id: "s-1", payload: event, event, face_value_source: note },
        {
          id: "news-1",
          title: "Headline",
          url: "https://example.org/a",
          sources: [{ publisher: "Dawn", url: "https://example.org/a", title: "Headline - Dawn" }]
        }
      ],
      sources: [{
        dataset: "news",
        source: "feeds",
        as_of: "2026-08-07",
        retrieved_at: "2026-08-07",
        recorded_in: "r@c"
      }]
    }) as any
    assert.deepStrictEqual(record.items[0], {
      event_id: "e1",
      event,
      face_value_source: "see shared_text[0]"
    })
    assert.deepStrictEqual(record.shared_text, [note])
    assert.deepStrictEqual(record.items[2].sources, [{ publisher: "Dawn" }])
    assert.deepStrictEqual(record.sources, [{ dataset: "news", as_of: "2026-08-07" }])
    assert.strictEqual(record.stream_id, "s-1")
  })

  plain("the compact schema still names every field and accepts the compact record", () => {
    const schema = {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: { event_id: { type: "string" }, payload: {}, event: {}, stream_id: { type: "string" } },
            required: ["event_id", "payload", "event", "stream_id"]
          }
        },
        stream_id: { type: "string" }
      },
      required: ["items"]
    }
    const compact = compactSchema(schema) as any
    assert.deepStrictEqual(compact.properties.items.items.required, ["event_id", "event"])
    assert.deepStrictEqual(Object.keys(compact.properties.items.items.properties), [
      "event_id",
      "payload",
      "event",
      "stream_id"
    ])
    const record = compactRecord({ stream_id: "s", items: [{ event_id: "e", payload: 1, event: 1, stream_id: "s" }] })
    assert.isTrue(ajv.compile(compact)(record) as boolean, ajv.errorsText(ajv.errors))
    assert.isFalse(ajv.compile(schema)(record) as boolean, "the route's own schema requires what compaction leaves out")
  })

  plain("X-Data-Through is read as each dataset's last day; no header, no data_through", () => {
    assert.deepStrictEqual(dataThroughOf("prices=2026-05-25, news=2026-08-07, filings=2026-09-29"), {
      prices: "2026-05-25",
      news: "2026-08-07",
      filings: "2026-09-29"
    })
    assert.deepStrictEqual(dataThroughOf("prices=2026-05-25,bogus,news=soon"), { prices: "2026-05-25" })
    assert.isUndefined(dataThroughOf(undefined))
    assert.isUndefined(dataThroughOf(""))
  })

  plain("errors name tools and resources; days without a session are said", () => {
    const tools = [{ method: "GET", path: "/v1/quotes/:symbol", name: "get_quote" }]
    assert.strictEqual(
      inMcpWords("no sector \"x\": GET /v1/sectors lists them", tools),
      "no sector \"x\": psx://sectors lists them"
    )
    assert.strictEqual(inMcpWords("see GET /v1/quotes/HUBC?allow_stale=true", tools), "see get_quote")
    assert.strictEqual(inMcpWords("query field `limit`: bad", tools), "argument `limit`: bad")
    // 2026-05-01 is Labour Day, a Friday; 2026-05-02 a Saturday; 2026-05-04 a Monday session.
    assert.match(sessionWarnings({ as_of: "2026-05-01" }).join(), /as_of 2026-05-01 was a holiday \(Labour Day\)/)
    assert.match(sessionWarnings({ date_from: "2026-05-02", date_to: "2026-05-02" }).join(), /a weekend/)
    assert.deepStrictEqual(sessionWarnings({ as_of: "2026-05-04", date_from: "2026-05-04" }), [])
    assert.deepStrictEqual(sessionWarnings({ date_from: "2026-04-27", date_to: "2026-05-08" }).length, 1)
  })
})

const clientWith = (key: string) =>
  Effect.gen(function*() {
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", yield* baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } }
    })
    const client = new Client({ name: "psx-compact-test", version: "1.0.0" })
    return yield* Effect.acquireRelease(promise(() => client.connect(transport)).pipe(Effect.as(client)), (c) =>
      promise(() => c.close()))
  })

const callText = (client: Client, name: string, args: Record<string, unknown>) =>
  Effect.map(promise(() => client.callTool({ name, arguments: args })), (r) => {
    const text = (r.content as Array<{ text: string }>)[0]!.text
    return { isError: r.isError === true, text, record: JSON.parse(text), structured: r.structuredContent as any }
  })

/** Every array schema under `node` whose items are records names their fields. */
const unnamedLists = (node: unknown, path: string, defs: Record<string, any>, out: Array<string>) => {
  if (Array.isArray(node)) return node.forEach((n, i) => unnamedLists(n, `${path}[${i}]`, defs, out))
  if (typeof node !== "object" || node === null) return
  const schema = node as Record<string, any>
  if (schema["type"] === "array") {
    let items = schema["items"]
    if (typeof items?.$ref === "string") items = defs[items.$ref.replace("#/$defs/", "")]
    if (items === undefined || (items.type === "object" && items.properties === undefined)) out.push(path)
  }
  for (const [k, v] of Object.entries(schema)) if (k !== "$defs") unnamedLists(v, `${path}.${k}`, defs, out)
}

layer(SharedTestApp(NOW), { timeout: 600_000, excludeTestServices: true })("MCP compact", (it) => {
  it.effect("tools/list is at most 20 KB with every grant; psx://schemas/{tool} names every list's fields, portfolio tools too", () =>
    Effect.scoped(Effect.gen(function*() {
      const { token } = bodyOf(yield* post("/v1/me/session", {})) as { token: string }
      const keyWith = (grants: ReadonlyArray<string>) =>
        Effect.map(post("/v1/me/keys", { grants }, { authorization: `Bearer ${token}` }), (r) => bodyOf(r).key)
      const clients = {
        "no key": yield* httpClient,
        read: yield* clientWith(yield* keyWith(["portfolio:read"])),
        write: yield* clientWith(yield* keyWith(["portfolio:write"])),
        "read+write": yield* clientWith(yield* keyWith(["portfolio:read", "portfolio:write"]))
      }
      const counts: Record<string, number> = {}
      for (const [grant, client] of Object.entries(clients)) {
        const listed = yield* promise(() => client.listTools())
        const bytes = Buffer.byteLength(JSON.stringify(listed), "utf8")
        assert.isAtMost(bytes, LISTING_MAX, `tools/list with ${grant}: ${bytes} bytes`)
        counts[grant] = listed.tools.length
      }
      // 19 market tools; 5 read and 3 write portfolio tools.
      assert.deepStrictEqual(counts, { "no key": 19, read: 24, write: 22, "read+write": 27 })
      const all = clients["read+write"]
      for (const tool of (yield* promise(() => all.listTools())).tools) {
        const read = yield* promise(() => all.readResource({ uri: `psx://schemas/${tool.name}` }))
        const schema = JSON.parse((read.contents[0] as { text: string }).text)
        assert.isTrue(ajv.validateSchema(schema) as boolean, tool.name)
        const unnamed: Array<string> = []
        unnamedLists(schema, tool.name, schema.$defs ?? {}, unnamed)
        assert.deepStrictEqual(unnamed, [], `${tool.name}: lists whose items are not named`)
      }
    })))

  it.effect("answers are compact: no long floats, sources by dataset and psx://sources/{dataset} has the rest", () =>
    Effect.scoped(Effect.gen(function*() {
      const client = yield* httpClient
      const answer = yield* callText(client, "get_dividends", { symbol: "MEBL" })
      assert.isFalse(answer.isError, answer.text)
      assert.deepStrictEqual(answer.record, answer.structured, "the text is the structured record's JSON")
      const http = bodyOf(yield* get("/v1/dividends/MEBL")) as any
      // The route keeps full precision; MCP says 4 significant digits of the same figure.
      assert.match(JSON.stringify(http.yield_as_published.value), /\.\d{5,}/)
      assert.strictEqual(answer.record.yield_as_published.value, Number(http.yield_as_published.value.toPrecision(4)))
      for (const n of answer.text.match(/-?\d+\.\d+/g) ?? []) {
        assert.isAtMost(n.replace(/^-?0\.0*/, "").replace(/\D/g, "").length, 6, `${n} carries spurious digits`)
      }
      assert.deepStrictEqual(
        answer.record.sources,
        http.sources.map((s: any) => ({ dataset: s.dataset, as_of: s.as_of }))
      )
      const dataset = http.sources[0].dataset
      const full = yield* promise(() => client.readResource({ uri: `psx://sources/${dataset}` }))
      const record = JSON.parse((full.contents[0] as { text: string }).text)
      assert.strictEqual(record.dataset, dataset)
      assert.strictEqual(record.source, http.sources[0].source)
      const news = yield* callText(client, "get_news", { symbol: "HUBC", limit: 3 })
      for (const item of news.record.items) {
        for (const source of item.sources) assert.notProperty(source, "url", `${item.id}: its url is the item's`)
      }
    })))

  it.effect("errors name MCP tools and resources and list the arguments; a day with no session says so", () =>
    Effect.scoped(Effect.gen(function*() {
      const client = yield* httpClient
      const sector = yield* callText(client, "get_sector", { id: "banks-of-mars" })
      assert.isTrue(sector.isError)
      assert.match(sector.record.message, /psx:\/\/sectors/)
      assert.notMatch(sector.record.message, /\/v1\//, "no HTTP route")
      const http = (yield* get("/v1/sectors/banks-of-mars")).body as any
      assert.match(http.message, /\/v1\/sectors/, "HTTP keeps its own words")
      const limit = yield* callText(client, "get_price_history", { symbol: "OGDC", limit: "many" })
      assert.isTrue(limit.isError)
      assert.match(limit.record.message, /^argument `limit`: .*; get_price_history takes symbol, as_of, .*adjust/)
      // The market as of a day is loaded by the first request about it (an error meanwhile, as on HTTP).
      const holiday = yield* pollUntil(
        "the market as of 2026-05-01 is loaded",
        callText(client, "get_price_history", { symbol: "OGDC", as_of: "2026-05-01", limit: 1 }),
        (a) => a.record.error !== "RATE_LIMITED" && a.record.error !== "SOURCE_UNAVAILABLE",
        { every: "200 millis" }
      )
      assert.match(holiday.text, /as_of 2026-05-01 was a holiday \(Labour Day\), not a trading session/)
      const day = yield* callText(client, "get_price_history", {
        symbol: "OGDC",
        date_from: "2026-05-01",
        date_to: "2026-05-01"
      })
      assert.deepStrictEqual(day.record.items, [])
      assert.match(day.record.warnings.join(), /2026-05-01 was a holiday \(Labour Day\), not a trading session/)
    })))

  it.effect("data_through is the route's X-Data-Through, read per dataset, when the route sends it", () =>
    Effect.scoped(Effect.gen(function*() {
      const client = yield* httpClient
      const base = yield* baseUrl
      const response = yield* promise(() => fetch(`${base}/v1/quotes/OGDC?allow_stale=true`))
      assert.strictEqual(response.status, 200)
      const header = response.headers.get("x-data-through") ?? undefined
      const answer = yield* callText(client, "get_quote", { symbol: "OGDC", allow_stale: true })
      assert.deepStrictEqual(answer.record.data_through, dataThroughOf(header))
    })))
})
