/**
 * The whole HTTP API definition (no implementation): every group, the
 * validation middleware, and the OpenAPI document's metadata. Clients may
 * import this module to derive a typed client.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { AccountApi, PortfolioApi } from "../ledger/LedgerApi.ts"
import { AiApi } from "../mcp/AiApi.ts"
import { AnalyticsApi } from "../market/AnalyticsApi.ts"
import { MarketApi } from "../market/MarketApi.ts"
import { SystemApi } from "../system/SystemApi.ts"
import { Validation } from "./Validation.ts"

const description = `Delayed, sourced data on securities listed on the Pakistan Stock Exchange, for research by software agents, and an event-sourced portfolio ledger.

Principles: every figure is deterministic, sourced and timestamped; the service never fabricates a number; an absent field means unknown, never zero; quotes are delayed, never live; every response is bounded.

Errors are the record {error, message, symbol?}. Statuses: INVALID_REQUEST 400 (bad path, query or body, malformed JSON, bad cursor; the message names the field), INVALID_SYMBOL 400, UNAUTHORIZED 401, FORBIDDEN 403, DATA_NOT_FOUND 404 (also unknown routes), DATA_STALE 409, DATA_UNVERIFIED 409, MARKET_CLOSED 409, RATE_LIMITED 429 (with Retry-After), INTERNAL 500 (no internals in the body; quote the request id from x-request-id), SOURCE_UNAVAILABLE 503 (also /ready when the database does not answer).

Caching: a public market-data GET answered 200 may be reused for up to one second for the same URL (market data changes only when data is ingested); portfolio routes are never cached.

Rate limits: a token bucket per client (the bearer credential when one is sent, else the address): 50 requests a second sustained, bursts of 200, configurable with RATE_LIMIT_PER_SECOND and RATE_LIMIT_BURST. /health and /ready are exempt.

Market data © Pakistan Stock Exchange. dps.psx.com.pk carries a legal notice restricting dissemination of its market data, live or delayed, without a PSX licence; every figure here names its source and when it was recorded.`

export class Api extends HttpApi.make("psx")
  .add(SystemApi)
  .add(MarketApi)
  .add(AnalyticsApi)
  .add(AccountApi)
  .add(PortfolioApi)
  .add(AiApi)
  .middleware(Validation)
  .annotateMerge(OpenApi.annotations({
    title: "PSX data service",
    version: "1.0.0",
    description,
    license: { name: "MIT (code); market data © Pakistan Stock Exchange, see description" }
  }))
{}
