/**
 * The embedded default store: PGlite (PostgreSQL compiled to WASM) keeping its
 * files in a data directory, served on a unix socket by pglite-socket so the
 * service reaches it with the same `@effect/sql-pg` client it uses for a real
 * server. PGlite and its socket server live in their own thread
 * (EmbeddedWorker.ts): statements never run on the HTTP server's event loop,
 * so a ledger append or an import batch does not stall other requests. One
 * connection: PGlite runs one statement at a time, and an open transaction
 * must not see statements of another client.
 *
 * Owns: starting the thread; on release, asking it to close PGlite (which
 * flushes it to disk) and waiting until the thread has ended.
 */
import { Cause, Data, Deferred, Duration, Effect, Option, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { Worker } from "node:worker_threads"
import { Reply, type Request, type Setup } from "./EmbeddedProtocol.ts"

export class EmbeddedStartError extends Data.TaggedError("EmbeddedStartError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export interface EmbeddedServer {
  /** The unix socket path the PgClient connects to. */
  readonly socketPath: string
  /** Stops accepting connections (used by tests to simulate the database going away). */
  readonly stop: Effect.Effect<void>
  /** Accepts connections again after `stop`. */
  readonly start: Effect.Effect<void, EmbeddedStartError>
}

/** Opening runs initdb on first use (seconds); a thread that is still silent after this is stuck. */
const OPEN_LIMIT = Duration.minutes(2)
/** Closing flushes PGlite's files; past this the thread is terminated. */
const CLOSE_LIMIT = Duration.seconds(30)

const decodeReply = Schema.decodeUnknownOption(Reply)

/** What the thread's replies complete: its opening, its end, and each pending request. */
interface Waiting {
  readonly opened: Deferred.Deferred<void, EmbeddedStartError>
  readonly ended: Deferred.Deferred<EmbeddedStartError>
  readonly pending: Map<number, Deferred.Deferred<void, EmbeddedStartError>>
}

/** Wires the thread's messages, errors and exit to the deferreds; gives whether it failed to open or crashed. */
const listen = (worker: Worker, { ended, opened, pending }: Waiting) => {
  let failure: { message: string; cause?: unknown } | undefined
  const answerRequest = (id: number, outcome: Effect.Effect<void, EmbeddedStartError>) => {
    const waiting = pending.get(id)
    pending.delete(id)
    if (waiting !== undefined) Deferred.doneUnsafe(waiting, outcome)
  }
  worker.on("message", (raw) =>
    Option.map(decodeReply(raw), (reply) => {
      switch (reply._tag) {
        case "Ready":
          return Deferred.doneUnsafe(opened, Effect.void)
        case "Failed":
          failure = { message: reply.message }
          return Deferred.doneUnsafe(opened, Effect.fail(new EmbeddedStartError(failure)))
        case "Done":
          return answerRequest(reply.id, Effect.void)
        case "Refused":
          return answerRequest(reply.id, Effect.fail(new EmbeddedStartError({ message: reply.message })))
      }
    }))
  // An uncaught exception in the thread: it ends next, with this as the reason.
  worker.on("error", (cause) => {
    failure ??= { message: `the embedded store's thread crashed: ${cause.message}`, cause }
  })
  worker.on("exit", (code) => {
    const gone = new EmbeddedStartError(failure ?? { message: `the embedded store's thread ended (exit code ${code})` })
    Deferred.doneUnsafe(ended, Effect.succeed(gone))
    Deferred.doneUnsafe(opened, Effect.fail(gone))
    for (const id of [...pending.keys()]) answerRequest(id, Effect.fail(gone))
  })

  return () => failure !== undefined
}

/** The thread and its request/reply channel. Nothing here blocks: replies complete deferreds. */
const spawnThread = (setup: Setup) => {
  const worker = new Worker(new URL("./EmbeddedWorker.ts", import.meta.url), { workerData: setup })
  const opened = Deferred.makeUnsafe<void, EmbeddedStartError>()
  const ended = Deferred.makeUnsafe<EmbeddedStartError>()
  const pending = new Map<number, Deferred.Deferred<void, EmbeddedStartError>>()
  let nextId = 0

  const failed = listen(worker, { opened, ended, pending })
  const ask = (op: Request["op"]) =>
    Effect.suspend(() => {
      if (Deferred.isDoneUnsafe(ended)) return Effect.flatMap(Deferred.await(ended), Effect.fail)
      const id = ++nextId
      const reply = Deferred.makeUnsafe<void, EmbeddedStartError>()
      pending.set(id, reply)
      worker.postMessage({ id, op } satisfies Request)
      return Deferred.await(reply)
    })

  // Runs as a finalizer (uninterruptible): the waits are made interruptible so their limits apply.
  const close = Effect.suspend(() =>
    // A thread that failed to open, or has ended, has nothing to close.
    failed() || Deferred.isDoneUnsafe(ended) ? Effect.void : Effect.interruptible(ask("close")).pipe(
      Effect.timeout(CLOSE_LIMIT),
      Effect.catchCause((cause) =>
        Effect.logWarning({ msg: "the embedded store did not close cleanly", cause: Cause.pretty(cause) })
      )
    )
  ).pipe(
    // PGlite is closed (or never opened): end the thread now rather than wait for it to wind down.
    Effect.andThen(Effect.promise(() => worker.terminate())),
    Effect.asVoid
  )

  return { opened: Deferred.await(opened), ended: Deferred.await(ended), ask, close }
}

/**
 * Opens (creating on first use) the PGlite data directory in its own thread
 * and serves it on a fresh unix socket for the lifetime of the scope.
 * `memory://` keeps nothing. Fails with EmbeddedStartError when the store
 * cannot be opened or the thread dies while opening.
 */
export const serveEmbedded = (dataDir: string) =>
  Effect.gen(function*() {
    const location = dataDir.startsWith("memory://") ? dataDir : resolve(dataDir)
    if (!location.startsWith("memory://")) {
      yield* Effect.try({
        try: () => mkdirSync(location, { recursive: true }),
        catch: (cause) =>
          new EmbeddedStartError({ message: `cannot create the embedded store's directory ${location}`, cause })
      })
    }
    // Unix socket paths are limited to ~107 bytes: keep them short, in tmp.
    const socketPath = join(tmpdir(), `psx-pg-${process.pid}-${randomBytes(4).toString("hex")}.sock`)
    const thread = yield* Effect.acquireRelease(
      Effect.sync(() => spawnThread({ dataDir: location, socketPath })),
      (thread) => thread.close
    )
    yield* thread.opened.pipe(Effect.timeoutOrElse({
      duration: OPEN_LIMIT,
      orElse: () =>
        Effect.fail(new EmbeddedStartError({ message: `the embedded store at ${location} did not open in time` }))
    }))
    // A thread that ends before the scope closes has crashed: say so (queries fail from here on).
    yield* thread.ended.pipe(
      Effect.flatMap((reason) => Effect.logError({ msg: "the embedded store stopped", reason: reason.message })),
      Effect.forkScoped
    )
    return {
      socketPath,
      stop: Effect.ignore(thread.ask("stop")),
      start: thread.ask("start")
    } satisfies EmbeddedServer
  })
