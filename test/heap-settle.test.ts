/**
 * The heap settle after a snapshot is encoded (src/system/HeapSettle.ts): it
 * starts a collection only where the service's memory settings were applied,
 * and says so with the heap it started from.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger, References } from "effect"
import { makeHeapSettle, MEMORY_SETTINGS_MARK } from "../src/system/HeapSettle.ts"

interface Settled {
  readonly message: unknown
  readonly annotations: Readonly<Record<string, unknown>>
}

/** Makes and runs the settle with the memory-settings mark set to `mark` (or unset), returning its log lines. */
const settleWith = (mark: string | undefined) =>
  Effect.gen(function*() {
    const lines: Array<Settled> = []
    const capture = Logger.make<unknown, void>(({ fiber, message }) => {
      lines.push({ message, annotations: fiber.getRef(References.CurrentLogAnnotations) })
    })
    const previous = process.env[MEMORY_SETTINGS_MARK]
    yield* Effect.acquireUseRelease(
      Effect.sync(() => {
        if (mark === undefined) delete process.env[MEMORY_SETTINGS_MARK]
        else process.env[MEMORY_SETTINGS_MARK] = mark
      }),
      () => Effect.flatMap(makeHeapSettle, (settle) => settle()).pipe(Effect.provide(Logger.layer([capture]))),
      () =>
        Effect.sync(() => {
          if (previous === undefined) delete process.env[MEMORY_SETTINGS_MARK]
          else process.env[MEMORY_SETTINGS_MARK] = previous
        })
    )
    return lines
  })

describe("heap settle", () => {
  it.effect("starts a collection and reports it when the memory settings were applied", () =>
    Effect.gen(function*() {
      const lines = yield* settleWith("applied")
      assert.strictEqual(lines.length, 1)
      const [line] = lines
      assert.deepStrictEqual(line!.message, ["heap collection started"])
      assert.isAbove(Number(line!.annotations["heap_mb"]), 0)
      assert.isAtLeast(Number(line!.annotations["ms"]), 0)
    }))

  it.effect("does nothing where they were not (tests, Deno, PSX_MEMORY_SETTINGS=off)", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* settleWith(undefined), [])
      assert.deepStrictEqual(yield* settleWith("off"), [])
    }))
})
