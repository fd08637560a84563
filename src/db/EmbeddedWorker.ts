/**
 * The embedded store's thread: opens PGlite on the data directory and serves
 * it on a unix socket with pglite-socket, so every statement runs here and
 * never on the HTTP server's event loop (the service's PgClient only does
 * socket I/O). Started, stopped and closed by EmbeddedPostgres.serveEmbedded
 * through the messages of EmbeddedProtocol.
 *
 * Owns: the PGlite instance and its socket server, and closing PGlite (which
 * flushes it to disk) when asked to close.
 */
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Cause, Effect, Option, Queue, Schema } from "effect"
import { rmSync } from "node:fs"
import { type MessagePort, parentPort, workerData } from "node:worker_threads"
import { Reply, Request, Setup } from "./EmbeddedProtocol.ts"

/**
 * The service's pool holds one connection. The spare slots take the pool's
 * replacement connection while this thread, busy in a statement, has not yet
 * noticed the old one close, and the driver's cancel requests, which arrive on
 * connections of their own (PGlite cannot cancel; they are read and dropped).
 * Statements of all connections still run one at a time, and an open
 * transaction holds off the statements of every other connection.
 */
const CONNECTION_SLOTS = 8

/**
 * PGlite's memory is one WASM heap that grows to its peak and never shrinks:
 * smaller buffers keep that peak (and so the service's RSS) down. The market
 * tables are read once into the read model, so a large buffer cache buys little.
 */
const MEMORY_SETTINGS = ["-c", "shared_buffers=16MB", "-c", "work_mem=4MB", "-c", "maintenance_work_mem=16MB"]

const decodeRequest = Schema.decodeUnknownOption(Request)
const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

const serve = (port: MessagePort) =>
  Effect.gen(function*() {
    const post = (reply: Reply) => Effect.sync(() => port.postMessage(reply))
    const answer = (id: number) =>
      Effect.matchEffect({
        onFailure: (message: string) => post({ _tag: "Refused", id, message }),
        onSuccess: () => post({ _tag: "Done", id })
      })
    const inbox = yield* Queue.unbounded<Request>()
    port.on("message", (raw) => Option.map(decodeRequest(raw), (request) => Queue.offerUnsafe(inbox, request)))

    const setup = yield* Schema.decodeUnknownEffect(Setup)(workerData).pipe(
      Effect.mapError((e) => `bad embedded store setup: ${e.message}`)
    )
    const db = yield* Effect.tryPromise({
      try: () => PGlite.create(setup.dataDir, { startParams: [...PGlite.defaultStartParams, ...MEMORY_SETTINGS] }),
      catch: (cause) => `cannot open the embedded store at ${setup.dataDir}: ${describe(cause)}`
    })
    const close = Effect.tryPromise({
      try: () => db.close(),
      catch: (cause) => `cannot close the embedded store at ${setup.dataDir}: ${describe(cause)}`
    })
    let server: PGLiteSocketServer | undefined
    const listen = Effect.tryPromise({
      try: () => {
        rmSync(setup.socketPath, { force: true })
        server = new PGLiteSocketServer({ db, path: setup.socketPath, maxConnections: CONNECTION_SLOTS })
        return server.start()
      },
      catch: (cause) => `cannot listen on ${setup.socketPath}: ${describe(cause)}`
    })
    const unlisten = Effect.tryPromise(() => server?.stop() ?? Promise.resolve()).pipe(
      Effect.ignore,
      Effect.andThen(Effect.sync(() => {
        server = undefined
        rmSync(setup.socketPath, { force: true })
      }))
    )
    yield* listen.pipe(Effect.tapError(() => Effect.ignore(close)))
    yield* post({ _tag: "Ready" })

    let request = yield* Queue.take(inbox)
    while (request.op !== "close") {
      yield* (request.op === "stop" ? unlisten : listen).pipe(answer(request.id))
      request = yield* Queue.take(inbox)
    }
    yield* unlisten
    yield* close.pipe(answer(request.id))
  }).pipe(
    Effect.catchCause((cause) => {
      const reason = Cause.squash(cause)
      const message = typeof reason === "string" ? reason : describe(reason)
      return Effect.sync(() => port.postMessage({ _tag: "Failed", message } satisfies Reply))
    }),
    // Nothing is left to do: let the thread end.
    Effect.ensuring(Effect.sync(() => port.close()))
  )

if (parentPort !== null) Effect.runFork(serve(parentPort))
