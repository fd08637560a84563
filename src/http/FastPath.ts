/**
 * The fast path: the read model's encoded answers (EncodedAnswers), served in
 * plain node:http in front of the Effect pipeline.
 *
 * It has no routes of its own. Its matcher is derived from the HttpApi
 * definitions (Api.ts): for each GET endpoint whose answers EncodedAnswers
 * keeps, the endpoint's own path template, and its own params and query
 * schemas with the endpoint's parse options, as the HttpApi router uses
 * them. A request is looked up by (endpoint, decoded parameters).
 *
 * What the guard does for every route is done here too, the same way: an id
 * (`x-request-id`), the address's public rate limit (the same buckets, a 429
 * record with Retry-After), one access log line (its path with anything shaped
 * like a credential redacted). The URL it matches is the front door's one
 * spelling of it (CanonicalUrl.ts). Anything it cannot answer —
 * no such endpoint, a parameter that does not decode (the HttpApi answers its
 * 400), an input not kept, `Cache-Control: no-cache` — goes to the Effect
 * pipeline untouched. A request it charged but could not answer after all
 * goes on with its id, marked so the guard does not charge it again.
 */
import { Cause, Clock, Context, Effect, Layer, Logger, LogLevel, References, Result, Schema, type SchemaAST } from "effect"
import { FindMyWay, HttpRouter } from "effect/http"
import { HttpApi } from "effect/http-api"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { EncodedAnswer } from "../market/readmodel/ReadModel.ts"
import { type AnswerInput, EncodedAnswers } from "../market/readmodel/EncodedAnswers.ts"
import { redactSecrets } from "../observability/Redact.ts"
import { Api } from "./Api.ts"
import { type FastPath, FastPathSlot } from "./FrontDoor.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { RequestIds } from "./RequestId.ts"

interface Route {
  readonly endpoint: string
  /** The endpoint's decoded params and query, or undefined when they do not decode. */
  readonly decode: (found: FindMyWay.FindResult<Route>) => AnswerInput | undefined
}

/** The parse options the HttpApi decodes a slot with: the slot's own annotation, else the general one. */
const parseOptionsOf = (annotations: Context.Context<never>, slot: "params" | "query") =>
  (slot === "params"
    ? Context.getOrUndefined(annotations, HttpApi.ParamsParseOptions)
    : Context.getOrUndefined(annotations, HttpApi.QueryParseOptions)) ?? Context.getOrUndefined(annotations, HttpApi.ParseOptions)

const decoderOf = (schema: Schema.Top | undefined, options: SchemaAST.ParseOptions | undefined) => {
  if (schema === undefined) return () => Result.succeed(undefined)
  return Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>, options)
}

/** The matcher: the Api's GET endpoints that EncodedAnswers keeps, with their own schemas. */
export const routesOf = (endpoints: ReadonlySet<string>, config: Partial<FindMyWay.RouterConfig>) => {
  const router = FindMyWay.make<Route>(config)
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, mergedAnnotations }) => {
      const name = `${group.identifier}.${endpoint.identifier}`
      if (endpoint.method !== "GET" || !endpoints.has(name)) return
      const annotations = Context.merge(Api.annotations, mergedAnnotations)
      const params = decoderOf(endpoint.params, parseOptionsOf(annotations, "params"))
      // As the HttpApi decodes a query: a repeated parameter is an array.
      const query = decoderOf(
        endpoint.query && Schema.toCodecArrayFromSingle(endpoint.query),
        parseOptionsOf(annotations, "query")
      )
      const decode = (found: FindMyWay.FindResult<Route>): AnswerInput | undefined => {
        const p = params(found.params)
        const q = query(found.searchParams)
        if (Result.isFailure(p) || Result.isFailure(q)) return undefined
        return {
          ...(p.success !== undefined ? { params: p.success } : {}),
          ...(q.success !== undefined ? { query: q.success } : {})
        }
      }
      router.on("GET", endpoint.path as FindMyWay.PathInput, { endpoint: name, decode })
    }
  })
  return router
}

const JSON_TYPE = "application/json"
/** URLs whose match is kept (about a symbol universe's worth for each of the kept endpoints). */
const MATCH_MEMO = 8_192

const write = (response: ServerResponse, status: number, body: Uint8Array, headers: Record<string, string>) => {
  response.writeHead(status, { ...headers, "content-type": JSON_TYPE, "content-length": body.length })
  response.end(body)
}

