/**
 * The outermost request middleware, around every route (HttpApi, MCP, docs):
 *
 * - gives each request an id (`x-request-id`, echoed back; handlers read it as `ServerRequestId`);
 * - applies the per-client rate limit (health and readiness are exempt);
 * - keeps the answer of a cached handler (AnswerCache.ts) under its URL, with
 *   its ETag and `Cache-Control` (an `If-None-Match` naming it: 304); marks a
 *   private answer (`/v1/me/…`) `private, no-store`;
 * - answers an unknown route with a 404 error record, and a body of a content
 *   type the route does not take (the HttpApi's plain-text 415) with a 415
 *   INVALID_REQUEST record;
 * - turns a defect into 500 INTERNAL with no stack or SQL in the body, logged
 *   server-side with the request id; a malformed or oversized body that only
 *   the platform sees becomes 400 INVALID_REQUEST;
 * - writes one structured log line per request (status, duration); a client
 *   that goes away before its answer is logged as such, at Info (499);
 * - signs the answer when the request asks (`Accept-Signature` or
 *   `?signed=true`, AnswerSigning.ts): the router sees the URL without
 *   `signed`, and the final answer is signed, unless it is a 429.
 *
 * The id, the charge, the refusals and the access line are the fast path's
 * own (Responses.ts, RateLimiter.charge, RequestIds).
 *
 * The path it sees is the request gate's one spelling of it (CanonicalUrl.ts).
 * A path it logs or names in a message has anything shaped like a credential
 * redacted (observability/Redact.ts); so has an error answer to such a path.
 */
import { Cause, Clock, Effect, type Types } from "effect"
import { HttpBody, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiError } from "effect/http-api"
import type { ErrorCode } from "../../domain/Errors.ts"
import { redactSecrets } from "../observability/Redact.ts"
import { AnswerCache, VARY } from "./AnswerCache.ts"
import {
  AnswerSigner,
  type SignatureRequest,
  SignatureRequested,
  signedResponse,
  type SigningAsk,
  signingAsk
} from "./AnswerSigning.ts"
import { Api } from "./Api.ts"
import { RateLimiter, type RouteKind } from "./RateLimiter.ts"
import { idsByRequest, RequestIds, ServerRequestId } from "./RequestId.ts"
import {
  cacheControl,
  errorRecord,
  JSON_TYPE,
  makeAccessLog,
  notModified,
  PRIVATE_HEADERS,
  rateLimited,
  type Written
} from "./Responses.ts"
import { describeSchemaError } from "./Validation.ts"

const asResponse = (written: Written) =>
  HttpServerResponse.uint8Array(written.body, {
    status: written.status,
    contentType: JSON_TYPE,
    headers: written.headers
  })

const errorResponse = (code: ErrorCode, message: string, headers?: Record<string, string>) =>
  asResponse(errorRecord(code, message, headers))

/** The status an access line gives a request whose client went away before its answer (nginx's "client closed request"). */
export const CLIENT_CLOSED = 499

const exempt = new Set(["/health", "/ready"])

/** Probe traffic (liveness, readiness): neither rate limited nor logged unless it fails (the fast path does the same). */
export const isProbe = (path: string) => exempt.has(path)

/** Private routes: the portfolio, the keys and the session (PortfolioApi, AccountApi). */
const PRIVATE = "/v1/me/"

export const kindOf = (method: string, path: string): RouteKind =>
  !path.startsWith(PRIVATE) ? "public" : method === "POST" && path === "/v1/me/session" ? "session" : "private"

/**
 * The GET paths (without path parameters, probes aside) whose endpoint declares no query: a request that sends
 * one is refused, as the routes with a query refuse a parameter they do not take.
 */
const pathsTakingNoQuery = (api: HttpApi.Top) => {
  const paths = new Set<string>()
  HttpApi.reflect(api, {
    predicate: () => true,
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (
        endpoint.method === "GET" && endpoint.query === undefined && !endpoint.path.includes(":") &&
        !isProbe(endpoint.path)
      ) {
        paths.add(endpoint.path)
      }
    }
  })
  return paths
}

/** The refusal of a query sent to a path that takes none, naming its first parameter; undefined when there is none. */
const unexpectedQuery = (url: string, q: number) => {
  const first = url.slice(q + 1).split("&").find((part) => part !== "")
  if (first === undefined) return undefined
  const raw = first.split("=", 1)[0]!
  let name = raw
  try {
    name = decodeURIComponent(raw.replaceAll("+", " "))
  } catch {
    // As sent.
  }
  return errorResponse(
    "INVALID_REQUEST",
    `query parameter ${JSON.stringify(redactSecrets(name.slice(0, 40)))}: this route takes no query parameters`
  )
}

