/**
 * The bearer-authentication middleware's definition (tag and security
 * scheme), with no implementation: the API definition imports only this, so
 * a client can import the API without the store. The implementation is in
 * BearerAuthLive.ts.
 */
import { Context, Schema } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Forbidden, SourceUnavailable, Unauthorized } from "../../../domain/Errors.ts"
import type { Grant, Principal } from "../../../domain/ledger/Grants.ts"

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("psx/ledger/CurrentPrincipal") {}

/**
 * The grant an endpoint needs (an annotation of the endpoint in its Api). PortfolioAuth checks it right after the
 * credential, before the request's params, query or body are decoded: a credential without the grant gets 403 and
 * learns nothing about what it sent (not even that the body was malformed). An endpoint without it (the key
 * routes) decides in its handler.
 */
export class RequiredGrant extends Context.Service<RequiredGrant, Grant>()("psx/ledger/RequiredGrant") {}

export class PortfolioAuth extends HttpApiMiddleware.Service<PortfolioAuth, { provides: CurrentPrincipal }>()(
  "psx/ledger/PortfolioAuth",
  {
    security: { bearer: HttpApiSecurity.bearer },
    // A credential that cannot be checked because the store is down is 503, not 401 (and never a 500); one without
    // the endpoint's grant (RequiredGrant) is 403.
    error: Schema.Union([Unauthorized, Forbidden, SourceUnavailable])
  }
) {}
