/**
 * The fast path: kept answers (AnswerCache.ts) served in plain node:http in
 * front of the Effect pipeline.
 *
 * It has no routes and no answers of its own. Its matcher is the cached
 * endpoints' own path templates; a request is decoded with the endpoint's
 * own params and query schemas (as the HttpApi router decodes them) and
 * looked up under its decoded request. A hit is written synchronously. On a
 * miss the endpoint's handler — the same function the HttpApi router runs —
 * makes the answer, which is kept and written.
 *
 * What the guard does for every route is done here too, the same way: an id
 * (`x-request-id`), the address's public rate limit (the same buckets, a 429
 * record with Retry-After), one access log line (its path with anything shaped
 * like a credential redacted); a probe (/health) is neither charged nor
 * logged, and has no id. The URL it matches is the front door's one spelling
 * of it (CanonicalUrl.ts). Anything it cannot answer — no cached endpoint, a
 * parameter that does not decode (the HttpApi answers its 400), an answer not
 * kept, `Cache-Control: no-cache` (the directive, among others), a signed answer asked for
 * (`Accept-Signature`, `signed=`) — goes to the Effect pipeline untouched. A
 * request it charged but could not answer after all goes on with its id,
 * marked so the guard does not charge it again.
 */
import { Cause, Clock, Effect, Layer, Logger, LogLevel, References } from "effect"
import { FindMyWay, HttpRouter } from "effect/http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { AccessLine } from "../observability/AccessLine.ts"
import { accessTarget, writeAccessLine } from "../observability/AccessLineBytes.ts"
import { jsonLinesLogger } from "../observability/JsonLogger.ts"
import { redactSecrets } from "../observability/Redact.ts"
import { type Answer, AnswerCache, type CachedEndpoint, type Decoded } from "./AnswerCache.ts"
import { type FastPath, FastPathSlot } from "./FrontDoor.ts"
import { isProbe } from "./Guard.ts"
import { type Bucket, RateLimiter } from "./RateLimiter.ts"
import { RequestIds } from "./RequestId.ts"

/** A URL's cached endpoint, decoded request and key. */
interface Match {
  readonly entry: CachedEndpoint
  readonly request: Decoded
  readonly key: string
  /** A probe: not charged, not logged, no id (as the guard treats it). */
  readonly probe: boolean
  /** The path as the access log writes it (anything shaped like a credential redacted). */
  readonly logged: string
  /** Its method and path as the JSON access line's bytes, made at its first line (AccessLineBytes.ts); present from the start, so every match has one shape. */
  accessTarget: Uint8Array | undefined
}

/** URLs whose match is kept (about a symbol universe's worth for each of the hottest endpoints). */
const MATCH_MEMO = 8_192

/** The matcher over the cached endpoints' path templates. */
const routerOf = (entries: ReadonlyArray<CachedEndpoint>, config: Partial<FindMyWay.RouterConfig>) => {
  const router = FindMyWay.make<CachedEndpoint>(config)
  for (const entry of entries) router.on("GET", entry.endpoint.path as FindMyWay.PathInput, entry)
  return router
}

/** A signed answer is asked for in the query: the Effect pipeline makes it. */
const asksSigned = (url: string) => {
  const q = url.indexOf("?")
  return q !== -1 && /[?&]signed=/u.test(url.slice(q))
}

/** A `Cache-Control` value with the `no-cache` directive (any case, among others). */
const saysNoCache = (value: string) => value.split(",").some((directive) => directive.trim().toLowerCase() === "no-cache")

/**
 * The request asks for what no kept answer gives: a fresh answer (`Cache-Control: no-cache`) or a signed one
 * (`Accept-Signature`). Read from the raw header lines, so that node does not build the request's header
 * object for an answer that needs none of it.
 */
const asksPastKeptAnswers = (raw: ReadonlyArray<string>) => {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length === 16 && name.toLowerCase() === "accept-signature") return true
    if (name.length === 13 && name.toLowerCase() === "cache-control" && saysNoCache(raw[i + 1]!)) return true
  }
  return false
}

/**
 * A URL's match (undefined: not this path's), kept for the URLs asked most recently (bounded: the
 * oldest is dropped), so a repeated request is not routed, decoded and keyed again.
 */
const matcherOf = (router: ReturnType<typeof routerOf>) => {
  const matched = new Map<string, Match | undefined>()
  const match = (url: string): Match | undefined => {
    if (asksSigned(url)) return undefined
    const found = router.find("GET", url)
    if (found === undefined) return undefined
    const request = found.handler.decode(found.params, found.searchParams)
    if (request === undefined) return undefined
    const q = url.indexOf("?")
    const path = q === -1 ? url : url.slice(0, q)
    const match: Match = {
      entry: found.handler,
      request,
      key: found.handler.keyOf(request),
      probe: isProbe(path),
      logged: redactSecrets(path),
      accessTarget: undefined
    }
    return match
  }
  return (url: string) => {
    let m = matched.get(url)
    if (m === undefined && !matched.has(url)) {
      m = match(url)
      if (matched.size >= MATCH_MEMO) matched.delete(matched.keys().next().value!)
      matched.set(url, m)
    }
    return m
  }
}

