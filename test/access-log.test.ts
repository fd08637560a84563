/**
 * The request log as a user runs the service (`node src/main.ts serve`, its default JSON logger at Info): each
 * request answered gets one JSON line on standard output, with the fields in their order — cached answers of the
 * fast path (written as bytes, observability/AccessLineBytes.ts) and the Effect pipeline's alike.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { startService, throwawayStore } from "./support/ServiceProcess.ts"

/** A recorded symbol of the bundled pack. */
const SYMBOL = "HUBC"

const FIELDS = ["time", "level", "msg", "requestId", "method", "path", "status", "ms"]

describe("the request log of a service process", () => {
  it.live(
    "one line per answered request, with the access fields in order, whichever path answered it",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const service = yield* startService(store, { awaitPack: true, env: { LOG_LEVEL: "Info" } })
        const started = Date.now()
        const asked: Array<{ path: string; status: number; id: string }> = []
        for (
          const url of [
            `/v1/stocks/${SYMBOL}`,
            `/v1/stocks/${SYMBOL}`,
            `/v1/quotes/${SYMBOL}`,
            `/v1/prices/${SYMBOL}?range=1Y`,
            "/v1/stocks/NOPE",
            `/v1/stocks/${SYMBOL}?signed=true`
          ]
        ) {
          const response = yield* Effect.promise(() => fetch(`${service.url}${url}`))
          yield* Effect.promise(() => response.arrayBuffer())
          asked.push({
            path: url.split("?")[0]!,
            status: response.status,
            id: response.headers.get("x-request-id") ?? ""
          })
        }
        yield* service.kill("SIGTERM")
        const lines = service.output().split("\n").filter((line) => line.includes(`"msg":"request"`)).map((line) =>
          JSON.parse(line)
        )
        for (const { path, status, id } of asked) {
          assert.match(id, /^[0-9a-z]+-[0-9a-z]+$/u, path)
          const mine = lines.filter((line) => line.requestId === id)
          assert.strictEqual(mine.length, 1, `one line for ${path} (${id})`)
          const line = mine[0]
          assert.deepStrictEqual(Object.keys(line), FIELDS, path)
          assert.deepStrictEqual({ ...line, time: "", ms: 0 }, {
            time: "",
            level: "info",
            msg: "request",
            requestId: id,
            method: "GET",
            path,
            status,
            ms: 0
          })
          assert.isAtLeast(Date.parse(line.time), started - 1_000, path)
          assert.isTrue(Number.isInteger(line.ms) && line.ms >= 0, path)
        }
        assert.deepStrictEqual(asked.map((a) => a.status), [200, 200, 409, 200, 404, 200])
      }),
    600_000
  )
})
