/**
 * The whole service on a real loopback HTTP server for a test file, built
 * from the layers `npm start` runs (src/http/Server.ts: `RequestGateLive` on
 * port 0 of 127.0.0.1, and src/Layers.ts: `AppLive`, the routes and the fast path
 * over the feature services), with an
 * HttpClient pointed at it. Requests go through Node's HTTP stack and the
 * request gate, so the fast path, body parsing, routing and the guard behave
 * exactly as in production.
 */
import { NodeServices } from "@effect/platform-node"
import { assert } from "@effect/vitest"
import { Context, Effect, Exit, Layer, References, Scope } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpServer } from "effect/http"
import { LRUCache } from "lru-cache"
import type { AppConfig } from "../../src/config/AppConfig.ts"
import * as Server from "../../src/http/Server.ts"
import { PackImport } from "../../src/ingest/PackImport.ts"
import { AppLive } from "../../src/Layers.ts"
import { FundamentalsPrefetch } from "../../src/market/provenance/FundamentalsPrefetch.ts"
import { DataPack } from "../../src/sources/DataPack.ts"
import type { ErrorRecord, FailureOf, Reply, SuccessOf } from "./ReplyTypes.ts"
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
  { now, withPack, ...overrides }: Partial<typeof AppConfig.Service> & {
    readonly withPack?: boolean
    readonly now?: string
  } = {}
) => {
  const app = AppLive.pipe(
    Layer.provideMerge(TestClient),
    Layer.provideMerge(Server.RequestGateLive),
    Layer.provide(FundamentalsPrefetch.pack),
    Layer.provideMerge(TestStore({ withPack: withPack ?? false })),
    Layer.provideMerge(
      TestConfig({ port: 0, host: "127.0.0.1", rateLimit: { perSecond: 10_000, burst: 10_000 }, ...overrides })
    )
  )
  return now === undefined ? app : app.pipe(Layer.provideMerge(ShiftedClockLayer(now)))
}

type App = Layer.Success<ReturnType<typeof TestApp>>

/**
 * The shared apps of this worker: two at most, since each holds a store and a read model; the least recently
 * asked for is closed when a third is built.
 */
const sharedApps = new LRUCache<
  string,
  { readonly scope: Scope.Closeable; readonly app: Promise<Context.Context<App>> }
>({
  max: 2,
  dispose: ({ scope }) => void Effect.runPromise(Scope.close(scope, Exit.void))
})

/**
 * The pack's app at the wall time `now`, shared by the test files of one worker that ask for the same instant:
 * built once (the store copy and the read model) and kept for the worker's later files, so a file pays for its
 * tests only. The run's global teardown removes what the kept stores leave behind. For files that read the market
 * and write to ledgers of their own making; a file that changes the market, sets other options or its own clock
 * uses TestApp.
 */
export const SharedTestApp = (now: string): Layer.Layer<App> =>
  Layer.effectContext(Effect.promise(() => sharedApp(now)))

const sharedApp = (now: string) => {
  const kept = sharedApps.get(now)
  if (kept !== undefined) return kept.app
  const scope = Effect.runSync(Scope.make())
  const app = Effect.runPromise(Layer.buildWithScope(TestApp({ withPack: true, now }), scope).pipe(Effect.orDie))
  sharedApps.set(now, { scope, app })
  return app
}

/** An HttpClient for the server under test (a connection per request, as NodeHttpServer.layerTest makes it). */
export const TestClient = HttpServer.layerTestClient.pipe(
  Layer.provide(
    Layer.fresh(FetchHttpClient.layer).pipe(
      Layer.provide(Layer.succeed(FetchHttpClient.RequestInit)({ keepalive: false }))
    )
  )
)

export type { ErrorRecord, Reply } from "./ReplyTypes.ts"

/** A reply of any route, for helpers that only read its status and error record. */
export type AnyReply = Reply<unknown>

