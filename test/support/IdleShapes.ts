/**
 * Run as its own process by test/request-shapes.test.ts, with
 * `--allow-natives-syntax --expose-gc`: the front door (src/http/FrontDoor.ts,
 * as the service builds it) serves a burst of requests on a loopback port,
 * `process.nextTick` is compiled by V8's optimizing compiler (as it is on a
 * service under load), then eight more bursts follow, with a full collection
 * in the pause after each (as V8's memory reducer and the heap settle run them
 * on a service between bursts: every other one reduces memory, as the memory
 * reducer's do, and forgets every shape no live object has whatever
 * `--retain-maps-for-n-gc` says), and V8 prints what
 * `process.nextTick`'s code sites have seen (%DebugPrint, on stdout): whether
 * the sites that build its queue entries still know their shape
 * (MONOMORPHIC) or gave up on shapes (MEGAMORPHIC).
 */
import { Context, Effect } from "effect"
import { HttpServer } from "effect/http"
import * as FrontDoor from "../../src/http/FrontDoor.ts"
import { getOnOwnConnection as get } from "./LoopbackGet.ts"

const debugPrint = new Function("f", "%DebugPrint(f)") as (f: unknown) => void
const optimizeOnNextCall = new Function("f", "%OptimizeFunctionOnNextCall(f)") as (f: unknown) => void
type Flavor = "regular" | "last-resort"
const collect = (globalThis as unknown as { gc: (options: { type: "major"; execution: "sync"; flavor: Flavor }) => void }).gc

const BURSTS = 8
const REQUESTS_A_BURST = 20


/** A pause with nothing in flight, then a full collection in it ("last-resort": one that reduces memory). */
const pause = (flavor: Flavor) =>
  new Promise<void>((resolve) => setTimeout(() => (collect({ type: "major", execution: "sync", flavor }), resolve()), 20))

const program = Effect.scoped(Effect.gen(function*() {
  const door = yield* FrontDoor.make({ port: 0, host: "127.0.0.1", deadlineMs: 5_000 })
  yield* Context.get(door, FrontDoor.FastPathSlot).attach((_request, response) => {
    response.writeHead(200, { "content-type": "text/plain", "content-length": 2 })
    response.end("ok")
  })
  const address = Context.get(door, HttpServer.HttpServer).address
  const port = "port" in address ? address.port : 0
  // As on a service under load: nextTick's code compiled by V8's optimizing compiler before the first pause.
  for (let i = 0; i < REQUESTS_A_BURST; i++) yield* Effect.promise(() => get(port))
  optimizeOnNextCall(process.nextTick)
  for (let burst = 0; burst < BURSTS; burst++) {
    for (let i = 0; i < REQUESTS_A_BURST; i++) yield* Effect.promise(() => get(port))
    yield* Effect.promise(() => pause(burst % 2 === 0 ? "regular" : "last-resort"))
  }
}))

Effect.runPromise(program).then(() => debugPrint(process.nextTick))
