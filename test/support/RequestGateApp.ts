/**
 * The app as `npm start` runs it (Server.RequestGateLive under Layers.AppLive), on the pack, with the logs
 * captured, a stopped clock and a small rate limit: for the suites that talk to the request gate itself
 * (fastpath, request-edges). `slot` may wrap the fast path's slot (to record what it hands on).
 */
import { Layer, Logger, Option, Redacted, References } from "effect"
import type * as RequestGate from "../../src/http/RequestGate.ts"
import * as Server from "../../src/http/Server.ts"
import { AppLive } from "../../src/Layers.ts"
import { FundamentalsPrefetch } from "../../src/market/provenance/FundamentalsPrefetch.ts"
import { CURSOR_SECRET } from "./AnswerSample.ts"
import { TestClient, TestStore } from "./TestApp.ts"
import { TestConfig } from "./TestDatabase.ts"

/** A log entry as the loggers in force receive it. */
export interface LoggedEntry {
  readonly level: string
  readonly message: unknown
}

export const requestGateApp = (options: {
  readonly burst: number
  /** The wall clock (a layer of the Clock reference). */
  readonly clock: Layer.Layer<never>
  readonly logged: Array<LoggedEntry>
  readonly slot?: Layer.Layer<RequestGate.FastPathSlot, never, RequestGate.FastPathSlot>
}) =>
  AppLive.pipe(
    Layer.provide(options.slot ?? Layer.empty),
    Layer.provideMerge(Layer.mergeAll(
      Logger.layer([
        Logger.make((entry) => void options.logged.push({ level: entry.logLevel, message: entry.message }))
      ]),
      Layer.succeed(References.MinimumLogLevel, "Info")
    )),
    Layer.provide(FundamentalsPrefetch.pack),
    Layer.provideMerge(TestClient),
    Layer.provideMerge(Server.RequestGateLive),
    Layer.provideMerge(TestStore({ withPack: true })),
    Layer.provideMerge(TestConfig({
      port: 0,
      host: "127.0.0.1",
      rateLimit: { perSecond: 1, burst: options.burst },
      cursorSecret: Option.some(Redacted.make(CURSOR_SECRET))
    })),
    Layer.provideMerge(options.clock)
  )
