/**
 * The whole service on a real loopback HTTP server for a test file, with an
 * HttpClient pointed at it. Requests go through Node's HTTP stack, so body
 * parsing, routing and the guard behave exactly as in production.
 */
import { NodeHttpServer, NodeServices } from "@effect/platform-node"
import { Effect, Layer, References } from "effect"
import { HttpClient, HttpClientRequest, HttpRouter } from "effect/http"
import type { AppConfig } from "../../src/config/AppConfig.ts"
import { BodyLimit, Routes, Services } from "../../src/http/Server.ts"
import { PackImport } from "../../src/ingest/PackImport.ts"
import { FundamentalsWarming } from "../../src/market/provenance/FundamentalsWarming.ts"
import { DataPack } from "../../src/sources/DataPack.ts"
import { ShiftedClockLayer } from "./ShiftedClock.ts"
import { TestConfig, TestDatabaseWith } from "./TestDatabase.ts"

/**
 * The store for a test file with the importer; `withPack` installs the bundled pack first (from its prebuilt
 * store when there is one, else by importing it).
 */
export const TestStore = (options: { readonly withPack?: boolean } = {}) => {
  const store = PackImport.layer.pipe(
    Layer.provideMerge(TestDatabaseWith({ pack: options.withPack === true })),
    Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Warn")),
    Layer.provide(DataPack.layer),
    Layer.provideMerge(NodeServices.layer)
  )
  if (options.withPack !== true) return store
  return Layer.effectDiscard(Effect.flatMap(PackImport, (i) => i.run())).pipe(Layer.provideMerge(store))
}

/**
 * The app for a test file. `now` (an ISO instant) sets the service's wall clock to start there and run on
 * with real time, so what it judges by today's date (staleness, trailing windows) is the same in any year.
 */
export const TestApp = (
  { now, withPack, ...overrides }: Partial<typeof AppConfig.Service> & { readonly withPack?: boolean; readonly now?: string } = {}
) => {
  const app = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provide(BodyLimit),
    Layer.provideMerge(Services),
    Layer.provide(FundamentalsWarming.pack),
    Layer.provideMerge(TestStore({ withPack: withPack ?? false })),
    Layer.provideMerge(TestConfig({ rateLimit: { perSecond: 10_000, burst: 10_000 }, ...overrides }))
  )
  return now === undefined ? app : app.pipe(Layer.provideMerge(ShiftedClockLayer(now)))
}

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
}

const send = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(request)
    const text = yield* response.text
    let body: unknown = text
    if ((response.headers["content-type"] ?? "").includes("json")) body = JSON.parse(text)
    return { status: response.status, headers: response.headers, body } as Reply
  }).pipe(Effect.orDie)

/** The raw body text, for byte-for-byte comparisons. */
export const getText = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
    return { status: response.status, text: yield* response.text }
  }).pipe(Effect.orDie)

export const get = (path: string, headers: Record<string, string> = {}) =>
  send(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))

export const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.setHeaders(headers),
      typeof body === "string"
        ? HttpClientRequest.bodyText(body, "application/json")
        : HttpClientRequest.bodyJsonUnsafe(body)
    )
  )
