/**
 * The website's sign-in routes (WebSession.ts holds the rules):
 * - `GET /web/session`: `{signed_in: false}`, or `{signed_in: true, kind, remember, expires_at, csrf_token}`.
 * - `POST /web/session` `{token, remember?}` from this origin: checks the token or key, sets the cookie.
 * - `POST /web/session/end` `{everywhere?}` with the cookie, from this origin and with the CSRF token: ends this
 *   browser's session (or every website session of the user) and clears the cookie. Tokens and keys stay valid.
 * Answers are JSON, never cached; an error is `{error, message}`.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Keys } from "./Keys.ts"
import {
  COOKIE,
  currentSession,
  fromThisOrigin,
  refuseCrossSite,
  REMEMBER_DAYS,
  type WebSession,
  WebSessions,
  writeAllowed
} from "./WebSession.ts"

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

const SignIn = Schema.Struct({
  token: Schema.String.check(Schema.isMaxLength(200)),
  remember: Schema.optional(Schema.Boolean)
})
const SignOut = Schema.Struct({ everywhere: Schema.optional(Schema.Boolean) })

/** Secure when the request reached the service over HTTPS (directly, or through a proxy that says so). */
const secure = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["x-forwarded-proto"] ?? "").split(",")[0]?.trim() === "https" || request.url.startsWith("https:")

const cookieOptions = (request: HttpServerRequest.HttpServerRequest) =>
  ({ httpOnly: true, sameSite: "strict", path: "/", secure: secure(request) }) as const

const status = Effect.map(currentSession, (s) => reply(Option.isSome(s) ? describe(s.value) : { signed_in: false }))

const signIn = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (!fromThisOrigin(request)) return failure(refuseCrossSite, 403)
  const body = yield* Effect.option(HttpServerRequest.schemaBodyJson(SignIn))
  if (Option.isNone(body)) {
    return reply({ error: "INVALID_REQUEST", message: "send {\"token\": \"…\", \"remember\": true|false}" }, 400)
  }
  const principal = yield* Effect.result((yield* Keys).authenticate(body.value.token.trim()))
  if (principal._tag === "Failure") {
    return failure(principal.failure, principal.failure.error === "UNAUTHORIZED" ? 401 : 503)
  }
  const remember = body.value.remember === true
  const at = yield* Clock.currentTimeMillis
  const sessions = yield* WebSessions
  const opened = yield* sessions.open(principal.success, remember, at)
  const session = yield* Effect.flatMap(sessions.find(opened.secret, at), Effect.fromOption)
  return yield* HttpServerResponse.setCookie(reply(describe(session)), COOKIE, opened.secret, {
    ...cookieOptions(request),
    ...(remember ? { maxAge: `${REMEMBER_DAYS} days` } : {})
  })
})

const signOut = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const session = yield* currentSession
  if (Option.isNone(session)) return reply({ signed_in: false })
  if (!writeAllowed(request, session.value)) return failure(refuseCrossSite, 403)
  const body = yield* Effect.option(HttpServerRequest.schemaBodyJson(SignOut))
  const sessions = yield* WebSessions
  const at = yield* Clock.currentTimeMillis
  const ended = Option.isSome(body) && body.value.everywhere === true
    ? yield* sessions.endAll(session.value.principal.userId, at)
    : yield* Effect.as(sessions.end(session.value.id, at), 1)
  return yield* HttpServerResponse.expireCookie(reply({ signed_in: false, ended }), COOKIE, cookieOptions(request))
})

const unavailable = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>) =>
  effect.pipe(Effect.catch((e) =>
    Effect.succeed(
      typeof e === "object" && e !== null && "error" in e && e.error === "SOURCE_UNAVAILABLE"
        ? failure(e as { error: string; message: string }, 503)
        : reply({ error: "INTERNAL", message: "the sign-in could not be completed" }, 500)
    )
  ))

export const WebSessionRoutes = HttpRouter.addAll([
  HttpRouter.route("GET", "/web/session", unavailable(status)),
  HttpRouter.route("POST", "/web/session", unavailable(signIn)),
  HttpRouter.route("POST", "/web/session/end", unavailable(signOut))
])
