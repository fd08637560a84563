/**
 * Start-up, as a user runs it (`node src/main.ts serve` in a process of its
 * own, on a throwaway store with the bundled pack imported on first start):
 *
 * - every request sent at any phase of the start gets an answer (a refused
 *   connection before the port opens is not a request accepted);
 * - /ready says `installed` only when a recorded symbol's quote and prices
 *   are served, and never goes back from 200 to 503 while it imports;
 * - a second process on the same embedded data directory is refused, with a
 *   message naming the directory and the pid holding it; a stale lock (its
 *   process gone) is taken over.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { get as httpGet } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DataDirLocked, LOCK_FILE, lockDataDir } from "../src/db/DataDirLock.ts"
import { spawnServe, startService, throwawayStore } from "./support/ServiceProcess.ts"
import { isRealPostgres } from "./support/TestDatabase.ts"

/** A recorded symbol of the bundled pack (test/fixtures and data/pack both carry it). */
const SYMBOL = "HUBC"

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(typeof a === "object" && a !== null ? a.port : 0))
    })
  })

interface Outcome {
  readonly path: string
  readonly status: number
  /** "refused": no connection (the port is not open yet); "timeout": accepted and never answered; else the error code. */
  readonly failure?: string
  readonly body?: any
  readonly retryAfter?: string
}

/**
 * One request on a connection of its own (`agent: false`, `Connection: close`): with a pooled keep-alive
 * connection, a server closing it as idle while the next request is in flight resets a request it never
 * accepted, which is not what this test is about.
 */
const send = (url: string, path: string): Promise<Outcome> =>
  new Promise((resolve) => {
    const request = httpGet(
      `${url}${path}`,
      { agent: false, headers: { connection: "close" }, timeout: 40_000 },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (c: Buffer) => chunks.push(c))
        response.on("error", (e: NodeJS.ErrnoException) => resolve({ path, status: 0, failure: `response:${e.code}` }))
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          let body: unknown = text
          try {
            body = JSON.parse(text)
          } catch {
            // not JSON
          }
          const retryAfter = response.headers["retry-after"]
          resolve({ path, status: response.statusCode ?? 0, body, ...(retryAfter !== undefined ? { retryAfter } : {}) })
        })
      }
    )
    request.on("timeout", () => request.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })))
    request.on("error", (e: NodeJS.ErrnoException) =>
      resolve({
        path,
        status: 0,
        failure: e.code === "ECONNREFUSED" ? "refused" : e.code === "TIMEOUT" ? "timeout" : `error:${e.code}`
      }))
  })

