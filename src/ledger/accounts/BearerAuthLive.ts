/**
 * Bearer authentication for the portfolio endpoints: `Authorization: Bearer
 * <session token or API key>`, or the website's cookie session when no header came. A missing, unknown or revoked credential is
 * 401 UNAUTHORIZED; a credential without the grant the endpoint names (RequiredGrant) is 403 FORBIDDEN, before
 * anything else of the request is decoded.
 * A credential that authenticates is told to the rate limiter, so later
 * requests with it are charged to its user rather than to the address.
 * The middleware's definition is in BearerAuth.ts.
 */
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import { RateLimiter } from "../../http/RateLimiter.ts"
import { CurrentPrincipal, PortfolioAuth, RequiredGrant } from "./BearerAuth.ts"
import { Keys } from "./Keys.ts"
import { cookiePrincipal, WebSessions } from "./WebSession.ts"

export { CurrentPrincipal, PortfolioAuth }

export const PortfolioAuthLive = Layer.effect(
  PortfolioAuth,
  Effect.gen(function*() {
    const keys = yield* Keys
    const limiter = yield* RateLimiter
    const sessions = yield* WebSessions
    return PortfolioAuth.of({
      bearer: (httpEffect, { credential, endpoint }) =>
        Effect.gen(function*() {
          // The handler also runs when the header is absent: the credential is then empty.
          const secret = Redacted.value(credential).trim()
          // Without the header, the website's cookie session (WebSession.ts; a write needs its Origin and CSRF checks).
          const { principal, secret: charged } = secret === ""
            ? yield* Effect.provideService(cookiePrincipal, WebSessions, sessions)
            : { principal: yield* keys.authenticate(secret), secret }
          limiter.authenticated(charged, principal.userId, principal.keyId, yield* Clock.currentTimeMillis)
          const grant = Context.getOption(endpoint.annotations, RequiredGrant)
          if (Option.isSome(grant)) yield* keys.require(principal, grant.value)
          return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
        })
    })
  })
)
