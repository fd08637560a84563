/**
 * A full collection of V8's heap, started once a new snapshot of the read
 * model is built and its hottest answers are made
 * (market/readmodel/SnapshotAnswers.ts).
 *
 * Building a snapshot leaves the old generation about twice the size of what
 * stays live (the rows it was folded from, the previous snapshot and its
 * answers), and V8 keeps those pages until its memory reducer runs. The
 * reducer waits for a quiet heap, and the service's own background work (the
 * store probe, the version poll) keeps it from ever looking quiet: RSS stays
 * near 420–450 MB on the embedded default. The major collection started here
 * frees that garbage and lets the reducer see a quiet heap; about 8 s later
 * its compacting collections (incremental) hand the emptied pages back (about
 * 350 MB settled; `npm run bench:start`). The collection itself is one pause
 * of the service, 80–110 ms on a 2-core machine (`--trace-gc`), once per new
 * snapshot; a "last resort" collection gives the pages back at once but
 * pauses for about 300 ms.
 *
 * V8 offers the collector only to code started with `--expose-gc`; the flag
 * is set here and the function taken from a fresh context, so it never becomes
 * a global of the service. It belongs to the memory settings the service
 * starts with (scripts/serve.sh, `npm start`, which sets PSX_MEMORY_SETTINGS=applied): where they were not
 * applied (`node src/main.ts` run directly, Deno, `PSX_MEMORY_SETTINGS=off`, the test suites, which build the
 * read model again and again), nothing is done.
 */
import { Clock, Effect } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/** Set to `applied` by the launcher (scripts/serve.sh) when the service runs with its memory settings. */
export const MEMORY_SETTINGS_MARK = "PSX_MEMORY_SETTINGS"

interface CollectOptions {
  readonly type: "major"
  readonly execution: "async"
  readonly flavor: "regular"
}
type Collect = (options: CollectOptions) => void

const collector = (): Collect | undefined => {
  if (process.env[MEMORY_SETTINGS_MARK] !== "applied") return undefined
  setFlagsFromString("--expose-gc")
  const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined")
  return typeof gc === "function" ? (gc as Collect) : undefined
}

/**
 * The settle: the collector is looked up once (a fresh `vm` context each
 * time would be one more context per snapshot); each run starts a major
 * collection alongside the service and logs the heap it started from and how
 * long starting took. Where the memory settings were not applied, it does
 * nothing.
 */
export const makeHeapSettle = Effect.map(
  Effect.try(collector).pipe(Effect.orElseSucceed(() => undefined)),
  (collect) =>
    Effect.fn("Heap.settle")(function*() {
      if (collect === undefined) return
      const heap = process.memoryUsage().heapTotal
      const started = yield* Clock.currentTimeMillis
      yield* Effect.sync(() => collect({ type: "major", execution: "async", flavor: "regular" }))
      const took = (yield* Clock.currentTimeMillis) - started
      yield* Effect.logInfo("heap collection started").pipe(Effect.annotateLogs({ ms: took, heap_mb: Math.round(heap / 1048576) }))
    })
)
