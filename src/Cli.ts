/**
 * The command line: `serve` (the default), `mcp` (the tools over stdio), `migrate`; room for `ingest` and
 * `ledger …`. Each command builds only the layers it needs.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Console, Effect, Exit, Layer, Logger, Option, References, Runtime } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { HttpRouter } from "effect/http"
import { readFileSync } from "node:fs"
import { decodeExportLine, type ExportedEvent, type SignedCheckpoint, verifyExport } from "../domain/ledger/Checkpoint.ts"
import { AppConfig } from "./config/AppConfig.ts"
import { lockDataDir } from "./db/DataDirLock.ts"
import * as Database from "./db/Database.ts"
import * as Server from "./http/Server.ts"
import { PackImport } from "./ingest/PackImport.ts"
import { canonicalJson } from "../domain/ledger/Chain.ts"
import { Audit } from "./ledger/events/Audit.ts"
import { type Checkpoint, EventStore, sha256 } from "./ledger/events/EventStore.ts"
import { exportLine } from "./ledger/events/StoredRows.ts"
import { verifyReport } from "./ledger/events/VerifyReport.ts"
import { AnswerSignerLive } from "./ledger/signing/AnswerKey.ts"
import { LedgerSigner, publicKeysFromPem, verifyWith } from "./ledger/signing/Signing.ts"
import { PortalCrawler } from "./ingest/PortalCrawler.ts"
import { PortalLeader, PortalRefresh } from "./ingest/PortalRefresh.ts"
import { refreshCommand } from "./ingest/RefreshCommand.ts"
import { DataPack } from "./sources/DataPack.ts"
import { FundamentalsWarming } from "./market/provenance/FundamentalsWarming.ts"
import { NewsFeeds } from "./sources/NewsFeeds.ts"
import { PsxPortal } from "./sources/PsxPortal.ts"
import { jsonLinesLogger } from "./observability/JsonLogger.ts"
import { RouteCaller } from "./mcp/RouteCaller.ts"
import { McpStdio } from "./mcp/Server.ts"

const logging = (logger: Logger.Logger<unknown, void>) =>
  Layer.unwrap(
    Effect.map(AppConfig, (config) =>
      Layer.mergeAll(
        Logger.layer([logger]),
        Layer.succeed(References.MinimumLogLevel, config.logLevel)
      ))
  )

/** JSON-lines logs at the configured level. */
export const LoggingLive = logging(jsonLinesLogger)

const baseWith = (loggingLive: Layer.Layer<never, unknown, AppConfig>) => Layer.provideMerge(loggingLive, AppConfig.layer)

/** The store, migrated, with the market-data importer, over a configuration and logging base. */
const storeWith = (base: ReturnType<typeof baseWith>) =>
  PackImport.layer.pipe(
    Layer.provideMerge(Database.layer),
    Layer.provide(DataPack.layer),
    Layer.provide(NodeServices.layer),
    Layer.provideMerge(base)
  )

const Base = baseWith(LoggingLive)
const StoreLive = storeWith(Base)

/** On the embedded default (or when asked), the first start imports the bundled pack; later starts skip it. */
const AutoImport = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* AppConfig
  if (!config.autoImport) return
  const importer = yield* PackImport
  // In the background: the server answers /health at once, and /ready says
  // whether the pack is installed yet.
  yield* importer.run().pipe(
    Effect.catchCause((cause) => Effect.logError({ msg: "data pack import failed", cause: String(cause) })),
    Effect.forkScoped
  )
}))

/** The crawler over the live portal (used by the schedule and by `refresh`). */
const CrawlerLive = PortalCrawler.layer.pipe(Layer.provide(PsxPortal.layer), Layer.provide(NewsFeeds.layer))

/** With PSX_SOURCE=portal, the live portal crawl runs on the Karachi calendar (off by default). */
const PortalLive = PortalRefresh.scheduled.pipe(
  Layer.provide(PortalRefresh.layer),
  Layer.provide(PortalLeader.layer),
  Layer.provideMerge(FundamentalsWarming.live),
  Layer.provideMerge(CrawlerLive)
)

/** The embedded store's directory, held before the port is taken, so a second start names the holder. */
const DataDirLockLive = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isNone(config.databaseUrl)) yield* lockDataDir(config.dataDir)
}))

// The front door is built right after the configuration and logging: it
// listens and answers (503 "starting") while the store and the routes are built.
const serveLayer = Server.layer.pipe(
  Layer.provideMerge(AutoImport),
  Layer.provideMerge(PortalLive),
  Layer.provideMerge(StoreLive),
  Layer.provideMerge(Server.FrontDoorLive),
  Layer.provideMerge(DataDirLockLive),
  Layer.provideMerge(Base)
)

const serve = Layer.launch(serveLayer)

