/**
 * Handlers of the website's sign-in routes (WebSessionApi.ts declares them, WebSession.ts holds the rules):
 * - `GET /web/session`: `{signed_in: false}`, or `{signed_in: true, kind, key_id, remember, expires_at, csrf_token}`.
 * - `POST /web/session` `{token, remember?}` from this origin: checks the token or key, sets the cookie.
 * - `POST /web/session/end` `{everywhere?}` with the cookie, from this origin and with the CSRF token: ends this
 *   browser's session (or every website session of the user) and clears the cookie. Tokens and keys stay valid.
 * Each answer is built here, with its cookie and `Cache-Control: no-store`; an error is `{error, message}`.
 */
import { Clock, Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../http/Api.ts"
import { Keys } from "./Keys.ts"
import {
  currentSession,
  fromThisOrigin,
  refuseCrossSite,
  type WebSession,
  WebSessions,
  writeAllowed
} from "./WebSession.ts"
import { COOKIE, REMEMBER_DAYS } from "./WebSessionApi.ts"

const reply = (body: unknown, status = 200) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

const failure = (error: { readonly error: string; readonly message: string }, status: number) =>
  reply({ error: error.error, message: error.message }, status)

const describe = (s: WebSession) => ({
  signed_in: true,
  kind: s.principal.kind,
  key_id: s.principal.keyId,
  remember: s.remember,
  expires_at: s.expiresAt,
  csrf_token: s.csrfToken
})

/** Secure when the request reached the service over HTTPS (directly, or through a proxy that says so). */
const secure = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["x-forwarded-proto"] ?? "").split(",")[0]?.trim() === "https" || request.url.startsWith("https:")

const cookieOptions = (request: HttpServerRequest.HttpServerRequest) =>
  ({ httpOnly: true, sameSite: "strict", path: "/", secure: secure(request) }) as const

const status = Effect.map(currentSession, (s) => reply(Option.isSome(s) ? describe(s.value) : { signed_in: false }))

const signIn = (body: { readonly token: string; readonly remember?: boolean | undefined }) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!fromThisOrigin(request)) return failure(refuseCrossSite, 403)
    const principal = yield* Effect.result((yield* Keys).authenticate(body.token.trim()))
    if (principal._tag === "Failure") {
      return failure(principal.failure, principal.failure.error === "UNAUTHORIZED" ? 401 : 503)
    }
    const remember = body.remember === true
    const at = yield* Clock.currentTimeMillis
    const sessions = yield* WebSessions
    const opened = yield* sessions.open(principal.success, remember, at)
    const session = yield* Effect.flatMap(sessions.find(opened.secret, at), Effect.fromOption)
    return yield* HttpServerResponse.setCookie(reply(describe(session)), COOKIE, opened.secret, {
      ...cookieOptions(request),
      ...(remember ? { maxAge: `${REMEMBER_DAYS} days` } : {})
    })
  })

const signOut = (body: { readonly everywhere?: boolean | undefined }) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const session = yield* currentSession
    if (Option.isNone(session)) return reply({ signed_in: false })
    if (!writeAllowed(request, session.value)) return failure(refuseCrossSite, 403)
    const sessions = yield* WebSessions
    const at = yield* Clock.currentTimeMillis
    const ended = body.everywhere === true
      ? yield* sessions.endAll(session.value.principal.userId, at)
      : yield* Effect.as(sessions.end(session.value.id, at), 1)
    return yield* HttpServerResponse.expireCookie(reply({ signed_in: false, ended }), COOKIE, cookieOptions(request))
  })

/** The store down is 503 SOURCE_UNAVAILABLE; anything else 500, with no internals. */
const answered = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>) =>
  effect.pipe(Effect.catch((e) =>
    Effect.succeed(
      typeof e === "object" && e !== null && "error" in e && e.error === "SOURCE_UNAVAILABLE"
        ? failure(e as { error: string; message: string }, 503)
        : reply({ error: "INTERNAL", message: "the sign-in could not be completed" }, 500)
    )
  ))

export const WebSessionHttp = HttpApiBuilder.group(Api, "webSession", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const sessions = yield* WebSessions
    const provide = <A, E>(effect: Effect.Effect<A, E, Keys | WebSessions | HttpServerRequest.HttpServerRequest>) =>
      effect.pipe(Effect.provideService(Keys, keys), Effect.provideService(WebSessions, sessions))
    return handlers
      .handle("webSessionState", () => provide(answered(status)))
      .handle("webSignIn", ({ payload }) => provide(answered(signIn(payload))))
      .handle("webSignOut", ({ payload }) => provide(answered(signOut(payload))))
  }))
