/**
 * The id this server gives each request (the guard or the fast path sets it,
 * one per request, and echoes it as `x-request-id`). Handlers that record a request, such as a
 * ledger append, read it as `ServerRequestId`; the client's own
 * `X-Request-Id` header is a different thing, kept apart. Outside a request
 * it is absent.
 */
import { Context, Layer } from "effect"

export const ServerRequestId = Context.Reference<string | undefined>("psx/http/ServerRequestId", {
  defaultValue: () => undefined
})

/**
 * The id the guard gave each request, by the platform's request object, so the request gate's own answer (the
 * request deadline's 503) names the same id. Weak: an entry goes with its request.
 */
export const idsByRequest = new WeakMap<object, string>()

export interface RequestIdsShape {
  /** A new id: the time in base 36 and a sequence number, unique within the process. */
  readonly next: (now: number) => string
}

export class RequestIds extends Context.Service<RequestIds, RequestIdsShape>()("psx/http/RequestIds") {
  static readonly make = (): RequestIdsShape => {
    let sequence = 0
    // The time part is formatted once per millisecond (a busy server gives many ids in one).
    let at = Number.NaN
    let prefix = ""
    return {
      next: (now) => {
        if (now !== at) {
          at = now
          prefix = `${now.toString(36)}-`
        }
        return prefix + (++sequence).toString(36)
      }
    }
  }

  static readonly layer = Layer.sync(RequestIds, RequestIds.make)
}
