/**
 * A route tool's call (RouteTools.ts defines the tools): its arguments become the route's request, run in
 * process through the routes (RouteCaller.ts) with the caller's credential, and the route's response becomes
 * the tool's result, compact (Compact.ts), with refusals in MCP's words (ToolWords.ts).
 */
import { Effect, Option, Result, Schema } from "effect"
import { McpSchema } from "effect/ai"
import type { HttpServerResponse } from "effect/http"
import { HttpServerRequest } from "effect/http"
import type { ErrorRecord } from "../../domain/Errors.ts"
import { compactRecord } from "./Compact.ts"
import { dataThroughOf, RouteCaller } from "./RouteCaller.ts"
import { acceptedArguments, requestParts, ROUTE_NAMES, type RouteTool } from "./RouteTools.ts"
import { inMcpWords, withAccepted } from "./ToolWords.ts"

type Json = { readonly [key: string]: unknown }

const STATUS = "psx/status"

const refused = (message: string) => {
  const record: ErrorRecord = { error: "INVALID_REQUEST", message }
  return new McpSchema.CallToolResult({
    isError: true,
    content: [{ type: "text", text: JSON.stringify(record) }],
    _meta: { [STATUS]: 400 }
  })
}

const textOf = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (body._tag === "Uint8Array") return new TextDecoder().decode(body.body)
  if (body._tag === "Empty") return ""
  if (body._tag === "Raw" && typeof body.body === "string") return body.body
  return undefined
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** A refusal's record in MCP's words: tools and resources for routes, the accepted arguments for a bad one. */
export const errorRecord = (tool: RouteTool, status: number, record: Json): Json => {
  if (typeof record["message"] !== "string") return record
  const message = inMcpWords(record["message"], ROUTE_NAMES)
  return {
    ...record,
    message: status === 400 && record["error"] === "INVALID_REQUEST"
      ? withAccepted(message, tool.name, acceptedArguments(tool))
      : message
  }
}

const argsOf = (args: unknown): Json => typeof args === "object" && args !== null ? args as Json : {}

/**
 * The route's response as the tool's result: its record shaped by the tool's `shape`, with `data_through` from
 * the X-Data-Through header when the route sends one, in compact form (Compact.ts) as structuredContent and as
 * its JSON text. A refusal is the route's error record in MCP's words, with `isError`.
 */
const resultOf = (tool: RouteTool, args: unknown) => (response: HttpServerResponse.HttpServerResponse) => {
  const text = textOf(response)
  if (text === undefined) return Effect.die(`a tool's route answered a ${response.body._tag} body`)
  const parsed = Option.filter(
    parseJson(text),
    (v): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)
  )
  const meta = { _meta: { [STATUS]: response.status } }
  if (Option.isNone(parsed)) {
    return Effect.succeed(
      new McpSchema.CallToolResult({
        ...(response.status >= 400 ? { isError: true } : {}),
        content: [{ type: "text", text }],
        ...meta
      })
    )
  }
  if (response.status >= 400) {
    const record = errorRecord(tool, response.status, parsed.value)
    return Effect.succeed(
      new McpSchema.CallToolResult({
        isError: true,
        content: [{ type: "text", text: JSON.stringify(record) }],
        ...meta
      })
    )
  }
  const shaped = tool.options.shape === undefined ? parsed.value : tool.options.shape(parsed.value, argsOf(args))
  if (typeof shaped === "string") return Effect.succeed(refused(shaped))
  const dataThrough = dataThroughOf(response.headers["x-data-through"])
  const record = compactRecord(dataThrough === undefined ? shaped : { ...shaped, data_through: dataThrough })
  return Effect.succeed(
    new McpSchema.CallToolResult({
      structuredContent: record,
      content: [{ type: "text", text: JSON.stringify(record) }],
      ...meta
    })
  )
}

/**
 * The tool's handler: its arguments as the route's request, with `authorization` (the caller's credential)
 * and, over HTTP, the MCP request's address and X-Request-Id, run through the routes.
 */
export const callRoute = (
  caller: typeof RouteCaller.Service,
  tool: RouteTool,
  authorization: (outer: Option.Option<HttpServerRequest.HttpServerRequest>) => string | undefined
) =>
(args: unknown) =>
  Effect.gen(function*() {
    const given = typeof args === "object" && args !== null && tool.options.prepare !== undefined
      ? tool.options.prepare(args as Json)
      : args
    const parts = requestParts(tool, given)
    if (Result.isFailure(parts)) return refused(parts.failure)
    const outer = yield* Effect.serviceOption(HttpServerRequest.HttpServerRequest)
    const headers: Record<string, string> = { accept: "application/json", ...parts.success.headers }
    const credential = authorization(outer)
    if (credential !== undefined) headers["authorization"] = credential
    const requestId = Option.getOrUndefined(outer)?.headers["x-request-id"]
    if (requestId !== undefined) headers["x-request-id"] = requestId
    if (parts.success.body !== undefined) headers["content-type"] = "application/json"
    const request = HttpServerRequest.fromWeb(
      new Request(`http://localhost${parts.success.url}`, {
        method: tool.endpoint.method,
        headers,
        ...(parts.success.body === undefined ? {} : { body: parts.success.body })
      })
    ).modify({ remoteAddress: Option.flatMap(outer, (r) => r.remoteAddress) })
    return yield* Effect.flatMap(caller.call(request), resultOf(tool, args))
  })
