/**
 * What an MCP session keeps of its `initialize` request, and when one is
 * refused. The MCP transport keeps the decoded `initialize` params with the
 * session for its whole life, so they are bounded here before it sees them:
 *
 * - the message may be at most `initializeBytes` bytes of JSON and nest at most
 *   MAX_DEPTH levels (measured without recursion, so a 100,000-deep value is
 *   refused, never a stack overflow); `clientInfo` at most CLIENT_INFO_MAX
 *   characters of JSON;
 * - of the params the session keeps `protocolVersion`, `clientInfo`, `_meta`
 *   and the standard client capabilities (roots, sampling, elicitation):
 *   `capabilities.experimental` and `capabilities.extensions` are dropped, since
 *   this server uses neither, and they are the open-ended records a client
 *   could fill with any number of keys;
 * - `initialize` inside a JSON-RPC batch is refused (the transport refuses it
 *   too; here it could not be measured).
 *
 * Pure functions: Sessions.ts applies them to the request body.
 */
import { McpSchema } from "effect/ai"

/** The most characters of JSON `initialize`'s `clientInfo` may take. */
export const CLIENT_INFO_MAX = 1_024
/** The deepest nesting an `initialize` message may have (a real one has 5 levels or fewer). */
export const MAX_DEPTH = 32

/** What to do with a POST body: pass it on, send the kept `initialize` instead, or refuse it. */
export type Examined =
  | { readonly _tag: "Other" }
  | { readonly _tag: "Keep"; readonly text: string; readonly bytes: number }
  | { readonly _tag: "Refuse"; readonly id: string | number | null; readonly code: number; readonly message: string }

const OTHER: Examined = { _tag: "Other" }

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8")

/** The deepest nesting of a parsed JSON value, walked with an explicit stack; stops once past `limit`. */
export const depthOf = (value: unknown, limit: number): number => {
  const stack: Array<readonly [unknown, number]> = [[value, 1]]
  let deepest = 0
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (typeof node !== "object" || node === null) continue
    if (depth > deepest) deepest = depth
    if (deepest > limit) return deepest
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1])
    }
  }
  return deepest
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isInitialize = (value: unknown) => isRecord(value) && value["method"] === "initialize"

const idOf = (message: Record<string, unknown>) => {
  const id = message["id"]
  return typeof id === "string" || typeof id === "number" ? id : null
}

const refuse = (id: string | number | null, code: number, message: string): Examined => ({
  _tag: "Refuse",
  id,
  code,
  message
})

/** The params without the capabilities this server does not use. */
const keptParams = (params: Record<string, unknown>) => {
  const { capabilities, ...rest } = params
  if (!isRecord(capabilities)) return params
  const { experimental: _experimental, extensions: _extensions, ...standard } = capabilities
  return { ...rest, capabilities: standard }
}

/**
 * Examines a POST body: an `initialize` within the limits is `Keep` with the message the transport should see
 * (and its size in bytes), an oversized, too deep or batched one is `Refuse`; anything else is `Other`.
 */
export const examine = (text: string, initializeBytes: number): Examined => {
  // Cheap exit for the common case; an escaped method name ("initiali\u007ae") has a backslash.
  if (!text.includes("initialize") && !text.includes("\\")) return OTHER
  const message = parse(text)
  if (Array.isArray(message)) {
    return message.some(isInitialize)
      ? refuse(
        null,
        McpSchema.INVALID_REQUEST_ERROR_CODE,
        "Invalid Request: initialize must be sent alone, not in a batch"
      )
      : OTHER
  }
  if (!isRecord(message) || !isInitialize(message)) return OTHER
  const id = idOf(message)
  const size = bytesOf(text)
  if (size > initializeBytes) {
    return refuse(
      id,
      McpSchema.INVALID_PARAMS_ERROR_CODE,
      `Invalid params: an initialize request may be at most ${initializeBytes} bytes of JSON, not ${size}`
    )
  }
  if (depthOf(message, MAX_DEPTH) > MAX_DEPTH) {
    return refuse(
      id,
      McpSchema.INVALID_PARAMS_ERROR_CODE,
      `Invalid params: an initialize request may nest at most ${MAX_DEPTH} levels`
    )
  }
  // The depth is bounded now, so JSON.stringify cannot overflow the stack.
  const params = isRecord(message["params"]) ? message["params"] : {}
  if (JSON.stringify(params["clientInfo"] ?? null).length > CLIENT_INFO_MAX) {
    return refuse(
      id,
      McpSchema.INVALID_PARAMS_ERROR_CODE,
      `Invalid params: clientInfo may be at most ${CLIENT_INFO_MAX} characters of JSON`
    )
  }
  const kept = JSON.stringify({ ...message, params: keptParams(params) })
  return { _tag: "Keep", text: kept, bytes: bytesOf(kept) }
}
