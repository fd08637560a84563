/**
 * Benchmark: one full `refresh` (every dataset, every listed non-debt
 * symbol) against the loopback fake portal (test/support/FakePortal.ts,
 * recorded responses) with no request spacing, into a throwaway PostgreSQL
 * database and into a fresh embedded PGlite store. Reports time and requests
 * per dataset and the process's peak RSS, beside the baseline: the same
 * requests replayed one at a time with bare `fetch` (transport and fake
 * portal alone, no parsing, no store).
 *
 * The store is thrown away: the board is dated by the real calendar at the
 * moment of the run, which the recorded figures are not from.
 *
 *   node bench/refresh.ts [postgres://postgres@127.0.0.1:5432/postgres]
 */
import { execFile, execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { startFakePortal } from "../test/support/FakePortal.ts"

const admin = process.argv[2] ?? process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
const fake = await startFakePortal()

// The child runs asynchronously: the fake portal answers from this process's event loop.
const refresh = async (env: Record<string, string>) => {
  const from = fake.seen.length
  const started = process.hrtime.bigint()
  const { stdout: out } = await promisify(execFile)(process.execPath, ["src/main.ts", "refresh"], {
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: "Fatal",
      PSX_SOURCE: "portal",
      PSX_AUTO_IMPORT: "false",
      PSX_PORTAL_URL: fake.url,
      PSX_PORTAL_MIN_INTERVAL_MS: "0",
      PSX_PORTAL_RETRIES: "0"
    },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const rows = [
    ...out.matchAll(
      /^ {2}(\w+)\s+fetched\s+(\d+)\s+written\s+(\d+)\s+unchanged\s+(\d+)\s+failed\s+(\d+)\s+\(([\d.]+) s\)/gm
    )
  ]
    .map((m) => ({
      dataset: m[1]!,
      fetched: Number(m[2]),
      written: Number(m[3]),
      failed: Number(m[5]),
      seconds: Number(m[6])
    }))
  const rss = Number(/max RSS (\d+) MB/.exec(out)?.[1] ?? NaN)
  return { seconds, rows, rss, requests: fake.seen.slice(from) }
}

const replay = async (
  requests: ReadonlyArray<{ readonly method: string; readonly url: string; readonly body: string }>
) => {
  const started = process.hrtime.bigint()
  for (const r of requests) {
    const res = await fetch(`${fake.url}${r.url}`, {
      method: r.method,
      ...(r.method === "POST" ? { body: r.body, headers: { "content-type": "application/x-www-form-urlencoded" } } : {})
    })
    await res.text()
  }
  return Number(process.hrtime.bigint() - started) / 1e9
}

const psql = (sql: string) => execFileSync("psql", [admin, "-qtAc", sql], { encoding: "utf8" })
const db = `psx_bench_refresh_${process.pid}`
psql(`CREATE DATABASE ${db}`)
const u = new URL(admin)
u.pathname = `/${db}`
let pg
try {
  pg = await refresh({ DATABASE_URL: u.toString() })
} finally {
  psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)
}
const dir = mkdtempSync(join(tmpdir(), "psx-bench-refresh-"))
let lite
try {
  lite = await refresh({ DATABASE_URL: "", PSX_DATA_DIR: join(dir, "pg") })
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const bare = await replay(pg.requests)
fake.close()

console.log(
  `fake portal: recorded responses on loopback, no request spacing; ${pg.requests.length} requests per full pass`
)
console.log("| dataset | requests | fetched | failed (not recorded) | PostgreSQL s | PGlite s |")
console.log("|---|---|---|---|---|---|")
for (const r of pg.rows) {
  const l = lite.rows.find((x) => x.dataset === r.dataset)
  console.log(
    `| ${r.dataset} | ${r.fetched + r.failed} | ${r.fetched} | ${r.failed} | ${r.seconds.toFixed(1)} | ${
      l?.seconds.toFixed(1) ?? "?"
    } |`
  )
}
console.log("| run | whole process s | requests/s | peak RSS MB |")
console.log("|---|---|---|---|")
console.log(
  `| refresh → PostgreSQL 15 | ${pg.seconds.toFixed(1)} | ${Math.round(pg.requests.length / pg.seconds)} | ${pg.rss} |`
)
console.log(
  `| refresh → PGlite (embedded) | ${lite.seconds.toFixed(1)} | ${
    Math.round(lite.requests.length / lite.seconds)
  } | ${lite.rss} |`
)
console.log(
  `| baseline: same requests, bare fetch, one at a time | ${bare.toFixed(1)} | ${
    Math.round(pg.requests.length / bare)
  } | - |`
)
console.log(
  `at the default 2 requests/s a real pass of ${pg.requests.length} requests takes ${
    (pg.requests.length / 2 / 60).toFixed(1)
  } min of spacing alone`
)
