/**
 * The embedded default store: PGlite (PostgreSQL compiled to WASM) keeping its
 * files in a data directory, served on a unix socket by pglite-socket so the
 * service reaches it with the same `@effect/sql-pg` client it uses for a real
 * server. One connection: PGlite runs one statement at a time, and an open
 * transaction must not see statements of another client.
 *
 * Owns: starting, and on release stopping and flushing, the embedded server.
 */
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Data, Effect } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

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

let counter = 0

/**
 * Opens (creating on first use) the PGlite data directory and serves it on a
 * fresh unix socket for the lifetime of the scope. `memory://` keeps nothing.
 */
export const serveEmbedded = (dataDir: string) =>
  Effect.gen(function*() {
    const location = dataDir.startsWith("memory://") ? dataDir : resolve(dataDir)
    if (!location.startsWith("memory://")) {
      yield* Effect.sync(() => mkdirSync(location, { recursive: true }))
    }
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(location),
        catch: (cause) => new EmbeddedStartError({ message: `cannot open the embedded store at ${location}`, cause })
      }),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    // Unix socket paths are limited to ~107 bytes: keep them short, in tmp.
    const socketPath = join(tmpdir(), `psx-pg-${process.pid}-${++counter}.sock`)
    const make = () => new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 })
    let server = make()
    const start = Effect.tryPromise({
      try: () => {
        rmSync(socketPath, { force: true })
        server = make()
        return server.start()
      },
      catch: (cause) => new EmbeddedStartError({ message: `cannot listen on ${socketPath}`, cause })
    })
    const stop = Effect.promise(() => server.stop()).pipe(
      Effect.andThen(Effect.sync(() => rmSync(socketPath, { force: true }))),
      Effect.ignore
    )
    yield* Effect.acquireRelease(start, () => stop)
    return { socketPath, stop, start } satisfies EmbeddedServer
  })
