/**
 * The official MCP TypeScript SDK client against the service, as hosts use it:
 * over streamable HTTP to the test app's loopback server, and over stdio to a
 * spawned `node src/main.ts mcp` reading the same data.
 *
 * The stdio child reads the test file's own throwaway database on the real
 * PostgreSQL; on the embedded store it gets a temporary data directory that
 * `node src/main.ts ingest` fills with the bundled pack first (~20 s). Its
 * wall clock starts at the test app's instant (ShiftedNow.ts).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Context, Effect, Layer, Schema } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { isRealPostgres } from "./TestDatabase.ts"

const root = resolve(import.meta.dirname, "../..")

/** The loopback base URL of the test app's HTTP server. */
export const baseUrl = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  if (address._tag === "UnixPathAddress") return yield* Effect.die("the test server does not listen on TCP")
  return `http://127.0.0.1:${address.port}`
})

const connect = (client: Client, transport: StreamableHTTPClientTransport | StdioClientTransport) =>
  Effect.acquireRelease(
    Effect.promise(() => client.connect(transport)).pipe(Effect.as(client)),
    (c) => Effect.promise(() => c.close())
  )

const newClient = () => new Client({ name: "psx-test-host", version: "1.0.0" })

/** An SDK client over streamable HTTP, connected (initialize done) for the scope. */
export const httpClient = Effect.gen(function*() {
  const url = new URL("/mcp", yield* baseUrl)
  return yield* connect(newClient(), new StreamableHTTPClientTransport(url))
})

export class StdioMcp extends Context.Service<StdioMcp, {
  readonly client: Client
  /** Lines the child wrote to stderr (its logs). */
  readonly stderr: () => string
  /** Errors the client transport saw (e.g. a stdout line that is not JSON-RPC). */
  readonly transportErrors: ReadonlyArray<Error>
}>()("test/StdioMcp") {}

const run = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.callback<void>((resume) => {
    execFile(
      process.execPath,
      [...args],
      { cwd: root, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, _out, err) => resume(error ? Effect.die(new Error(`${args.join(" ")} failed: ${err}`)) : Effect.void)
    )
  })

const CurrentDatabase = Schema.Array(Schema.Struct({ name: Schema.String }))

/** On the real PostgreSQL: the test file's own database, which the test app has filled. */
const sameDatabase = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* Effect.flatMap(
    sql`SELECT current_database() AS name`,
    Schema.decodeUnknownEffect(CurrentDatabase)
  )
  const url = new URL(process.env["DATABASE_URL"]!)
  url.pathname = `/${row!.name}`
  return { DATABASE_URL: url.toString(), PSX_AUTO_IMPORT: "false" }
}).pipe(Effect.orDie)

/** On the embedded store: a temporary data directory that `psx ingest` fills with the pack. */
const ownDataDir = Effect.gen(function*() {
  const dir = mkdtempSync(join(tmpdir(), "psx-mcp-stdio-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  const env = { DATABASE_URL: "", PSX_DATA_DIR: dir, PSX_AUTO_IMPORT: "false", LOG_LEVEL: "Warn" }
  yield* run(["src/main.ts", "ingest"], env)
  return env
})

/** `node src/main.ts mcp` as a desktop host launches it, with the SDK's stdio client connected. */
const stdioMcp = <R>(now: string, childStore: Effect.Effect<Record<string, string>, never, R>) =>
  Layer.effect(
    StdioMcp,
    Effect.gen(function*() {
      const store = yield* childStore
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["--import", join(root, "test/support/ShiftedNow.ts"), "src/main.ts", "mcp"],
        cwd: root,
        env: { ...store, PATH: process.env["PATH"] ?? "", PSX_TEST_NOW: now, LOG_LEVEL: "Info" },
        stderr: "pipe"
      })
      let stderr = ""
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      const transportErrors: Array<Error> = []
      const client = newClient()
      client.onerror = (error) => {
        transportErrors.push(error)
      }
      yield* connect(client, transport)
      return StdioMcp.of({ client, stderr: () => stderr, transportErrors })
    })
  )

/**
 * The test app with the stdio child beside it. On PostgreSQL the child reads the app's database once the
 * app has imported the pack; on the embedded store its own import runs alongside the app's.
 */
export const withStdioMcp = <A, E, R>(app: Layer.Layer<A | SqlClient.SqlClient, E, R>, now: string) =>
  isRealPostgres
    ? Layer.provideMerge(stdioMcp(now, sameDatabase), app)
    : Layer.merge(app, stdioMcp(now, ownDataDir))
