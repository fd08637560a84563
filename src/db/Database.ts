/**
 * The store: one `@effect/sql-pg` client, pointed at `DATABASE_URL` when set,
 * else at the embedded PGlite server. Migrations run when the layer is built.
 *
 * Owns: choosing the store, running migrations, and holding the embedded
 * store's data directory for this process alone (DataDirLock.ts).
 * Does not own: any table's contents (each feature's repository does).
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { Migrator } from "effect/sql"
import { migrations } from "../../migrations/index.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { lockDataDir } from "./DataDirLock.ts"
import { type EmbeddedServer, serveEmbedded } from "./EmbeddedPostgres.ts"
import { seedFromImage } from "./StoreImage.ts"

export interface DatabaseShape {
  readonly mode: "postgres" | "embedded"
  /** The embedded server, when that is the store (tests stop and restart it). */
  readonly embedded: Option.Option<EmbeddedServer>
}

export class Database extends Context.Service<Database, DatabaseShape>()("psx/Database") {}

const runMigrations = Migrator.make({})({ loader: Migrator.fromRecord(migrations) })

const makeDatabase = (mode: DatabaseShape["mode"], embedded: Option.Option<EmbeddedServer>) =>
  Layer.succeed(Database, { mode, embedded })

const clientOptions = { connectTimeout: Duration.seconds(2), idleTimeout: Duration.minutes(5) } as const

/** A PostgreSQL server at `url`, migrated. */
export const layerPostgres = (url: Redacted.Redacted, maxConnections = 10, mode: DatabaseShape["mode"] = "postgres") =>
  Layer.mergeAll(
    makeDatabase(mode, Option.none()),
    Layer.effectDiscard(runMigrations)
  ).pipe(Layer.provideMerge(PgClient.layer({ url, maxConnections, ...clientOptions })))

/** Seeds from the image when it can; a failed copy only costs the import it would have saved. */
const seedStore = (dataDir: string) =>
  seedFromImage(dataDir).pipe(
    Effect.tap((seeded) =>
      seeded ? Effect.logInfo({ msg: "the store starts from the prebuilt pack image", dataDir }) : Effect.void
    ),
    Effect.catch((e) => Effect.logWarning({ msg: e.message, cause: String(e.cause) }))
  )

/**
 * The embedded PGlite store in `dataDir`, migrated. With `seed`, an empty
 * directory starts as a copy of the prebuilt store image when one matches the
 * pack (StoreImage.ts), so the pack is installed without an import.
 */
export const layerEmbedded = (dataDir: string, options: { readonly seed?: boolean } = {}) =>
  Layer.unwrap(
    Effect.map(
      lockDataDir(dataDir).pipe(
        Effect.andThen(options.seed === true ? seedStore(dataDir) : Effect.void),
        Effect.andThen(serveEmbedded(dataDir))
      ),
      (server) =>
        Layer.mergeAll(
          makeDatabase("embedded", Option.some(server)),
          Layer.effectDiscard(runMigrations)
        ).pipe(Layer.provideMerge(PgClient.layer({
          path: server.socketPath,
          username: "postgres",
          database: "postgres",
          maxConnections: 1,
          ...clientOptions
        })))
    )
  )

/** The store the configuration names. */
export const layer = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onNone: () => layerEmbedded(config.dataDir, { seed: config.autoImport }),
      onSome: (url) => layerPostgres(url)
    }))
)

export const migrate = runMigrations
export { Redacted }
