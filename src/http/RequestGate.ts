/**
 * The Node HTTP server the service listens on, and what answers a request
 * before the Effect pipeline does.
 *
 * - It listens as soon as the process starts, and answers every request it
 *   accepts: until the routes are built (migrations, the read model), with a
 *   503 SOURCE_UNAVAILABLE "starting" record (and the liveness probe with
 *   the bytes it is given, `whileUnattached`); once the scope closes, with a
 *   503 "stopping" record.
 * - Every request has a deadline: a request still unanswered after
 *   `deadlineMs` gets a 503 SOURCE_UNAVAILABLE record (a response already
 *   under way, such as a stream, is left alone; so is a write whose commit
 *   has begun: WriteDeadline.ts).
 * - Before anything looks at a request, its URL is rewritten to its one
 *   spelling (CanonicalUrl.ts), so the fast path, the guard, its rate
 *   limiter, the MCP session guard and the router all see the same path.
 * - A fast path (FastPath.ts, attached through `FastPathSlot`) may answer
 *   first, in plain node:http, with the kept answers (AnswerCache.ts);
 *   everything else goes to the HttpApi router through the Effect handler.
 *
 * It is an `HttpServer` like NodeHttpServer's (whose request handler it
 * uses), without upgrades: the service has no WebSocket routes.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Duration, Effect, Layer, Scope } from "effect"
import { HttpServer, HttpServerError } from "effect/http"
import * as NetAddress from "effect/net/NetAddress"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { canonicalUrl } from "./CanonicalUrl.ts"
import { idsByRequest } from "./RequestId.ts"
import { errorRecord, JSON_TYPE } from "./Responses.ts"
import { deadlinePasses } from "./WriteDeadline.ts"

export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void

/** Answers a request in plain node:http, or calls `next` to let the Effect pipeline answer it. */
export type FastPath = (request: IncomingMessage, response: ServerResponse, next: () => void) => void

/** Where the fast path is attached to the request gate (for the scope of the caller). */
export class FastPathSlot extends Context.Service<FastPathSlot, {
  readonly attach: (fastPath: FastPath) => Effect.Effect<void, never, Scope.Scope>
}>()("psx/http/FastPathSlot") {}

export interface RequestGateOptions {
  readonly port: number
  readonly host: string
  /** How long a request may wait for its answer (ms). */
  readonly deadlineMs: number
  /** The largest request body taken (bytes): a larger one announced with `Expect: 100-continue` is refused before it is sent. */
  readonly maxBodyBytes: number
  /** GET answers by path while no Effect handler is attached (the liveness probe's, made by its endpoint). */
  readonly whileUnattached?: ReadonlyMap<string, { readonly status: number; readonly body: Uint8Array }>
}

/** How long a graceful shutdown waits for requests in flight. */
const SHUTDOWN_WAIT = Duration.seconds(10)

const unavailable = (response: ServerResponse, message: string, requestId?: string) => {
  if (response.headersSent || response.writableEnded) return
  const record = errorRecord("SOURCE_UNAVAILABLE", message, {
    "retry-after": "1",
    ...(requestId !== undefined ? { "x-request-id": requestId } : {})
  })
  response.writeHead(record.status, {
    ...record.headers,
    "content-type": JSON_TYPE,
    "content-length": record.body.length
  })
  response.end(record.body)
}

/** A body announced over the limit, refused before it is sent (the connection closes: the body is never read). */
const tooLarge = (response: ServerResponse) => {
  const record = errorRecord("INVALID_REQUEST", "request body too large")
  response.writeHead(record.status, {
    "content-type": JSON_TYPE,
    "content-length": record.body.length,
    connection: "close"
  })
  response.end(record.body)
}

/** What answers while no Effect handler is attached (starting, or stopping). */
const unattached =
  (phase: "starting" | "stopping", options: RequestGateOptions): NodeHandler => (request, response) => {
    const answer = request.method === "GET" ? options.whileUnattached?.get(request.url!.split("?")[0]!) : undefined
    if (answer !== undefined) {
      response.writeHead(answer.status, { "content-type": "application/json", "content-length": answer.body.length })
      response.end(answer.body)
      return
    }
    // The body is not needed: drain it so the connection can be reused.
    request.resume()
    unavailable(
      response,
      phase === "starting"
        ? "the service is starting; try again shortly"
        : "the service is stopping"
    )
  }

