/**
 * The whole HTTP API definition (no implementation): every group, the
 * validation middleware, and the OpenAPI document's metadata. Clients may
 * import this module to derive a typed client.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { WebSessionApi } from "../ledger/accounts/WebSessionApi.ts"
import { AccountApi, PortfolioApi } from "../ledger/LedgerApi.ts"
import { AnalyticsApi } from "../market/analytics/AnalyticsApi.ts"
import { BoardApi } from "../market/board/BoardApi.ts"
import { CompaniesApi } from "../market/companies/CompaniesApi.ts"
import { FilingsApi } from "../market/filings/FilingsApi.ts"
import { PricesApi } from "../market/prices/PricesApi.ts"
import { ProvenanceApi } from "../market/provenance/ProvenanceApi.ts"
import { QuotesApi } from "../market/quotes/QuotesApi.ts"
import { SearchApi } from "../market/search/SearchApi.ts"
import { AiApi } from "../mcp/AiApi.ts"
import { SystemApi } from "../system/SystemApi.ts"
import { Validation } from "./Validation.ts"

const description =
  `Delayed, sourced data on securities listed on the Pakistan Stock Exchange, for research by software agents, and an event-sourced portfolio ledger.

Principles: every figure is deterministic, sourced and timestamped; the service never fabricates a number; an absent field means unknown, never zero; quotes are delayed, never live; every response is bounded.

Errors are the record {error, message, symbol?}. Statuses: INVALID_REQUEST 400 (bad path, query or body, malformed JSON, bad cursor, a query parameter the route does not take; the message names the field; 415 for a body that is not application/json), INVALID_SYMBOL 400, UNAUTHORIZED 401, FORBIDDEN 403, DATA_NOT_FOUND 404 (also unknown routes), DATA_STALE 409, DATA_UNVERIFIED 409, MARKET_CLOSED 409, RATE_LIMITED 429 (with Retry-After), INTERNAL 500 (no internals in the body; quote the request id from x-request-id), SOURCE_UNAVAILABLE 503 (also /ready when the database does not answer).

Reads: every market answer comes from one in-memory read model of the store, rebuilt whenever the store's market data changes (this instance's ingest or another instance's; seen within about a second) and swapped whole, so an answer never mixes two versions of the data. Answers of the market routes are kept as the bytes first made for their URL, per version of the data, until a calendar boundary changes them (a quote turning stale, to the millisecond; a new Karachi day). Send Cache-Control: no-cache to have an answer computed afresh (the same bytes). Portfolio routes always read the store. Every market answer carries X-Data-Through, the last day of each dataset in the data it was made from, as dataset=YYYY-MM-DD separated by ", " in the order prices, index, screener, company_pages, payouts, filings, news (a dataset with no dated row left out; under as_of, the days known then); and an answer whose coverage is partial says what it leaves out in \`warnings\` (absent when there is nothing to say).

HTTP caching: a kept answer carries a strong ETag (a SHA-256 digest of its bytes) and Cache-Control: public, max-age=N, N being the whole seconds until it stops being true (at most 60, since new data may replace it sooner); an answer about a stale quote (409 DATA_STALE, or stale: true) says max-age=0, must-revalidate. If-None-Match naming the ETag answers 304 Not Modified. Such answers carry Vary: Accept-Signature. Portfolio answers (/v1/me/…) carry Cache-Control: private, no-store. A GET route that declares no query parameters refuses any (400 naming it).

Authentication: the market-data routes and the MCP tool endpoint (POST /mcp) are public and need no key. Only the portfolio routes need \`Authorization: Bearer <API_KEY>\`.

Tools for agents: POST /mcp speaks JSON-RPC 2.0 (MCP, streamable HTTP) with read-only tools that mirror the market routes (same arguments, same records); GET /v1/ai/tools lists them. With \`Authorization: Bearer <API_KEY>\` it also serves portfolio tools (holdings, entitlements, the ledger, recording a transaction), each one of the /v1/me routes called with that key: the same grant, answer, error record and rate limit. The same tools run over stdio with \`npm run --silent cli -- mcp\` (the portfolio tools with the key in PSX_API_KEY).

Paths: each path has one spelling, the one in this document. Case matters, and so do a trailing slash and repeated slashes: /V1/quotes/HUBC, /v1/quotes/HUBC/, //mcp or /mcp;x name no route (404 DATA_NOT_FOUND). A percent-escape of an unreserved character is the character itself (/%6Dcp is /mcp), and an absolute-form request target (http://host/path) is read as its path.

Signed answers: send \`Accept-Signature\` (RFC 9421 §5.1; any value) or add \`signed=true\` to the query of any route, and the answer, whatever its status (a streamed answer excepted), carries \`Content-Digest: sha-256=:…:\` (RFC 9530, over the body) and an HTTP Message Signature (RFC 9421): \`Signature-Input: sig1=("@method";req "@path";req "@query";req "@status" "content-digest");created=<unix seconds>;keyid="<id>";alg="ed25519"\` and \`Signature: sig1=:<base64>:\`, signed with the deployment's Ed25519 key, the key GET /v1/ledger/signing-key publishes (marked current) under that id. The method, path and query are the request's (the query as sent, signed=true included; the path in its one spelling); created is when the answer was served. An Accept-Signature label is used for the signature (else sig1) and its nonce="…" is echoed. \`signed\` is not a route's parameter: signed=true or signed=false is taken out before the route reads its query (so strict queries accept it), any other value is 400 INVALID_REQUEST. An MCP tool result is signed in _meta["psx/signature"] when the call's _meta has "psx/signed": true (or the POST /mcp request asks as above). docs/verify-answer.mjs checks a saved answer offline. Unsigned answers are unchanged.

Rate limits: token buckets of 50 requests a second sustained and bursts of 200 (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST). Public routes are charged to the client's address, whatever credential is sent. A portfolio route (/v1/me/…) is charged, for a credential that has authenticated, both to its user and to its address's bucket for authenticated requests, so new sessions from one address share one budget; any other credential to its address's bucket for unauthenticated requests. Creating a session has a bucket of its own per address (a tenth of the burst, at least 5, refilled at a fiftieth of the rate). /health and /ready are exempt.

Market data © Pakistan Stock Exchange. dps.psx.com.pk carries a legal notice restricting dissemination of its market data, live or delayed, without a PSX licence; every figure here names its source and when it was recorded.`

export class Api extends HttpApi.make("psx")
  .add(SystemApi)
  .add(SearchApi)
  .add(CompaniesApi)
  .add(QuotesApi)
  .add(PricesApi)
  .add(FilingsApi)
  .add(ProvenanceApi)
  .add(BoardApi)
  .add(AnalyticsApi)
  .add(AccountApi)
  .add(PortfolioApi)
  .add(WebSessionApi)
  .add(AiApi)
  // A query parameter a route does not take is refused, not ignored: a misspelt `from=` for `date_from=` would
  // otherwise answer the whole default window as if it were the one asked for.
  .annotate(HttpApi.QueryParseOptions, { onExcessProperty: "error" })
  .middleware(Validation)
  .annotateMerge(OpenApi.annotations({
    title: "PSX data service",
    version: "1.0.0",
    description,
    license: { name: "MIT (code); market data © Pakistan Stock Exchange, see description", identifier: "MIT" },
    servers: [{ url: "/", description: "This service (paths are relative to the address that served this document)" }]
  }))
{}
