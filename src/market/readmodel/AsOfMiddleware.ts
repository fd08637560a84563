/**
 * The `as_of` and `recorded_as_of` of the market reads, applied around the
 * handler: an endpoint whose query declares them (AsOf.ts `asOfQuery`) and a
 * request that gives one are answered from the snapshot of that clock at that
 * instant (PointInTime.ts; a build is charged to the client as the rate
 * limiter names it: its key's principal, else its address),
 * with the clock the services read stopped at that instant (so a quote's
 * freshness, the market's phase and trailing windows are judged then; sleeps
 * still run on the real clock), and the answer carries `X-As-Of-Clock`,
 * `X-As-Of` (the instant asked for) and `X-As-Of-Known` (the state the
 * answer reflects). Handlers are unchanged. Every answer of such an endpoint
 * carries `X-Data-Through`, the last day of each dataset in the snapshot it
 * reads (the live one, or the instant's). The cached answers of an instant
 * (SnapshotAnswers.ts) are made by the same `readAsOf` (AsOf.ts).
 */
import { Effect, Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type HttpApiEndpoint, HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest, RateLimited, SourceUnavailable } from "../../../domain/Errors.ts"
import { RateLimiter } from "../../http/RateLimiter.ts"
import { asOfHeaders, asOfInstant, clockOf, dataThroughHeaders, readAsOf } from "./AsOf.ts"
import { BUSY_RETRY_SECONDS, PointInTime } from "./PointInTime.ts"
import { MarketReadModel } from "./ReadModel.ts"

export class AsOfMiddleware extends HttpApiMiddleware.Service<AsOfMiddleware>()("psx/market/AsOfMiddleware", {
  error: [InvalidRequest, RateLimited, SourceUnavailable]
}) {}

/** Sets `headers` on the final answer, an error record included. */
const answerCarries = (headers: Readonly<Record<string, string>>) =>
  HttpEffect.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))

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
    const limiter = yield* RateLimiter
    const model = yield* MarketReadModel
    return (httpEffect, { endpoint }) =>
      Effect.gen(function*() {
        if (!declaresAsOf(endpoint)) return yield* httpEffect
        const request = yield* HttpServerRequest.HttpServerRequest
        const params = new URL(request.url, "http://localhost").searchParams
        const named = clockOf((name) => params.get(name))
        if (named === undefined) {
          // The live snapshot the handler reads (none before the first build: the answer is 503).
          const live = model.state()
          if (live !== undefined) yield* answerCarries(dataThroughHeaders(live.snapshot))
          return yield* httpEffect
        }
        if (named === "both") {
          return yield* new InvalidRequest({
            message: "give `as_of` (the market clock) or `recorded_as_of` (the recorded clock), not both"
          })
        }
        const at = asOfInstant(named.raw)
        if (at === undefined) {
          const field = named.clock === "market" ? "as_of" : "recorded_as_of"
          return yield* new InvalidRequest({
            message:
              `query field \`${field}\`: expected an ISO 8601 instant with its offset, or a date YYYY-MM-DD; got ${
                JSON.stringify(named.raw.slice(0, 40))
              }`
          })
        }
        const address = request.remoteAddress
        const bucket = limiter.bucketOf(
          "private",
          request.headers["authorization"],
          address._tag === "Some" ? address.value : "unknown"
        )
        const clients = bucket.also === undefined ? [bucket.key] : [bucket.key, bucket.also]
        const view = yield* pit.snapshotAt(at, named.clock, clients).pipe(Effect.tapError((error) =>
          error instanceof RateLimited || error instanceof SourceUnavailable
            ? HttpEffect.appendPreResponseHandler((_, response) =>
              Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(BUSY_RETRY_SECONDS)))
            )
            : Effect.void
        ))
        yield* answerCarries(asOfHeaders(view))
        return yield* readAsOf(view)(httpEffect)
      })
  })
)
