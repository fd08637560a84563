/**
 * The outermost request middleware, around every route (HttpApi, MCP, docs):
 *
 * - gives each request an id (`x-request-id`, echoed back; handlers read it as `ServerRequestId`);
 * - applies the per-client rate limit (health and readiness are exempt);
 * - serves the read model's encoded answers for the hottest canonical market
 *   URLs (market/readmodel/EncodedAnswers.ts) before the HttpApi pipeline;
 * - answers an unknown route with a 404 error record;
 * - turns a defect into 500 INTERNAL with no stack or SQL in the body, logged
 *   server-side with the request id; a malformed or oversized body that only
 *   the platform sees becomes 400 INVALID_REQUEST;
 * - writes one structured log line per request (status, duration).
 */
import { Cause, Effect, type Types } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { type ErrorCode, statusOf } from "../../domain/Errors.ts"
import { EncodedAnswers } from "../market/readmodel/EncodedAnswers.ts"
import { RateLimiter, type RouteKind } from "./RateLimiter.ts"
import { ServerRequestId } from "./RequestId.ts"
import { describeSchemaError } from "./Validation.ts"

const errorResponse = (code: ErrorCode, message: string, headers?: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe({ error: code, message }, { status: statusOf[code], ...(headers ? { headers } : {}) })

const exempt = new Set(["/health", "/ready"])

let sequence = 0
const nextRequestId = () => `${Date.now().toString(36)}-${(++sequence).toString(36)}`

/** Private routes: the portfolio, the keys and the session (PortfolioApi, AccountApi). */
const PRIVATE = "/v1/me/"

const kindOf = (method: string, path: string): RouteKind =>
  !path.startsWith(PRIVATE) ? "public" : method === "POST" && path === "/v1/me/session" ? "session" : "private"

/** The rate-limit bucket of a request (RateLimiter.bucketOf). */
const bucketOf = (limiter: typeof RateLimiter.Service, request: HttpServerRequest.HttpServerRequest, path: string) => {
  const address = request.remoteAddress
  return limiter.bucketOf(kindOf(request.method, path), request.headers["authorization"], address._tag === "Some" ? address.value : "unknown")
}

/** What a failure or defect that escaped the handlers means for the client. */
const fromCause = (cause: Cause.Cause<unknown>, requestId: string) => {
  for (const reason of cause.reasons) {
    const value = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    if (HttpServerError.isHttpServerError(value)) {
      const r = value.reason
      if (r._tag === "RouteNotFound") {
        return errorResponse("DATA_NOT_FOUND", `no route ${r.request.method} ${r.request.url.split("?")[0]}`)
      }
      if (r._tag === "RequestParseError") {
        return errorResponse("INVALID_REQUEST", r.reason === "BodyTooLarge" ? "request body too large" : "malformed request body")
      }
    }
    if (HttpApiError.HttpApiSchemaError.is(value) && value.kind !== "Body" && value.kind !== "ResponseHeaders") {
      return errorResponse("INVALID_REQUEST", describeSchemaError(value))
    }
    if (HttpApiError.HttpApiPayloadTooLarge.is(value)) {
      return errorResponse("INVALID_REQUEST", value.message)
    }
  }
  return errorResponse("INTERNAL", `internal error; quote request id ${requestId}`)
}

/** The same answer as the documented /health endpoint (system/SystemHttp.ts), prebuilt. */
export const livenessResponse = HttpServerResponse.jsonUnsafe({ status: "ok", service: "psx-data-service", version: "1.0.0" })

type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>

export const GuardLive = HttpRouter.middleware(Effect.gen(function*() {
  const limiter = yield* RateLimiter
  // Optional so the guard can stand alone (a router of its own in tests); the service always provides it.
  const answers = yield* Effect.serviceOption(EncodedAnswers)
  return (httpEffect: Handler): Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    Types.unhandled,
    HttpServerRequest.HttpServerRequest
  > =>
    Effect.withFiber((fiber) => {
      const request = fiber.context.mapUnsafe.get(HttpServerRequest.HttpServerRequest.key) as HttpServerRequest.HttpServerRequest
      const start = Date.now()
      const requestId = nextRequestId()
      const q = request.url.indexOf("?")
      const path = q === -1 ? request.url : request.url.slice(0, q)
      const handle = (wait: number) =>
        wait > 0
          ? Effect.succeed(errorResponse("RATE_LIMITED", `rate limit exceeded; retry after ${wait} s`, {
            "retry-after": String(wait)
          }))
          : Effect.catchCause(Effect.provideService(httpEffect, ServerRequestId, requestId), (cause) => {
            const res = fromCause(cause, requestId)
            return res.status >= 500
              ? Effect.as(Effect.logError({ msg: "request failed", requestId, cause: Cause.pretty(cause) }), res)
              : Effect.succeed(res)
          })
      // Probe traffic (health, readiness) is neither rate limited nor logged
      // unless it fails: load balancers poll it many times a second.
      // Liveness is answered here, at the edge: if this runs, the process serves.
      if (path === "/health" && request.method === "GET") return Effect.succeed(livenessResponse)
      if (exempt.has(path)) {
        return Effect.tap(handle(0), (response) =>
          response.status >= 400
            ? Effect.logWarning({ msg: "probe failed", requestId, path, status: response.status })
            : Effect.void)
      }
      const encoded = request.method === "GET" && request.headers["cache-control"] !== "no-cache"
      const serve = (wait: number) =>
        wait > 0 || !encoded || answers._tag === "None"
          ? handle(wait)
          : Effect.flatMap(answers.value.lookup(request.url), (answer) =>
            answer === undefined
              ? handle(0)
              : Effect.succeed(HttpServerResponse.uint8Array(answer.body, { status: answer.status, contentType: "application/json" })))
      return Effect.flatMap(Effect.flatMap(limiter.take(bucketOf(limiter, request, path)), serve), (response) =>
        Effect.as(
          Effect.logInfo({
            msg: "request",
            requestId,
            method: request.method,
            path,
            status: response.status,
            ms: Date.now() - start
          }),
          HttpServerResponse.setHeader(response, "x-request-id", requestId)
        ))
    })
}), { global: true })
