/**
 * The outermost guard on a router of its own: a defect answers 500 INTERNAL
 * with no stack or SQL in the body and the request id to quote; a body over
 * the limit is 400. (The failing route is a test route, not a service one.)
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { AnswerCache } from "../../src/http/AnswerCache.ts"
import { AnswerSigner } from "../../src/http/AnswerSigning.ts"
import { GuardLive } from "../../src/http/Guard.ts"
import { RateLimiter } from "../../src/http/RateLimiter.ts"
import { RequestIds } from "../../src/http/RequestId.ts"

const app = Layer.mergeAll(
  HttpRouter.add("GET", "/boom", Effect.die(new Error("relation \"secret\" does not exist: SELECT * FROM secret"))),
  HttpRouter.add("GET", "/ok", Effect.succeed(HttpServerResponse.text("ok"))),
  GuardLive
).pipe(Layer.provide([
  Layer.succeed(RateLimiter, RateLimiter.make(1000, 1000)),
  RequestIds.layer,
  AnswerCache.layer,
  // Nothing here asks for a signed answer: a signature would be a defect.
  Layer.succeed(AnswerSigner, AnswerSigner.of({ key: Effect.die("no answer is signed in this test") }))
]))

describe("guard", () => {
  it.effect("a defect is a 500 INTERNAL record without internals, with the request id", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => HttpRouter.toWebHandler(app, { disableLogger: true })),
      ({ handler }) =>
        Effect.gen(function*() {
          const res = yield* Effect.promise(() => handler(new Request("http://localhost/boom")))
          const text = yield* Effect.promise(() => res.text())
          assert.strictEqual(res.status, 500)
          const body = JSON.parse(text)
          assert.strictEqual(body.error, "INTERNAL")
          assert.notInclude(text, "SELECT")
          assert.notInclude(text, "secret")
          assert.notInclude(text, "at ")
          const id = res.headers.get("x-request-id")!
          assert.include(body.message, id)
          const ok = yield* Effect.promise(() => handler(new Request("http://localhost/ok")))
          assert.strictEqual(ok.status, 200)
        }),
      ({ dispose }) => Effect.promise(dispose)
    ))
})
