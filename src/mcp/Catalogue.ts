/**
 * GET /v1/ai/tools: the tool endpoint's catalogue, generated from the same tool definitions /mcp serves. Like
 * tools/list, it adds the portfolio tools for a request with a bearer credential (which it does not check).
 */
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../http/Api.ts"
import { bearerOf, PORTFOLIO_TOOLS } from "./PortfolioTools.ts"
import type { RouteTool } from "./RouteTools.ts"
import { AUTHENTICATION, MARKET_TOOLS } from "./Server.ts"

const protocol =
  "JSON-RPC 2.0 over MCP streamable HTTP (protocol versions 2024-11-05 to 2025-11-25): initialize, then " +
  "tools/list, then tools/call. The same tools over stdio: `npm run --silent cli -- mcp`."

const entryOf = ({ descriptor }: RouteTool) => ({
  name: descriptor.name,
  ...(descriptor.description === undefined ? {} : { description: descriptor.description }),
  input_schema: descriptor.inputSchema,
  read_only: descriptor.annotations?.readOnlyHint === true
})

const marketTools = MARKET_TOOLS.map(entryOf)
const portfolioTools = PORTFOLIO_TOOLS.map(entryOf)

const catalogue = { endpoint: "/mcp" as const, protocol, authentication: AUTHENTICATION, tools: marketTools }
const withPortfolio = { ...catalogue, tools: [...marketTools, ...portfolioTools] }

export const AiHttp = HttpApiBuilder.group(
  Api,
  "ai",
  (handlers) =>
    Effect.succeed(handlers.handle("tools", () =>
      Effect.map(
        HttpServerRequest.HttpServerRequest,
        (request) => bearerOf(request.headers) === undefined ? catalogue : withPortfolio
      )))
)
