/**
 * Every tool result is bounded: at most MAX_ITEMS entries in any list and
 * MAX_BYTES bytes of JSON in its record. A result over a bound is cut, and
 * says so: a second text block names what was cut and how to get the rest,
 * and `_meta["psx/cut"]` carries the same facts for programs.
 *
 * - A paged tool (a `limit` argument and a `next_cursor` in its record) is
 *   asked again with the largest `limit` that fits, so its record stays the
 *   route's body for that limit and its `next_cursor` continues from there.
 * - Any other tool's over-long lists are cut to their first entries that fit
 *   (none does on the bundled pack; the route's body has them all).
 *
 * `boundedServer` applies this, and the compact listing of Listing.ts, to
 * every tool registered through it.
 */
import { Effect, Layer } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { jsonBytes, plainArguments, shareDefinitions, shortDescriptions, withoutNull } from "./Listing.ts"

/** The most characters an argument's description takes in tools/list (whole sentences; the full text is the route's). */
const ARGUMENT_WORDS = 75

type Json = { readonly [key: string]: unknown }

/** The most entries any list in a tool result may hold. */
export const MAX_ITEMS = 250
/** The most bytes of JSON a tool result's record may take (about 10k tokens). */
export const MAX_BYTES = 40_000

export interface Bounds {
  readonly maxItems: number
  readonly maxBytes: number
}

type Rec = Record<string, unknown>

const isRecord = (value: unknown): value is Rec => typeof value === "object" && value !== null && !Array.isArray(value)

/** How many leading entries of `list` (at most `cap`) fit in `room` bytes, counting the commas between them. */
const fitting = (list: ReadonlyArray<unknown>, room: number, cap: number) => {
  let used = 0
  let n = 0
  while (n < Math.min(list.length, cap)) {
    const next = used + jsonBytes(list[n]) + (n > 0 ? 1 : 0)
    if (next > room) break
    used = next
    n++
  }
  return n
}

/** The entries of `key` that keep the record within the bounds (at least one, so paging moves on). */
const fitOf = (record: Rec, key: string, bounds: Bounds) => {
  const list = record[key] as ReadonlyArray<unknown>
  const room = bounds.maxBytes - jsonBytes({ ...record, [key]: [] })
  return Math.max(1, fitting(list, room, bounds.maxItems))
}

const over = (record: Rec, bounds: Bounds) =>
  jsonBytes(record) > bounds.maxBytes ||
  Object.values(record).some((v) => Array.isArray(v) && v.length > bounds.maxItems)

const cutResult = (result: McpSchema.CallToolResult, record: Rec, note: string, facts: Rec) =>
  new McpSchema.CallToolResult({
    ...result,
    structuredContent: record,
    content: [
      { type: "text", text: JSON.stringify(record) },
      { type: "text", text: note }
    ],
    _meta: { ...(result._meta ?? {}), "psx/cut": facts }
  })

/** Cuts the lists of a record that does not page: each to at most maxItems, then the longest ones until it fits. */
export const cutLists = (record: Rec, bounds: Bounds) => {
  const cut: Rec = { ...record }
  const totals: Record<string, number> = {}
  for (const [key, value] of Object.entries(cut)) {
    if (Array.isArray(value) && value.length > bounds.maxItems) {
      totals[key] = value.length
      cut[key] = value.slice(0, bounds.maxItems)
    }
  }
  for (let guard = 0; guard < 16 && jsonBytes(cut) > bounds.maxBytes; guard++) {
    const longest = Object.entries(cut)
      .filter(([, v]) => Array.isArray(v) && v.length > 1)
      .sort(([, a], [, b]) => jsonBytes(b) - jsonBytes(a))[0]
    if (longest === undefined) break
    const [key, list] = longest as [string, ReadonlyArray<unknown>]
    totals[key] ??= list.length
    cut[key] = list.slice(0, Math.min(list.length - 1, fitOf(cut, key, bounds)))
  }
  return { cut, totals }
}

type Handle = (payload: unknown) => Effect.Effect<McpSchema.CallToolResult | McpSchema.InputRequired, any, any>

const pageNote = (tool: string, served: number, had: number, cursor: unknown, bounds: Bounds) =>
  `Cut to fit this tool's bounds (at most ${bounds.maxItems} items and ${bounds.maxBytes} bytes of JSON): ${served} items ` +
  `of the ${had} this page would hold; the record is the route's answer for limit ${served}. ` +
  (typeof cursor === "string"
    ? `Next page: call ${tool} again with the same arguments and cursor "${cursor}".`
    : "There is no further page.")

