/**
 * The front door keeps node:http's request and response objects in V8's fast
 * mode, however the first requests of the process meet its full collections
 * (src/http/RequestShapes.ts, the warm-up before it listens). In a process of its own
 * (test/support/RequestShapes.ts): a fresh V8, whose first request objects are
 * the ones that count.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { join } from "node:path"

describe("request shapes", () => {
  it("every request and response is made with fast properties, even with full collections between the first requests", () => {
    const out = execFileSync(process.execPath, [
      "--allow-natives-syntax",
      "--expose-gc",
      join(import.meta.dirname, "support", "RequestShapes.ts")
    ], { encoding: "utf8", timeout: 60_000 })
    const shapes = JSON.parse(out.trim().split("\n").at(-1)!) as Array<{ request: boolean; response: boolean }>
    assert.strictEqual(shapes.length, 24)
    const slow = shapes.flatMap((s, i) => s.request && s.response ? [] : [i + 1])
    assert.deepStrictEqual(slow, [], `requests made in dictionary mode: ${slow.join(", ")}`)
  }, 60_000)
})
