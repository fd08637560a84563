/**
 * The website's lasting sign-in: a cookie session opened with a session token or API key, so the token never has
 * to be kept by the page. The cookie `psx_web` is HttpOnly, SameSite=Strict, Path=/, Secure behind HTTPS; it is
 * a browser-session cookie that the server ends after 12 hours, or with "remember this device" a 30-day one.
 * Its grants are those of the credential it was opened with (revoking that credential ends it too).
 * Every write made with the cookie must come from this origin (Origin header) and carry the session's CSRF
 * token (`X-CSRF-Token`, from GET /web/session); otherwise 403. The bearer API is unchanged.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { Forbidden, type SourceUnavailable, Unauthorized } from "../../../domain/Errors.ts"
import { GRANTS, type Principal } from "../../../domain/ledger/Grants.ts"
import { iso, storeUnavailable } from "../../db/Rows.ts"
import { sha256 } from "../events/EventStore.ts"
import { SEEN_EVERY_MS } from "./Keys.ts"
import { COOKIE, REMEMBER_DAYS, SESSION_HOURS } from "./WebSessionApi.ts"

export { COOKIE, REMEMBER_DAYS, SESSION_HOURS } from "./WebSessionApi.ts"
const HOUR = 3_600_000

const SessionRow = Schema.Struct({
  id: Schema.String,
  user_id: Schema.String,
  key_id: Schema.String,
  kind: Schema.Literals(["session", "key"]),
  grants: Schema.Array(Schema.Literals(GRANTS)),
  remember: Schema.Boolean,
  expires_at: Schema.String,
  secret_hash: Schema.String,
  stale: Schema.Boolean
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(SessionRow))

/** A signed-in browser: who it acts for, and what the page needs to know. */
export interface WebSession {
  readonly id: string
  readonly principal: Principal
  readonly remember: boolean
  readonly expiresAt: string
  readonly csrfToken: string
}

/** The CSRF token of a cookie: derived from its secret, which only this browser (and never a script) holds. */
const csrfOf = (secret: string) => sha256(`csrf:${secret}`)

const same = (a: string, b: string) => {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

const store = (sql: SqlClient.SqlClient) => {
  const open = (principal: Principal, remember: boolean, at: number) =>
    Effect.gen(function*() {
      const secret = `psx_w_${randomBytes(32).toString("base64url")}`
      const expiresAt = new Date(at + (remember ? REMEMBER_DAYS * 24 : SESSION_HOURS) * HOUR).toISOString()
      yield* sql`
        INSERT INTO web_sessions (id, user_id, key_id, secret_hash, remember, created_at, expires_at)
        VALUES (${randomUUID()}, ${principal.userId}, ${principal.keyId}, ${sha256(secret)}, ${remember},
                ${new Date(at).toISOString()}::timestamptz, ${expiresAt}::timestamptz)`
      return { secret, expiresAt }
    }).pipe(storeUnavailable)

  /** The live session a cookie names (not ended, not expired, its credential not revoked), marking the user seen. */
  const find = (secret: string, at: number) =>
    Effect.gen(function*() {
      if (!/^psx_w_[A-Za-z0-9_-]{43}$/u.test(secret)) return Option.none<WebSession>()
      const digest = sha256(secret)
      const rows = yield* sql.unsafe(
        `SELECT w.id, w.user_id, w.key_id, k.kind, k.grants, w.remember, ${
          iso("w.expires_at")
        } AS expires_at, w.secret_hash,
                coalesce(u.last_seen_at, u.created_at) < $3::timestamptz AS stale
         FROM web_sessions w JOIN api_keys k ON k.id = w.key_id JOIN users u ON u.id = w.user_id
         WHERE w.secret_hash = $1 AND w.ended_at IS NULL AND w.expires_at > $2::timestamptz AND k.revoked_at IS NULL`,
        [digest, new Date(at).toISOString(), new Date(at - SEEN_EVERY_MS).toISOString()]
      ).pipe(Effect.flatMap(decodeRows))
      const r = rows[0]
      if (r === undefined || !same(r.secret_hash, digest)) return Option.none<WebSession>()
      if (r.stale) {
        yield* sql`UPDATE users SET last_seen_at = ${new Date(at).toISOString()}::timestamptz WHERE id = ${r.user_id}`
      }
      return Option.some<WebSession>({
        id: r.id,
        principal: { userId: r.user_id, keyId: r.key_id, kind: r.kind, grants: r.grants },
        remember: r.remember,
        expiresAt: r.expires_at,
        csrfToken: csrfOf(secret)
      })
    }).pipe(storeUnavailable)

  const end = (id: string, at: number) =>
    sql`UPDATE web_sessions SET ended_at = ${
      new Date(at).toISOString()
    }::timestamptz WHERE id = ${id} AND ended_at IS NULL`
      .pipe(Effect.asVoid, storeUnavailable)
  const endAll = (userId: string, at: number) =>
    sql`UPDATE web_sessions SET ended_at = ${
      new Date(at).toISOString()
    }::timestamptz WHERE user_id = ${userId} AND ended_at IS NULL RETURNING id`
      .pipe(Effect.map((rows) => rows.length), storeUnavailable)
  return { open, find, end, endAll }
}

export class WebSessions extends Context.Service<WebSessions, ReturnType<typeof store>>()("psx/ledger/WebSessions") {
  static readonly layer = Layer.effect(WebSessions, Effect.map(SqlClient.SqlClient, store))
}

// ---- The request's side ----

const header = (request: HttpServerRequest.HttpServerRequest, name: string) => {
  const v = request.headers[name]
  return typeof v === "string" ? v : undefined
}

/** The request came from a page of this origin: its Origin names the host it was sent to. */
export const fromThisOrigin = (request: HttpServerRequest.HttpServerRequest) => {
  const origin = header(request, "origin")
  if (origin === undefined || origin === "null") return false
  let host: string
  try {
    host = new URL(origin).host
  } catch {
    return false
  }
  return host === header(request, "host") || host === header(request, "x-forwarded-host")
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"])

export const refuseCrossSite = new Forbidden({
  message:
    "refused: a write with the website's cookie must come from this site's own pages (Origin) with its X-CSRF-Token"
})

/** Both checks of a write made with the cookie: this origin, and the session's CSRF token. */
export const writeAllowed = (request: HttpServerRequest.HttpServerRequest, session: WebSession) =>
  SAFE.has(request.method) ||
  (fromThisOrigin(request) && same(header(request, "x-csrf-token") ?? "", session.csrfToken))

/** The cookie's session, if the request carries a live one. */
export const currentSession = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const secret = request.cookies[COOKIE]
  if (secret === undefined) return Option.none<WebSession>()
  return yield* (yield* WebSessions).find(secret, yield* Clock.currentTimeMillis)
})

/**
 * For PortfolioAuth when no Authorization header came: the cookie's principal, 401 without a live cookie, and 403
 * for a write that is not from this origin or lacks the CSRF token.
 */
export const cookiePrincipal: Effect.Effect<
  { readonly principal: Principal; readonly secret: string },
  Unauthorized | Forbidden | SourceUnavailable,
  WebSessions | HttpServerRequest.HttpServerRequest
> = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const session = yield* currentSession
  if (Option.isNone(session)) {
    return yield* new Unauthorized({
      message: "send Authorization: Bearer <session token or API key>, or sign in on the website"
    })
  }
  if (!writeAllowed(request, session.value)) return yield* refuseCrossSite
  return { principal: session.value.principal, secret: request.cookies[COOKIE]! }
})
