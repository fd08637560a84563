/**
 * The front door keeps node:http's request and response objects in V8's fast
 * mode, however the first requests of the process meet its full collections
 * (src/http/RequestShapes.ts, the warm-up before it listens), and keeps the
 * shapes of each request's short-lived objects across the full collections of
 * idle pauses. Each in a process of its own (test/support/RequestShapes.ts,
 * test/support/IdleShapes.ts): a fresh V8, whose first objects and first
 * collections are the ones that count.
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

  it("the code that makes each request's short-lived objects keeps their shapes across idle full collections", () => {
    // V8's own account of process.nextTick's code sites (%DebugPrint): the sites that build its queue entries
    // ("DefineKeyedOwnPropertyInLiteral") must still know the shape after eight pauses with a full collection each.
    const out = execFileSync(process.execPath, [
      "--allow-natives-syntax",
      "--expose-gc",
      join(import.meta.dirname, "support", "IdleShapes.ts")
    ], { encoding: "utf8", timeout: 60_000 })
    const sites = out.split("\n").filter((line) => line.includes("DefineKeyedOwnPropertyInLiteral"))
    assert.isAtLeast(sites.length, 5, `process.nextTick's entry is built by five code sites; V8 printed:\n${out.slice(0, 2_000)}`)
    const lost = sites.filter((line) => line.includes("MEGAMORPHIC"))
    assert.deepStrictEqual(lost, [], "sites that gave up on shapes")
  }, 60_000)
})
