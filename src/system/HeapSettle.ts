/**
 * A memory-reducing full collection of V8's heap, run once a new snapshot of
 * the read model is built and its hottest answers are encoded
 * (market/readmodel/EncodedAnswers.ts).
 *
 * Building a snapshot leaves the old generation about twice the size of what
 * stays live (the rows it was folded from, the previous snapshot and its
 * answers), and V8 keeps those pages: on the embedded default the settled RSS
 * stays near 445 MB. One collection with V8's "last resort" flavour compacts
 * the old generation and hands the emptied pages back to the system at once
 * (about 365 MB settled; `npm run bench:start`), for one pause of about a
 * tenth of a second per snapshot.
 *
 * V8 offers the collector only to code started with `--expose-gc`; the flag
 * is set here and the function taken from a fresh context, so it never becomes
 * a global of the service. It belongs to the memory settings the service
 * starts with (src/system/MemorySettings.ts): where they were not applied
 * (Deno, `PSX_MEMORY_SETTINGS=off`, the test suites, which build the read
 * model again and again), nothing is done.
 */
import { Clock, Effect } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { MEMORY_SETTINGS_MARK } from "./MemorySettings.ts"

interface CollectOptions {
  readonly type: "major"
  readonly execution: "sync"
  readonly flavor: "last-resort"
}
type Collect = (options: CollectOptions) => void

const collector = (): Collect | undefined => {
  if (process.env[MEMORY_SETTINGS_MARK] !== "applied") return undefined
  setFlagsFromString("--expose-gc")
  const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined")
  return typeof gc === "function" ? (gc as Collect) : undefined
}

/** Compacts V8's heap and returns its free pages; logs the time it took and the heap before and after. */
export const settleHeap = Effect.fn("Heap.settle")(function*() {
  const collect = yield* Effect.try(collector).pipe(Effect.orElseSucceed(() => undefined))
  if (collect === undefined) return
  const before = process.memoryUsage().heapTotal
  const started = yield* Clock.currentTimeMillis
  yield* Effect.sync(() => collect({ type: "major", execution: "sync", flavor: "last-resort" }))
  const took = (yield* Clock.currentTimeMillis) - started
  const after = process.memoryUsage().heapTotal
  yield* Effect.logInfo("heap settled").pipe(
    Effect.annotateLogs({ ms: took, heap_mb_before: Math.round(before / 1048576), heap_mb_after: Math.round(after / 1048576) })
  )
})
