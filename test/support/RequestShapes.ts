/**
 * Run as its own process by test/request-shapes.test.ts, with
 * `--allow-natives-syntax --expose-gc`: the front door (src/http/FrontDoor.ts,
 * as the service builds it) serves requests on a loopback port, each on a
 * connection of its own that is closed after its answer, with a full
 * collection after each of the first ones (as the service's start-up runs
 * them while /ready probes arrive). It prints one JSON line: whether each
 * request and response object V8 made had fast properties (not dictionary
 * mode).
 */
import { Context, Effect } from "effect"
import { HttpServer } from "effect/http"
import * as FrontDoor from "../../src/http/FrontDoor.ts"
import { getOnOwnConnection as get } from "./LoopbackGet.ts"

const hasFastProperties = new Function("o", "return %HasFastProperties(o)") as (o: unknown) => boolean
const collect = (globalThis as unknown as { gc: () => void }).gc


const program = Effect.scoped(Effect.gen(function*() {
  const door = yield* FrontDoor.make({ port: 0, host: "127.0.0.1", deadlineMs: 5_000 })
  const shapes: Array<{ readonly request: boolean; readonly response: boolean }> = []
  yield* Context.get(door, FrontDoor.FastPathSlot).attach((request, response) => {
    shapes.push({ request: hasFastProperties(request), response: hasFastProperties(response) })
    response.writeHead(200, { "content-type": "text/plain", "content-length": 2 })
    response.end("ok")
  })
  const address = Context.get(door, HttpServer.HttpServer).address
  const port = "port" in address ? address.port : 0
  for (let i = 0; i < 24; i++) {
    yield* Effect.promise(() => get(port))
    if (i < 10) collect()
  }
  return shapes
}))

Effect.runPromise(program).then((shapes) => process.stdout.write(JSON.stringify(shapes) + "\n"))
