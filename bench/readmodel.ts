/**
 * Builds the market read model from the store named by DATABASE_URL (run
 * `npm run ingest` against it first) and reports the time to load and build
 * it and the memory it holds: resident set size and V8 heap + array buffers
 * (after a full GC) before the first build, with the snapshot held, and after
 * it is dropped; then the cost of a small write: one symbol's rows reloaded
 * and folded into the held snapshot. Run with `npm run bench:readmodel` (node --expose-gc).
 */
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { buildSnapshot, type MarketSnapshot } from "../domain/market/snapshot/Snapshot.ts"
import { updateSnapshot } from "../domain/market/snapshot/SnapshotUpdate.ts"
import { layerPostgres } from "../src/db/Database.ts"
import { MarketStore } from "../src/market/readmodel/MarketStore.ts"

const url = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/psx_dev"

const memory = () => {
  globalThis.gc?.()
  const m = process.memoryUsage()
  return { rss: Math.round(m.rss / 1e6), heap: Math.round((m.heapUsed + m.arrayBuffers) / 1e6) }
}

const holder: { snapshot: MarketSnapshot | undefined } = { snapshot: undefined }

const program = Effect.gen(function*() {
  const store = yield* MarketStore
  yield* store.projectPrices
  yield* store.version
  if (globalThis.gc === undefined) console.log("(run with node --expose-gc for exact heap figures)")
  const before = memory()
  console.log(`before any build: RSS ${before.rss} MB, heap + array buffers ${before.heap} MB`)
  for (let i = 1; i <= 3; i++) {
    const t0 = performance.now()
    let t1 = 0
    holder.snapshot = yield* Effect.map(store.load, (rows) => {
      t1 = performance.now()
      return buildSnapshot(rows, Date.now())
    })
    const t2 = performance.now()
    const held = memory()
    console.log(
      `build ${i}: load ${(t1 - t0).toFixed(0)} ms + build ${(t2 - t1).toFixed(0)} ms = ${(t2 - t0).toFixed(0)} ms ` +
        `(${holder.snapshot.symbols.size} symbols); holding it: RSS ${held.rss} MB (+${held.rss - before.rss}), ` +
        `heap + array buffers ${held.heap} MB (+${held.heap - before.heap})`
    )
  }
  // A small write's cost: one symbol's rows reloaded and folded into the held snapshot (the crawler's per-symbol writes).
  const version = yield* store.version
  const symbols = [...holder.snapshot!.symbols.keys()]
  const times: Array<number> = []
  for (let i = 0; i < 20; i++) {
    const symbol = symbols[(i * 37) % symbols.length]!
    const t0 = performance.now()
    const rows = yield* store.loadSymbols(version, [symbol])
    holder.snapshot = updateSnapshot(holder.snapshot!, rows, [symbol], Date.now())
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  console.log(
    `update of one symbol (20 symbols across the universe): median ${times[10]!.toFixed(1)} ms, max ${
      times[19]!.toFixed(1)
    } ms`
  )
  holder.snapshot = undefined
  yield* store.version
  const after = memory()
  console.log(`dropped: RSS ${after.rss} MB, heap + array buffers ${after.heap} MB`)
})

Effect.runPromise(program.pipe(
  Effect.provide(MarketStore.layer.pipe(
    Layer.provide(layerPostgres(Redacted.make(url), 1)),
    Layer.provide(Reactivity.layer)
  ))
)).catch((e) => {
  console.error(e)
  process.exit(1)
})
