/**
 * The composition root: every layer of the service is put together here, and only here. Features export
 * their services (each with its `static layer`) and their handler groups (`…Http.ts`); this module builds
 * the features' services (`MarketServices`, `LedgerServices`), the routes over them (`Routes`), the app
 * served by the HTTP server (`AppLive`), and each command's process: configuration and logging, the store,
 * the pack import, the live portal crawl (`ServeLive`, `McpStdioLive`, `DatabaseLive`, `StoreLive`,
 * `CrawlerWithStore`, `AuditLive`). The CLI (Cli.ts) picks one; tests build theirs from `AppLive` or `Services` and `Routes` (test/support/TestApp.ts).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer, Logger, Option, References } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AppConfig } from "./config/AppConfig.ts"
import * as Database from "./db/Database.ts"
import { lockDataDir } from "./db/DataDirLock.ts"
import { AnswerCache } from "./http/AnswerCache.ts"
import { Api } from "./http/Api.ts"
import { StrictRouting } from "./http/CanonicalUrl.ts"
import { DocsLive, DocsScriptLoaded } from "./http/Docs.ts"
import { FastPathLive } from "./http/FastPath.ts"
import { GuardLive } from "./http/Guard.ts"
import { RateLimiter } from "./http/RateLimiter.ts"
import { RequestIds } from "./http/RequestId.ts"
import { BodyLimit, RequestGateLive } from "./http/Server.ts"
import { ValidationLive } from "./http/Validation.ts"
import { PackImport } from "./ingest/PackImport.ts"
import { PackReadinessLive } from "./ingest/PackReadiness.ts"
import { PortalCrawler } from "./ingest/PortalCrawler.ts"
import { PortalLeader, PortalRefresh } from "./ingest/PortalRefresh.ts"
import { AnonymousExpiry } from "./ledger/accounts/AnonymousExpiry.ts"
import { PortfolioAuthLive } from "./ledger/accounts/BearerAuthLive.ts"
import { Keys } from "./ledger/accounts/Keys.ts"
import { WebSessions } from "./ledger/accounts/WebSession.ts"
import { WebSessionHttp } from "./ledger/accounts/WebSessionHttp.ts"
import { Donations } from "./ledger/donations/Donations.ts"
import { Entitlements } from "./ledger/entitlements/Entitlements.ts"
import { Audit } from "./ledger/events/Audit.ts"
import { EventStore } from "./ledger/events/EventStore.ts"
import { AccountHttp, PortfolioHttp } from "./ledger/LedgerHttp.ts"
import { Performance } from "./ledger/performance/Performance.ts"
import { MarketFacts } from "./ledger/portfolio/MarketFacts.ts"
import { Portfolio } from "./ledger/portfolio/Portfolio.ts"
import { PortfolioViews } from "./ledger/portfolio/PortfolioViews.ts"
import { TransactionsCsv } from "./ledger/portfolio/TransactionsCsv.ts"
import { LedgerWriter } from "./ledger/portfolio/Writer.ts"
import { AutoRecord } from "./ledger/settings/AutoRecord.ts"
import { PortfolioSettings } from "./ledger/settings/Settings.ts"
import { AnswerSignerLive } from "./ledger/signing/AnswerKey.ts"
import { LedgerSigner } from "./ledger/signing/Signing.ts"
import { TaxStatements } from "./ledger/tax/TaxStatements.ts"
import { Analytics } from "./market/analytics/Analytics.ts"
import { AnalyticsHttp } from "./market/analytics/AnalyticsHttp.ts"
import { MarketBoard } from "./market/board/Board.ts"
import { BoardHttp } from "./market/board/BoardHttp.ts"
import { MarketIndexes } from "./market/board/Indexes.ts"
import { Companies } from "./market/companies/Companies.ts"
import { CompaniesHttp } from "./market/companies/CompaniesHttp.ts"
import { Filings } from "./market/filings/Filings.ts"
import { FilingsHttp } from "./market/filings/FilingsHttp.ts"
import { Prices } from "./market/prices/Prices.ts"
import { PricesHttp } from "./market/prices/PricesHttp.ts"
import { DatasetStatus } from "./market/provenance/DatasetStatus.ts"
import { FundamentalsPrefetch } from "./market/provenance/FundamentalsPrefetch.ts"
import { Sources } from "./market/provenance/Provenance.ts"
import { ProvenanceHttp } from "./market/provenance/ProvenanceHttp.ts"
import { Quotes } from "./market/quotes/Quotes.ts"
import { QuotesHttp } from "./market/quotes/QuotesHttp.ts"
import { AsOfMiddlewareLive } from "./market/readmodel/AsOfMiddleware.ts"
import { MarketStore } from "./market/readmodel/MarketStore.ts"
import { PointInTime } from "./market/readmodel/PointInTime.ts"
import { MarketReadModel } from "./market/readmodel/ReadModel.ts"
import { AnalyticsPrecompute } from "./market/readmodel/SnapshotAnswers.ts"
import { Search } from "./market/search/Search.ts"
import { SearchHttp } from "./market/search/SearchHttp.ts"
import { AiHttp } from "./mcp/Catalogue.ts"
import { RouteCaller } from "./mcp/RouteCaller.ts"
import { McpLive, McpStdio } from "./mcp/Server.ts"
import { jsonLinesLogger } from "./observability/JsonLogger.ts"
import { Cursors } from "./paging/Cursors.ts"
import { DataPack } from "./sources/DataPack.ts"
import { NewsFeeds } from "./sources/NewsFeeds.ts"
import { PsxPortal } from "./sources/PsxPortal.ts"
import { Readiness } from "./system/Readiness.ts"
import { SystemHttp } from "./system/SystemHttp.ts"
import { WebLive } from "./web/WebRoutes.ts"

// ---- The features' services ----

/**
 * The market services over the read model (and the read model over the store, AppConfig and Cursors), with
 * the answer cache the market's handlers store their answers in, and the precomputing of the most asked ones.
 */
