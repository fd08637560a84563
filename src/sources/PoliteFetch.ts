/**
 * One polite HTTP reader for every live source (the PSX portal, news feeds):
 * one request at a time, at least `minIntervalMs` apart, a timeout on each,
 * retries with exponential backoff on transport faults and 5xx answers (not
 * on a 404), and every failure as SOURCE_UNAVAILABLE naming what was read.
 */
import { Clock, Duration, Effect, Ref, Schedule, Semaphore } from "effect"
import { type HttpClient, HttpClientError, type HttpClientRequest } from "effect/http"
import { SourceUnavailable } from "../../domain/Errors.ts"

export interface Manners {
  readonly minIntervalMs: number
  readonly timeout: Duration.Input
  readonly retries: number
}

/** The HTTP status a failed request carries, if it got an answer at all. */
export const statusOf = (
  e: unknown
): number | undefined => (HttpClientError.isHttpClientError(e) ? e.response?.status : undefined)

/** A reader over `client`: `(what, request)` → the body as text; `source` prefixes its error messages. */
export const makePoliteFetch = (client: HttpClient.HttpClient, manners: Manners, source: string) =>
  Effect.gen(function*() {
    const gate = yield* Semaphore.make(1)
    const last = yield* Ref.make(0)
    const spaced = (request: HttpClientRequest.HttpClientRequest) =>
      gate.withPermit(Effect.gen(function*() {
        const wait = (yield* Ref.get(last)) + manners.minIntervalMs - (yield* Clock.currentTimeMillis)
        if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
        yield* Ref.set(last, yield* Clock.currentTimeMillis)
        return yield* client.execute(request).pipe(Effect.flatMap((res) => res.text), Effect.timeout(manners.timeout))
      }))
    return (what: string, request: HttpClientRequest.HttpClientRequest): Effect.Effect<string, SourceUnavailable> =>
      spaced(request).pipe(
        Effect.retry({
          times: manners.retries,
          schedule: Schedule.exponential(Duration.millis(250)),
          // Retry what can pass: transport faults, time-outs and 5xx; not a 404.
          while: (e) => {
            const status = statusOf(e)
            return status === undefined || status >= 500
          }
        }),
        Effect.mapError((e) => {
          const status = statusOf(e)
          const detail = (e instanceof Error ? e.message : String(e)).slice(0, 160)
          return new SourceUnavailable({
            message: `${source}: ${what} failed (${status !== undefined ? `HTTP ${status}: ` : ""}${detail})`
          })
        })
      )
  })
