/** Handlers of the session, donation, portfolio and ledger endpoints. */
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidRequest } from "../../domain/Errors.ts"
import { storeUnavailable } from "../db/Rows.ts"
import { Api } from "../http/Api.ts"
import { ServerRequestId } from "../http/RequestId.ts"
import { CurrentPrincipal } from "./accounts/BearerAuthLive.ts"
import { Keys } from "./accounts/Keys.ts"
import { Donations } from "./donations/Donations.ts"
import { Entitlements } from "./entitlements/Entitlements.ts"
import { Audit } from "./events/Audit.ts"
import { ENTITLEMENTS_DEFAULT_LIMIT, KEYS_MAX_LIMIT, LEDGER_DEFAULT_LIMIT } from "./LedgerApi.ts"
import { Performance } from "./performance/Performance.ts"
import { csvAnswer, readCsvBody } from "./portfolio/CsvBody.ts"
import { Portfolio, streamOf } from "./portfolio/Portfolio.ts"
import { PortfolioViews } from "./portfolio/PortfolioViews.ts"
import { TransactionsCsv } from "./portfolio/TransactionsCsv.ts"
import { TEMPLATE_COLUMNS } from "./portfolio/TransactionsCsvApi.ts"
import { AutoRecord } from "./settings/AutoRecord.ts"
import { LedgerSigner } from "./signing/Signing.ts"
import { TaxStatements } from "./tax/TaxStatements.ts"

/** The longest X-Request-Id a write keeps (in the event's hashed metadata), as for an Idempotency-Key. */
const MAX_CLIENT_REQUEST_ID = 200

/** The client's X-Request-Id (its claim) and the id this server gave the request (its record); a longer or unprintable one is a 400. */
const requestIdsOf = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const client = request.headers["x-request-id"]

  if (client !== undefined && (client.length > MAX_CLIENT_REQUEST_ID || /[\u0000-\u001f\u007f]/u.test(client))) {
    return yield* new InvalidRequest({
      message:
        `header X-Request-Id: at most ${MAX_CLIENT_REQUEST_ID} characters, no control characters (a write keeps it in ` +
        "the event's hashed metadata); nothing was recorded"
    })
  }
  return { requestId: yield* ServerRequestId, clientRequestId: client }
})

export const AccountHttp = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const donations = yield* Donations
    const signer = yield* LedgerSigner
    return handlers
      .handle("session", () => keys.createSession)
      .handle("donate", ({ payload }) => Effect.flatMap(ServerRequestId, (id) => donations.create(payload, id)))
      .handle("importTemplate", ({ query }) =>
        Effect.succeed(
          csvAnswer(
            `${TEMPLATE_COLUMNS[query.columns ?? "all"].join(",")}\r\n`,
            "transactions-template.csv",
            "public, max-age=86400"
          )
        ))
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

    // The grant each endpoint needs is checked before its handler runs (RequiredGrant, in the Api; PortfolioAuth).
    const asPrincipal = <A, E, R>(f: (p: typeof CurrentPrincipal.Service) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(CurrentPrincipal, f)

    return handlers
      .handle("holdings", () => asPrincipal((p) => views.holdings(p)))
      .handle("portfolio", ({ query }) =>
        asPrincipal((p) => views.portfolio(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor)))
      .handle("analyze", () =>
        asPrincipal((p) => views.analyze(p)))
      .handle("entitlements", ({ query }) =>
        asPrincipal((p) =>
          entitlements.list(p, query.limit ?? ENTITLEMENTS_DEFAULT_LIMIT)
        ))
      .handle("acceptEntitlement", ({ params }) =>
        asPrincipal((p) =>
          Effect.flatMap(ServerRequestId, (id) => entitlements.accept(p, params.id, id))
        ))
      .handle("dismissEntitlement", ({ params }) => asPrincipal((p) => entitlements.dismiss(p, params.id)))
      // Performance.
      .handle("performance", ({ query }) =>
        asPrincipal((p) =>
          Effect.map(performance.json(p, query), (body) =>
            HttpServerResponse.text(body, { contentType: "application/json" }))
        ))
      .handle("transact", ({ payload, headers }) =>
        asPrincipal((p) =>
          Effect.gen(function*() {
            const ids = yield* requestIdsOf
            return yield* portfolio.record(p, payload, { idempotencyKey: headers["idempotency-key"], ...ids })
          })
        ))
      // CSV in and out.
      .handle("exportTransactions", () =>
        asPrincipal((p) =>
          Effect.map(csv.exportCsv(p), (text) =>
            csvAnswer(text, "transactions.csv"))
        ))
      .handle("importTransactions", ({ payload, query }) =>
        asPrincipal((p) =>
          Effect.gen(function*() {
            const request = yield* HttpServerRequest.HttpServerRequest
            const text = yield* readCsvBody(payload, request.headers["content-length"], request.headers["content-type"])
            return yield* csv.importCsv(p, text, {
              dryRun: query.dry_run ?? false,
              dateOrder: query.date_order,
              mapping: query.mapping,
              ...(yield* requestIdsOf)
            })
          })
        ))
      // The tax-year statement, settings and a portfolio's donations.
      .handle("taxStatement", ({ query }) =>
        asPrincipal((p) =>
          tax.statement(p, query.tax_year)
        ))
      .handle("settings", () => asPrincipal((p) => autoRecord.settings(p)))
      .handle(
        "putSettings",
        ({ payload }) => asPrincipal((p) => autoRecord.update(p, payload.auto_record_entitlements))
      )
      .handle("donateFromPortfolio", ({ payload }) =>
        asPrincipal((p) =>
          Effect.flatMap(requestIdsOf, (ids) =>
            donations.createIn(streamOf(p.userId), payload, {
              actor_key_id: p.keyId,
              request_id: ids.requestId,
              client_request_id: ids.clientRequestId
            }))
        ))
      .handle("ledger", ({ query }) =>
        asPrincipal((p) =>
          Effect.map(portfolio.ledger(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor), (h) => ({
            stream_id: streamOf(p.userId),
            total: h.total,
            next_cursor: h.next_cursor,
            items: h.items
          }))
        ))
      .handle("verify", () =>
        asPrincipal((p) =>
          audit.verifyStream(streamOf(p.userId)).pipe(storeUnavailable)
        ))
      .handle("checkpoint", () =>
        asPrincipal((p) =>
          signer.checkpoint(streamOf(p.userId)).pipe(Effect.catchTag("SqlError", (e) =>
            storeUnavailable(Effect.fail(e))))
        ))
      .handle("createKey", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          keys.createKey(p, payload.grants, payload.label)))
      .handle("listKeys", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          keys.list(p, query.limit ?? KEYS_MAX_LIMIT, query.cursor)))
      .handle("revokeKey", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          keys.revoke(p, params.id)))
  }))
