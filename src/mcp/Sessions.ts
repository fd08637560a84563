/**
 * Bounds on the MCP sessions of POST /mcp (the transport itself keeps every
 * session until it is ended):
 *
 * - a session idle for `ttlMs` is ended; at most `cap` are kept, the least
 *   recently used ended first when a new one would exceed it. Ending one is
 *   what `DELETE /mcp` with its `Mcp-Session-Id` does (later requests with it
 *   get 404 -32001 "Session not found");
 * - `initialize` may carry a `clientInfo` of at most CLIENT_INFO_MAX
 *   characters of JSON (400 -32602 otherwise): it is kept with the session.
 *
 * A global router middleware, acting on /mcp only: ending a session runs the
 * router's own DELETE /mcp.
 */
import { Clock, Effect, Layer } from "effect"
import { McpSchema } from "effect/ai"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { AppConfig } from "../config/AppConfig.ts"

export interface McpSessionLimits {
  /** A session unused for this long is ended (ms). */
  readonly ttlMs: number
  /** Sessions kept at most. */
  readonly cap: number
}

export const CLIENT_INFO_MAX = 1_024
const SESSION_HEADER = "mcp-session-id"

/** The size of `params.clientInfo` as JSON when the body is one `initialize` request. */
const clientInfoSize = (text: string) => {
  if (!text.includes("\"initialize\"")) return 0
  const value: unknown = (() => {
    try {
      return JSON.parse(text)
    } catch {
      return undefined
    }
  })()
  if (typeof value !== "object" || value === null || Array.isArray(value)) return 0
  const message = value as { method?: unknown; params?: { clientInfo?: unknown } }
  return message.method === "initialize" ? JSON.stringify(message.params?.clientInfo ?? null).length : 0
}

const tooLarge = HttpServerResponse.jsonUnsafe({
  jsonrpc: "2.0",
  id: null,
  error: {
    code: McpSchema.INVALID_PARAMS_ERROR_CODE,
    message: `Invalid params: clientInfo may be at most ${CLIENT_INFO_MAX} characters of JSON`
  }
}, { status: 400 })

/** The session registry: id → last use, in least-recently-used order. */
export const makeMcpSessions = (limits: McpSessionLimits) =>
  HttpRouter.middleware(Effect.sync(() => {
    const sessions = new Map<string, number>()
    return (httpEffect) =>
      Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
        if (request.url !== "/mcp" && !request.url.startsWith("/mcp?")) return httpEffect
        const end = (id: string) =>
          Effect.provideService(
            httpEffect,
            HttpServerRequest.HttpServerRequest,
            HttpServerRequest.fromWeb(new Request("http://localhost/mcp", { method: "DELETE", headers: { [SESSION_HEADER]: id } }))
          ).pipe(Effect.ignore)
        return Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          for (const [id, at] of sessions) {
            if (now - at < limits.ttlMs) break
            sessions.delete(id)
            yield* end(id)
          }
          const id = request.headers[SESSION_HEADER]
          if (id !== undefined && sessions.delete(id)) sessions.set(id, now)
          if (request.method === "POST" && id === undefined) {
            const text = yield* Effect.orElseSucceed(request.text, () => "")
            if (clientInfoSize(text) > CLIENT_INFO_MAX) return tooLarge
          }
          const response = yield* httpEffect
          // The transport names a new session in a pre-response handler: look after it has.
          if (id === undefined) {
            yield* HttpEffect.appendPreResponseHandler((_, final) => {
              const created = final.headers[SESSION_HEADER]
              if (created === undefined) return Effect.succeed(final)
              sessions.set(created, now)
              const evicted: Array<string> = []
              for (const oldest of sessions.keys()) {
                if (sessions.size - evicted.length <= limits.cap) break
                evicted.push(oldest)
              }
              for (const oldest of evicted) sessions.delete(oldest)
              return Effect.as(Effect.forEach(evicted, end, { discard: true }), final)
            })
          }
          if (request.method === "DELETE" && id !== undefined && response.status < 300) sessions.delete(id)
          return response
        })
      })
  }), { global: true })

/** The limits from the configuration (PSX_MCP_SESSION_IDLE_MINUTES, PSX_MCP_SESSIONS). */
export const McpSessionsLive = Layer.unwrap(Effect.map(AppConfig, (config) =>
  makeMcpSessions({ ttlMs: config.mcpSessions.idleMinutes * 60_000, cap: config.mcpSessions.cap })))
