/**
 * The store for a test file: the real PostgreSQL named by DATABASE_URL (a
 * throwaway database is created for the file and dropped after it), else an
 * embedded PGlite store in a fresh temporary directory.
 *
 * Every connection goes through a loopback proxy the test controls, so a test
 * can make the database "go away" and come back in either mode.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { mkdtempSync, rmSync } from "node:fs"
import { connect, createServer, type Server, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { layerEmbedded, layerPostgres } from "../../src/db/Database.ts"
import { serveEmbedded } from "../../src/db/EmbeddedPostgres.ts"
import { copyImage, seedFromImage } from "../../src/db/StoreImage.ts"
import { emptyImagePath, hasTemplate, templateName } from "./PackTemplate.ts"

export interface DbProxyShape {
  /** Drops every connection and refuses new ones. */
  readonly cut: Effect.Effect<void>
  /** Accepts connections again. */
  readonly restore: Effect.Effect<void>
}
export class DbProxy extends Context.Service<DbProxy, DbProxyShape>()("test/DbProxy") {}

type Target = { readonly path: string } | { readonly host: string; readonly port: number }

const startProxy = (target: Target) =>
  Effect.acquireRelease(
    Effect.callback<{ server: Server; port: number; sockets: Set<Socket>; state: { open: boolean } }>((resume) => {
      const sockets = new Set<Socket>()
      const state = { open: true }
      const server = createServer((client) => {
        if (!state.open) return client.destroy()
        const upstream = "path" in target ? connect(target.path) : connect(target.port, target.host)
        sockets.add(client)
        sockets.add(upstream)
        const drop = () => {
          client.destroy()
          upstream.destroy()
          sockets.delete(client)
          sockets.delete(upstream)
        }
        client.on("error", drop).on("close", drop)
        upstream.on("error", drop).on("close", drop)
        client.pipe(upstream)
        upstream.pipe(client)
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(
          Effect.succeed({ server, port: typeof address === "object" && address ? address.port : 0, sockets, state })
        )
      })
    }),
    ({ server, sockets }) =>
      Effect.sync(() => {
        for (const s of sockets) s.destroy()
        server.close()
      })
  ).pipe(Effect.map((p) => ({
    port: p.port,
    proxy: DbProxy.of({
      cut: Effect.sync(() => {
        p.state.open = false
        for (const s of p.sockets) s.destroy()
        p.sockets.clear()
      }),
      restore: Effect.sync(() => {
        p.state.open = true
      })
    })
  })))

/**
 * What this run of the suite leaves behind is named by its tag (set by test/support/GlobalSetup.ts, else the
 * process id), so the global teardown can remove it even when a worker exits without closing its stores.
 */
export const testRunTag = () => process.env["PSX_TEST_RUN"] ?? String(process.pid)
/** Where this run's embedded stores live: removed whole by the global teardown. */
export const testRunDirectory = () => process.env["PSX_TEST_DIR"] ?? tmpdir()

const adminUrl = (url: string, database: string) => {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

/** A throwaway database on the server named by `url` (a copy of `template` when given), dropped when the scope closes. */
export const throwawayDatabase = (url: string, template?: string) =>
  Effect.gen(function*() {
    const name = `psx_test_${testRunTag()}_${Math.random().toString(36).slice(2, 8)}`
    const admin = yield* PgClient.make({ url: Redacted.make(adminUrl(url, "postgres")), maxConnections: 1 })
    yield* admin.unsafe(
      template === undefined ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`
    )
    yield* Effect.addFinalizer(() => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.ignore))
    return new URL(adminUrl(url, name))
  }).pipe(Effect.provide(Reactivity.layer))

export const isRealPostgres = process.env["DATABASE_URL"] !== undefined && process.env["DATABASE_URL"] !== ""

/**
 * Database, SqlClient, PgClient and DbProxy for one test file. With `pack`,
 * the store starts with the pack installed when the pack's prebuilt store
 * exists (the image, or the PostgreSQL template: test/support/PackTemplate.ts);
 * otherwise it starts empty and the caller's import fills it.
 */
export const TestDatabaseWith = (options: { readonly pack: boolean }) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const url = process.env["DATABASE_URL"]
      if (url !== undefined && url !== "") {
        const template = options.pack && (yield* Effect.orDie(hasTemplate(url))) ? templateName() : undefined
        const db = yield* throwawayDatabase(url, template)
        const { port, proxy } = yield* startProxy({ host: db.hostname || "127.0.0.1", port: Number(db.port || 5432) })
        db.hostname = "127.0.0.1"
        db.port = String(port)
        return layerPostgres(Redacted.make(db.toString())).pipe(Layer.merge(Layer.succeed(DbProxy, proxy)))
      }
      const dir = mkdtempSync(join(testRunDirectory(), "psx-test-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      yield* Effect.orDie(options.pack ? seedFromImage(dir) : copyImage(emptyImagePath(), dir))
      const server = yield* serveEmbedded(dir)
      const { port, proxy } = yield* startProxy({ path: server.socketPath })
      return layerEmbeddedVia(port).pipe(Layer.merge(Layer.succeed(DbProxy, proxy)))
    })
  )

/** An empty store for one test file. */
export const TestDatabase = TestDatabaseWith({ pack: false })

/** The embedded store reached over the proxy's TCP port (one connection, as in production). */
const layerEmbeddedVia = (port: number) =>
  layerPostgres(Redacted.make(`postgres://postgres@127.0.0.1:${port}/postgres`), 1, "embedded")

/** AppConfig for tests: defaults, with generous rate limits unless a test overrides them. */
export const TestConfig = (overrides: Partial<typeof AppConfig.Service> = {}) =>
  AppConfig.layerWith({ databaseUrl: Option.none(), autoImport: false, ...overrides })

export { layerEmbedded }
