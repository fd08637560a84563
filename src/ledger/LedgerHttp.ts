/** Handlers of the session, donation, portfolio and ledger endpoints. */
import { Effect, Layer } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { Grant } from "../../domain/ledger/Grants.ts"
import { Api } from "../http/Api.ts"
import { ServerRequestId } from "../http/RequestId.ts"
import { storeUnavailable } from "../db/Rows.ts"
import { Audit } from "./events/Audit.ts"
import { CurrentPrincipal, PortfolioAuthLive } from "./accounts/BearerAuthLive.ts"
import { Donations } from "./donations/Donations.ts"
import { EventStore } from "./events/EventStore.ts"
import { AnonymousExpiry } from "./accounts/AnonymousExpiry.ts"
import { Keys } from "./accounts/Keys.ts"
import { LedgerSigner } from "./signing/Signing.ts"
import { Entitlements } from "./entitlements/Entitlements.ts"
import { Performance } from "./performance/Performance.ts"
import { ENTITLEMENTS_DEFAULT_LIMIT, KEYS_MAX_LIMIT, LEDGER_DEFAULT_LIMIT } from "./LedgerApi.ts"
import { Portfolio, streamOf } from "./portfolio/Portfolio.ts"
import { PortfolioViews } from "./portfolio/PortfolioViews.ts"
import { MarketFacts } from "./portfolio/MarketFacts.ts"
import { LedgerWriter } from "./portfolio/Writer.ts"
import { readCsvBody, TransactionsCsv } from "./portfolio/TransactionsCsv.ts"
import { AutoRecord } from "./settings/AutoRecord.ts"
import { PortfolioSettings } from "./settings/Settings.ts"
import { TaxStatements } from "./tax/TaxStatements.ts"

/** The client's X-Request-Id (its claim) and the id this server gave the request (its record). */
const requestIdsOf = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  return { requestId: yield* ServerRequestId, clientRequestId: request.headers["x-request-id"] }
})

export const AccountHttp = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const donations = yield* Donations
    const signer = yield* LedgerSigner
    return handlers
      .handle("session", () => keys.createSession)
      .handle("donate", ({ payload }) => Effect.flatMap(ServerRequestId, (id) => donations.create(payload, id)))
      .handle("signingKey", () => signer.publicKeys.pipe(storeUnavailable))
  }))

export const PortfolioHttp = HttpApiBuilder.group(Api, "portfolio", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const portfolio = yield* Portfolio
    const views = yield* PortfolioViews
    const audit = yield* Audit
    const signer = yield* LedgerSigner
    const entitlements = yield* Entitlements
    const csv = yield* TransactionsCsv
    const tax = yield* TaxStatements
    const autoRecord = yield* AutoRecord
    const donations = yield* Donations
    const performance = yield* Performance

    const withGrant = <A, E, R>(grant: Grant, f: (p: typeof CurrentPrincipal.Service) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(CurrentPrincipal, (p) => Effect.andThen(keys.require(p, grant), f(p)))

    return handlers
      .handle("holdings", () => withGrant("portfolio:read", (p) => views.holdings(p)))
      .handle("portfolio", ({ query }) =>
        withGrant("portfolio:read", (p) => views.portfolio(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor)))
      .handle("analyze", () => withGrant("portfolio:read", (p) => views.analyze(p)))
      .handle("entitlements", ({ query }) =>
        withGrant("portfolio:read", (p) => entitlements.list(p, query.limit ?? ENTITLEMENTS_DEFAULT_LIMIT)))
      .handle("acceptEntitlement", ({ params }) =>
        withGrant("portfolio:write", (p) => Effect.flatMap(ServerRequestId, (id) => entitlements.accept(p, params.id, id))))
      .handle("dismissEntitlement", ({ params }) => withGrant("portfolio:write", (p) => entitlements.dismiss(p, params.id)))
      // Performance (issue 38 item 2).
      .handle("performance", ({ query }) =>
        withGrant("portfolio:read", (p) =>
          Effect.map(performance.json(p, query), (body) => HttpServerResponse.text(body, { contentType: "application/json" }))))
      .handle("transact", ({ payload, headers }) =>
        withGrant("portfolio:write", (p) =>
          Effect.gen(function*() {
            const ids = yield* requestIdsOf
            return yield* portfolio.record(p, payload, { idempotencyKey: headers["idempotency-key"], ...ids })
          })))
      // CSV in and out (issue 38 item 4).
      .handle("exportTransactions", () => withGrant("portfolio:read", (p) => csv.exportCsv(p)))
      .handle("importTransactions", ({ payload, query }) =>
        withGrant("portfolio:write", (p) =>
          Effect.gen(function*() {
            const request = yield* HttpServerRequest.HttpServerRequest
            const text = yield* readCsvBody(payload, request.headers["content-length"])
            return yield* csv.importCsv(p, text, { dryRun: query.dry_run ?? false, ...(yield* requestIdsOf) })
          })))
      // The tax-year statement, settings and a portfolio's donations (issue 38 items 3 and 1).
      .handle("taxStatement", ({ query }) => withGrant("portfolio:read", (p) => tax.statement(p, query.tax_year)))
      .handle("settings", () => withGrant("portfolio:read", (p) => autoRecord.settings(p)))
      .handle("putSettings", ({ payload }) => withGrant("portfolio:write", (p) => autoRecord.update(p, payload.auto_record_entitlements)))
      .handle("donateFromPortfolio", ({ payload }) =>
        withGrant("portfolio:write", (p) =>
          Effect.flatMap(requestIdsOf, (ids) =>
            donations.createIn(streamOf(p.userId), payload, {
              actor_key_id: p.keyId,
              request_id: ids.requestId,
              client_request_id: ids.clientRequestId
            }))))
      .handle("ledger", ({ query }) =>
        withGrant("portfolio:read", (p) =>
          Effect.map(portfolio.ledger(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor), (h) => ({
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
      .handle("listKeys", ({ query }) => Effect.flatMap(CurrentPrincipal, (p) => keys.list(p, query.limit ?? KEYS_MAX_LIMIT, query.cursor)))
      .handle("revokeKey", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (p) => keys.revoke(p, params.id)))
  }))
