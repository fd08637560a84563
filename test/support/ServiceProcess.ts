/**
 * The real service as a child process (`node src/main.ts serve`, on the Node
 * running the tests) on a throwaway store: a temporary PSX_DATA_DIR for the
 * embedded store, or a throwaway database on the PostgreSQL named by
 * DATABASE_URL. For tests that kill, restart or run several instances, and
 * that read what the process writes to stdout and stderr.
 */
import { Effect, Schedule } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { isRealPostgres, throwawayDatabase } from "./TestDatabase.ts"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))

/** Where a service process keeps its data: env vars naming one store, shared by every process started on it. */
export interface Store {
  readonly env: Record<string, string>
  readonly mode: "postgres" | "embedded"
}

/** A fresh store for this test, removed (or dropped) when the scope closes. */
export const throwawayStore = Effect.gen(function*() {
  if (isRealPostgres) {
    const url = yield* throwawayDatabase(process.env["DATABASE_URL"]!)
    return { env: { DATABASE_URL: url.toString() }, mode: "postgres" } satisfies Store
  }
  const dir = mkdtempSync(join(tmpdir(), "psx-proc-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  return { env: { PSX_DATA_DIR: join(dir, "pg") }, mode: "embedded" } satisfies Store
})

const freePort = Effect.callback<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

export interface Service {
  readonly url: string
  readonly child: ChildProcess
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: () => string
  /** Sends a signal and waits for the process to exit. */
  readonly kill: (signal: NodeJS.Signals) => Effect.Effect<void>
}

/** HTTP with fetch against a service process; a transport failure or timeout is `status: 0`. */
export const call = (url: string, init: RequestInit & { readonly timeoutMs?: number } = {}) =>
  Effect.promise(async () => {
    const started = Date.now()
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 15_000) })
      const text = await response.text()
      let body: any = text
      try {
        body = JSON.parse(text)
      } catch {
        // not JSON: kept as text
      }
      return { status: response.status, body, text, ms: Date.now() - started }
    } catch (e) {
      return { status: 0, body: undefined, text: String(e), ms: Date.now() - started }
    }
  })

/**
 * How the process is started: `node` runs `node src/main.ts serve` with Node's defaults; `npm start` runs the
 * start line users run (scripts/serve.sh: its Node options and malloc settings), on the Node running the tests.
 */
export type Launcher = "node" | "npm start"

/** `node src/main.ts serve` on a port, with a small environment (nothing of the caller's but PATH and HOME). */
export const spawnServe = (port: number, env: Record<string, string>, launcher: Launcher = "node") =>
  spawn(
    launcher === "node" ? process.execPath : "sh",
    launcher === "node" ? ["src/main.ts", "serve"] : ["scripts/serve.sh"],
    {
      cwd: ROOT,
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: process.env["HOME"] ?? "/tmp",
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "Warn",
        // `npm start` keeps the service's own poll; the tests' own processes see a change sooner.
        ...(launcher === "npm start" ? { PSX_NODE: process.execPath } : { PSX_READ_MODEL_POLL_MS: "200" }),
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )

/**
 * Starts a service process on `store` and waits until `/ready` says ready (and, with `awaitPack`, that the data
 * pack is installed). Killed with SIGKILL when the scope closes if still running.
 */
export const startService = (
  store: Store,
  options: {
    readonly env?: Record<string, string>
    readonly awaitPack?: boolean
    readonly readyWithinMs?: number
    readonly launcher?: Launcher
  } = {}
) =>
  Effect.gen(function*() {
    const port = yield* freePort
    const chunks: Array<string> = []
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const c = spawnServe(port, { ...store.env, ...options.env }, options.launcher)
        c.stdout!.on("data", (d) => chunks.push(String(d)))
        c.stderr!.on("data", (d) => chunks.push(String(d)))
        return c
      }),
      (c) =>
        Effect.sync(() => {
          if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
        })
    )
    const url = `http://127.0.0.1:${port}`
    const exited = Effect.callback<void>((resume) => {
      if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
      child.once("exit", () => resume(Effect.void))
    })
    const service: Service = {
      url,
      child,
      output: () => chunks.join(""),
      kill: (signal) =>
        Effect.suspend(() => {
          child.kill(signal)
          return exited
        })
    }
    yield* Effect.gen(function*() {
      if (child.exitCode !== null) return yield* Effect.die(new Error(`service exited: ${service.output()}`))
      const r = yield* call(`${url}/ready`, { timeoutMs: 3_000 })
      const ok = r.status === 200 &&
        (options.awaitPack !== true || r.body?.data_pack?.state === "installed" || r.body?.data_pack === "installed")
      if (!ok) return yield* Effect.fail("not ready")
    }).pipe(
      Effect.retry(Schedule.spaced("250 millis")),
      Effect.timeout(options.readyWithinMs ?? 300_000),
      Effect.catch(() =>
        Effect.die(
          new Error(`the service on ${url} was not ready in time; its output ends:\n${service.output().slice(-3_000)}`)
        )
      )
    )
    return service
  })
