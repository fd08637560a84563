/**
 * The bearer-authentication middleware's definition (tag and security
 * scheme), with no implementation: the API definition imports only this, so
 * a client can import the API without the store. The implementation is in
 * Authorization.ts.
 */
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Unauthorized } from "../../domain/Errors.ts"
import type { Principal } from "../../domain/ledger/Grants.ts"

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("psx/ledger/CurrentPrincipal") {}

export class PortfolioAuth extends HttpApiMiddleware.Service<PortfolioAuth, { provides: CurrentPrincipal }>()(
  "psx/ledger/PortfolioAuth",
  {
    security: { bearer: HttpApiSecurity.bearer },
    error: Unauthorized
  }
) {}
