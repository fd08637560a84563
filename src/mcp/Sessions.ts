/**
 * Bounds on the MCP sessions of /mcp (the transport itself keeps every
 * session, with its decoded `initialize` params, until it is ended):
 *
 * - an `initialize` is examined before the transport sees it (Initialize.ts):
 *   over `initializeBytes` bytes of JSON, nested deeper than 32 levels, with a
 *   `clientInfo` over 1,024 characters or inside a batch it is refused with
 *   400 and a JSON-RPC error; otherwise the transport gets it without the
 *   capabilities this server does not use;
 * - each session is charged its bytes and belongs to its address and its
 *   credential (the `Authorization` header it was started with: a request of
 *   the session with another, or with one when it started without, is 403
 *   with a JSON-RPC error, so a session's principal never changes); the registry (SessionRegistry.ts) says which sessions end when
 *   a new one would exceed the per-client, overall count or byte limits, or
 *   when one is idle for `ttlMs`. Ending one is what `DELETE /mcp` with its
 *   `Mcp-Session-Id` does (later requests with it get 404 -32001).
 *
 * This is a wrapper of the `HttpRouter` given to `McpServer.layerHttp`: every
 * /mcp route the transport adds runs through it, so the bounds hold for any
 * spelling of the path the router routes there, and its answers pass through
 * the service's guard like any other (request id, log line, rate limit).
 * Sessions are ended by calling the transport's own DELETE handler directly.
 */
import { Clock, Effect, Layer } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { AppConfig } from "../config/AppConfig.ts"
import { examine } from "./Initialize.ts"
import { makeSessionRegistry, type Owner, type RegistryLimits, SESSION_OVERHEAD_BYTES } from "./SessionRegistry.ts"

export { CLIENT_INFO_MAX } from "./Initialize.ts"

export interface McpSessionLimits extends RegistryLimits {
  /** The most bytes of JSON an `initialize` request may take. */
  readonly initializeBytes: number
}

const SESSION_HEADER = "mcp-session-id"

type Request = HttpServerRequest.HttpServerRequest
type Response = HttpServerResponse.HttpServerResponse
/** A route's handler; the transport's need no services beyond the request. */
type RouteHandler = (request: Request) => Effect.Effect<Response, unknown>

/** Whose request this is: its address and a digest of its Authorization header, if any. */
const ownerOf = (request: Request): Owner => {
  const address = request.remoteAddress
  const authorization = request.headers["authorization"]
  return {
    address: address._tag === "Some" ? address.value : "unknown",
    principal: authorization === undefined ? undefined : createHash("sha256").update(authorization).digest("base64url")
  }
}

/** The same request with `text` as its body (the transport reads the body again, from the request it is given). */
const withBody = (request: Request, text: string): Request => {
  const replaced = Object.create(request) as Request
  Object.defineProperty(replaced, "text", { value: Effect.succeed(text) })
  return replaced
}

const refusal = (id: string | number | null, code: number, message: string) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id, error: { code, message } }, { status: 400 })

/** The JSON-RPC id of a POST body's single message (null when there is none, or a batch). */
const messageId = (text: string): string | number | null => {
  try {
    const id: unknown = JSON.parse(text)?.id
    return typeof id === "string" || typeof id === "number" ? id : null
  } catch {
    return null
  }
}

/** A request of a session with another credential than the session was started with (or with none), answering `id`. */
const anotherCredential = (id: string | number | null) =>
  HttpServerResponse.jsonUnsafe({
    jsonrpc: "2.0",
    id,
    error: {
      code: -32000,
      message: "Forbidden: this session was started with another Authorization credential (or none); send the one it " +
        "started with, or initialize a new session"
    }
  }, { status: 403 })

/** A route handler as a function of the request, whatever form the transport gave it in. */
const asFunction = (handler: Response | Effect.Effect<Response, unknown> | RouteHandler): RouteHandler =>
  typeof handler === "function"
    ? handler
    : HttpServerResponse.isHttpServerResponse(handler)
    ? () => Effect.succeed(handler)
    : () => handler

/** The HttpRouter for `McpServer.layerHttp`, bounding the sessions of the routes it adds. */
export const makeMcpSessions = (limits: McpSessionLimits) =>
  Layer.effect(
    HttpRouter.HttpRouter,
    Effect.gen(function*() {
      const router = yield* HttpRouter.HttpRouter
      const registry = makeSessionRegistry(limits)
      let terminate: RouteHandler | undefined
      const end = (id: string) =>
        terminate === undefined ? Effect.void : terminate(
          HttpServerRequest.fromWeb(
            new Request("http://localhost/mcp", { method: "DELETE", headers: { [SESSION_HEADER]: id } })
          )
        ).pipe(Effect.ignore)
      const endAll = (ids: ReadonlyArray<string>) => Effect.forEach(ids, end, { discard: true })

      const bounded = (handler: RouteHandler) => (request: Request) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* endAll(registry.expire(now))
          const id = request.headers[SESSION_HEADER]
          if (id !== undefined && !registry.heldBy(id, ownerOf(request).principal)) {
            const body = request.method === "POST" ? yield* Effect.orElseSucceed(request.text, () => "") : ""
            return anotherCredential(messageId(body))
          }
          if (id !== undefined) registry.touch(id, now)
          let forwarded = request
          let bytes = SESSION_OVERHEAD_BYTES
          if (request.method === "POST") {
            // The route's middleware (Envelope.ts) has read the body already; it is cached.
            const examined = examine(yield* Effect.orElseSucceed(request.text, () => ""), limits.initializeBytes)
            if (examined._tag === "Refuse") return refusal(examined.id, examined.code, examined.message)
            if (examined._tag === "Keep") {
              forwarded = withBody(request, examined.text)
              bytes += examined.bytes
            }
          }
          const response = yield* Effect.provideService(
            handler(forwarded),
            HttpServerRequest.HttpServerRequest,
            forwarded
          )
          if (id === undefined) {
            // The transport names a new session in a pre-response handler it added while answering: look after it.
            yield* HttpEffect.appendPreResponseHandler((_, final) => {
              const created = final.headers[SESSION_HEADER]
              if (created === undefined) return Effect.succeed(final)
              return Effect.as(endAll(registry.admit(created, ownerOf(request), bytes, now)), final)
            })
          }
          if (request.method === "DELETE" && id !== undefined && response.status < 300) registry.remove(id)
          return response
        })

      const add: typeof router.add = (method, path, handler, options) => {
        const run = asFunction(handler as Parameters<typeof asFunction>[0])
        if (method === "DELETE") terminate = run
        return router.add(method, path, bounded(run) as never, options)
      }
      return HttpRouter.HttpRouter.of({ ...router, add })
    })
  )

/**
 * The limits from the configuration (PSX_MCP_SESSION_IDLE_MINUTES, PSX_MCP_SESSIONS, PSX_MCP_SESSIONS_PER_CLIENT,
 * PSX_MCP_INITIALIZE_BYTES, PSX_MCP_SESSIONS_BYTES).
 */
export const McpSessionsLive = Layer.unwrap(Effect.map(AppConfig, (config) =>
  makeMcpSessions({
    ttlMs: config.mcpSessions.idleMinutes * 60_000,
    cap: config.mcpSessions.cap,
    ...config.mcpSessionLimits
  })))
