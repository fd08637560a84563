/**
 * The `as_of` of the market reads, applied around the handler: an endpoint
 * whose query declares `as_of` (AsOf.ts `asOfQuery`) and a request that gives
 * it are answered from the snapshot known at that instant (PointInTime.ts),
 * with the clock the services read stopped at that instant (so a quote's
 * freshness, the market's phase and trailing windows are judged then; sleeps
 * still run on the real clock), and the answer carries `X-As-Of` (the
 * instant asked for) and `X-As-Of-Known` (the newest retrieval at or before
 * it: the state the answer reflects). Handlers are unchanged; a request
 * without `as_of` passes straight through. The kept answers of an instant
 * (SnapshotAnswers.ts) are made by the same `readAsOf` (AsOf.ts).
 */
import { Effect, Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type HttpApiEndpoint, HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest, RateLimited, SourceUnavailable } from "../../../domain/Errors.ts"
import { asOfHeaders, asOfInstant, readAsOf } from "./AsOf.ts"
import { BUSY_RETRY_SECONDS, PointInTime } from "./PointInTime.ts"

export class AsOfMiddleware extends HttpApiMiddleware.Service<AsOfMiddleware>()("psx/market/AsOfMiddleware", {
  error: [InvalidRequest, RateLimited, SourceUnavailable]
}) {}

/** Whether the endpoint's query declares `as_of`. */
const declaresAsOf = (endpoint: HttpApiEndpoint.Top) => {
  const query = endpoint.query as { readonly schema?: { readonly fields?: Record<string, unknown> } } | undefined
  const fields = query?.schema?.fields
  return fields !== undefined && "as_of" in fields
}

export const AsOfMiddlewareLive = Layer.effect(
  AsOfMiddleware,
  Effect.gen(function*() {
    const pit = yield* PointInTime
    return (httpEffect, { endpoint }) =>
      Effect.gen(function*() {
        if (!declaresAsOf(endpoint)) return yield* httpEffect
        const request = yield* HttpServerRequest.HttpServerRequest
        const raw = new URL(request.url, "http://localhost").searchParams.get("as_of")
        if (raw === null) return yield* httpEffect
        const at = asOfInstant(raw)
        if (at === undefined) {
          return yield* new InvalidRequest({
            message: `query field \`as_of\`: expected an ISO 8601 instant with its offset, or a date YYYY-MM-DD; got ${JSON.stringify(raw.slice(0, 40))}`
          })
        }
        const view = yield* pit.snapshotAt(at).pipe(Effect.tapError((error) =>
          error instanceof RateLimited
            ? HttpEffect.appendPreResponseHandler((_, response) =>
              Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(BUSY_RETRY_SECONDS))))
            : Effect.void
        ))
        // On the final answer, an error record included.
        const headers = asOfHeaders(view)
        yield* HttpEffect.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
        return yield* readAsOf(view)(httpEffect)
      })
  })
)
