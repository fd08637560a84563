/**
 * The fast path's access line, written as bytes into the JSON logger's batch (observability/AccessLineBytes.ts),
 * is the line the JSON logger writes for the same AccessLine (JsonLogger.ts `jsonLine`), byte for byte:
 * escapes, tokens, figures of any size, and a line longer than a batch.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, type Logger } from "effect"
import { AccessLine } from "../src/observability/AccessLine.ts"
import { accessTarget, writeAccessLine } from "../src/observability/AccessLineBytes.ts"
import { jsonLine } from "../src/observability/JsonLogger.ts"
import { lineSink } from "../src/observability/LineSink.ts"

const NOW = Date.UTC(2026, 4, 25, 6, 30, 0, 5)

/** The JSON logger's line for an AccessLine at Info, with its newline. */
const expected = (id: string, method: string, path: string, status: number, ms: number, now = NOW) =>
  jsonLine({
    message: [new AccessLine(id, method, path, status, ms)],
    logLevel: "Info",
    cause: Cause.empty,
    date: new Date(now),
    fiber: { getRef: () => ({}) }
  } as unknown as Logger.Options<unknown>) + "\n"

/** What writeAccessLine adds to the batch (or, for a line no batch holds, writes to standard output). */
const written = (id: string, method: string, path: string, status: number, ms: number, now = NOW) => {
  const direct: Array<string> = []
  const stdoutWrite = process.stdout.write
  process.stdout.write = ((text: string) => (direct.push(text), true)) as typeof process.stdout.write
  try {
    lineSink.flush()
    direct.length = 0
    const before = lineSink.used
    writeAccessLine(accessTarget(method, path), id, status, ms, now)
    return direct.length > 0 ? direct.join("") : lineSink.chunk.subarray(before, lineSink.used).toString("utf8")
  } finally {
    process.stdout.write = stdoutWrite
  }
}

describe("the access line as bytes", () => {
  it("is the JSON logger's line for the same fields, byte for byte", () => {
    const cases: Array<[string, string, string, number, number]> = [
      ["mwy1-2", "GET", "/v1/stocks/HUBC", 200, 0],
      ["mwy1-2z", "GET", "/v1/quotes/OGDC?allow_stale=true", 409, 7],
      ["a-3", "GET", "/v1/prices/HUBC?range=1Y", 404, 12],
      ["a-4", "GET", "/health", 429, 1234],
      ["id\"quoted\"", "GE\\T", "/v1/x?q=\"a\"\\n", 200, 0],
      ["ünïcode-1", "GET", "/v1/ünï", 200, 99],
      ["tab\t-1", "GET", "/v1/x", 500, 1_000_000_000_000],
      ["a-5", "GET", "/v1/x", 200, -3],
      ["a-6", "GET", "/v1/x", 200, 2.5]
    ]
    for (const [id, method, path, status, ms] of cases) {
      assert.strictEqual(written(id, method, path, status, ms), expected(id, method, path, status, ms), `${id} ${path}`)
    }
  })

  it("writes the time of each millisecond", () => {
    for (const now of [NOW, NOW + 1, NOW + 86_400_000]) {
      assert.strictEqual(written("a-1", "GET", "/health", 200, 0, now), expected("a-1", "GET", "/health", 200, 0, now))
    }
  })

  it("drops the service's tokens from the path", () => {
    const secret = `psx_s_${"Ab9_-".repeat(6)}`
    const line = written("a-7", "GET", `/v1/x/${secret}`, 404, 1)
    assert.notInclude(line, secret.slice(6))
    assert.strictEqual(line, expected("a-7", "GET", `/v1/x/${secret}`, 404, 1))
  })

  it("writes a line longer than a batch on its own, as the same text", () => {
    const path = `/v1/${"\"".repeat(40_000)}`
    const line = written("a-8", "GET", path, 414, 2)
    assert.strictEqual(line, expected("a-8", "GET", path, 414, 2))
  })
})
