/**
 * The HTTP server: the API routes, the OpenAPI document, the offline docs
 * page and the global guard, on Node's http server.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { createServer } from "node:http"
import { AppConfig } from "../config/AppConfig.ts"
import { AccountHttp, LedgerServices, PortfolioHttp } from "../ledger/LedgerHttp.ts"
import { BoardHttp } from "../market/BoardHttp.ts"
import { AnalyticsHttp } from "../market/AnalyticsHttp.ts"
import { MarketHttp, MarketServices } from "../market/MarketHttp.ts"
import { AiHttp } from "../mcp/Catalogue.ts"
import { McpLive } from "../mcp/Server.ts"
import { SystemHttp } from "../system/SystemHttp.ts"
import { WebLive } from "../web/WebRoutes.ts"
import { Api } from "./Api.ts"
import { Cursors } from "./Cursors.ts"
import { GuardLive } from "./Guard.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { ValidationLive } from "./Validation.ts"

/** The feature services the routes use; provided outside the server so tools and tests share them. */
export const Services = LedgerServices.pipe(
  Layer.provideMerge(MarketServices),
  Layer.provideMerge(Cursors.layer),
  Layer.provideMerge(RateLimiter.layer)
)

/** Request bodies are small JSON documents: anything over 1 MiB is refused (400 INVALID_REQUEST). */
export const BodyLimit = Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.mebibytes(1))

/** Every route of the service, needing the feature services. */
export const Routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([SystemHttp, MarketHttp, BoardHttp, AnalyticsHttp, AccountHttp, PortfolioHttp, AiHttp]),
    Layer.provide(ValidationLive)
  ),
  HttpApiScalar.layer(Api, { path: "/docs" }),
  McpLive,
  WebLive,
  GuardLive
)

/** The listening server on the configured host and port. */
export const layer = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    HttpRouter.serve(Routes, { disableLogger: true }).pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host })),
      Layer.provide(BodyLimit),
      Layer.provideMerge(Services)
    ))
)
