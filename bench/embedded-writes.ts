/**
 * Benchmark: are reads stalled by writes on the embedded store? Read latency
 * of a route that runs no SQL (autocannon in its own process, ~50
 * connections), first alone, then while 8 writers append buys to the ledger
 * through the HTTP API (each writer its own session and portfolio). Also the
 * service's resident memory: idle after the data pack is installed, and its
 * peak over the run.
 *
 *   npm run bench:embedded
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50 BENCH_WRITERS=8 BENCH_PATH=/v1/market/status npm run bench:embedded
 *   BENCH_RUNTIME=deno npm run bench:embedded     # the service on Deno instead of Node
 *   BENCH_RATE=2000 npm run bench:embedded        # reads at a fixed total rate instead of flat out
 *
 * The service always runs on the embedded store (DATABASE_URL is removed).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const seconds = Number(process.env["BENCH_SECONDS"] ?? 10)
const connections = Number(process.env["BENCH_CONNECTIONS"] ?? 50)
const writers = Number(process.env["BENCH_WRITERS"] ?? 8)
const path = process.env["BENCH_PATH"] ?? "/v1/market/status"
const rate = process.env["BENCH_RATE"]
const runtime = process.env["BENCH_RUNTIME"] === "deno" ? "deno" : "node"
const port = 18200 + Math.floor(Math.random() * 2000)
const base = `http://127.0.0.1:${port}`
const bin = (name: string) => join(process.cwd(), "node_modules", ".bin", name)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const waitReady = async (ms: number) => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    const body = await fetch(`${base}/ready`).then((r) => (r.ok ? r.json() : undefined), () => undefined)
    if (body?.data_pack === "installed") return
    await sleep(250)
  }
  throw new Error(`${base}/ready did not report the data pack installed`)
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (key: string) =>
    Number(/(\d+) kB/.exec(status.split("\n").find((l) => l.startsWith(key)) ?? "")?.[1] ?? NaN)
  return { rss: kb("VmRSS:") / 1024, peak: kb("VmHWM:") / 1024 }
}

interface Reads {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  readonly errors: number
}

/** autocannon in its own process, without blocking this one (the writers live here). */
const load = (durationSeconds: number) =>
  new Promise<Reads>((resolve, reject) =>
    execFile(bin("autocannon"), [
      "-j",
      "-c",
      String(connections),
      "-d",
      String(durationSeconds),
      ...(rate === undefined ? [] : ["--overallRate", rate]),
      `${base}${path}`
    ], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024
    }, (error, stdout) => {
      if (error) return reject(error)
      const r = JSON.parse(stdout)
      resolve({
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        max: r.latency.max,
        errors: r.errors + r.non2xx
      })
    })
  )

interface Writes {
  readonly appends: number
  readonly failures: number
  readonly latencies: Array<number>
}

/** One writer: a session, then buys appended one after another until `stop()`. */
const writer = async (stopped: () => boolean, into: Writes & { appends: number; failures: number }) => {
  const session = await fetch(`${base}/v1/me/session`, { method: "POST" }).then((r) => r.json())
  const headers = { authorization: `Bearer ${session.token}`, "content-type": "application/json" }
  for (let i = 0; !stopped(); i++) {
    // HUBC buys at its recorded close of 2026-05-22 (a trading day).
    const body = JSON.stringify({
      kind: "buy",
      symbol: "HUBC",
      quantity: 1 + (i % 7),
      price: 215.42,
      fees: 10,
      trade_date: "2026-05-22"
    })
    const started = performance.now()
    const r = await fetch(`${base}/v1/me/transactions`, { method: "POST", headers, body })
    await r.arrayBuffer()
    into.latencies.push(performance.now() - started)
    if (r.status === 201) into.appends++
    else into.failures++
  }
}

const quantile = (xs: Array<number>, q: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

const stopService = (service: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (service.exitCode !== null) return resolve(service.exitCode)
    service.once("exit", (code) => resolve(code))
    service.kill("SIGTERM")
  })

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "psx-bench-embedded-"))
  const { DATABASE_URL: _ignored, ...env } = process.env
  const command = runtime === "deno"
    ? [bin("deno"), "run", "-A", "src/main.ts", "serve"]
    : [process.execPath, "src/main.ts", "serve"]
  const service = spawn(command[0]!, command.slice(1), {
    env: {
      ...env,
      PORT: String(port),
      PSX_DATA_DIR: join(dir, "pg"),
      RATE_LIMIT_PER_SECOND: "1000000000",
      RATE_LIMIT_BURST: "1000000000"
    },
    stdio: ["ignore", "ignore", process.env["BENCH_SERVICE_LOG"] ? "inherit" : "ignore"]
  })
  try {
    await waitReady(600_000)
    await sleep(2_000)
    const idle = memory(service.pid!)
    await load(2) // warm-up
    const alone = await load(seconds)

    const writes = { appends: 0, failures: 0, latencies: [] as Array<number> }
    let stop = false
    const running = Array.from({ length: writers }, () => writer(() => stop, writes))
    await sleep(1_000) // writers under way before anything is measured
    const quiet = writes.appends
    const quietStarted = performance.now()
    await sleep(5_000)
    const quietRate = (writes.appends - quiet) / ((performance.now() - quietStarted) / 1000)
    const before = writes.appends
    writes.latencies.length = 0 // append latencies are reported for the reading phase
    const started = performance.now()
    const busy = await load(seconds)
    const appendRate = (writes.appends - before) / ((performance.now() - started) / 1000)
    stop = true
    await Promise.all(running)
    const after = memory(service.pid!)

    const row = (label: string, r: Reads) =>
      `| ${label} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.errors} |`
    console.log(
      `embedded store, service on ${runtime}; GET ${path}, ${connections} connections` +
        `${rate === undefined ? "" : `, ${rate} req/s in all`}, ${seconds} s per run`
    )
    console.log("| reads | req/s | p50 ms | p99 ms | max ms | errors |")
    console.log("|---|---|---|---|---|---|")
    console.log(row("alone", alone))
    console.log(row(`with ${writers} ledger writers`, busy))
    console.log(
      `ledger appends: ${quietRate.toFixed(0)}/s with no reads; while reading ${appendRate.toFixed(0)}/s, append p50 ${
        quantile(writes.latencies, 0.5).toFixed(1)
      } ms, ` +
        `p99 ${quantile(writes.latencies, 0.99).toFixed(1)} ms, ${writes.failures} failed`
    )
    console.log(
      `service RSS: ${idle.rss.toFixed(0)} MB idle after the pack import, ${
        after.rss.toFixed(0)
      } MB after the run, peak ${after.peak.toFixed(0)} MB`
    )
    const code = await stopService(service)
    console.log(`service exit code on SIGTERM: ${code}`)
  } finally {
    await stopService(service)
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
