/**
 * The whole service in portal mode over the loopback fake portal
 * (./FakePortal.ts), with the crawler under its services, on a clock the
 * test moves (./MovableClock.ts), and helpers the live tests share.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Duration, Effect, Layer } from "effect"
import { FetchHttpClient, HttpRouter } from "effect/http"
import { BodyLimit } from "../../src/http/Server.ts"
import { PortalCrawler } from "../../src/ingest/PortalCrawler.ts"
import { Routes, Services } from "../../src/Layers.ts"
import { FundamentalsPrefetch } from "../../src/market/provenance/FundamentalsPrefetch.ts"
import { MarketReadModel } from "../../src/market/readmodel/ReadModel.ts"
import { PsxPortal } from "../../src/sources/PsxPortal.ts"
import { FakePortal, NewsOnFake } from "./FakePortal.ts"
import { MovableClockLayer } from "./MovableClock.ts"
import { TestStore } from "./TestApp.ts"
import { TestConfig } from "./TestDatabase.ts"

/** After the post-close of Friday 2026-05-22 (the fake portal's first last session), Karachi 18:00. */
export const FRIDAY_EVENING = "2026-05-22T13:00:00.000Z"
/** After the post-close of Monday 2026-05-25, the next recorded session, Karachi 17:00. */
export const MONDAY_EVENING = "2026-05-25T12:00:00.000Z"

export const PortalOnFake = Layer.unwrap(Effect.map(FakePortal, (fake) =>
  Layer.effect(
    PsxPortal,
    PsxPortal.make({
      baseUrl: fake.url,
      minIntervalMs: 0,
      timeout: Duration.millis(1500),
      retries: 1,
      userAgent: "psx-data-service/test"
    })
  ).pipe(Layer.provide(FetchHttpClient.layer)))).pipe(
    Layer.provideMerge(NewsOnFake),
    Layer.provideMerge(FakePortal.layer)
  )

/**
 * The whole service in portal mode (as TestApp builds it) with the crawler under its services, so
 * `/v1/ingest/fundamentals` fetches through it, over the fake portal, on a clock the test moves.
 */
export const liveApp = () =>
  HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provide(BodyLimit),
    Layer.provideMerge(Services),
    Layer.provide(FundamentalsPrefetch.live),
    Layer.provideMerge(PortalCrawler.layer),
    Layer.provideMerge(PortalOnFake),
    Layer.provideMerge(TestStore()),
    Layer.provideMerge(TestConfig({ source: "portal", rateLimit: { perSecond: 10_000, burst: 10_000 } })),
    Layer.provideMerge(MovableClockLayer(FRIDAY_EVENING))
  )

/**
 * The read model polls the store and may have built a version from the middle of a pass; after
 * a pass has returned, every write is committed, so one refresh makes the served snapshot whole.
 */
export const caughtUp = MarketReadModel.use((model) => model.refresh).pipe(Effect.orDie)
