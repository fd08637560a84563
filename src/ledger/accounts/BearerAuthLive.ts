/**
 * Bearer authentication for the portfolio endpoints: `Authorization: Bearer
 * <session token or API key>`. A missing, unknown or revoked credential is
 * 401 UNAUTHORIZED; a credential without the grant the endpoint names (RequiredGrant) is 403 FORBIDDEN, before
 * anything else of the request is decoded.
 * A credential that authenticates is told to the rate limiter, so later
 * requests with it are charged to its user rather than to the address.
 * The middleware's definition is in BearerAuth.ts.
 */
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import { Unauthorized } from "../../../domain/Errors.ts"
import { RateLimiter } from "../../http/RateLimiter.ts"
import { Keys } from "./Keys.ts"
import { CurrentPrincipal, PortfolioAuth, RequiredGrant } from "./BearerAuth.ts"

export { CurrentPrincipal, PortfolioAuth }

export const PortfolioAuthLive = Layer.effect(
  PortfolioAuth,
  Effect.gen(function*() {
    const keys = yield* Keys
    const limiter = yield* RateLimiter
    return PortfolioAuth.of({
      bearer: (httpEffect, { credential, endpoint }) =>
        Effect.gen(function*() {
          // The handler also runs when the header is absent: the credential is then empty.
          const secret = Redacted.value(credential).trim()
          if (secret === "") return yield* new Unauthorized({ message: "send Authorization: Bearer <session token or API key>" })
          const principal = yield* keys.authenticate(secret)
          limiter.authenticated(secret, principal.userId, principal.keyId, yield* Clock.currentTimeMillis)
          const grant = Context.getOption(endpoint.annotations, RequiredGrant)
          if (Option.isSome(grant)) yield* keys.require(principal, grant.value)
          return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
        })
    })
  })
)
