/**
 * A raw JSON-RPC session on the test server's POST /mcp: initialize, the
 * initialized notification, then `rpc` for further calls within the session.
 */
import { Effect } from "effect"
import { post } from "./TestApp.ts"

const accept = { accept: "application/json, text/event-stream" }

export const mcpSession = Effect.gen(function*() {
  const send = (body: unknown, headers: Record<string, string> = {}) => post("/mcp", body, { ...accept, ...headers })
  const init = yield* send({
    jsonrpc: "2.0", id: 1, method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
  })
  const session = { "mcp-session-id": init.headers["mcp-session-id"]!, "mcp-protocol-version": "2025-06-18" }
  yield* send({ jsonrpc: "2.0", method: "notifications/initialized" }, session)
  return { init, rpc: (body: unknown) => send(body, session) }
})
