/**
 * Route middleware of POST /mcp: every refusal is a JSON-RPC error body.
 *
 * The MCP transport answers some refusals with the right HTTP status but an
 * empty body (a batch the negotiated protocol does not allow, an unknown
 * session, a wrong content type or accept header, another HTTP method), and
 * reads an oversized body as a parse error. Here:
 *
 * - a body over the server's limit (1 MiB) is 413 with -32600, before parsing;
 * - a batch longer than MAX_BATCH messages is 400 with -32600 (batches exist
 *   only in protocol 2025-03-26; a long one is refused rather than run);
 * - an empty-bodied refusal keeps its status and gets a JSON-RPC error naming
 *   the reason.
 */
import { Effect, Schema } from "effect"
import { McpSchema } from "effect/ai"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

/** The most messages one JSON-RPC batch may carry. */
export const MAX_BATCH = 32

const rpcError = (status: number, code: number, message: string, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id: null, error: { code, message } }, {
    status,
    ...(headers ? { headers } : {})
  })

const SERVER_ERROR = -32000
/** The code the MCP reference servers use for an unknown or ended session. */
const SESSION_NOT_FOUND = -32001

const refusals: Record<number, readonly [number, string]> = {
  403: [SERVER_ERROR, "Forbidden: this Origin is not allowed"],
  404: [
    SESSION_NOT_FOUND,
    "Session not found: the Mcp-Session-Id is unknown or ended; send initialize to start a new session"
  ],
  405: [SERVER_ERROR, "Method not allowed: the tool endpoint answers POST only"],
  406: [SERVER_ERROR, "Not acceptable: the Accept header must list both application/json and text/event-stream"],
  415: [SERVER_ERROR, "Unsupported media type: the body must be application/json"]
}

const isEmpty = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Empty" || (response.body._tag === "Uint8Array" && response.body.body.length === 0)

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** The number of messages when the body is a JSON array (only then is it parsed here). */
const batchLength = (text: string) => {
  if (!text.trimStart().startsWith("[")) return undefined
  const value = parseJson(text)
  return value._tag === "Some" && Array.isArray(value.value) ? value.value.length : undefined
}

/** The longest resource URI a `resources/read` may name (every served one is far shorter). */
export const MAX_URI_CHARS = 1_024

/**
 * A `resources/read` naming a URI over MAX_URI_CHARS is refused here with -32602 and its request's id, saying only
 * how long the URI was: the transport's "not found" would echo the whole URI back.
 */
const longResourceUri = (text: string) => {
  if (text.length <= MAX_URI_CHARS || !text.includes("resources/read")) return undefined
  const message = parseJson(text)
  if (
    message._tag !== "Some" || typeof message.value !== "object" || message.value === null ||
    Array.isArray(message.value)
  ) return undefined
  const { id, method, params } = message.value as { id?: unknown; method?: unknown; params?: { uri?: unknown } }
  const uri = params?.uri
  if (method !== "resources/read" || typeof uri !== "string" || uri.length <= MAX_URI_CHARS) return undefined
  return HttpServerResponse.jsonUnsafe({
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error: {
      code: McpSchema.INVALID_PARAMS_ERROR_CODE,
      message:
        `Invalid params: a resource URI may be at most ${MAX_URI_CHARS} characters, not ${uri.length}; resources/list names every resource`
    }
  }, { status: 200 })
}

export const JsonRpcEnvelope = HttpRouter.middleware((httpEffect) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    let batch: number | undefined
    if (request.method === "POST") {
      // The body is read once and cached: the transport below reuses it.
      const body = yield* Effect.result(request.text)
      if (body._tag === "Failure") {
        return body.failure.reason._tag === "RequestParseError" && body.failure.reason.reason === "BodyTooLarge"
          ? rpcError(413, McpSchema.INVALID_REQUEST_ERROR_CODE, "Invalid Request: the body exceeds 1 MiB")
          : rpcError(400, McpSchema.PARSE_ERROR_CODE, "Parse error: the body could not be read")
      }
      const longUri = longResourceUri(body.success)
      if (longUri !== undefined) return longUri
      batch = batchLength(body.success)
      if (batch !== undefined && batch > MAX_BATCH) {
        return rpcError(
          400,
          McpSchema.INVALID_REQUEST_ERROR_CODE,
          `Invalid Request: a batch may carry at most ${MAX_BATCH} messages, not ${batch}`
        )
      }
    }
    const response = yield* httpEffect
    if (response.status < 400 || !isEmpty(response)) return response
    if (response.status === 400 && batch !== undefined) {
      return rpcError(
        400,
        McpSchema.INVALID_REQUEST_ERROR_CODE,
        batch === 0
          ? "Invalid Request: an empty batch"
          : "Invalid Request: JSON-RPC batches are allowed only in a session of protocol 2025-03-26, and never with initialize"
      )
    }
    const refusal = refusals[response.status]
    if (refusal === undefined) return response
    const allow = response.headers["allow"]
    return rpcError(response.status, refusal[0], refusal[1], allow === undefined ? undefined : { allow })
  })
).layer
