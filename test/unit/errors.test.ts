import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import * as E from "../../domain/Errors.ts"

const cases = [
  [E.DataNotFound, "DATA_NOT_FOUND", 404],
  [E.DataStale, "DATA_STALE", 409],
  [E.DataUnverified, "DATA_UNVERIFIED", 409],
  [E.SourceUnavailable, "SOURCE_UNAVAILABLE", 503],
  [E.InvalidSymbol, "INVALID_SYMBOL", 400],
  [E.MarketClosed, "MARKET_CLOSED", 409],
  [E.RateLimited, "RATE_LIMITED", 429],
  [E.Unauthorized, "UNAUTHORIZED", 401],
  [E.Forbidden, "FORBIDDEN", 403],
  [E.InvalidRequest, "INVALID_REQUEST", 400],
  [E.Internal, "INTERNAL", 500]
] as const

describe("error model", () => {
  it("covers every code of SPEC section 7 exactly once", () => {
    assert.deepStrictEqual(cases.map(([, code]) => code).sort(), [...E.ErrorCode.literals].sort())
  })

  for (const [Class, code, status] of cases) {
    it(`${code} is HTTP ${status} and serializes as the error record`, () => {
      assert.strictEqual(Class.ast.annotations?.["httpApiStatus"], status)
      assert.strictEqual(E.statusOf[code], status)
      const error = new (Class as any)({ message: `about ${code}`, symbol: "HUBC" })
      assert.strictEqual(error.error, code)
      const wire = Schema.encodeSync(Class as any)(error)
      assert.deepStrictEqual(wire, { error: code, message: `about ${code}`, symbol: "HUBC" })
      assert.isTrue(Schema.is(E.ErrorRecord)(wire))
    })
  }

  it("the symbol is optional and absent when not given", () => {
    const wire = Schema.encodeSync(E.DataNotFound)(new E.DataNotFound({ message: "none" }))
    assert.deepStrictEqual(wire, { error: "DATA_NOT_FOUND", message: "none" })
  })
})
