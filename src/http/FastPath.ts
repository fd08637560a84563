/**
 * The fast path: kept answers (AnswerCache.ts) served in plain node:http in front of the Effect pipeline.
 *
 * A GET whose canonical URL has an answer still true is answered here, as the guard would answer it (the
 * same request id, rate-limit charge, refusal and access line, Responses.ts), with its ETag and
 * `Cache-Control`; an `If-None-Match` naming its ETag gets 304. A probe (/health) is neither charged nor
 * logged and has no id. Anything else — no answer kept, `Cache-Control: no-cache`, a signature asked for
 * (`Accept-Signature`) — goes on to the Effect pipeline untouched, which makes the answer and keeps it.
 */
import { Clock, Effect, Layer } from "effect"
import type { ServerResponse } from "node:http"
import { AnswerCache, type CachedAnswer } from "./AnswerCache.ts"
import { isProbe } from "./Guard.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { type FastPath, FastPathSlot } from "./RequestGate.ts"
import { RequestIds } from "./RequestId.ts"
import { cacheControl, JSON_TYPE, makeAccessLog, notModified, rateLimited } from "./Responses.ts"

/** A `Cache-Control` value with the `no-cache` directive (any case, among others). */
const saysNoCache = (value: string) =>
  value.split(",").some((directive) => directive.trim().toLowerCase() === "no-cache")

/** The request asks past the cache (`Cache-Control: no-cache`, `Accept-Signature`). */
const PAST = 0

/**
 * What the request's headers ask of a kept answer, read from the raw header lines (node builds the header
 * object only when it is read): PAST, or the `If-None-Match` value (undefined: none).
 */
const askOf = (raw: ReadonlyArray<string>): typeof PAST | string | undefined => {
  let ifNoneMatch: string | undefined
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length === 16 && name.toLowerCase() === "accept-signature") return PAST
    if (name.length === 13 && name.toLowerCase() === "cache-control" && saysNoCache(raw[i + 1]!)) return PAST
    if (name.length === 13 && name.toLowerCase() === "if-none-match") ifNoneMatch = raw[i + 1]
  }
  return ifNoneMatch
}

/**
 * Writes a kept answer, or its 304 when the client holds it already: its headers made when it was kept, with the
 * two per-request slots filled in place. `writeHead` turns them into the header text before it returns (nothing
 * else has set a header on this response), so the answer's arrays can be filled again by the next request.
 */
const send = (
  response: ServerResponse,
  answer: CachedAnswer,
  now: number,
  requestId: string | undefined,
  unchanged: boolean
) => {
  const head = unchanged ? answer.notModifiedHead : answer.head
  const end = head.length
  head[end - 3] = cacheControl(answer, now)
  const status = unchanged ? 304 : answer.status
  if (requestId === undefined) response.writeHead(status, head.slice(0, end - 2))
  else {
    head[end - 1] = requestId
    response.writeHead(status, head)
  }
  if (unchanged) response.end()
  else response.end(answer.body)
  return status
}

/** Builds the fast path from the running services. */
export const make = Effect.gen(function*() {
  const cache = yield* AnswerCache
  const limiter = yield* RateLimiter
  const ids = yield* RequestIds
  const clock = yield* Clock.Clock
  const access = yield* makeAccessLog

  const fastPath: FastPath = (request, response, next) => {
    if (request.method !== "GET") return next()
    const now = clock.currentTimeMillisUnsafe()
    const answer = cache.lookup(request.url!, now)
    if (answer === undefined) return next()
    const ask = askOf(request.rawHeaders)
    if (ask === PAST) return next()
    const unchanged = notModified(ask, answer.etag)
    const path = answer.logged
    if (isProbe(path)) return void send(response, answer, now, undefined, unchanged)
    const requestId = ids.next(now)
    // Only answers of public routes are kept (the guard keeps no other): charged to the address, as the guard charges them.
    const wait = limiter.charge("public", undefined, request.socket.remoteAddress ?? "unknown", now)
    if (wait > 0) {
      const refusal = rateLimited(wait)
      response.writeHead(refusal.status, {
        ...refusal.headers,
        "content-type": JSON_TYPE,
        "content-length": refusal.body.length,
        "x-request-id": requestId
      })
      response.end(refusal.body)
      return access(requestId, "GET", path, refusal.status, now)
    }
    access(requestId, "GET", path, send(response, answer, now, requestId, unchanged), now)
  }
  return fastPath
})

/** Attaches the fast path to the request gate for the lifetime of the routes. */
export const FastPathLive = Layer.effectDiscard(Effect.gen(function*() {
  const slot = yield* FastPathSlot
  yield* slot.attach(yield* make)
}))
