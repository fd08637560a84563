/**
 * One HTTP request run through the service's own routes, in process: the
 * router the server answers with (its global guard included), so the answer
 * is the route's own — its authentication, grants, validation, rate limit,
 * request id and log line, status and body — with no socket in between.
 *
 * The tools that are HTTP routes (RouteTools.ts) call through it. Each call
 * runs in a child fiber as a request of its own (its own scope and
 * pre-response handlers), so the MCP request around it is left as it was.
 */
import { Context, Effect, Fiber, Layer, type Scope } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"

type Response = HttpServerResponse.HttpServerResponse
type App = Effect.Effect<Response, unknown, HttpServerRequest.HttpServerRequest | Scope.Scope>

export class RouteCaller extends Context.Service<RouteCaller, {
  /** The response the service's routes give `request`. */
  readonly call: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<Response>
}>()("psx/mcp/RouteCaller") {
  /**
   * Over the router in context. Its handler is taken at the first call, when every route has been added
   * (the router serving HTTP is complete once the server is built; the tools are called only after that).
   */
  static readonly layer = Layer.effect(
    RouteCaller,
    Effect.gen(function*() {
      const router = yield* HttpRouter.HttpRouter
      let app: App | undefined
      const call = (request: HttpServerRequest.HttpServerRequest) =>
        Effect.suspend(() => {
          app ??= router.asHttpEffect()
          let answered: Response | undefined
          const handled = HttpEffect.toHandled(app, (_, response) =>
            Effect.sync(() => {
              answered = response
            }))
          return Effect.forkChild(Effect.provideService(handled, HttpServerRequest.HttpServerRequest, request)).pipe(
            Effect.flatMap(Fiber.join),
            Effect.flatMap(() =>
              answered === undefined ? Effect.die("the routes gave no response") : Effect.succeed(answered)
            )
          )
        })
      return RouteCaller.of({ call })
    })
  )
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * The `X-Data-Through` header of a market answer (`prices=2026-05-25, news=2026-08-07, …`: each dataset's last
 * day) as an object, or undefined when the header is absent or names no dataset. A part that is not
 * `name=YYYY-MM-DD` is skipped, never guessed at.
 */
export const dataThroughOf = (header: string | undefined): Record<string, string> | undefined => {
  if (header === undefined) return undefined
  const days: Record<string, string> = {}
  for (const part of header.split(",")) {
    const at = part.indexOf("=")
    if (at <= 0) continue
    const name = part.slice(0, at).trim(), day = part.slice(at + 1).trim()
    if (name !== "" && DAY.test(day)) days[name] = day
  }
  return Object.keys(days).length === 0 ? undefined : days
}
