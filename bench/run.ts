/**
 * Benchmarks: HTTP throughput and latency of the service against a bare
 * node:http server returning the same bytes, measured in one run by
 * autocannon in a separate process (the load generator never shares the
 * server's event loop).
 *
 *   npm run bench                 # every HTTP target, embedded store
 *   npm run bench -- health       # one target
 *   DATABASE_URL=postgres://… npm run bench
 *
 * Also runs bench/ingest.ts and bench/ledger.ts when present and asked for.
 */
import { type ChildProcess, execFileSync, fork, spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface Target {
  readonly name: string
  readonly path: string
  readonly connections: number
}

export const targets: ReadonlyArray<Target> = [
  { name: "health", path: "/health", connections: 50 },
  { name: "quote", path: "/v1/quotes/HUBC?allow_stale=true", connections: 50 },
  { name: "companies", path: "/v1/companies?limit=50", connections: 50 },
  { name: "stock", path: "/v1/stocks/HUBC", connections: 50 }
]

const duration = Number(process.env["BENCH_SECONDS"] ?? 10)
const bin = (name: string) => join(process.cwd(), "node_modules", ".bin", name)

const waitFor = async (url: string, ms = 60_000, ready: (body: any) => boolean = () => true) => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const r = await fetch(url)
      if (r.ok && ready(await r.json())) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} did not come up`)
}

interface Result {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

const load = (url: string, connections: number): Result => {
  const out = execFileSync(bin("autocannon"), ["-j", "-c", String(connections), "-d", String(duration), url], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    maxBuffer: 64 * 1024 * 1024
  })
  const r = JSON.parse(out)
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx }
}

const main = async () => {
  const wanted = process.argv.slice(2)
  const chosen = wanted.length === 0 ? targets : targets.filter((t) => wanted.includes(t.name))
  const dir = mkdtempSync(join(tmpdir(), "psx-bench-"))
  const port = 18080
  const barePort = 18081
  const service: ChildProcess = spawn(process.execPath, ["src/main.ts", "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      PSX_DATA_DIR: join(dir, "pg"),
      RATE_LIMIT_PER_SECOND: "1000000000",
      RATE_LIMIT_BURST: "1000000000"
    },
    stdio: ["ignore", "ignore", process.env["BENCH_SERVICE_LOG"] ? "inherit" : "ignore"]
  })
  try {
    await waitFor(`http://127.0.0.1:${port}/ready`, 300_000, (b) => b.data_pack === "installed")
    console.log(`store: ${process.env["DATABASE_URL"] ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite"}; ${duration} s per run`)
    console.log("| target | connections | service req/s | bare req/s | ratio | service p50/p99 ms | bare p50/p99 ms |")
    console.log("|---|---|---|---|---|---|---|")
    for (const target of chosen) {
      const url = `http://127.0.0.1:${port}${target.path}`
      // A pooled connection may have been closed by the server's keep-alive timeout during the last run: retry once.
      const sample = await fetch(url).catch(() => fetch(url))
      const file = join(dir, `${target.name}.json`)
      writeFileSync(file, JSON.stringify({
        status: sample.status,
        contentType: sample.headers.get("content-type") ?? "application/json",
        body: await sample.text()
      }))
      if (sample.status !== 200) console.log(`(note: ${target.path} answers ${sample.status})`)
      const bare = fork(join("bench", "bare-server.ts"), [String(barePort), file], { stdio: "ignore" })
      await new Promise((r) => bare.once("message", r))
      const s = load(url, target.connections)
      const b = load(`http://127.0.0.1:${barePort}${target.path}`, target.connections)
      bare.kill()
      console.log(
        `| ${target.path} | ${target.connections} | ${s.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${(s.rps / b.rps).toFixed(2)} | ${s.p50}/${s.p99} | ${b.p50}/${b.p99} |`
      )
    }
  } finally {
    service.kill("SIGTERM")
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
