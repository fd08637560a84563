/**
 * Two event-store instances on one database (as two service processes would be) appending to one stream at
 * once: they meet the database's version check, and the stream stays contiguous and verifies. In the slow
 * project: 160 contended appends take half a minute on the embedded store's single connection.
 */
import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { Audit } from "../src/ledger/events/Audit.ts"
import { ConcurrencyConflict, EventStore } from "../src/ledger/events/EventStore.ts"
import { TestApp } from "./support/TestApp.ts"

layer(TestApp({ now: "2026-11-21T05:00:00.000Z" }), { timeout: 600_000, excludeTestServices: true })(
  "event store contention",
  (it) => {
    it.effect("two store instances on one database contend on the version check, and the stream stays contiguous", () =>
      Effect.scoped(Effect.gen(function*() {
        const instance = Effect.map(Layer.build(Layer.fresh(EventStore.layer)), (ctx) => Context.get(ctx, EventStore))
        const a = yield* instance
        const b = yield* instance
        assert.notStrictEqual(a, b)
        const stream = `contend-${Math.random().toString(36).slice(2)}`
        let conflicts = 0
        const appendOne = (store: typeof a, n: number): Effect.Effect<void, never> =>
          Effect.flatMap(
            store.head(stream),
            (head) =>
              store.append(stream, head, [{
                type: "DonationRecorded",
                donation_id: `c-${n}`,
                amount: 1,
                currency: "PKR",
                status: "pending"
              }], {})
          ).pipe(
            Effect.asVoid,
            Effect.catch((e) =>
              e instanceof ConcurrencyConflict
                ? Effect.suspend(() => {
                  conflicts++
                  return appendOne(store, n)
                })
                : Effect.die(e)
            )
          )
        yield* Effect.forEach(
          Array.from({ length: 8 }, (_, w) => w),
          (w) =>
            Effect.forEach(
              Array.from({ length: 20 }, (_, i) => i),
              (i) => appendOne(w % 2 === 0 ? a : b, w * 100 + i),
              { discard: true }
            ),
          { concurrency: 8, discard: true }
        )
        const events = yield* (yield* EventStore).readStream(stream)
        assert.deepStrictEqual(events.map((e) => e.version), Array.from({ length: 160 }, (_, i) => i + 1))
        assert.isAbove(conflicts, 0, "writers met the database's version check, not only an in-process lock")
        const v = yield* (yield* Audit).verifyStream(stream)
        assert.isTrue(v.ok, JSON.stringify(v))
      })))
  }
)