/**
 * The access log line of a request the fast path answered (when Info is logged): the same entry the guard's
 * `Effect.logInfo` makes, handed straight to the loggers in force when the fast path was built, on the fiber
 * that built it, so a request costs no fiber of its own. Where the JSON logger is the only one, with no
 * annotations to add, the line it would write is written as bytes into its batch (AccessLineBytes.ts).
 */
const accessLog = Effect.gen(function*() {
  const logs = LogLevel.isGreaterThanOrEqualTo("Info", yield* References.MinimumLogLevel)
  const loggers = yield* Logger.CurrentLoggers
  const clock = yield* Clock.Clock
  const fiber = yield* Effect.withFiber((fiber) => Effect.succeed(fiber))
  const asBytes = loggers.size === 1 && loggers.has(jsonLinesLogger) &&
    Object.keys(fiber.getRef(References.CurrentLogAnnotations)).length === 0
  return (m: Match, requestId: string, start: number, status: number) => {
    if (!logs) return
    const now = clock.currentTimeMillisUnsafe()
    if (asBytes) return writeAccessLine(m.accessTarget ??= accessTarget("GET", m.logged), requestId, status, now - start, now)
    const message = [new AccessLine(requestId, "GET", m.logged, status, now - start)]
    const date = new Date(now)
    for (const logger of loggers) logger.log({ message, logLevel: "Info", cause: Cause.empty, fiber, date })
  }
})

const write = (
  response: ServerResponse,
  status: number,
  contentType: string,
  body: Uint8Array,
  requestId: string | undefined,
  headers?: Readonly<Record<string, string>>
) => {
  const head = requestId === undefined
    ? { "content-type": contentType, "content-length": body.length }
    : { "content-type": contentType, "content-length": body.length, "x-request-id": requestId }
  response.writeHead(status, headers === undefined ? head : { ...head, ...headers })
  response.end(body)
}

/** Builds the fast path from the running services. */
export const make = Effect.gen(function*() {
  const cache = yield* AnswerCache
  const limiter = yield* RateLimiter
  const ids = yield* RequestIds
  const clock = yield* Clock.Clock
  const config = yield* HttpRouter.RouterConfig
  const runFork = Effect.runForkWith(yield* Effect.context<never>())
  const finish = yield* accessLog

  // Built again whenever endpoints were registered since (the routes are built after the fast path may be).
  let matchOf: (url: string) => Match | undefined = () => undefined
  let registered: ReadonlyArray<CachedEndpoint> | undefined
  const matcher = () => {
    const entries = cache.entries()
    if (entries !== registered) {
      registered = entries
      matchOf = matcherOf(routerOf(entries, config))
    }
    return matchOf
  }

  // A public route is charged to the client's address, whatever credential is sent: one bucket per connection.
  const buckets = new WeakMap<Socket, Bucket>()
  const publicBucket = (socket: Socket) => {
    let bucket = buckets.get(socket)
    if (bucket === undefined) buckets.set(socket, bucket = limiter.bucketOf("public", undefined, socket.remoteAddress ?? "unknown"))
    return bucket
  }

  const send = (response: ServerResponse, m: Match, answer: Answer, requestId: string | undefined) =>
    write(response, answer.status, m.entry.contentType, answer.body, requestId, answer.headers)

  /** A miss: the endpoint's handler makes the answer, or the Effect pipeline answers. */
  const fill = (request: IncomingMessage, response: ServerResponse, next: () => void, m: Match, start: number, requestId: string | undefined) =>
    runFork(m.entry.fill(m.request, m.key, start)).addObserver((exit) => {
      if (exit._tag === "Success" && exit.value !== undefined) {
        send(response, m, exit.value, requestId)
        if (requestId !== undefined) finish(m, requestId, start, exit.value.status)
        return
      }
      if (requestId !== undefined) ids.handOff(request, requestId)
      next()
    })

  const fastPath: FastPath = (request, response, next) => {
    if (request.method !== "GET") return next()
    if (asksPastKeptAnswers(request.rawHeaders)) return next()
    const m = matcher()(request.url!)
    if (m === undefined) return next()
    const start = clock.currentTimeMillisUnsafe()
    const held = m.entry.held(m.request, m.key, start)
    if (m.probe) return held !== undefined ? send(response, m, held, undefined) : fill(request, response, next, m, start, undefined)
    // From here the request is this path's: it is charged and has its id.
    const requestId = ids.next(start)
    const wait = limiter.takeAt(publicBucket(request.socket), start)
    if (wait > 0) {
      const body = Buffer.from(JSON.stringify({ error: "RATE_LIMITED", message: `rate limit exceeded; retry after ${wait} s` }))
      response.setHeader("retry-after", String(wait))
      write(response, 429, "application/json", body, requestId)
      return finish(m, requestId, start, 429)
    }
    if (held === undefined) return fill(request, response, next, m, start, requestId)
    send(response, m, held, requestId)
    finish(m, requestId, start, held.status)
  }
  return fastPath
})

/** Attaches the fast path to the front door for the lifetime of the routes. */
export const FastPathLive = Layer.effectDiscard(Effect.gen(function*() {
  const slot = yield* FastPathSlot
  yield* slot.attach(yield* make)
}))
