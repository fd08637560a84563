/**
 * A raw JSON-RPC session on the test server's POST /mcp: initialize, the
 * initialized notification, then `rpc` for further calls within the session,
 * `tools` for the listed tool names and `call` for one tool's answer. (The
 * SDK clients, over HTTP and stdio, are in McpClients.ts.)
 */
import { Effect } from "effect"
import { post } from "./TestApp.ts"

const accept = { accept: "application/json, text/event-stream" }

/** A tools/call answer: the error flag, the JSON text parsed, and the structured content. */
export interface ToolAnswer {
  readonly isError: boolean
  // The tool's record (its route's body or an error record); each test reads the fields it checks.
  readonly value: any
  readonly structured: unknown
}

export const mcpSession = Effect.gen(function*() {
  const send = (body: unknown, headers: Record<string, string> = {}) => post("/mcp", body, { ...accept, ...headers })
  const init = yield* send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
  })
  const session = { "mcp-session-id": init.headers["mcp-session-id"]!, "mcp-protocol-version": "2025-06-18" }
  yield* send({ jsonrpc: "2.0", method: "notifications/initialized" }, session)
  const rpc = (body: unknown) => send(body, session)
  const list = rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" })
  const call = (name: string, args: unknown) =>
    Effect.map(
      rpc({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: args } }),
      (r): ToolAnswer => ({
        isError: r.body.result.isError === true,
        value: JSON.parse(r.body.result.content[0]?.text ?? "null"),
        structured: r.body.result.structuredContent
      })
    )
  return { init, rpc, list, call }
})
