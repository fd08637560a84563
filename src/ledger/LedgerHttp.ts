/** Handlers of the session, donation, portfolio and ledger endpoints. */
import { Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { Grant } from "../../domain/ledger/Grants.ts"
import { Api } from "../http/Api.ts"
import { RateLimiter } from "../http/RateLimiter.ts"
import { storeUnavailable } from "../db/Rows.ts"
import { Audit } from "./Audit.ts"
import { CurrentPrincipal, PortfolioAuthLive } from "./Authorization.ts"
import { Donations } from "./Donations.ts"
import { EventStore } from "./EventStore.ts"
import { Keys } from "./Keys.ts"
import { LedgerSigner } from "./Signing.ts"
import { LEDGER_DEFAULT_LIMIT } from "./LedgerApi.ts"
import { Portfolio, streamOf } from "./Portfolio.ts"
import { PortfolioViews } from "./PortfolioViews.ts"
import { LedgerWriter } from "./Writer.ts"

const requestIdOf = Effect.map(HttpServerRequest.HttpServerRequest, (r) => r.headers["x-request-id"])

export const AccountHttp = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const donations = yield* Donations
    const signer = yield* LedgerSigner
    return handlers
      .handle("session", () => keys.createSession)
      .handle("donate", ({ payload }) => donations.create(payload))
      .handle("signingKey", () => Effect.map(signer.publicKeys, (keys) => ({ keys })).pipe(storeUnavailable))
  }))

export const PortfolioHttp = HttpApiBuilder.group(Api, "portfolio", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const portfolio = yield* Portfolio
    const views = yield* PortfolioViews
    const audit = yield* Audit
    const signer = yield* LedgerSigner

    const withGrant = <A, E, R>(grant: Grant, f: (p: typeof CurrentPrincipal.Service) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(CurrentPrincipal, (p) => Effect.andThen(keys.require(p, grant), f(p)))

    return handlers
      .handle("holdings", () => withGrant("portfolio:read", (p) => views.holdings(p)))
      .handle("portfolio", ({ query }) =>
        withGrant("portfolio:read", (p) => views.portfolio(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor)))
      .handle("analyze", () => withGrant("portfolio:read", (p) => views.analyze(p)))
      .handle("transact", ({ payload, headers }) =>
        withGrant("portfolio:write", (p) =>
          Effect.gen(function*() {
            const requestId = yield* requestIdOf
            return yield* portfolio.record(p, payload, {
              idempotencyKey: headers["idempotency-key"],
              requestId
            })
          })))
      .handle("ledger", ({ query }) =>
        withGrant("portfolio:read", (p) =>
          Effect.map(portfolio.history(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor), (h) => ({
            stream_id: streamOf(p.userId),
            total: h.total,
            next_cursor: h.next_cursor,
            items: h.items
          }))))
      .handle("verify", () =>
        withGrant("portfolio:read", (p) => audit.verifyStream(streamOf(p.userId)).pipe(storeUnavailable)))
      .handle("checkpoint", () =>
        withGrant("portfolio:read", (p) =>
          signer.checkpoint(streamOf(p.userId)).pipe(Effect.catchTag("SqlError", (e) => storeUnavailable(Effect.fail(e))))))
      .handle("createKey", ({ payload }) => Effect.flatMap(CurrentPrincipal, (p) => keys.createKey(p, payload.grants, payload.label)))
      .handle("listKeys", () => Effect.flatMap(CurrentPrincipal, (p) => keys.list(p)))
      .handle("revokeKey", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          Effect.tap(keys.revoke(p, params.id), (k) =>
            Effect.map(Effect.serviceOption(RateLimiter), Option.map((l) => l.forgetKey(k.id))))))
  }))

/** The ledger services over a SqlClient (and the market's Quotes and Sources). */
export const LedgerServices = PortfolioViews.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(Portfolio.layer, Donations.layer, Audit.layer, PortfolioAuthLive, LedgerSigner.layer)),
  Layer.provideMerge(LedgerWriter.layer),
  Layer.provideMerge(Layer.mergeAll(Keys.layer, EventStore.layer))
)