/**
 * The access log line of a request the fast path answered (when Info is logged): the same entry the guard's
 * `Effect.logInfo` makes, handed straight to the loggers in force when the fast path was built, on the fiber
 * that built it, so a request costs no fiber of its own; the JSON logger batches its writes.
 */
const accessLog = Effect.gen(function*() {
  const logs = LogLevel.isGreaterThanOrEqualTo("Info", yield* References.MinimumLogLevel)
  const loggers = yield* Logger.CurrentLoggers
  const clock = yield* Clock.Clock
  const fiber = yield* Effect.withFiber((fiber) => Effect.succeed(fiber))
  return (request: IncomingMessage, requestId: string, start: number, status: number) => {
    if (!logs) return
    const q = request.url!.indexOf("?")
    const path = redactSecrets(q === -1 ? request.url! : request.url!.slice(0, q))
    const now = clock.currentTimeMillisUnsafe()
    const message = [{ msg: "request", requestId, method: "GET", path, status, ms: now - start }]
    const date = new Date(now)
    for (const logger of loggers) logger.log({ message, logLevel: "Info", cause: Cause.empty, fiber, date })
  }
})

/**
 * A URL's endpoint and decoded input (undefined: not this path's), kept for
 * the URLs asked most recently (bounded: the oldest is dropped), so a
 * repeated request is not routed and decoded again.
 */
const matcher = (router: ReturnType<typeof routesOf>) => {
  const matched = new Map<string, { readonly endpoint: string; readonly input: AnswerInput } | undefined>()
  return (url: string) => {
    if (matched.has(url)) return matched.get(url)
    const found = router.find("GET", url)
    const input = found === undefined ? undefined : found.handler.decode(found)
    const match = found === undefined || input === undefined ? undefined : { endpoint: found.handler.endpoint, input }
    if (matched.size >= MATCH_MEMO) matched.delete(matched.keys().next().value!)
    matched.set(url, match)
    return match
  }
}

/** Builds the fast path from the running services. */
export const make = Effect.gen(function*() {
  const answers = yield* EncodedAnswers
  const limiter = yield* RateLimiter
  const ids = yield* RequestIds
  const context = yield* Effect.context<never>()
  const clock = yield* Clock.Clock
  const router = routesOf(answers.endpoints, yield* HttpRouter.RouterConfig)
  const runFork = Effect.runForkWith(context)

  const finish = yield* accessLog
  const matchOf = matcher(router)

  const send = (response: ServerResponse, answer: EncodedAnswer, requestId: string) =>
    write(response, answer.status, answer.body, { "x-request-id": requestId })

  const fastPath: FastPath = (request, response, next) => {
    if (request.method !== "GET" || request.headers["cache-control"] === "no-cache") return next()
    const matched = matchOf(request.url!)
    if (matched === undefined) return next()
    const start = clock.currentTimeMillisUnsafe()
    const probe = answers.probe(matched.endpoint, matched.input, start)
    if (probe === undefined) return next()
    // From here the request is this path's: it is charged and has its id.
    const requestId = ids.next(start)
    const address = request.socket.remoteAddress ?? "unknown"
    const wait = limiter.takeAt(limiter.bucketOf("public", request.headers["authorization"], address), start)
    if (wait > 0) {
      const body = Buffer.from(JSON.stringify({ error: "RATE_LIMITED", message: `rate limit exceeded; retry after ${wait} s` }))
      write(response, 429, body, { "retry-after": String(wait), "x-request-id": requestId })
      return finish(request, requestId, start, 429)
    }
    if (probe.hit !== undefined) {
      send(response, probe.hit, requestId)
      return finish(request, requestId, start, probe.hit.status)
    }
    runFork(answers.fill(probe)).addObserver((exit) => {
      if (exit._tag === "Success" && exit.value !== undefined) {
        send(response, exit.value, requestId)
        return finish(request, requestId, start, exit.value.status)
      }
      ids.handOff(request, requestId)
      next()
    })
  }
  return fastPath
})

/** Attaches the fast path to the front door for the lifetime of the routes. */
export const FastPathLive = Layer.effectDiscard(Effect.gen(function*() {
  const slot = yield* FastPathSlot
  yield* slot.attach(yield* make)
}))