export const MarketServices = AnalyticsPrecompute.pipe(
  Layer.provideMerge(Layer.mergeAll(
    Companies.layer,
    Search.layer,
    Quotes.layer,
    Prices.layer,
    Filings.layer,
    DatasetStatus.layer,
    Sources.layer,
    MarketBoard.layer,
    MarketIndexes.layer,
    AsOfMiddlewareLive
  )),
  Layer.provideMerge(Analytics.layer),
  Layer.provideMerge(PointInTime.layer),
  Layer.provideMerge(MarketReadModel.layer),
  Layer.provideMerge(MarketStore.layer),
  Layer.provideMerge(AnswerCache.layer)
)

/** The ledger services over a SqlClient (and the market's Quotes and Sources). */
export const LedgerServices = AutoRecord.layer.pipe(
  // Performance names the entitlements its figures leave out.
  Layer.provideMerge(Performance.layer),
  Layer.provideMerge(
    Layer.mergeAll(PortfolioViews.layer, Entitlements.layer, TaxStatements.layer, PortfolioSettings.layer)
  ),
  Layer.provideMerge(
    Layer.mergeAll(
      Portfolio.layer,
      TransactionsCsv.layer,
      Donations.layer,
      Audit.layer.pipe(Layer.provideMerge(LedgerSigner.layer)),
      PortfolioAuthLive
    )
  ),
  Layer.provideMerge(Layer.mergeAll(LedgerWriter.layer, MarketFacts.layer)),
  Layer.provideMerge(Layer.mergeAll(Keys.layer, EventStore.layer, AnonymousExpiry.layer, WebSessions.layer))
)

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

// ---- The routes ----

/** The HTTP API's routes (every feature's handler group) behind the guard, needing the feature services. */
export const ApiRoutes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([
      SystemHttp,
      SearchHttp,
      CompaniesHttp,
      QuotesHttp,
      PricesHttp,
      FilingsHttp,
      ProvenanceHttp,
      BoardHttp,
      AnalyticsHttp,
      AccountHttp,
      PortfolioHttp,
      WebSessionHttp,
      AiHttp
    ]),
    Layer.provide(ValidationLive)
  ),
  GuardLive
)

/**
 * A layer built after one turn of the event loop. Building every route (the API's groups, the MCP tools'
 * schemas, the pages) takes about 100 ms of one thread; built one after another with a turn between, the
 * requests already arriving (/ready, /health) are answered in between instead of after all of it.
 */
const afterATurn = <A, E, R>(layer: Layer.Layer<A, E, R>) => Layer.unwrap(Effect.as(Effect.yieldNow, layer))

/** Every route of the service, needing the feature services: the API's, then the MCP tools, then the pages. */
export const Routes = afterATurn(Layer.mergeAll(DocsLive, WebLive)).pipe(
  Layer.provideMerge(afterATurn(McpLive)),
  Layer.provideMerge(ApiRoutes)
)

/**
 * The routes, attached to the `HttpServer` (http/Server.ts, `RequestGateLive`) once the services are built,
 * with the fast path that serves the cached endpoints' cached answers.
 */