/** Listens on the port, failing with ServeError when it cannot. */
const listen = (server: Server, options: RequestGateOptions) =>
  Effect.callback<void, HttpServerError.ServeError>((resume) => {
    const onError = (cause: Error) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
    server.once("error", onError)
    server.listen({ port: options.port, host: options.host }, () => {
      server.off("error", onError)
      resume(Effect.void)
    })
  })

/** Stops listening and lets open requests finish, up to SHUTDOWN_WAIT; then every connection is closed. */
const closing = (server: Server) =>
  Effect.callback<void>((resume) => {
    if (!server.listening) return resume(Effect.void)
    server.close(() => resume(Effect.void))
    server.closeIdleConnections()
  }).pipe(
    Effect.timeoutOrElse({ duration: SHUTDOWN_WAIT, orElse: () => Effect.sync(() => server.closeAllConnections()) })
  )

/** The address the server listens on. */
const boundAddress = (server: Server) => {
  const bound = server.address()
  const address = typeof bound === "object" && bound !== null
    ? NetAddress.inetAddressFromIpString(bound.address, bound.port)
    : undefined
  return address === undefined || address._tag === "Failure"
    ? Effect.fail(new HttpServerError.ServeError({ cause: new Error(`cannot read the address the server listens on`) }))
    : Effect.succeed(address.success)
}

export const make = Effect.fnUntraced(function*(options: RequestGateOptions) {
  let app: NodeHandler = unattached("starting", options)
  let fast: FastPath | undefined
  const deadline = `no answer within ${options.deadlineMs} ms`
  const toApp = (request: IncomingMessage, response: ServerResponse) => {
    // A write whose commit has begun answers itself (WriteDeadline.ts).
    const timer = setTimeout(
      () => deadlinePasses(request) && unavailable(response, deadline, idsByRequest.get(request)),
      options.deadlineMs
    )
    response.once("close", () => clearTimeout(timer))
    app(request, response)
  }
  const handle: NodeHandler = (request, response) => {
    const url = canonicalUrl(request.url!)
    if (url !== request.url) request.url = url
    if (fast === undefined) toApp(request, response)
    else fast(request, response, () => toApp(request, response))
  }
  // An idle keep-alive connection stays open 65 s (longer than a load balancer's usual 60 s), so a client
  // (or proxy) closes it first and never sends a request on a socket the server is closing.
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 65_000 }, handle)
  // `Expect: 100-continue`: the body is invited only when its announced length is within the limit.
  server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
    if (Number(request.headers["content-length"]) > options.maxBodyBytes) return tooLarge(response)
    response.writeContinue()
    handle(request, response)
  })
  const slot = FastPathSlot.of({
    attach: (fastPath) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          fast = fastPath
        }),
        () =>
          Effect.sync(() => {
            fast = undefined
          })
      )
  })

  yield* listen(server, options)
  const close = closing(server)
  yield* Effect.addFinalizer(() => close)
  const address = yield* boundAddress(server)

  const httpServer = HttpServer.make({
    address,
    serve: Effect.fnUntraced(function*(httpApp, middleware) {
      const serveScope = yield* Effect.scope
      const scope = Scope.forkUnsafe(serveScope, "parallel")
      const handler = yield* NodeHttpServer.makeHandler(httpApp, { middleware, scope })
      yield* Scope.addFinalizer(
        serveScope,
        Effect.andThen(
          Effect.sync(() => {
            fast = undefined
            app = unattached("stopping", options)
          }),
          close
        )
      )
      app = handler as NodeHandler
    })
  })
  return Context.make(HttpServer.HttpServer, httpServer).pipe(Context.add(FastPathSlot, slot))
})

/** The request gate as the `HttpServer` and its `FastPathSlot` (with Node's HTTP platform services). */
export const layer = (options: RequestGateOptions) =>
  Layer.mergeAll(Layer.effectContext(make(options)), NodeHttpServer.layerHttpServices)
