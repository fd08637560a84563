/**
 * Upstream faults against a loopback stand-in for the PSX portal that
 * misbehaves on command: it hangs, answers 403 or 462 (the portal's own
 * refusal code), serves an HTML page where JSON belongs, cuts the body off
 * mid-way, or answers an empty 200. Every case must be SOURCE_UNAVAILABLE
 * from the adapter (never an empty or zero success), and a refresh during the
 * fault must change nothing: the last good rows and their dataset's as-of stay.
 *
 * The one good answer is a listing entry for HUBC with no other fields (the
 * parser then takes the symbol as the name): no market figure is made up.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { PortalCrawler } from "../src/ingest/PortalCrawler.ts"
import { PsxPortal } from "../src/sources/PsxPortal.ts"
import { NoNewsFeeds } from "./support/FakePortal.ts"
import { TestStore } from "./support/TestApp.ts"

type Mode = "good" | "hang" | "403" | "462" | "html" | "truncated" | "empty"

class FaultyPortal
  extends Context.Service<FaultyPortal, { url: string; setMode: (m: Mode) => void; hits: () => number }>()(
    "test/FaultyPortal"
  )
{
  static readonly layer = Layer.effect(
    FaultyPortal,
    Effect.acquireRelease(
      Effect.callback<{ url: string; setMode: (m: Mode) => void; hits: () => number; close: () => void }>((resume) => {
        let mode: Mode = "good"
        let hits = 0
        const server = createServer((req, res) => {
          hits++
          req.resume()
          const listing = JSON.stringify([{ symbol: "HUBC", isETF: false, isDebt: false }])
          switch (mode) {
            case "good":
              if (req.url === "/symbols") {
                res.writeHead(200, { "content-type": "application/json" })
                return res.end(listing)
              }
              res.writeHead(404)
              return res.end()
            case "hang":
              return // never answers
            case "403":
              res.writeHead(403, { "content-type": "text/html" })
              return res.end("<html><body>Forbidden</body></html>")
            case "462":
              res.writeHead(462, { "content-type": "text/html" })
              return res.end("<html><body>Request blocked</body></html>")
            case "html":
              res.writeHead(200, { "content-type": "text/html" })
              return res.end("<!doctype html><html><body><h1>Maintenance</h1></body></html>")
            case "truncated":
              res.writeHead(200, { "content-type": "application/json", "content-length": String(listing.length * 4) })
              // The first bytes go out, then the connection drops before the declared length.
              return res.write(listing.slice(0, 20), () => res.destroy())
            case "empty":
              res.writeHead(200, { "content-type": "application/json" })
              return res.end("[]")
          }
        })
        server.listen(0, "127.0.0.1", () => {
          resume(Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            setMode: (m) => (mode = m),
            hits: () => hits,
            close: () => {
              server.closeAllConnections()
              server.close()
            }
          }))
        })
      }),
      (p) => Effect.sync(() => p.close())
    )
  )
}

const PortalLive = Layer.unwrap(Effect.map(FaultyPortal, (fake) =>
  Layer.effect(
    PsxPortal,
    PsxPortal.make({
      baseUrl: fake.url,
      minIntervalMs: 10,
      timeout: Duration.millis(500),
      retries: 1,
      userAgent: "psx-data-service/test"
    })
  ).pipe(Layer.provide(FetchHttpClient.layer)))).pipe(Layer.provideMerge(FaultyPortal.layer))

const faults: ReadonlyArray<Mode> = ["hang", "403", "462", "html", "truncated", "empty"]

describe("upstream faults", () => {
  layer(
    PortalCrawler.layer.pipe(
      Layer.provide(NoNewsFeeds),
      Layer.provideMerge(PortalLive),
      Layer.provideMerge(TestStore())
    ),
    { excludeTestServices: true, timeout: 120_000 }
  )("a misbehaving portal", (it) => {
    it.effect("every fault is SOURCE_UNAVAILABLE from the adapter, within its timeout, never an empty success", () =>
      Effect.gen(function*() {
        const portal = yield* PsxPortal
        const fake = yield* FaultyPortal
        for (const mode of faults) {
          fake.setMode(mode)
          for (
            const [what, request] of [["symbols", portal.symbols], ["market watch", portal.marketWatch], [
              "screener",
              portal.screener
            ]] as const
          ) {
            const start = Date.now()
            const failure = yield* Effect.flip(request as Effect.Effect<unknown, { error: string; message: string }>)
            const ms = Date.now() - start
            assert.strictEqual(failure.error, "SOURCE_UNAVAILABLE", `${mode} ${what}`)
            assert.include(failure.message, "PSX portal", `${mode} ${what}`)
            assert.isBelow(ms, 5_000, `${mode} ${what}: bounded by timeout × retries`)
          }
        }
        fake.setMode("good")
      }))

    it.effect("a refresh during a fault changes nothing: the last good rows and their as-of stay", () =>
      Effect.gen(function*() {
        const crawler = yield* PortalCrawler
        const refresh = {
          runOnce: Effect.map(crawler.pass({ datasets: ["symbols", "screener", "market_watch"] }), (p) => p.datasets)
        }
        const fake = yield* FaultyPortal
        const sql = yield* SqlClient.SqlClient
        fake.setMode("good")
        const good = yield* refresh.runOnce
        assert.strictEqual(good.find((s) => s.dataset === "symbols")?.written, 1)
        const snapshot = sql<{ id: string; as_of: string; rows: number }>`
          select id, as_of::text as as_of, rows from datasets where id like 'portal_%' order by id`
        const securities = sql<{ symbol: string; name: string }>`select symbol, name from securities order by symbol`
        const before = { datasets: yield* snapshot, securities: yield* securities }
        assert.deepStrictEqual(before.datasets.map((d) => d.id), ["portal_symbols"], "failed sources recorded nothing")
        for (const mode of faults) {
          fake.setMode(mode)
          const steps = yield* refresh.runOnce
          for (const s of steps) {
            assert.strictEqual(s.failed, 1, `${mode}: ${s.dataset} reports its failure`)
            assert.isAbove(Object.keys(s.reasons).length, 0, `${mode}: ${s.dataset} says why`)
            assert.strictEqual(s.written, 0, `${mode}: ${s.dataset} wrote nothing`)
          }
          assert.deepStrictEqual(yield* snapshot, before.datasets, `${mode}: the dataset keeps its as-of and row count`)
          assert.deepStrictEqual(yield* securities, before.securities, `${mode}: the last good rows stay`)
        }
        fake.setMode("good")
      }))
  })
})
