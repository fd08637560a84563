/**
 * The tool endpoint (SPEC 4.6): the served toolkit on two transports.
 *
 * - POST /mcp: JSON-RPC 2.0 over MCP streamable HTTP, on the same server,
 *   guard (rate limits, request logs) and services as the HTTP API.
 * - stdio: newline-delimited JSON-RPC on stdin/stdout, for desktop hosts
 *   that launch the tools as a process (`psx mcp`, src/Cli.ts).
 *
 * Authentication: none. Every tool reads public market data, which SPEC 5
 * makes free and keyless; portfolio data is not exposed as a tool (it stays
 * on the HTTP API behind a bearer key). Requests are rate limited per client
 * like any other route.
 */
import { Layer } from "effect"
import { McpProtocol, McpServer, Toolkit } from "effect/ai"
import { JsonRpcEnvelope } from "./Envelope.ts"
import { McpSessionsLive } from "./Sessions.ts"
import { ScreenToolkit, ScreenToolkitLive } from "./ScreenTools.ts"
import { SectorToolkit, SectorToolkitLive } from "./SectorTools.ts"
import { PsxToolkit, PsxToolkitLive } from "./Tools.ts"

/** Every tool the endpoint serves (SPEC 4.6 lists fifteen). */
export const ServedToolkit = Toolkit.merge(PsxToolkit, SectorToolkit, ScreenToolkit)

/** The handlers of the served tools, needing the market services. */
export const ServedToolkitLive = Layer.mergeAll(PsxToolkitLive, SectorToolkitLive, ScreenToolkitLive)

export const AUTHENTICATION = "None: every tool reads public market data, which is free and needs no key (SPEC 5). " +
  "Portfolio data is not exposed as a tool; it stays on the HTTP API behind Authorization: Bearer <API_KEY>. " +
  "Calls are rate limited per client address like every other route."

const info = {
  name: "psx-data-service",
  version: "1.0.0",
  description: "Delayed, sourced Pakistan Stock Exchange data for research agents",
  instructions: "Read-only tools over recorded Pakistan Stock Exchange data. Quotes are delayed, never live; prices " +
    "are not adjusted for corporate actions; the 52-week range is close-based. Every record names its sources and " +
    "as-of; an absent field means unknown, never zero. A data failure comes back as the tool result with isError " +
    "and the record {error, message, symbol?}. No key is needed.",
  protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05]
} as const

const registrations = McpServer.toolkit(ServedToolkit).pipe(Layer.provide(ServedToolkitLive))

/**
 * POST /mcp on the service's HTTP router, with JSON-RPC error bodies for what the transport refuses;
 * DELETE /mcp ends a session; sessions are bounded (Sessions.ts).
 */
export const McpLive = McpServer.layerHttp({ ...info, path: "/mcp", registrations, allowSessionTermination: true }).pipe(
  Layer.provide(JsonRpcEnvelope),
  Layer.provide(McpSessionsLive)
)

/** The same tools over stdio (needs `Stdio`; logs must go to stderr, see Cli.ts). */
export const McpStdio = McpServer.layerStdio({ ...info, registrations })
