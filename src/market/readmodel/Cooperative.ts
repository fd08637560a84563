/**
 * Long pure work (domain/SlicedWork.ts) run so the service keeps answering: a
 * slice of about SLICE_MS at a time, yielding to the event loop between
 * slices, so /ready and reads are served while a snapshot or its figures are
 * built.
 */
import { Clock, Effect } from "effect"
import type { Steps } from "../../../domain/SlicedWork.ts"

/** The longest stretch the work runs before it lets requests in. */
const SLICE_MS = 10

export const cooperatively = <A>(steps: Steps<A>) =>
  Effect.gen(function*() {
    let sliceStart = yield* Clock.currentTimeMillis
    for (;;) {
      const r = steps.next()
      if (r.done === true) return r.value
      const now = yield* Clock.currentTimeMillis
      if (now - sliceStart >= SLICE_MS) {
        yield* Effect.yieldNow
        sliceStart = yield* Clock.currentTimeMillis
      }
    }
  })
