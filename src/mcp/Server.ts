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
 * Authentication: none for the market tools, which read public market data
 * (SPEC 5 makes it free and keyless). A caller with a bearer key (over HTTP
 * the Authorization header, over stdio PSX_API_KEY) is also served the
 * portfolio tools (PortfolioTools.ts), each a portfolio route called in
 * process with that key: the route's grant, answers, errors and rate limit.
 * A session keeps the credential it was started with (Sessions.ts). /mcp
 * requests are rate limited per client like any other public route.
 */
import { Layer } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { boundedServer, MAX_BYTES, MAX_ITEMS } from "./Bounds.ts"
import { JsonRpcEnvelope } from "./Envelope.ts"
import { CAVEATS, MarketToolsLive } from "./MarketTools.ts"
import { McpCredential, PORTFOLIO_TOOLS, PortfolioToolsLive } from "./PortfolioTools.ts"
import { PromptsLive } from "./Prompts.ts"
import { ResourcesLive } from "./Resources.ts"
import { RouteCaller } from "./RouteCaller.ts"
import { McpSessionsLive } from "./Sessions.ts"
import { SignedResults } from "./SignedResults.ts"

export { MARKET_TOOLS } from "./MarketTools.ts"

export const AUTHENTICATION = "None for the market-data tools, which read public data (free, no key: SPEC 5). With " +
  "Authorization: Bearer <API_KEY> on every request of a session (over stdio: the environment's PSX_API_KEY), tools/list " +
  `also gives the portfolio tools its grants allow (${
    PORTFOLIO_TOOLS.map((t) => t.name).join(", ")
  }; a revoked key none), each its /v1/me route ` +
  "called with that key: the route's grant, answer and error record (401, 403, 400…), charged to the key's rate limit as " +
  "the route is. A session keeps the credential it was started with: another one, or none, is 403. /mcp requests are " +
  "rate limited per client address like every other public route."

const info = {
  name: "psx-data-service",
  version: "1.0.0",
  description: "Delayed, sourced Pakistan Stock Exchange data for research agents",
  instructions: "Read-only tools over recorded Pakistan Stock Exchange data. Quotes are delayed, never live; prices " +
    "are not adjusted for corporate actions; the 52-week range is close-based. Every record names its sources and " +
    "as-of. " + CAVEATS +
    " A market answer's data_through names each dataset's last day. A data failure comes back as the tool result with isError " +
    "and the record {error, message, symbol?}. Market tools take as_of (as the market knew it then) or " +
    "recorded_as_of (as this deployment had stored it then). Each tool's record is its HTTP route's body in that compact form, bounded to " +
    `${MAX_ITEMS} items and ${MAX_BYTES} bytes of JSON: a cut result says so in a second text block (and ` +
    "_meta psx/cut) with the cursor for the rest. Each result's full schema is the resource psx://schemas/{tool}. Names to tickers: search_symbols (not psx://universe). Reference data: resources psx://universe, " +
    "psx://sectors, psx://indices, psx://calendar/dividends. Every market tool takes as_of. No key is needed; with a bearer key the portfolio tools of that key's portfolio are " +
    "listed too (their results are the /v1/me routes' bodies, _meta psx/status the route's HTTP status). A call whose " +
    "_meta has \"psx/signed\": true gets its result signed with the service's published key (_meta psx/signature; " +
    "docs/verify-answer.mjs checks it).",
  protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05]
} as const

/**
 * The tools (listed compactly, results bounded: Bounds.ts, then signed on request: SignedResults.ts), the portfolio
 * tools for a caller with a key, resources and prompts.
 */
const registrations = Layer.mergeAll(
  MarketToolsLive.pipe(Layer.provide(boundedServer()), Layer.provide(SignedResults)),
  PortfolioToolsLive.pipe(Layer.provide(boundedServer()), Layer.provide(SignedResults)),
  ResourcesLive,
  PromptsLive
)

/**
 * POST /mcp on the service's HTTP router, with JSON-RPC error bodies for what the transport refuses;
 * DELETE /mcp ends a session; sessions are bounded (Sessions.ts).
 */
export const McpLive = McpServer.layerHttp({ ...info, path: "/mcp", registrations, allowSessionTermination: true })
  .pipe(
    Layer.provide([RouteCaller.layer, McpCredential.fromRequest]),
    Layer.provide(JsonRpcEnvelope),
    Layer.provide(McpSessionsLive)
  )

/**
 * The same tools over stdio (needs `Stdio`, and a RouteCaller over the HTTP API's routes; logs must go to stderr,
 * see Cli.ts); the portfolio tools' credential is PSX_API_KEY.
 */
export const McpStdio = McpServer.layerStdio({ ...info, registrations }).pipe(
  Layer.provide(McpCredential.fromEnvironment)
)
