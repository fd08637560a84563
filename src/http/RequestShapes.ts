/**
 * Sizes node:http's request and response objects before the front door
 * listens, so that every request the service serves is a fast-mode object.
 *
 * V8 decides how much room the objects of a constructor get from the first
 * seven it makes ("in-object slack tracking"): at the seventh it keeps room
 * for the largest shape those objects reached, and a shape no live object has
 * is forgotten by a full collection. The service's start-up runs full
 * collections (the read model is built while /ready probes are answered), so
 * when one fell between the first requests, V8 kept too little room for
 * `IncomingMessage` and `ServerResponse`, and every request and response the
 * process made after was a dictionary-mode object: those processes served
 * 0.55× of bare node:http where the others served 0.75× (`npm run bench`),
 * for their whole life.
 *
 * So, before listening, the process serves a few pipelined requests to itself
 * on a loopback port of its own, answered as the front door answers, and holds
 * them until the last is answered: the first objects V8 measures are whole
 * and alive. Nothing is held after, and the public port sees none of it. A
 * warm-up that fails or stalls is given up after a second: it only affects speed.
 *
 * And the shapes are kept across idle collections. A full collection that
 * finds no live object of a shape forgets it (V8 keeps such a shape for only
 * two of them), and the next object of that kind gets a new one; each code
 * site that saw the old shapes counts one more, and at the fifth it gives up
 * on shapes for good ("megamorphic"). Every request makes objects that live
 * a moment (node's `process.nextTick` entries, for one), so a service that
 * idles between bursts of requests, with a collection in each pause (V8's
 * memory reducer, the heap settle after each new snapshot), lost them: after
 * four pauses, `nextTick` made every entry in V8's runtime instead of its
 * compiled code, about a tenth of the CPU a request cost (bare node:http
 * given the same pauses spent a fifth more user CPU a request). V8 is told
 * to keep such shapes for RETAINED_COLLECTIONS collections instead; a shape
 * no object has used for that long is still forgotten, so what is kept stays
 * bounded. A collection that reduces memory (the memory reducer's, on a
 * process that has gone idle) keeps none of them whatever that flag says, so
 * one `nextTick` entry is also held for the life of the process: its shape
 * stays in use. Without it, a service started and left idle before its load
 * served 0.53–0.56× of bare node:http in `npm run bench`, and a tenth of its
 * CPU went to building those entries in V8's runtime.
 */
import { Effect } from "effect"
import { createHook } from "node:async_hooks"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { connect } from "node:net"
import { setFlagsFromString } from "node:v8"

/** More than the seven constructions V8 measures. */
const WARM_REQUESTS = 10

/** Longest the warm-up may take before start-up goes on without it. */
const WARM_LIMIT_MS = 1_000

const requestText = (last: boolean) =>
  `GET /warm HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n${last ? "Connection: close\r\n" : ""}\r\n`

/** Serves WARM_REQUESTS pipelined requests over one loopback connection, holding each until the connection closes. */
const warmUp = (done: () => void) => {
  const held: Array<IncomingMessage | ServerResponse> = []
  const body = Buffer.from("{}")
  const server = createServer((request, response) => {
    held.push(request, response)
    request.resume()
    response.writeHead(200, { "content-type": "application/json", "content-length": body.length })
    response.end(body)
  })
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    clearTimeout(limit)
    server.closeAllConnections()
    server.close(() => {
      held.length = 0
      done()
    })
  }
  const limit = setTimeout(finish, WARM_LIMIT_MS)
  server.once("error", finish)
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    if (address === null || typeof address === "string") return finish()
    const socket = connect(address.port, "127.0.0.1", () => {
      const texts = Array.from({ length: WARM_REQUESTS }, (_, i) => requestText(i === WARM_REQUESTS - 1))
      socket.write(texts.join(""))
    })
    socket.resume()
    socket.once("close", finish)
    socket.once("error", finish)
  })
}

/** How many full collections a shape no live object has is kept for (V8's default is 2). */
const RETAINED_COLLECTIONS = 1_000

/** Tells V8 to keep shapes across idle collections; a runtime without V8's flags (Deno) goes on without. */
const retainShapes = () => {
  try {
    setFlagsFromString(`--retain-maps-for-n-gc=${RETAINED_COLLECTIONS}`)
  } catch {
    // Only speed depends on it.
  }
}

/** Objects held for the life of the process so that their shapes outlive every collection. */
const pinned: Array<object> = []

/**
 * Holds one `process.nextTick` queue entry for good (seen through an async hook enabled for that one call):
 * a collection that reduces memory (V8's memory reducer on an idle process) forgets shapes no live object has
 * whatever RETAINED_COLLECTIONS says, and the entry's shape lives on in it.
 */
const pinTickEntry = () => {
  try {
    let entry: object | undefined
    const hook = createHook({
      init: (_id, type, _trigger, resource) => {
        if (type === "TickObject") entry = resource
      }
    })
    hook.enable()
    try {
      process.nextTick(() => {}, undefined)
    } finally {
      hook.disable()
    }
    if (entry !== undefined) pinned.push(entry)
  } catch {
    // Only speed depends on it.
  }
}

let settled = false

/** Runs the warm-up once per process (later calls return at once). */
export const settleRequestShapes: Effect.Effect<void> = Effect.callback<void>((resume) => {
  if (settled) return resume(Effect.void)
  settled = true
  retainShapes()
  pinTickEntry()
  warmUp(() => resume(Effect.void))
})
