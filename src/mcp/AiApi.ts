/** The catalogue endpoint of the tool endpoint (definition only; handler in Catalogue.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export const ToolCatalogue = Schema.Struct({
  endpoint: Schema.Literal("/mcp"),
  protocol: Schema.String,
  authentication: Schema.String,
  tools: Schema.Array(Schema.Struct({
    name: Schema.String,
    description: Schema.optionalKey(Schema.String),
    input_schema: Schema.Unknown
  }))
})

export class AiApi extends HttpApiGroup.make("ai")
  .add(
    HttpApiEndpoint.get("tools", "/v1/ai/tools", { success: ToolCatalogue }).annotateMerge(OpenApi.annotations({
      description: "Catalogue of the tools served at POST /mcp (JSON-RPC 2.0 over streamable HTTP: initialize, " +
        "tools/list, tools/call), with their input schemas."
    }))
  )
  .annotateMerge(OpenApi.annotations({ title: "Tools for agents" }))
{}

