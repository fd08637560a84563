/** GET /v1/ai/tools: the tool endpoint's catalogue, generated from the same tool definitions /mcp serves. */
import { Effect } from "effect"
import { Tool } from "effect/ai"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../http/Api.ts"
import { ServedToolkit } from "./Server.ts"

const catalogue = {
  endpoint: "/mcp" as const,
  protocol: "JSON-RPC 2.0 over MCP streamable HTTP (protocol versions 2024-11-05 to 2025-11-25): initialize, then tools/list, then tools/call",
  authentication: "none: the tools read public market data; portfolio data is only on the HTTP API with a key",
  tools: Object.values(ServedToolkit.tools).map((tool) => ({
    name: tool.name,
    ...(Tool.getDescription(tool) ? { description: Tool.getDescription(tool)! } : {}),
    input_schema: Tool.getJsonSchema(tool)
  }))
}

export const AiHttp = HttpApiBuilder.group(Api, "ai", (handlers) => Effect.succeed(handlers.handle("tools", () => Effect.succeed(catalogue))))
