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