const serveCommand = Command.make("serve", {}, () => serve).pipe(
  Command.withDescription("Serve the HTTP API, /openapi.json and /docs (the default command)")
)

/**
 * The MCP tools over stdio for desktop hosts: stdout carries only JSON-RPC,
 * so every log line (JSON) goes to stderr. Imports the pack on first start
 * like `serve` (tools answer from what is stored meanwhile). The portfolio
 * tools (with PSX_API_KEY) call the HTTP API's routes in process; no port is opened.
 */
const mcpLayer = McpStdio.pipe(
  Layer.provide(RouteCaller.layer.pipe(
    Layer.provide(Layer.provideMerge(Server.ApiRoutes, HttpRouter.layer)),
    Layer.provide(NodeHttpServer.layerHttpServices)
  )),
  Layer.provide(Server.BodyLimit),
  Layer.provide(Server.ServicesWithoutPort),
  Layer.provide(FundamentalsWarming.pack),
  Layer.provideMerge(AutoImport),
  Layer.provideMerge(storeWith(baseWith(logging(Logger.withConsoleError(Logger.formatJson)))))
)

/** A start failure goes to stderr too (the runtime's own report would print on stdout). */
const quietFailure = (cause: Cause.Cause<unknown>) =>
  Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : Effect.andThen(
    Effect.sync(() => process.stderr.write(`psx mcp: ${Cause.pretty(cause)}\n`)),
    Effect.fail(Object.assign(new Error("psx mcp failed (reported on stderr)"), { [Runtime.errorReported]: false }))
  )

const mcpCommand = Command.make("mcp", {}, () => Layer.launch(mcpLayer).pipe(Effect.catchCause(quietFailure))).pipe(
  Command.withDescription("Serve the MCP tools over stdio (JSON-RPC on stdin/stdout, logs on stderr) for desktop hosts")
)

const migrateCommand = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    yield* Console.log("migrations are up to date")
  }).pipe(Effect.provide(Database.layer.pipe(Layer.provide(Base))))).pipe(
    Command.withDescription("Run the database migrations (they also run at start); running them twice changes nothing")
  )

const ingestCommand = Command.make("ingest", {
  force: Flag.Boolean("force").pipe(Flag.withDescription("Import even when the store already holds this pack"), Flag.withDefault(false))
}, ({ force }) =>
  Effect.gen(function*() {
    const importer = yield* PackImport
    const summary = yield* importer.run({ force })
    if (!summary.imported) {
      yield* Console.log(`the store already holds data pack ${summary.packVersion} (use --force to import again)`)
      return
    }
    yield* Console.log(`data pack ${summary.packVersion} imported in ${summary.seconds.toFixed(1)} s`)
    for (const s of summary.steps) {
      const skipped = Object.entries(s.skipped).map(([k, v]) => `${v} ${k}`).join(", ")
      yield* Console.log(`  ${s.dataset.padEnd(30)} read ${String(s.read).padStart(8)}  written ${String(s.written).padStart(8)}${skipped ? `  skipped: ${skipped}` : ""}`)
    }
  }).pipe(Effect.provide(StoreLive))).pipe(
    Command.withDescription("Import the bundled data pack into the store (idempotent; progress on a terminal, summary at the end)")
  )

const AuditLive = Audit.layer.pipe(
  Layer.provideMerge(LedgerSigner.layer.pipe(Layer.provideMerge(EventStore.layer))),
  Layer.provide(StoreLive)
)

const progress = (label: string) => (done: number, total: number) =>
  Effect.sync(() => {
    if (process.stderr.isTTY) process.stderr.write(`\r${label}: ${done}/${total} streams   ${done === total ? "\n" : ""}`)
  })

/** `ledger verify --public-key FILE EXPORT.ndjson`: an export checked offline, with no database and no private key. */
const verifyOffline = (publicKeyFile: string, exportFile: string) =>
  Effect.gen(function*() {
    const keys = yield* Effect.try(() => publicKeysFromPem(readFileSync(publicKeyFile, "utf8"))).pipe(Effect.orDie)
    if (keys.size === 0) return yield* Effect.fail(new Error(`${publicKeyFile} holds no PEM public key`))
    const text = yield* Effect.try(() => readFileSync(exportFile, "utf8")).pipe(Effect.orDie)
    const events: Array<ExportedEvent> = []
    const checkpoints: Array<SignedCheckpoint> = []
    const lines = text.split("\n")
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() === "") continue
      const line = decodeExportLine(lines[i])
      if (Exit.isFailure(line)) return yield* Effect.fail(new Error(`${exportFile} line ${i + 1} is neither an event nor a checkpoint`))
      if ("checkpoint" in line.value) checkpoints.push(line.value.checkpoint)
      else events.push(line.value)
    }
    const r = verifyExport(events, checkpoints, sha256, verifyWith(keys))
    yield* Console.log(`${r.streams} streams, ${r.events} events, ${r.checkpoints} signed checkpoints checked offline`)
    for (const f of r.failures) {
      yield* Console.log(`FAIL ${f.stream_id} version ${f.version}${f.event_id ? ` (event ${f.event_id})` : ""}: ${f.reason}`)
    }
    if (r.failures.length > 0) return yield* Effect.fail(new Error(`${r.failures.length} failure(s)`))
    if (r.checkpoints === 0) yield* Console.log("note: the export holds no signed checkpoint; only the chain itself was checked")
    yield* Console.log("OK: every chain recomputes and every signed checkpoint matches it")
  })

