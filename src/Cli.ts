/**
 * The command line: `serve` (the default), `mcp` (the tools over stdio), `migrate`, `ingest`, `refresh` and
 * `ledger …`. Each command runs over only the layers it needs, composed in Layers.ts.
 */
import { Cause, Console, Effect, Exit, Layer, Option, Runtime } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { readFileSync } from "node:fs"
import { canonicalJson } from "../domain/ledger/Chain.ts"
import {
  decodeExportLine,
  type ExportedEvent,
  type SignedCheckpoint,
  verifyExport
} from "../domain/ledger/Checkpoint.ts"
import { PackImport } from "./ingest/PackImport.ts"
import { refreshCommand } from "./ingest/RefreshCommand.ts"
import * as Layers from "./Layers.ts"
import { Audit } from "./ledger/events/Audit.ts"
import { type Checkpoint, EventStore, sha256 } from "./ledger/events/EventStore.ts"
import { exportLine } from "./ledger/events/StoredRows.ts"
import { verifyReport } from "./ledger/events/VerifyReport.ts"
import { LedgerSigner, publicKeysFromPem, verifyWith } from "./ledger/signing/Signing.ts"

const serve = Layer.launch(Layers.ServeLive)

const serveCommand = Command.make("serve", {}, () => serve).pipe(
  Command.withDescription("Serve the HTTP API, /openapi.json and /docs (the default command)")
)

/** A start failure goes to stderr too (the runtime's own report would print on stdout). */
const quietFailure = (cause: Cause.Cause<unknown>) =>
  Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : Effect.andThen(
    Effect.sync(() => process.stderr.write(`psx mcp: ${Cause.pretty(cause)}\n`)),
    Effect.fail(Object.assign(new Error("psx mcp failed (reported on stderr)"), { [Runtime.errorReported]: false }))
  )

const mcpCommand = Command.make(
  "mcp",
  {},
  () => Layer.launch(Layers.McpStdioLive).pipe(Effect.catchCause(quietFailure))
).pipe(
  Command.withDescription("Serve the MCP tools over stdio (JSON-RPC on stdin/stdout, logs on stderr) for desktop hosts")
)

const migrateCommand = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    yield* Console.log("migrations are up to date")
  }).pipe(Effect.provide(Layers.DatabaseLive))).pipe(
    Command.withDescription("Run the database migrations (they also run at start); running them twice changes nothing")
  )

const ingestCommand = Command.make("ingest", {
  force: Flag.Boolean("force").pipe(
    Flag.withDescription("Import even when the store already holds this pack"),
    Flag.withDefault(false)
  )
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
      yield* Console.log(
        `  ${s.dataset.padEnd(30)} read ${String(s.read).padStart(8)}  written ${String(s.written).padStart(8)}${
          skipped ? `  skipped: ${skipped}` : ""
        }`
      )
    }
  }).pipe(Effect.provide(Layers.StoreLive))).pipe(
    Command.withDescription(
      "Import the bundled data pack into the store (idempotent; progress on a terminal, summary at the end)"
    )
  )

const progress = (label: string) => (done: number, total: number) =>
  Effect.sync(() => {
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${label}: ${done}/${total} streams   ${done === total ? "\n" : ""}`)
    }
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
      if (Exit.isFailure(line)) {
        return yield* Effect.fail(new Error(`${exportFile} line ${i + 1} is neither an event nor a checkpoint`))
      }
      if ("checkpoint" in line.value) checkpoints.push(line.value.checkpoint)
      else events.push(line.value)
    }
    const r = verifyExport(events, checkpoints, sha256, verifyWith(keys))
    yield* Console.log(`${r.streams} streams, ${r.events} events, ${r.checkpoints} signed checkpoints checked offline`)
    for (const f of r.failures) {
      yield* Console.log(
        `FAIL ${f.stream_id} version ${f.version}${f.event_id ? ` (event ${f.event_id})` : ""}: ${f.reason}`
      )
    }
    if (r.failures.length > 0) return yield* Effect.fail(new Error(`${r.failures.length} failure(s)`))
    if (r.checkpoints === 0) {
      yield* Console.log("note: the export holds no signed checkpoint; only the chain itself was checked")
    }
    yield* Console.log("OK: every chain recomputes and every signed checkpoint matches it")
  })

const verifyDatabase = Effect.gen(function*() {
  const audit = yield* Audit
  const report = verifyReport(yield* audit.verifyAll(progress("verifying")))
  for (const line of report.lines) yield* Console.log(line)
  if (report.error !== undefined) return yield* Effect.fail(new Error(report.error))
}).pipe(Effect.provide(Layers.AuditLive))

const ledgerVerify = Command.make("verify", {
  publicKey: Flag.String("public-key").pipe(
    Flag.withDescription("PEM file of trusted public key(s): verify EXPORT offline (no database, no private key)"),
    Flag.optional
  ),
  export: Argument.String("export").pipe(
    Argument.withDescription("An NDJSON file written by `ledger export`"),
    Argument.optional
  )
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
  }).pipe(Effect.provide(Layers.AuditLive))).pipe(Command.withDescription("Rebuild every projection from the events"))

const ledgerExport = Command.make("export", {
  stream: Flag.String("stream").pipe(
    Flag.withDescription(
      "One stream id (portfolio-<user id>, donation-<id>, or donations for those recorded before streams per donation); without it, the whole ledger in commit-safe order"
    ),
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
      yield* Effect.sync(() =>
        process.stderr.write(`exported ${lines.length} events and ${signed.length} checkpoints of ${stream.value}\n`)
      )
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
    yield* Effect.sync(() =>
      process.stderr.write(`\rexported ${total} events and ${signed.length} checkpoints of the whole ledger\n`)
    )
  }).pipe(Effect.provide(Layers.AuditLive))).pipe(
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
  Command.withSubcommands([
    serveCommand,
    mcpCommand,
    migrateCommand,
    ingestCommand,
    refreshCommand(Layers.CrawlerWithStore),
    ledgerCommand
  ])
)

export const run = Command.run(cli, { version: "1.0.0" })
