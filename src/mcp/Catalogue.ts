/** GET /v1/ai/tools: the tool endpoint's catalogue, generated from the same tool definitions /mcp serves. */
import { Context, Effect } from "effect"
import { Tool } from "effect/ai"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../http/Api.ts"
import { AUTHENTICATION, ServedToolkit } from "./Server.ts"

const catalogue = {
  endpoint: "/mcp" as const,
  protocol: "JSON-RPC 2.0 over MCP streamable HTTP (protocol versions 2024-11-05 to 2025-11-25): initialize, then " +
    "tools/list, then tools/call. The same tools over stdio: `npm run --silent cli -- mcp`.",
  authentication: AUTHENTICATION,
  tools: Object.values(ServedToolkit.tools).map((tool) => ({
    name: tool.name,
    ...(Tool.getDescription(tool) ? { description: Tool.getDescription(tool)! } : {}),
    input_schema: Tool.getJsonSchema(tool),
    read_only: Context.get(tool.annotations, Tool.Readonly)
  }))
}

export const AiHttp = HttpApiBuilder.group(Api, "ai", (handlers) => Effect.succeed(handlers.handle("tools", () => Effect.succeed(catalogue))))
