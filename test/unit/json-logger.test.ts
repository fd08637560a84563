/**
 * The access line is written straight from its fields (observability/AccessLine.ts); every other entry
 * through a record. Both must give the same line for the same fields, and neither may carry a token.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, type Logger } from "effect"
import { AccessLine } from "../../src/observability/AccessLine.ts"
import { jsonLine } from "../../src/observability/JsonLogger.ts"

const lineOf = (
  message: unknown,
  annotations: Record<string, unknown> = {},
  cause: Cause.Cause<unknown> = Cause.empty
) =>
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
      time: "2026-05-25T06:30:00.005Z",
      level: "info",
      msg: "request",
      requestId: "mwy1-2",
      method: "GET",
      path,
      status: 409,
      ms: 3
    })
  })

  it("escapes whatever field needs it, as the record does, however long the path", () => {
    for (
      const [id, method, path] of [
        ["id\"quoted\"", "GET", "/v1/x"],
        ["ünïcode-1", "GE\\T", "/v1/x"],
        ["tab\t-1", "GET", `/v1/${"long-segment/".repeat(40)}"end"`]
      ] as const
    ) {
      const fast = lineOf([new AccessLine(id, method, path, 200, 1)])
      assert.strictEqual(fast, lineOf([{ msg: "request", requestId: id, method, path, status: 200, ms: 1 }]))
      assert.deepStrictEqual([JSON.parse(fast).requestId, JSON.parse(fast).method, JSON.parse(fast).path], [
        id,
        method,
        path
      ])
    }
  })

  it("keeps the fiber's annotations and a cause, as any other entry does", () => {
    const annotated = JSON.parse(lineOf([new AccessLine("a-1", "GET", "/health", 200, 0)], { worker: "w1" }))
    assert.strictEqual(annotated.worker, "w1")
    const failed = JSON.parse(lineOf([new AccessLine("a-2", "GET", "/health", 500, 0)], {}, Cause.fail("boom")))
    assert.include(failed.cause, "boom")
  })

  it("drops the service's tokens from the path, a long one too, and from the same path logged again", () => {
    const secret = `psx_k_${"Ab9_-".repeat(6)}`
    for (const path of [`/v1/me/keys/${secret}`, `/v1/me/keys/${secret}`, `/v1/${"x/".repeat(200)}${secret}`]) {
      const line = lineOf([new AccessLine("a-3", "DELETE", path, 404, 1)])
      assert.notInclude(line, secret.slice(6))
      assert.include(line, "psx_k_[redacted]")
    }
  })
})
