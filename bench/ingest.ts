/**
 * Benchmark: importing the whole bundled data pack, in rows per second, into
 * the local PostgreSQL (a throwaway database) and into a fresh embedded PGlite
 * store, side by side in one run.
 *
 *   node bench/ingest.ts [postgres://postgres@127.0.0.1:5432/postgres]
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const admin = process.argv[2] ?? process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

const run = (env: Record<string, string>) => {
  const started = process.hrtime.bigint()
  const out = execFileSync(process.execPath, ["src/main.ts", "ingest"], {
    env: { ...process.env, ...env, LOG_LEVEL: "Warn" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"]
  })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const m = /imported in ([\d.]+) s/.exec(out)
  const rows = [...out.matchAll(/written\s+(\d+)/g)].reduce((n, x) => n + Number(x[1]), 0)
  return { importSeconds: Number(m?.[1] ?? NaN), processSeconds: seconds, rows }
}

const psql = (sql: string) => execFileSync("psql", [admin, "-qtAc", sql], { encoding: "utf8" })

const db = `psx_bench_${process.pid}`
psql(`CREATE DATABASE ${db}`)
const u = new URL(admin)
u.pathname = `/${db}`
let pg
try {
  pg = run({ DATABASE_URL: u.toString() })
} finally {
  psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)
}
const dir = mkdtempSync(join(tmpdir(), "psx-bench-pglite-"))
let lite
try {
  lite = run({ DATABASE_URL: "", PSX_DATA_DIR: join(dir, "pg") })
} finally {
  rmSync(dir, { recursive: true, force: true })
}
console.log("| store | rows | import s | rows/s | whole process s |")
console.log("|---|---|---|---|---|")
for (const [name, r] of [["PostgreSQL 15", pg], ["PGlite (embedded)", lite]] as const) {
  console.log(
    `| ${name} | ${r.rows} | ${r.importSeconds.toFixed(1)} | ${Math.round(r.rows / r.importSeconds)} | ${
      r.processSeconds.toFixed(1)
    } |`
  )
}