export const AppLive = Layer.mergeAll(HttpRouter.serve(Routes, { disableLogger: true }), FastPathLive).pipe(
  Layer.provide(BodyLimit),
  Layer.provideMerge(Services)
)

// ---- Each command's process ----

const logging = (logger: Logger.Logger<unknown, void>) =>
  Layer.unwrap(
    Effect.map(AppConfig, (config) =>
      Layer.mergeAll(
        Logger.layer([logger]),
        Layer.succeed(References.MinimumLogLevel, config.logLevel)
      ))
  )

/** JSON-lines logs at the configured level. */
const LoggingLive = logging(jsonLinesLogger)

const baseWith = (loggingLive: Layer.Layer<never, unknown, AppConfig>) =>
  Layer.provideMerge(loggingLive, AppConfig.layer)

/** The store, migrated, with the market-data importer, over a configuration and logging base. */
const storeWith = (base: ReturnType<typeof baseWith>) =>
  PackImport.layer.pipe(
    Layer.provideMerge(Database.layer),
    Layer.provide(DataPack.layer),
    Layer.provide(NodeServices.layer),
    Layer.provideMerge(base)
  )

/** The configuration and JSON-lines logging. */
export const Base = baseWith(LoggingLive)

/** The store, migrated, over `Base` (`migrate`). */
export const DatabaseLive = Database.layer.pipe(Layer.provide(Base))

/** The store, migrated, with the importer, over `Base`. */
export const StoreLive = storeWith(Base)

/** On the embedded default (or when asked), the first start imports the bundled pack; later starts skip it. */
const AutoImport = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* AppConfig
  if (!config.autoImport) return
  const importer = yield* PackImport
  // In the background: the server answers /health at once, and /ready says
  // whether the pack is installed yet.
  yield* importer.run().pipe(
    Effect.catchCause((cause) => Effect.logError({ msg: "data pack import failed", cause: String(cause) })),
    Effect.forkScoped
  )
}))

/** The crawler over the live portal (used by the schedule and by `refresh`), with the store. */
const CrawlerLive = PortalCrawler.layer.pipe(Layer.provide(PsxPortal.layer), Layer.provide(NewsFeeds.layer))
export const CrawlerWithStore = CrawlerLive.pipe(Layer.provideMerge(StoreLive))

/** With PSX_SOURCE=portal, the live portal crawl runs on the Karachi calendar (off by default). */
const PortalLive = PortalRefresh.scheduled.pipe(
  Layer.provide(PortalRefresh.layer),
  Layer.provide(PortalLeader.layer),
  Layer.provideMerge(FundamentalsPrefetch.live),
  Layer.provideMerge(CrawlerLive)
)

/** The embedded store's directory, held before the port is taken, so a second start names the holder. */
const DataDirLockLive = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isNone(config.databaseUrl)) yield* lockDataDir(config.dataDir)
}))

/**
 * `serve`: the HTTP server is built right after the configuration and logging (and the /docs page's script,
 * so its compile falls before the port opens): it listens and answers (503 "starting") while the store and the
 * routes are built.
 */
export const ServeLive = AppLive.pipe(
  Layer.provideMerge(AutoImport),
  Layer.provideMerge(PortalLive),
  Layer.provideMerge(StoreLive),
  Layer.provideMerge(RequestGateLive),
  Layer.provideMerge(DocsScriptLoaded),
  Layer.provideMerge(DataDirLockLive),
  Layer.provideMerge(Base)
)

/**
 * `mcp`: the MCP tools over stdio for desktop hosts. stdout carries only JSON-RPC, so every log line (JSON)
 * goes to stderr. Imports the pack on first start like `serve` (tools answer from what is stored meanwhile).
 * The portfolio tools (with PSX_API_KEY) call the HTTP API's routes in process; no port is opened.
 */
export const McpStdioLive = McpStdio.pipe(
  Layer.provide(RouteCaller.layer.pipe(
    Layer.provide(Layer.provideMerge(ApiRoutes, HttpRouter.layer)),
    Layer.provide(NodeHttpServer.layerHttpServices)
  )),
  Layer.provide(BodyLimit),
  Layer.provide(ServicesWithoutPort),
  Layer.provide(FundamentalsPrefetch.pack),
  Layer.provideMerge(AutoImport),
  Layer.provideMerge(storeWith(baseWith(logging(Logger.withConsoleError(Logger.formatJson)))))
)

/** `ledger verify|rebuild|export`: the ledger's audit and signing over the store. */
export const AuditLive = Audit.layer.pipe(
  Layer.provideMerge(LedgerSigner.layer.pipe(Layer.provideMerge(EventStore.layer))),
  Layer.provide(StoreLive)
)
