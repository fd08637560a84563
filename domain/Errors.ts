/**
 * The service's error model: one class per code of SPEC section 7.
 *
 * Every error serializes as the error record `{error, message, symbol?}` and
 * carries its HTTP status, so the HTTP API, the MCP tools and the OpenAPI
 * document share one definition. Statuses the specification leaves open are
 * decided here (the table at `ErrorCode`) and documented in the OpenAPI description.
 */
import { Schema } from "effect"

/**
 * | code               | status | when                                                        |
 * |--------------------|--------|-------------------------------------------------------------|
 * | INVALID_REQUEST    | 400    | bad path, query or body; malformed JSON; bad cursor         |
 * | INVALID_SYMBOL     | 400    | a symbol outside the ticker alphabet or too long            |
 * | UNAUTHORIZED       | 401    | missing, unknown or revoked credential                      |
 * | FORBIDDEN          | 403    | a valid key without the grant the endpoint needs            |
 * | DATA_NOT_FOUND     | 404    | unknown symbol, route or record                             |
 * | DATA_STALE         | 409    | the last quote is older than the staleness rule allows      |
 * | INVALID_REQUEST    | 409    | an Idempotency-Key reused with a different body             |
 * | INVALID_REQUEST    | 409    | a write that lost a race it could not retry (WriteConflict) |
 * | DATA_UNVERIFIED    | 409    | sources disagree, or a price breaks the circuit breaker     |
 * | MARKET_CLOSED      | 409    | an action that needs an open market asked while it is shut  |
 * | RATE_LIMITED       | 429    | the client's token bucket is empty (with Retry-After)       |
 * | INTERNAL           | 500    | a defect; no stack or SQL is ever sent                      |
 * | SOURCE_UNAVAILABLE | 503    | an upstream source could not be reached or parsed           |
 */
export const ErrorCode = Schema.Literals([
  "DATA_NOT_FOUND",
  "DATA_STALE",
  "DATA_UNVERIFIED",
  "SOURCE_UNAVAILABLE",
  "INVALID_SYMBOL",
  "MARKET_CLOSED",
  "RATE_LIMITED",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "INVALID_REQUEST",
  "INTERNAL"
])
export type ErrorCode = typeof ErrorCode.Type

/** The wire shape of every error: SPEC section 2.1. */
export const ErrorRecord = Schema.Struct({
  error: ErrorCode,
  message: Schema.String,
  symbol: Schema.optionalKey(Schema.String)
})
export type ErrorRecord = typeof ErrorRecord.Type

const fields = <C extends ErrorCode>(code: C) => ({
  error: Schema.tag(code),
  message: Schema.String,
  symbol: Schema.optionalKey(Schema.String)
})

export class DataNotFound extends Schema.Error<DataNotFound>("DataNotFound")(fields("DATA_NOT_FOUND"), {
  httpApiStatus: 404,
  description: "Unknown company, quote, route or record"
}) {}

export class DataStale extends Schema.Error<DataStale>("DataStale")(
  {
    ...fields("DATA_STALE"),
    as_of: Schema.optionalKey(Schema.String)
  },
  {
    httpApiStatus: 409,
    description: "The last quote is older than the freshness rule allows; `as_of` says when it was from"
  }
) {}

export class DataUnverified extends Schema.Error<DataUnverified>("DataUnverified")(fields("DATA_UNVERIFIED"), {
  httpApiStatus: 409,
  description: "Sources disagree beyond tolerance or a price breaks the circuit-breaker bounds"
}) {}

export class SourceUnavailable extends Schema.Error<SourceUnavailable>("SourceUnavailable")(
  fields("SOURCE_UNAVAILABLE"),
  { httpApiStatus: 503, description: "An upstream source could not be reached or its answer not parsed" }
) {}

export class InvalidSymbol extends Schema.Error<InvalidSymbol>("InvalidSymbol")(fields("INVALID_SYMBOL"), {
  httpApiStatus: 400,
  description: "The symbol is outside the ticker alphabet (A-Z, 0-9, '-', '.') or longer than 16 characters"
}) {}

export class MarketClosed extends Schema.Error<MarketClosed>("MarketClosed")(fields("MARKET_CLOSED"), {
  httpApiStatus: 409,
  description: "The action needs an open market"
}) {}

export class RateLimited extends Schema.Error<RateLimited>("RateLimited")(fields("RATE_LIMITED"), {
  httpApiStatus: 429,
  description: "Too many requests from this client; wait the number of seconds in Retry-After"
}) {}

export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(fields("UNAUTHORIZED"), {
  httpApiStatus: 401,
  description: "Missing, unknown or revoked credential"
}) {}

export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(fields("FORBIDDEN"), {
  httpApiStatus: 403,
  description: "The credential lacks the grant this endpoint needs"
}) {}

export class InvalidRequest extends Schema.Error<InvalidRequest>("InvalidRequest")(fields("INVALID_REQUEST"), {
  httpApiStatus: 400,
  description: "The request's path, query or body is not valid; the message names the offending field"
}) {}

/** The same Idempotency-Key was sent before with a different body. */
export class IdempotencyMismatch
  extends Schema.Error<IdempotencyMismatch>("IdempotencyMismatch")(fields("INVALID_REQUEST"), {
    httpApiStatus: 409,
    description: "The Idempotency-Key was used before with a different body"
  })
{}

/** A write lost a race to the same record and could not be retried; nothing was recorded. */
export class WriteConflict extends Schema.Error<WriteConflict>("WriteConflict")(fields("INVALID_REQUEST"), {
  httpApiStatus: 409,
  description:
    "Another write to the same record got there first and this one could not be retried; nothing was recorded: send it again"
}) {}

/** A dividend or bonus whose payout (symbol, kind, book closure) an event already holds; nothing was recorded. */
export class PayoutRecorded extends Schema.Error<PayoutRecorded>("PayoutRecorded")(
  { ...fields("INVALID_REQUEST"), event_id: Schema.String },
  {
    httpApiStatus: 409,
    description:
      "This payout (same symbol, kind and book closure) is already recorded by the event `event_id`: a payout is " +
      "counted once. To change it, reverse that event and record the correction; nothing was recorded"
  }
) {}

export class Internal extends Schema.Error<Internal>("Internal")(fields("INTERNAL"), {
  httpApiStatus: 500,
  description: "An unexpected fault; it is logged with the request id, which the message carries"
}) {}

export type ApiError =
  | DataNotFound
  | DataStale
  | DataUnverified
  | SourceUnavailable
  | InvalidSymbol
  | MarketClosed
  | RateLimited
  | Unauthorized
  | Forbidden
  | InvalidRequest
  | Internal

/** HTTP status of each code, for places that build a response by hand (router-level fallbacks). */
export const statusOf: Record<ErrorCode, number> = {
  DATA_NOT_FOUND: 404,
  DATA_STALE: 409,
  DATA_UNVERIFIED: 409,
  SOURCE_UNAVAILABLE: 503,
  INVALID_SYMBOL: 400,
  MARKET_CLOSED: 409,
  RATE_LIMITED: 429,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  INVALID_REQUEST: 400,
  INTERNAL: 500
}

/** True when `u` is one of the service's errors with the given code. */
export const hasCode = <C extends ErrorCode>(code: C) => (u: unknown): u is Extract<ApiError, { error: C }> =>
  typeof u === "object" && u !== null && (u as { error?: unknown }).error === code
