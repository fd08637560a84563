/**
 * The HTTP server: the API routes, the OpenAPI document, the offline docs
 * page and the global guard, on Node's http server.
 */
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AppConfig } from "../config/AppConfig.ts"
import { AccountHttp, LedgerServices, PortfolioHttp } from "../ledger/LedgerHttp.ts"
import { AnswerSignerLive } from "../ledger/signing/AnswerKey.ts"
import { Analytics } from "../market/analytics/Analytics.ts"
import { AnalyticsHttp } from "../market/analytics/AnalyticsHttp.ts"
import { MarketBoard } from "../market/board/Board.ts"
import { BoardHttp } from "../market/board/BoardHttp.ts"
import { MarketIndexes } from "../market/board/Indexes.ts"
import { Companies } from "../market/companies/Companies.ts"
import { CompaniesHttp } from "../market/companies/CompaniesHttp.ts"
import { Filings } from "../market/filings/Filings.ts"
import { FilingsHttp } from "../market/filings/FilingsHttp.ts"
import { Prices } from "../market/prices/Prices.ts"
import { PricesHttp } from "../market/prices/PricesHttp.ts"
import { Freshness } from "../market/provenance/Freshness.ts"
import { Sources } from "../market/provenance/Provenance.ts"
import { ProvenanceHttp } from "../market/provenance/ProvenanceHttp.ts"
import { Quotes } from "../market/quotes/Quotes.ts"
import { QuotesHttp } from "../market/quotes/QuotesHttp.ts"
import { MarketStore } from "../market/readmodel/MarketStore.ts"
import { MarketReadModel } from "../market/readmodel/ReadModel.ts"
import { AnswerWarming } from "../market/readmodel/SnapshotAnswers.ts"
import { AiHttp } from "../mcp/Catalogue.ts"
import { McpLive } from "../mcp/Server.ts"
import { PackReadinessLive } from "../ingest/PackReadiness.ts"
import { Readiness } from "../system/Readiness.ts"
import { liveness, SystemHttp } from "../system/SystemHttp.ts"
import { WebLive } from "../web/WebRoutes.ts"
import { AnswerCache, successAnswer } from "./AnswerCache.ts"
import { Api } from "./Api.ts"
import { StrictRouting } from "./CanonicalUrl.ts"
import { DocsLive } from "./Docs.ts"
import * as FrontDoor from "./FrontDoor.ts"
import { Cursors } from "../paging/Cursors.ts"
import { FastPathLive } from "./FastPath.ts"
import { GuardLive } from "./Guard.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { RequestIds } from "./RequestId.ts"
import { ValidationLive } from "./Validation.ts"

/**
 * The market services over the read model (and the read model over the store, AppConfig and Cursors), with
 * the answer cache the market's handlers keep their answers in and its warming.
 */
const MarketServices = AnswerWarming.pipe(Layer.provideMerge(Layer.mergeAll(
  Companies.layer,
  Freshness.layer,
  MarketIndexes.layer,
  MarketBoard.layer,
  Filings.layer,
  Quotes.layer,
  Prices.layer,
  Sources.layer
)), Layer.provideMerge(Analytics.layer), Layer.provideMerge(MarketReadModel.layer), Layer.provideMerge(MarketStore.layer),
  Layer.provideMerge(AnswerCache.layer))

/** The feature services the routes use, but for /ready's (Readiness). */
const FeatureServices = AnswerSignerLive.pipe(
  // Signed answers (the guard, MCP tool results) use the ledger's deployment key.
  Layer.provideMerge(Layer.mergeAll(StrictRouting, LedgerServices)),
  Layer.provideMerge(MarketServices),
  Layer.provideMerge(Cursors.layer),
  Layer.provideMerge(RateLimiter.layer),
  Layer.provideMerge(RequestIds.layer)
)

/**
 * The feature services the routes use; provided outside the server so tools and tests share them
 * (with the router's strict matching, so every app built from `Routes` routes one spelling per path).
 */
export const Services = Readiness.layer.pipe(Layer.provide(PackReadinessLive), Layer.provideMerge(FeatureServices))

/**
 * The same for a process that opens no port (the MCP stdio command, which calls the routes in process): /ready
 * cannot be asked there, so its probe of the store, five times a second, is not run, and a call of it is a defect.
 */
export const ServicesWithoutPort = Layer.merge(
  FeatureServices,
  Layer.succeed(Readiness, Readiness.of({ report: Effect.die("/ready is not served without a port") }))
)

/** Request bodies are small JSON documents: anything over 1 MiB is refused (400 INVALID_REQUEST). */
export const BodyLimit = Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.mebibytes(1))

/** The HTTP API's routes behind the guard, needing the feature services (the MCP stdio command calls them too). */
export const ApiRoutes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([
      SystemHttp,
      CompaniesHttp,
      QuotesHttp,
      PricesHttp,
      FilingsHttp,
      ProvenanceHttp,
      BoardHttp,
      AnalyticsHttp,
      AccountHttp,
      PortfolioHttp,
      AiHttp
    ]),
    Layer.provide(ValidationLive)
  ),
  GuardLive
)

/** Every route of the service, needing the feature services. */
export const Routes = Layer.mergeAll(ApiRoutes, DocsLive, McpLive, WebLive)

/** How long any request may wait for its answer before a 503 record (FrontDoor.ts). */
export const REQUEST_DEADLINE_MS = 30_000

/**
 * The listening server on the configured host and port. Build it first: it
 * answers every request (503 "starting") until `layer` attaches the routes.
 */
export const FrontDoorLive = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    FrontDoor.layer({
      port: config.port,
      host: config.host,
      deadlineMs: REQUEST_DEADLINE_MS,
      // Liveness while the routes are built: GET /health's own answer (SystemHttp), encoded by its endpoint.
      whileUnattached: new Map([["/health", successAnswer(Api, "system", "health", liveness)]])
    }))
)

/**
 * The routes, attached to the `HttpServer` (FrontDoorLive) once the services
 * are built, with the fast path for the cached endpoints' kept answers.
 */
export const layer = Layer.mergeAll(HttpRouter.serve(Routes, { disableLogger: true }), FastPathLive).pipe(
  Layer.provide(BodyLimit),
  Layer.provideMerge(Services)
)
