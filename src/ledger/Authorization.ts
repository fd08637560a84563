/**
 * Bearer authentication for the portfolio endpoints: `Authorization: Bearer
 * <session token or API key>`. A missing, unknown or revoked credential is
 * 401 UNAUTHORIZED; grants are checked by each endpoint (403 FORBIDDEN).
 */
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Unauthorized } from "../../domain/Errors.ts"
import { Keys, type Principal } from "./Keys.ts"

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("psx/ledger/CurrentPrincipal") {}

export class PortfolioAuth extends HttpApiMiddleware.Service<PortfolioAuth, { provides: CurrentPrincipal }>()(
  "psx/ledger/PortfolioAuth",
  {
    security: { bearer: HttpApiSecurity.bearer },
    error: Unauthorized
  }
) {}

export const PortfolioAuthLive = Layer.effect(
  PortfolioAuth,
  Effect.gen(function*() {
    const keys = yield* Keys
    return PortfolioAuth.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          // The handler also runs when the header is absent: the credential is then empty.
          const secret = Redacted.value(credential).trim()
          if (secret === "") return yield* new Unauthorized({ message: "send Authorization: Bearer <session token or API key>" })
          const principal = yield* keys.authenticate(secret)
          return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
        })
    })
  })
)
