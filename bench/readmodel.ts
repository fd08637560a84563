/**
 * Builds the market read model from the store named by DATABASE_URL (run
 * `npm run ingest` against it first) and reports load and build time and
 * the resident memory it adds: `npm run bench:readmodel`.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { buildSnapshot } from "../domain/market/Snapshot.ts"
import { MarketStore } from "../src/market/MarketStore.ts"

const url = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/psx_dev"
const mb = () => Math.round(process.memoryUsage().rss / 1e6)
const heap = () => {
  globalThis.gc?.()
  const m = process.memoryUsage()
  return Math.round((m.heapUsed + m.arrayBuffers) / 1e6)
}

const program = Effect.gen(function*() {
  const store = yield* MarketStore
  yield* store.projectPrices
  globalThis.gc?.()
  const before = mb()
  const kept: Array<unknown> = []
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    let t1 = 0
    const snapshot = yield* Effect.map(store.load, (rows) => {
      t1 = performance.now()
      return buildSnapshot(rows, Date.now())
    })
    const t2 = performance.now()
    kept[0] = snapshot
    const withIt = heap()
    const rssWith = mb()
    kept[0] = undefined
    const without = heap()
    console.log(`run ${i + 1}: load ${(t1 - t0).toFixed(0)} ms, build ${(t2 - t1).toFixed(0)} ms, total ${(t2 - t0).toFixed(0)} ms; ` +
      `${snapshot.symbols.size} symbols; snapshot retains ${withIt - without} MB (heap + array buffers); ` +
      `RSS ${before} MB before the first build, ${rssWith} MB with the snapshot`)
  }
})

Effect.runPromise(program.pipe(
  Effect.provide(MarketStore.layer.pipe(
    Layer.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
    Layer.provide(Reactivity.layer)
  ))
)).catch((e) => {
  console.error(e)
  process.exit(1)
})
