/**
 * The access line is written straight from its fields (observability/AccessLine.ts); every other entry
 * through a record. Both must give the same line for the same fields, and neither may carry a token.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, type Logger } from "effect"
import { AccessLine } from "../src/observability/AccessLine.ts"
import { jsonLine } from "../src/observability/JsonLogger.ts"

const lineOf = (message: unknown, annotations: Record<string, unknown> = {}, cause: Cause.Cause<unknown> = Cause.empty) =>
  jsonLine({
    message,
    logLevel: "Info",
    cause,
    date: new Date(Date.UTC(2026, 4, 25, 6, 30, 0, 5)),
    fiber: { getRef: () => annotations }
  } as unknown as Logger.Options<unknown>)

describe("the JSON logger's access line", () => {
  it("is the line the record of the same fields gives, field for field and in order", () => {
    const path = "/v1/stocks/HUBC?q=\"quoted\"\\n"
    const fast = lineOf([new AccessLine("mwy1-2", "GET", path, 409, 3)])
    const record = lineOf([{ msg: "request", requestId: "mwy1-2", method: "GET", path, status: 409, ms: 3 }])
    assert.strictEqual(fast, record)
    assert.deepStrictEqual(JSON.parse(fast), {
      time: "2026-05-25T06:30:00.005Z", level: "info", msg: "request", requestId: "mwy1-2", method: "GET", path, status: 409, ms: 3
    })
  })

  it("keeps the fiber's annotations and a cause, as any other entry does", () => {
    const annotated = JSON.parse(lineOf([new AccessLine("a-1", "GET", "/health", 200, 0)], { worker: "w1" }))
    assert.strictEqual(annotated.worker, "w1")
    const failed = JSON.parse(lineOf([new AccessLine("a-2", "GET", "/health", 500, 0)], {}, Cause.fail("boom")))
    assert.include(failed.cause, "boom")
  })

  it("drops the service's tokens from the path", () => {
    const secret = `psx_k_${"Ab9_-".repeat(6)}`
    const line = lineOf([new AccessLine("a-3", "DELETE", `/v1/me/keys/${secret}`, 404, 1)])
    assert.notInclude(line, secret.slice(6))
    assert.include(line, "psx_k_[redacted]")
  })
})