/** A paged tool's result within the bounds: asked again with the limit that fits (a few tries). */
const boundPaged = (tool: string, handle: Handle, payload: Rec, first: Rec, bounds: Bounds) =>
  Effect.gen(function*() {
    const had = (first["items"] as ReadonlyArray<unknown>).length
    let record = first
    let result: McpSchema.CallToolResult | undefined
    for (let tries = 0; tries < 3 && over(record, bounds); tries++) {
      const limit = Math.min(fitOf(record, "items", bounds), (record["items"] as ReadonlyArray<unknown>).length - 1)
      const again = yield* handle({ ...payload, limit: Math.max(1, limit) })
      if (
        !(again instanceof McpSchema.CallToolResult) || again.isError === true || !isRecord(again.structuredContent)
      ) return again
      result = again
      record = again.structuredContent
    }
    // One entry alone over the byte bound: its lists are cut as a record that does not page would be.
    if (over(record, bounds)) return boundOther(tool, result!, record, bounds)
    const served = (record["items"] as ReadonlyArray<unknown>).length
    return cutResult(result!, record, pageNote(tool, served, had, record["next_cursor"], bounds), {
      max_items: bounds.maxItems,
      max_bytes: bounds.maxBytes,
      served,
      page_would_hold: had,
      limit: served,
      next_cursor: record["next_cursor"] ?? null
    })
  })

const boundOther = (tool: string, result: McpSchema.CallToolResult, record: Rec, bounds: Bounds) => {
  const { cut, totals } = cutLists(record, bounds)
  const lists = Object.fromEntries(
    Object.entries(totals).map(([k, total]) => [k, {
      served: (cut[k] as ReadonlyArray<unknown>).length,
      total
    }])
  )
  const said = Object.entries(lists).map(([k, v]) => `${k}: the first ${v.served} of ${v.total}`).join("; ")
  const note =
    `Cut to fit this tool's bounds (at most ${bounds.maxItems} items and ${bounds.maxBytes} bytes of JSON): ${said}. ` +
    `${tool} does not page; the route over HTTP answers the whole record.`
  return cutResult(result, cut, note, { max_items: bounds.maxItems, max_bytes: bounds.maxBytes, lists })
}

/** A tool's handler whose results keep within the bounds. */
export const boundedHandle = (tool: McpSchema.Tool, handle: Handle, bounds: Bounds): Handle => {
  const pages = isRecord(tool.inputSchema.properties) && tool.inputSchema.properties["limit"] !== undefined
  return (payload) =>
    Effect.flatMap(handle(payload), (result) => {
      if (!(result instanceof McpSchema.CallToolResult) || result.isError === true) return Effect.succeed(result)
      const record = result.structuredContent
      if (!isRecord(record) || !over(record, bounds)) return Effect.succeed(result)
      return pages && Array.isArray(record["items"]) && "next_cursor" in record
        ? boundPaged(tool.name, handle, isRecord(payload) ? payload : {}, record, bounds)
        : Effect.succeed(boundOther(tool.name, result, record, bounds))
    })
}

/**
 * The listing of a tool as tools/list gives it: shared input definitions and short argument descriptions. Its
 * output schema is left out of the listing (27 tools' outlines were 11 KB of the 20 KB a listing may take): the
 * complete schema of every tool's result is the resource psx://schemas/{tool}.
 */
export const listed = (tool: McpSchema.Tool) => {
  const { outputSchema: _output, ...rest } = tool
  return new McpSchema.Tool({
    ...rest,
    inputSchema: shareDefinitions(
      plainArguments(withoutNull(shortDescriptions(tool.inputSchema, ARGUMENT_WORDS)) as Json)
    ) as McpSchema.Tool["inputSchema"]
  })
}

/**
 * The McpServer for registrations: every tool added through it is listed compactly and its results are bounded.
 * Everything else is the transport's McpServer.
 */
export const boundedServer = (bounds: Bounds = { maxItems: MAX_ITEMS, maxBytes: MAX_BYTES }) =>
  Layer.effect(
    McpServer.McpServer,
    Effect.map(McpServer.McpServer, (server) => {
      const wrapped = Object.create(server) as typeof server
      Object.defineProperty(wrapped, "addTool", {
        value: (options: Parameters<typeof server.addTool>[0]) =>
          server.addTool({
            ...options,
            tool: listed(options.tool),
            handle: boundedHandle(options.tool, options.handle, bounds)
          })
      })
      return wrapped
    })
  )
