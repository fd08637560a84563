/**
 * Two service processes over one PostgreSQL: one ingests the bundled pack,
 * the other — which never ingested anything — serves the new data within a
 * few seconds, because every market write bumps the store's market version
 * and each instance rebuilds its read model when the version moves.
 *
 * Needs a real PostgreSQL (DATABASE_URL); the embedded store is one process's.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { isRealPostgres } from "./support/TestDatabase.ts"

const admin = process.env["DATABASE_URL"] ?? ""

const fetchJson = (url: string) =>
  Effect.promise(() =>
    fetch(url).then(
      async (r) => ({ status: r.status, body: await r.json().catch(() => undefined) }),
      () => ({ status: 0, body: undefined })
    )
  )

/** Polls `url` until `ok` holds (bounded by `ms` of real time: it waits on another process). */
const until = (url: string, ok: (r: { status: number; body: any }) => boolean, ms: number) =>
  Effect.gen(function*() {
    const started = Date.now()
    while (Date.now() - started < ms) {
      const r = yield* fetchJson(url)
      if (ok(r)) return Date.now() - started
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
    }
    return yield* Effect.die(new Error(`${url} did not answer as expected within ${ms} ms`))
  })

const serve = (database: string, port: number, autoImport: boolean) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      spawn(process.execPath, ["src/main.ts", "serve"], {
        env: {
          ...process.env,
          DATABASE_URL: database,
          PORT: String(port),
          PSX_AUTO_IMPORT: String(autoImport),
          PSX_READ_MODEL_POLL_MS: "500",
          LOG_LEVEL: "Warn"
        },
        stdio: "ignore"
      })
    ),
    (child: ChildProcess) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve())
          child.kill("SIGTERM")
        })
      )
  )

const throwaway = Effect.acquireRelease(
  Effect.sync(() => {
    const name = `psx_converge_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    execFileSync("psql", [admin, "-qc", `CREATE DATABASE ${name}`])
    const url = new URL(admin)
    url.pathname = `/${name}`
    return { name, url: url.toString() }
  }),
  ({ name }) => Effect.sync(() => execFileSync("psql", [admin, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]))
)

// Spawned from inside vitest, the first instance has been seen never to answer (not reproduced outside it);
// CI runs the same check as scripts/convergence.sh. Set CONVERGENCE_IN_VITEST=1 to run this version.
describe.skipIf(!isRealPostgres || process.env["CONVERGENCE_IN_VITEST"] !== "1")("two instances over one PostgreSQL", () => {
  it.live("an ingest through one instance is served by the other within a few seconds", () =>
    Effect.scoped(Effect.gen(function*() {
      const db = yield* throwaway
      const portB = 21_000 + Math.floor(Math.random() * 2_000)
      const portA = portB + 1
      const b = `http://127.0.0.1:${portB}`
      const a = `http://127.0.0.1:${portA}`
      yield* serve(db.url, portB, false)
      yield* until(`${b}/ready`, (r) => r.status === 200, 60_000)
      assert.strictEqual((yield* fetchJson(`${b}/v1/quotes/HUBC?allow_stale=true`)).status, 404, "nothing ingested yet")

      yield* serve(db.url, portA, true)
      yield* until(`${a}/ready`, (r) => r.body?.data_pack === "installed", 480_000)
      const lag = yield* until(`${b}/v1/quotes/HUBC?allow_stale=true`, (r) => r.status === 200, 15_000)
      const fromA = yield* fetchJson(`${a}/v1/quotes/HUBC?allow_stale=true`)
      const fromB = yield* fetchJson(`${b}/v1/quotes/HUBC?allow_stale=true`)
      assert.deepStrictEqual(fromB.body, fromA.body)
      const companies = yield* fetchJson(`${b}/v1/companies?limit=1`)
      assert.strictEqual(companies.body.total, 1029)
      assert.isBelow(lag, 15_000)
      console.log(`instance B served the ingest ${lag} ms after instance A reported it installed`)
    })), { timeout: 660_000 })
})