const send = <B, F>(request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(request)
    const text = yield* response.text
    const json = (response.headers["content-type"] ?? "").includes("json")
    const body: unknown = json ? JSON.parse(text) : text
    const ok = response.status >= 200 && response.status < 300
    // The body is what the route's OpenAPI document declares for this status; the tests assert the values.
    return { status: response.status, headers: response.headers, ok, body } as Reply<B, F>
  }).pipe(Effect.orDie)

/** A reply narrowed to its success (a TestApp reply's `ok` member), or left as it is for other replies. */
type Succeeded<R> = R extends { readonly ok: boolean } ? Extract<R, { readonly ok: true }> : R
/** A reply narrowed to its failure (the error record), or left as it is for other replies. */
type Failed<R> = R extends { readonly ok: boolean } ? Extract<R, { readonly ok: false }> : R
/** What a status assertion prints: the body text, or the JSON body. */
interface Answered {
  readonly status: number
  readonly body?: unknown
  readonly text?: string
}
const shown = (reply: Answered) =>
  reply.text ?? (typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body))

/** Asserts a reply succeeded (with `status`, 200 unless said), narrowing its body to the route's success type. */
export function assertOk<R extends Answered>(reply: R, status = 200, note?: string): asserts reply is Succeeded<R> {
  assert.strictEqual(reply.status, status, note === undefined ? shown(reply) : `${note}: ${shown(reply)}`)
}

/**
 * Asserts a reply failed with `status` and an error record (with the error `code` and a message that
 * `mentions` a text, when given), narrowing its body to the record.
 */
export function assertFailed<R extends Answered>(
  reply: R,
  status: number,
  code?: string,
  mentions?: string
): asserts reply is Failed<R> {
  assert.strictEqual(reply.status, status, shown(reply))
  const record = (reply.body ?? JSON.parse(reply.text ?? "{}")) as ErrorRecord
  if (code !== undefined) assert.strictEqual(record.error, code, shown(reply))
  assert.isString(record.error)
  assert.isString(record.message)
  assert.isAbove(record.message.length, 0, "the message says what went wrong")
  if (mentions !== undefined) assert.include(record.message, mentions)
}

/** Asserts a reply succeeded with any 2xx status, narrowing its body to the route's success type. */
export function assertSucceeded<B, F>(
  reply: Reply<B, F>,
  note?: string
): asserts reply is Extract<Reply<B, F>, { readonly ok: true }> {
  assert.isTrue(
    reply.ok,
    note === undefined ? `${reply.status}: ${shown(reply)}` : `${note}: ${reply.status} ${shown(reply)}`
  )
}

/** The body of a reply that succeeded (any 2xx status); the test fails with the answer otherwise. */
export const bodyOf = <B, F>(reply: Reply<B, F>, note?: string): B => {
  assertSucceeded(reply, note)
  return reply.body
}

/**
 * A ledger event's payload by field name: the API declares it free-form, since its fields depend on the
 * event type; tests read the fields of the type they wrote.
 */
export const payloadOf = (event: { readonly payload: unknown }) => event.payload as Readonly<Record<string, unknown>>

/** The raw body text, for byte-for-byte comparisons. */
export const getText = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
    return { status: response.status, text: yield* response.text }
  }).pipe(Effect.orDie)

export const get = <P extends string>(path: P, headers: Record<string, string> = {}) =>
  send<SuccessOf<P>, FailureOf<P>>(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))

export const post = <P extends string>(path: P, body: unknown, headers: Record<string, string> = {}) =>
  send<SuccessOf<P, "post">, FailureOf<P>>(
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.setHeaders(headers),
      typeof body === "string"
        ? HttpClientRequest.bodyText(body, "application/json")
        : HttpClientRequest.bodyJsonUnsafe(body)
    )
  )

export const put = <P extends string>(path: P, body: unknown, headers: Record<string, string> = {}) =>
  send<SuccessOf<P, "put">, FailureOf<P>>(
    HttpClientRequest.put(path).pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyJsonUnsafe(body))
  )

export const del = <P extends string>(path: P, headers: Record<string, string> = {}) =>
  send<SuccessOf<P, "delete">, FailureOf<P>>(HttpClientRequest.delete(path).pipe(HttpClientRequest.setHeaders(headers)))