describe("start-up", () => {
  it.live(
    "every request at every phase of start gets an answer; installed means the data is served",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const port = yield* Effect.promise(freePort)
        const url = `http://127.0.0.1:${port}`
        const child = yield* Effect.acquireRelease(
          Effect.sync(() => spawnServe(port, store.env)),
          (c) => Effect.sync(() => c.kill("SIGKILL"))
        )
        const output: Array<string> = []
        child.stdout!.on("data", (d) => output.push(String(d)))
        child.stderr!.on("data", (d) => output.push(String(d)))
        const outcomes = yield* Effect.promise(async () => {
          const all: Array<Promise<Outcome>> = []
          const deadline = Date.now() + 280_000
          let installed: Outcome | undefined
          while (Date.now() < deadline && child.exitCode === null) {
            // Requests of several kinds, not awaited one by one: some land in every phase.
            all.push(send(url, `/v1/quotes/${SYMBOL}?allow_stale=true`), send(url, "/v1/companies?limit=5"))
            const ready = await send(url, "/ready")
            all.push(Promise.resolve(ready))
            if (ready.status === 200 && ready.body?.data_pack === "installed") {
              installed = ready
              break
            }
            await new Promise((r) => setTimeout(r, 50))
          }
          const settled = await Promise.all(all)
          const served = installed === undefined
            ? []
            : await Promise.all([
              send(url, `/v1/quotes/${SYMBOL}?allow_stale=true`),
              send(url, `/v1/prices/${SYMBOL}?range=1Y`)
            ])
          return { settled, installed, served }
        })
        assert.isDefined(outcomes.installed, `never installed; output:\n${output.join("").slice(-2_000)}`)
        const unanswered = outcomes.settled.filter((o) => o.failure !== undefined && o.failure !== "refused")
        assert.deepStrictEqual(unanswered, [], "a request accepted was never answered")
        for (const o of outcomes.settled.filter((o) => o.failure === undefined)) {
          // Until the pack is loaded (starting, then importing) a market read is 503 with Retry-After, never
          // a 404 that would call a recorded symbol unknown.
          assert.oneOf(o.status, [200, 503], `${o.path}: ${JSON.stringify(o.body)}`)
          if (o.status === 503) {
            assert.strictEqual(o.body.error, "SOURCE_UNAVAILABLE")
            assert.isDefined(o.retryAfter, `${o.path}: a 503 says when to retry`)
          }
        }
        // PostgreSQL starts empty and imports the pack (the embedded store starts from the store image, already installed).
        const importing = outcomes.settled.filter((o) => o.status === 503 && /importing/.test(o.body?.message ?? ""))
        if (isRealPostgres) {
          assert.isAbove(importing.length, 0, "some market reads landed while the pack imported, and said so")
        }
        // Readiness never goes back from 200 to 503 during the start.
        const readies = outcomes.settled.filter((o) => o.path === "/ready" && o.failure === undefined).map((o) =>
          o.status
        )
        const firstUp = readies.indexOf(200)
        assert.isAtLeast(firstUp, 0)
        assert.deepStrictEqual(readies.slice(firstUp).filter((s) => s !== 200), [], "/ready flapped")
        // Installed: the recorded symbol's quote and prices are served.
        const [quote, prices] = outcomes.served
        assert.strictEqual(quote!.status, 200, JSON.stringify(quote!.body))
        assert.strictEqual(quote!.body.symbol, SYMBOL)
        assert.strictEqual(prices!.status, 200, JSON.stringify(prices!.body))
        assert.isAbove(prices!.body.items.length, 0)
      }),
    300_000
  )

  it.live(
    "a second process on the same data directory is refused, naming the directory and the holder's pid",
    () =>
      Effect.gen(function*() {
        if (isRealPostgres) return
        const store = yield* throwawayStore
        const first = yield* startService(store, { env: { PSX_AUTO_IMPORT: "false" } })
        const port = yield* Effect.promise(freePort)
        const second = yield* Effect.acquireRelease(
          Effect.sync(() => spawnServe(port, { ...store.env, PSX_AUTO_IMPORT: "false" })),
          (c) => Effect.sync(() => c.kill("SIGKILL"))
        )
        const output: Array<string> = []
        second.stdout!.on("data", (d) => output.push(String(d)))
        second.stderr!.on("data", (d) => output.push(String(d)))
        const code = yield* Effect.promise(() =>
          new Promise<number | null>((resolve) => {
            if (second.exitCode !== null) return resolve(second.exitCode)
            second.once("exit", (c) => resolve(c))
          })
        ).pipe(Effect.timeout("90 seconds"))
        const text = output.join("")
        assert.notStrictEqual(code, 0)
        assert.include(text, store.env["PSX_DATA_DIR"]!)
        assert.include(text, `pid ${first.child.pid}`)
        // The first is unaffected.
        const ready = yield* Effect.promise(() => send(first.url, "/ready"))
        assert.strictEqual(ready.status, 200)
      }),
    200_000
  )

  it.effect("a lock held by a running process refuses; a stale one (its process gone) is taken over", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "psx-lock-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const holder = spawn("sleep", ["60"])
      yield* Effect.addFinalizer(() => Effect.sync(() => holder.kill("SIGKILL")))
      writeFileSync(join(dir, LOCK_FILE), `${holder.pid}\n`)
      const refused = yield* Effect.exit(Effect.scoped(lockDataDir(dir)))
      assert.isTrue(Exit.isFailure(refused))
      const error = Exit.isFailure(refused) ? refused.cause.reasons[0] : undefined
      assert.isTrue(error?._tag === "Fail" && error.error instanceof DataDirLocked)
      if (error?._tag === "Fail") {
        assert.include(error.error.message, dir)
        assert.include(error.error.message, `pid ${holder.pid}`)
      }
      // A pid that has exited: the lock is stale and taken over, then released with the scope.
      const gone = spawnSync("true").pid
      writeFileSync(join(dir, LOCK_FILE), `${gone}\n`)
      yield* Effect.scoped(
        Effect.andThen(
          lockDataDir(dir),
          Effect.sync(() => assert.strictEqual(readFileSync(join(dir, LOCK_FILE), "utf8").trim(), String(process.pid)))
        )
      )
      assert.throws(() => readFileSync(join(dir, LOCK_FILE)))
    }))
})