const verifyDatabase = Effect.gen(function*() {
  const audit = yield* Audit
  const report = verifyReport(yield* audit.verifyAll(progress("verifying")))
  for (const line of report.lines) yield* Console.log(line)
  if (report.error !== undefined) return yield* Effect.fail(new Error(report.error))
}).pipe(Effect.provide(AuditLive))

const ledgerVerify = Command.make("verify", {
  publicKey: Flag.String("public-key").pipe(
    Flag.withDescription("PEM file of trusted public key(s): verify EXPORT offline (no database, no private key)"),
    Flag.optional
  ),
  export: Argument.String("export").pipe(Argument.withDescription("An NDJSON file written by `ledger export`"), Argument.optional)
}, ({ publicKey, export: exportFile }) =>
  Option.isSome(publicKey)
    ? Option.isSome(exportFile)
      ? verifyOffline(publicKey.value, exportFile.value)
      : Effect.fail(new Error("--public-key needs the export file to verify"))
    : verifyDatabase).pipe(
    Command.withDescription(
      "Recompute every stream's hash chain and replay it into a fresh projection (whole database); or, with --public-key " +
        "FILE EXPORT.ndjson, verify an export offline against its signed checkpoints"
    )
  )

const ledgerRebuild = Command.make("rebuild", {}, () =>
  Effect.gen(function*() {
    const audit = yield* Audit
    const r = yield* audit.rebuildAll
    yield* Console.log(`rebuilt the holdings projection of ${r.streams} streams from ${r.events} events`)
  }).pipe(Effect.provide(AuditLive))).pipe(Command.withDescription("Rebuild every projection from the events"))

const ledgerExport = Command.make("export", {
  stream: Flag.String("stream").pipe(
    Flag.withDescription("One stream id (portfolio-<user id>, donation-<id>, or donations for those recorded before streams per donation); without it, the whole ledger in commit-safe order"),
    Flag.optional
  )
}, ({ stream }) =>
  Effect.gen(function*() {
    const signer = yield* LedgerSigner
    if (Option.isSome(stream)) {
      const audit = yield* Audit
      const lines = yield* audit.exportStream(stream.value)
      for (const line of lines) yield* Console.log(line)
      const signed = (yield* signer.allCheckpoints).filter((c) => c.stream_id === stream.value)
      for (const c of signed) yield* Console.log(canonicalJson({ checkpoint: c }))
      yield* Effect.sync(() => process.stderr.write(`exported ${lines.length} events and ${signed.length} checkpoints of ${stream.value}\n`))
      return
    }
    // The whole ledger through the catch-up reader: pages by (transaction, position) below the
    // oldest transaction in flight, so nothing committed late is skipped.
    const store = yield* EventStore
    let checkpoint: Checkpoint | undefined
    let total = 0
    for (;;) {
      const page = yield* store.readAllRows(checkpoint, 5_000)
      if (page.rows.length === 0) break
      yield* Console.log(page.rows.map(exportLine).join("\n"))
      total += page.rows.length
      checkpoint = page.next
      if (process.stderr.isTTY) process.stderr.write(`\rexported ${total} events`)
    }
    const signed = yield* signer.allCheckpoints
    for (const c of signed) yield* Console.log(canonicalJson({ checkpoint: c }))
    yield* Effect.sync(() => process.stderr.write(`\rexported ${total} events and ${signed.length} checkpoints of the whole ledger\n`))
  }).pipe(Effect.provide(AuditLive))).pipe(
    Command.withDescription(
      "Print events as NDJSON (canonical JSON, with hashes), then the signed checkpoints ({\"checkpoint\": …} lines): one " +
        "stream, or the whole ledger"
    )
  )

const ledgerCommand = Command.make("ledger", {}).pipe(
  Command.withDescription("Auditor's tools for the event ledger"),
  Command.withSubcommands([ledgerVerify, ledgerRebuild, ledgerExport])
)

export const cli = Command.make("psx", {}, () => serve).pipe(
  Command.withDescription("PSX data service"),
  Command.withSubcommands([serveCommand, mcpCommand, migrateCommand, ingestCommand, refreshCommand(CrawlerLive.pipe(Layer.provideMerge(StoreLive))), ledgerCommand])
)

export const run = Command.run(cli, { version: "1.0.0" })
