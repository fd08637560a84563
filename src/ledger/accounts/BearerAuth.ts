/**
 * The bearer-authentication middleware's definition (tag and security
 * scheme), with no implementation: the API definition imports only this, so
 * a client can import the API without the store. The implementation is in
 * BearerAuthLive.ts.
 */
import { Context, Schema } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { SourceUnavailable, Unauthorized } from "../../../domain/Errors.ts"
import type { Principal } from "../../../domain/ledger/Grants.ts"

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("psx/ledger/CurrentPrincipal") {}

export class PortfolioAuth extends HttpApiMiddleware.Service<PortfolioAuth, { provides: CurrentPrincipal }>()(
  "psx/ledger/PortfolioAuth",
  {
    security: { bearer: HttpApiSecurity.bearer },
    // A credential that cannot be checked because the store is down is 503, not 401 (and never a 500).
    error: Schema.Union([Unauthorized, SourceUnavailable])
  }
) {}
