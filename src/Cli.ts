/**
 * The command line: `serve` (the default), `migrate`; room for `ingest` and
 * `ledger …`. Each command builds only the layers it needs.
 */
import { Console, Effect, Layer, Logger, References } from "effect"
import { Command } from "effect/cli"
import { AppConfig } from "./config/AppConfig.ts"
import * as Database from "./db/Database.ts"
import * as Server from "./http/Server.ts"
import { jsonLinesLogger } from "./observability/JsonLogger.ts"

/** JSON-lines logs at the configured level. */
export const LoggingLive = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    Layer.mergeAll(
      Logger.layer([jsonLinesLogger]),
      Layer.succeed(References.MinimumLogLevel, config.logLevel)
    ))
)

const Base = Layer.provideMerge(LoggingLive, AppConfig.layer)

const serveLayer = Server.layer.pipe(
  Layer.provide(Database.layer),
  Layer.provide(Base)
)

const serve = Effect.gen(function*() {
  yield* Layer.launch(serveLayer)
})

const serveCommand = Command.make("serve", {}, () => serve).pipe(
  Command.withDescription("Serve the HTTP API, the MCP tool endpoint and /docs (the default command)")
)

const migrateCommand = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    yield* Console.log("migrations are up to date")
  }).pipe(Effect.provide(Database.layer.pipe(Layer.provide(Base))))).pipe(
    Command.withDescription("Run the database migrations (they also run at start); running them twice changes nothing")
  )

export const cli = Command.make("psx", {}, () => serve).pipe(
  Command.withDescription("PSX data service"),
  Command.withSubcommands([serveCommand, migrateCommand])
)

export const run = Command.run(cli, { version: "1.0.0" })
