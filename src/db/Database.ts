/**
 * The store: one `@effect/sql-pg` client, pointed at `DATABASE_URL` when set,
 * else at the embedded PGlite server. Migrations run when the layer is built.
 *
 * Owns: choosing the store, running migrations, the readiness probe.
 * Does not own: any table's contents (each feature's repository does).
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { migrations } from "../../migrations/index.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { type EmbeddedServer, serveEmbedded } from "./EmbeddedPostgres.ts"

export interface DatabaseShape {
  readonly mode: "postgres" | "embedded"
  /** `select 1`, failing after a second: the readiness probe. */
  readonly ping: Effect.Effect<boolean>
  /** The embedded server, when that is the store (tests stop and restart it). */
  readonly embedded: Option.Option<EmbeddedServer>
}

export class Database extends Context.Service<Database, DatabaseShape>()("psx/Database") {}

const runMigrations = Migrator.make({})({ loader: Migrator.fromRecord(migrations) })

const makeDatabase = (mode: DatabaseShape["mode"], embedded: Option.Option<EmbeddedServer>) =>
  Layer.effect(
    Database,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // The probe gives up waiting after a second but never interrupts its query: an
      // interrupted statement makes the driver cancel it, and on the embedded store
      // (which cannot cancel) drop the one connection after a few seconds, failing
      // whatever else was on it (an import batch, say). One probe query at a time.
      let probe: Fiber.Fiber<unknown, unknown> | undefined
      const ping = Effect.gen(function*() {
        if (probe === undefined || probe.pollUnsafe() !== undefined) probe = yield* Effect.forkDetach(sql`select 1 as ok`)
        return yield* Fiber.join(probe)
      }).pipe(
        Effect.timeout(Duration.seconds(1)),
        Effect.as(true),
        Effect.catchCause(() => Effect.succeed(false))
      )
      return { mode, ping, embedded }
    })
  )

const clientOptions = { connectTimeout: Duration.seconds(2), idleTimeout: Duration.minutes(5) } as const

/** A PostgreSQL server at `url`, migrated. */
export const layerPostgres = (url: Redacted.Redacted, maxConnections = 10, mode: DatabaseShape["mode"] = "postgres") =>
  Layer.mergeAll(
    makeDatabase(mode, Option.none()),
    Layer.effectDiscard(runMigrations)
  ).pipe(Layer.provideMerge(PgClient.layer({ url, maxConnections, ...clientOptions })))

/** The embedded PGlite store in `dataDir`, migrated. */
export const layerEmbedded = (dataDir: string) =>
  Layer.unwrap(
    Effect.map(serveEmbedded(dataDir), (server) =>
      Layer.mergeAll(
        makeDatabase("embedded", Option.some(server)),
        Layer.effectDiscard(runMigrations)
      ).pipe(Layer.provideMerge(PgClient.layer({
        path: server.socketPath,
        username: "postgres",
        database: "postgres",
        maxConnections: 1,
        ...clientOptions
      }))))
  )

/** The store the configuration names. */
export const layer = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onNone: () => layerEmbedded(config.dataDir),
      onSome: (url) => layerPostgres(url)
    }))
)

export const migrate = runMigrations
export { Redacted }