/** The address a request is charged to. */
const addressOf = (request: HttpServerRequest.HttpServerRequest) => {
  const address = request.remoteAddress
  return address._tag === "Some" ? address.value : "unknown"
}

/** What a failure or defect that escaped the handlers means for the client. */
const fromCause = (cause: Cause.Cause<unknown>, requestId: string) => {
  for (const reason of cause.reasons) {
    const value = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    if (HttpServerError.isHttpServerError(value)) {
      const r = value.reason
      if (r._tag === "RouteNotFound") {
        return errorResponse(
          "DATA_NOT_FOUND",
          `no route ${r.request.method} ${redactSecrets(r.request.url.split("?")[0]!)}`
        )
      }
      if (r._tag === "RequestParseError") {
        return errorResponse(
          "INVALID_REQUEST",
          r.reason === "BodyTooLarge" ? "request body too large" : "malformed request body"
        )
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

/** Seconds a client should wait before retrying a 503 (the data loading, the store busy). */
const RETRY_UNAVAILABLE_AFTER = "5"

/** A 503 answer says when to try again (Retry-After), unless it says so already. */
const withRetryAfter = (response: HttpServerResponse.HttpServerResponse) =>
  response.status === 503 && response.headers["retry-after"] === undefined
    ? HttpServerResponse.setHeader(response, "retry-after", RETRY_UNAVAILABLE_AFTER)
    : response

/**
 * The HttpApi answers a body of a content type the endpoint does not take with
 * a plain-text 415; it becomes the error record (a JSON 415 of its own, such
 * as the MCP endpoint's JSON-RPC error, is kept).
 */
const unsupportedMediaType = (
  response: HttpServerResponse.HttpServerResponse,
  request: HttpServerRequest.HttpServerRequest
) => {
  if (
    response.status !== 415 || response.body._tag !== "Uint8Array" ||
    !response.body.contentType.startsWith("text/plain")
  ) return response
  const sent = redactSecrets((request.headers["content-type"] ?? "").slice(0, 100))
  return HttpServerResponse.jsonUnsafe({
    error: "INVALID_REQUEST",
    message: `unsupported content-type ${JSON.stringify(sent)}: send the body as ${
      request.url.split("?")[0] === "/v1/me/transactions/import" ? "text/csv" : "application/json"
    }`
  }, { status: 415 })
}

/**
 * An error answer to a path holding something shaped like a credential, with
 * it redacted: a feature's message may name the path segment it refused
 * (`'psx_k_…' is not a ticker`). Other answers are left as they are.
 */
const scrubbed = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (response.status < 400 || body._tag !== "Uint8Array") return response
  const text = new TextDecoder().decode(body.body)
  const clean = redactSecrets(text)
  return clean === text ? response : HttpServerResponse.setBody(response, HttpBody.text(clean, body.contentType))
}

type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>

/**
 * The handler as a request that asked for a signature runs it: routed without `signed` (a `signed` value other
 * than true or false is answered 400), with the ask readable by what signs inside its answer (MCP tool results).
 */
const routedAs = (httpEffect: Handler, request: HttpServerRequest.HttpServerRequest, ask: SigningAsk): Handler =>
  ask.invalid !== undefined
    ? Effect.succeed(errorResponse("INVALID_REQUEST", ask.invalid))
    : Effect.provideService(
      Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, request.modify({ url: ask.routedUrl })),
      SignatureRequested,
      ask.request
    )

export const GuardLive = HttpRouter.middleware(
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const ids = yield* RequestIds
    const clock = yield* Clock.Clock
    const signer = yield* AnswerSigner
    const cache = yield* AnswerCache
    const access = yield* makeAccessLog
    const takesNoQuery = pathsTakingNoQuery(Api as unknown as HttpApi.Top)

    /**
     * The answer as the client gets it: a cached handler's answer kept (with its ETag and Cache-Control, or its
     * 304), a private one marked so. A signed answer is never kept: it is made for one request.
     */
    const finished = (
      request: HttpServerRequest.HttpServerRequest,
      response: HttpServerResponse.HttpServerResponse,
      path: string,
      logged: string,
      keepable: boolean
    ) => {
      const kept = cache.takeNote(request.source)
      if (kindOf(request.method, path) !== "public") return HttpServerResponse.setHeaders(response, PRIVATE_HEADERS)
      const body = response.body
      if (kept === undefined || !keepable || response.status >= 500 || body._tag !== "Uint8Array") return response
      const answer = cache.keep(request.url, logged, kept, {
        status: response.status,
        body: body.body,
        contentType: body.contentType,
        headers: response.headers
      })
      const headers = {
        etag: answer.etag,
        vary: VARY,
        "cache-control": cacheControl(answer, clock.currentTimeMillisUnsafe())
      }
      return notModified(request.headers["if-none-match"], answer.etag)
        ? HttpServerResponse.empty({ status: 304, headers: { ...response.headers, ...headers } })
        : HttpServerResponse.setHeaders(response, headers)
    }

    /** The answer to a request: its id, its rate-limit charge, errors as records, one log line. */
    const guarded = (
      request: HttpServerRequest.HttpServerRequest,
      httpEffect: Handler,
      keepable: boolean,
      routedUrl = request.url
    ): Handler => {
      const start = clock.currentTimeMillisUnsafe()
      const requestId = ids.next(start)
      idsByRequest.set(request.source, requestId)
      const q = request.url.indexOf("?")
      const path = q === -1 ? request.url : request.url.slice(0, q)
      const logged = redactSecrets(path)
      const routedQ = routedUrl.indexOf("?")
      const stray = routedQ !== -1 && takesNoQuery.has(path) ? unexpectedQuery(routedUrl, routedQ) : undefined
      // A private route checks its credential and grant first (a credential learns nothing else): its stray query is
      // refused only once the route would have answered (a GET with no query reads and changes nothing).
      const isPrivate = kindOf(request.method, path) !== "public"
      const refused = isPrivate ? undefined : stray
      const handle = (wait: number) =>
        wait > 0
          ? Effect.succeed(asResponse(rateLimited(wait)))
          : refused !== undefined
          ? Effect.succeed(refused)
          : Effect.matchCauseEffect(Effect.provideService(httpEffect, ServerRequestId, requestId), {
            onSuccess: (response) => {
              const answer = stray !== undefined && isPrivate && response.status < 400
                ? stray
                : unsupportedMediaType(response, request)
              return Effect.succeed(
                finished(request, logged === path ? answer : scrubbed(answer), path, logged, keepable)
              )
            },
            onFailure: (cause) => {
              // The client went away (its connection closed, the request's fiber interrupted): not the server's failure.
              if (Cause.hasInterruptsOnly(cause)) {
                return Effect.as(
                  Effect.logInfo({ msg: "client closed the request", requestId, path: logged }),
                  HttpServerResponse.empty({ status: CLIENT_CLOSED })
                )
              }
              const res = fromCause(cause, requestId)
              return res.status >= 500
                ? Effect.as(Effect.logError({ msg: "request failed", requestId, cause: Cause.pretty(cause) }), res)
                : Effect.succeed(res)
            }
          })
      // Probe traffic (health, readiness) is neither rate limited nor logged
      // unless it fails: load balancers poll it many times a second.
      if (isProbe(path)) {
        return Effect.tap(handle(0), (response) =>
          response.status >= 400
            ? Effect.logWarning({ msg: "probe failed", requestId, path: logged, status: response.status })
            : Effect.void)
      }
      const wait = limiter.charge(
        kindOf(request.method, path),
        request.headers["authorization"],
        addressOf(request),
        start
      )
      return Effect.map(handle(wait), (response) => {
        access(requestId, request.method, logged, response.status, start)
        return withRetryAfter(HttpServerResponse.setHeader(response, "x-request-id", requestId))
      })
    }

    /** The final answer, signed as asked (AnswerSigning.ts); a key that cannot be had answers 500 INTERNAL. A 429 is not signed. */
    const signed = (answer: Handler, request: HttpServerRequest.HttpServerRequest, ask: SignatureRequest): Handler =>
      Effect.flatMap(answer, (response) =>
        response.status === 429 ? Effect.succeed(response) : signer.key.pipe(
          Effect.map((key) =>
            signedResponse(key, response, request, ask, Math.floor(clock.currentTimeMillisUnsafe() / 1000))
          ),
          Effect.catchCause((cause) => {
            const requestId = response.headers["x-request-id"] ?? "?"
            return Effect.as(
              Effect.logError({ msg: "the answer could not be signed", requestId, cause: Cause.pretty(cause) }),
              errorResponse("INTERNAL", `the answer could not be signed; quote request id ${requestId}`, {
                "x-request-id": requestId
              })
            )
          })
        ))

    return (httpEffect: Handler): Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      Types.unhandled,
      HttpServerRequest.HttpServerRequest
    > =>
      Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
        // A request that mentions no signature (nearly all) pays this one check.
        const ask = signingAsk(request)
        if (ask === undefined) return guarded(request, httpEffect, true)
        const answer = guarded(request, routedAs(httpEffect, request, ask), false, ask.routedUrl)
        return ask.request === undefined ? answer : signed(answer, request, ask.request)
      })
  }),
  { global: true }
)
