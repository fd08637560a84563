/**
 * The tool endpoint (SPEC 4.6): the served toolkit on two transports.
 *
 * - POST /mcp: JSON-RPC 2.0 over MCP streamable HTTP, on the same server,
 *   guard (rate limits, request logs) and services as the HTTP API.
 * - stdio: newline-delimited JSON-RPC on stdin/stdout, for desktop hosts
 *   that launch the tools as a process (`psx mcp`, src/Cli.ts).
 *
 * tools/list is compact (Listing.ts), tool results are bounded (Bounds.ts),
 * and reference data and research tasks are resources and prompts
 * (Resources.ts, Prompts.ts).
 *
 * Authentication: none. Every tool reads public market data, which SPEC 5
 * makes free and keyless; portfolio data is not exposed as a tool (it stays
 * on the HTTP API behind a bearer key). Requests are rate limited per client
 * like any other route.
 */
import { Layer } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { boundedServer, MAX_BYTES, MAX_ITEMS } from "./Bounds.ts"
import { JsonRpcEnvelope } from "./Envelope.ts"
import { PromptsLive } from "./Prompts.ts"
import { ResourcesLive } from "./Resources.ts"
import { McpSessionsLive } from "./Sessions.ts"
import { SignedResults } from "./SignedResults.ts"
import { ServedToolkit, ServedToolkitLive } from "./Toolkits.ts"

export { ServedToolkit, ServedToolkitLive } from "./Toolkits.ts"

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
    "and the record {error, message, symbol?}. Each tool's record is its HTTP route's body, bounded to " +
    `${MAX_ITEMS} items and ${MAX_BYTES} bytes of JSON: a cut result says so in a second text block (and ` +
    "_meta psx/cut) with the cursor for the rest. tools/list outlines each result; its full schema is the resource " +
    "psx://schemas/{tool}. Reference data: resources psx://universe, psx://sectors, psx://indices, " +
    "psx://calendar/dividends. No key is needed. A call whose _meta has \"psx/signed\": true gets its result signed with " +
    "the service's published key (_meta psx/signature; docs/verify-answer.mjs checks it).",
  protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05]
} as const

/** The tools (listed compactly, results bounded: Bounds.ts, then signed on request: SignedResults.ts), resources and prompts. */
const registrations = Layer.mergeAll(
  McpServer.toolkit(ServedToolkit).pipe(Layer.provide(ServedToolkitLive), Layer.provide(boundedServer()), Layer.provide(SignedResults)),
  ResourcesLive,
  PromptsLive
)

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
