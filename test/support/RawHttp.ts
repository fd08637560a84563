/**
 * Raw requests against the test app's server (any method, URL, headers and
 * body text), answered with the status, content type and body text, or a
 * transport failure / timeout as a value: the fuzz and security suites judge
 * every outcome themselves.
 */
import { Duration, Effect, Option } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"

export interface RawRequest {
  readonly method: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body?: string
}

export type RawOutcome =
  | {
    readonly _tag: "Answered"
    readonly status: number
    readonly contentType: string
    readonly text: string
    /** The Retry-After header's seconds, when the answer carries one. */
    readonly retryAfter?: number
    readonly ms: number
  }
  | { readonly _tag: "Failed"; readonly reason: string; readonly ms: number }

export const sendRaw = (request: RawRequest, timeoutMs = 15_000) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const start = Date.now()
    let req = HttpClientRequest.make(request.method as "GET")(request.url).pipe(
      HttpClientRequest.setHeaders(request.headers)
    )
    if (request.body !== undefined) req = HttpClientRequest.bodyText(req, request.body, "application/json")
    return yield* client.execute(req).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.text, (text): RawOutcome => ({
          _tag: "Answered",
          status: response.status,
          contentType: response.headers["content-type"] ?? "",
          text,
          ...(response.headers["retry-after"] === undefined
            ? {}
            : { retryAfter: Number(response.headers["retry-after"]) }),
          ms: Date.now() - start
        }))
      ),
      Effect.timeoutOption(Duration.millis(timeoutMs)),
      Effect.map((answer) =>
        Option.getOrElse(
          answer,
          (): RawOutcome => ({ _tag: "Failed", reason: `no answer within ${timeoutMs} ms`, ms: Date.now() - start })
        )
      ),
      Effect.catch((e) => Effect.succeed<RawOutcome>({ _tag: "Failed", reason: String(e), ms: Date.now() - start }))
    )
  })
