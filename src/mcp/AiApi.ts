/** The catalogue endpoint of the tool endpoint (definition only; handler in Catalogue.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export const ToolCatalogue = Schema.Struct({
  endpoint: Schema.Literal("/mcp"),
  protocol: Schema.String,
  authentication: Schema.String.annotate({
    description: "How the tool endpoint authenticates (the market tools need no key; the portfolio tools a bearer key)"
  }),
  tools: Schema.Array(Schema.Struct({
    name: Schema.String,
    description: Schema.optionalKey(Schema.String),
    input_schema: Schema.Unknown.annotate({ description: "JSON Schema of the tool's arguments" }),
    read_only: Schema.Boolean
  }))
})

export class AiApi extends HttpApiGroup.make("ai")
  .add(
    HttpApiEndpoint.get("tools", "/v1/ai/tools", { success: ToolCatalogue }).annotateMerge(OpenApi.annotations({
      summary: "List the MCP tools",
      description: "Catalogue of the tools served at POST /mcp (JSON-RPC 2.0 over MCP streamable HTTP: initialize, " +
        "tools/list, tools/call) and over stdio (`npm run --silent cli -- mcp`), with their input schemas. The market " +
        "tools read public data and need no key. Like tools/list, a request with Authorization: Bearer <key> (not checked " +
        "here) also lists the portfolio tools, each a /v1/me route named in its description with the grant it needs. " +
        "tools/list also outlines each tool's result (its complete schema is the " +
        "MCP resource psx://schemas/{tool}). /mcp also serves resources (psx://universe, psx://sectors, psx://indices, " +
        "psx://calendar/dividends) and prompts (research_symbol, review_portfolio, plan_book_closures)."
    }))
  )
  .annotateMerge(OpenApi.annotations({
    title: "Tools for agents",
    description: "The MCP tool endpoint's catalogue. POST /mcp itself speaks JSON-RPC 2.0 (MCP) and is not an " +
      "OpenAPI operation; it needs no key, and with a bearer key it also serves the portfolio tools."
  }))
{}
