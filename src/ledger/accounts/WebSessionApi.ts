/**
 * The website's sign-in routes, as part of the one route table (definitions only; the handlers are in
 * WebSessionHttp.ts, the rules in WebSession.ts): what a browser's page calls to open, describe and end the
 * cookie session that keeps it signed in.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Forbidden, SourceUnavailable, Unauthorized } from "../../../domain/Errors.ts"

/** The cookie's name. */
export const COOKIE = "psx_web"
/** Without "remember this device": until the browser closes, and at most this long. */
export const SESSION_HOURS = 12
/** With "remember this device". */
export const REMEMBER_DAYS = 30

const describe = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const SignedOut = Schema.Struct({ signed_in: Schema.Literal(false) })

/** A signed-in browser, as its pages see it (never the cookie's secret, never the token it was opened with). */
export const SignedIn = Schema.Struct({
  signed_in: Schema.Literal(true),
  kind: Schema.Literals(["session", "key"]).annotate({
    description: "What the cookie was opened with: a session token or an API key (its grants are the cookie's)"
  }),
  key_id: Schema.String.annotate({ description: "The id of that token or key (GET /v1/me/keys lists it)" }),
  remember: Schema.Boolean.annotate({ description: "Whether \"remember this device\" was chosen" }),
  expires_at: Schema.String.annotate({ description: "When the server ends this session (UTC, ISO 8601)" }),
  csrf_token: Schema.String.annotate({
    description: "Send it as X-CSRF-Token with every write made with the cookie (64 hex digits)"
  })
})

export const SessionState = Schema.Union([SignedOut, SignedIn])

export const SignIn = Schema.Struct({
  token: Schema.String.check(Schema.isMaxLength(200)).annotate({
    description: "A session token (POST /v1/me/session) or an API key; it is checked, never stored or sent back"
  }),
  remember: Schema.optional(Schema.Boolean.annotate({
    description: `true: a cookie kept for ${REMEMBER_DAYS} days ("remember this device"); otherwise one that ends ` +
      `when the browser closes, and after ${SESSION_HOURS} hours at most`
  }))
})

export const SignOut = Schema.Struct({
  everywhere: Schema.optional(Schema.Boolean.annotate({
    description: "true: end every website session of this user, on every device; otherwise this browser's only"
  }))
})

export const SignedOutNow = Schema.Struct({
  signed_in: Schema.Literal(false),
  ended: Schema.optional(
    Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
      description: "How many sessions were ended (absent when the request carried no live cookie)"
    })
  )
})

const COOKIE_RULE =
  `The cookie \`${COOKIE}\` is HttpOnly (no script reads it), SameSite=Strict, Path=/, and Secure when the request ` +
  `reached the service over HTTPS (directly, or through a proxy sending X-Forwarded-Proto: https). Without "remember ` +
  `this device" it is a browser-session cookie that the server also ends after ${SESSION_HOURS} hours; with it, ` +
  `Max-Age is ${REMEMBER_DAYS} days. Its grants are those of the credential it was opened with, and revoking that ` +
  `credential ends it. The cookie is accepted by every /v1/me route in place of Authorization: a read needs nothing ` +
  `else; a write (any method but GET, HEAD and OPTIONS) must come from this site's own pages (an Origin header naming ` +
  `the host the request was sent to) and carry the session's CSRF token in X-CSRF-Token, else 403 FORBIDDEN and ` +
  `nothing changes. The bearer API is unchanged. Answers carry Cache-Control: no-store.`

export class WebSessionApi extends HttpApiGroup.make("webSession")
  .add(
    HttpApiEndpoint.get("webSessionState", "/web/session", { success: SessionState, error: SourceUnavailable })
      .annotateMerge(
        describe(
          "Describe this browser's website sign-in",
          "Public. `{signed_in: false}` without a live cookie; otherwise what the cookie acts as, until when, and the " +
            "CSRF token its writes must send. " + COOKIE_RULE
        )
      ),
    HttpApiEndpoint.post("webSignIn", "/web/session", {
      payload: SignIn,
      success: SignedIn,
      error: [Unauthorized, Forbidden, SourceUnavailable]
    }).annotateMerge(
      describe(
        "Sign this browser in",
        "Checks the session token or API key and sets the cookie (200, Set-Cookie). Only from this site's own pages: " +
          "a request whose Origin does not name this host is 403 FORBIDDEN (a cross-site form cannot sign a visitor " +
          "in), an unknown or revoked credential 401 UNAUTHORIZED. " + COOKIE_RULE
      )
    ),
    HttpApiEndpoint.post("webSignOut", "/web/session/end", {
      payload: SignOut,
      success: SignedOutNow,
      error: [Forbidden, SourceUnavailable]
    }).annotateMerge(
      describe(
        "Sign out of this browser, or of every device",
        "Ends this browser's website session (or, with everywhere: true, every website session of the user) and " +
          "clears the cookie (Set-Cookie with Max-Age=0). A write made with the cookie: from this origin and with " +
          "X-CSRF-Token, else 403 FORBIDDEN. Without a live cookie it answers {signed_in: false} and ends nothing. " +
          "Session tokens and API keys stay valid. " + COOKIE_RULE
      )
    )
  )
  .annotateMerge(OpenApi.annotations({
    title: "Website sign-in",
    description:
      "The cookie session that keeps the website signed in across tabs and reloads, so a page never has to keep a " +
      "token. Meant for this service's own pages; programs use Authorization: Bearer."
  }))
{}
