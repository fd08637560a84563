/**
 * POST /mcp: the tool endpoint, JSON-RPC 2.0 over streamable HTTP
 * (initialize, then tools/list, then tools/call). Public market data only,
 * so it needs no key; it shares the server, the guard (rate limits, request
 * logs) and the services of the HTTP API.
 */
import { Layer } from "effect"
import { McpProtocol, McpServer, Toolkit } from "effect/ai"
import { ScreenToolkit, ScreenToolkitLive } from "./ScreenTools.ts"
import { PsxToolkit, PsxToolkitLive } from "./Tools.ts"

/** Every tool served at /mcp and listed at /v1/ai/tools. */
export const ServedToolkit = Toolkit.merge(PsxToolkit, ScreenToolkit)

export const McpLive = McpServer.layerHttp({
  name: "psx-data-service",
  version: "1.0.0",
  description: "Delayed, sourced Pakistan Stock Exchange data for research agents",
  instructions: "Figures are delayed and sourced; an absent field means unknown, never zero. Every record names its " +
    "sources and as-of. Errors come back as {error, message, symbol?} records.",
  path: "/mcp",
  protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05],
  registrations: McpServer.toolkit(ServedToolkit).pipe(Layer.provide([PsxToolkitLive, ScreenToolkitLive]))
})
