/**
 * Start-up benchmark: `npm start` on an empty data directory (cold), then
 * again on the same directory (warm), on the embedded default.
 *
 * For each start: when the port first answers, when /ready first says
 * `installed`, when the first full answer is served (the quote and the 1Y
 * prices of a recorded symbol, both 200), /ready latency percentiles while
 * starting (probed every 50 ms, 2 s deadline; a probe with no answer counts
 * as a timeout), how often /ready went back from 200 to 503, whether
 * `installed` was ever reported before the data was served, and the RSS 10 s
 * and 20 s after the full answer. Settled is the second: V8 hands freed pages
 * back when its memory reducer runs, on its own schedule, so at 10 s the
 * reading may still hold them.
 *
 *   npm run bench:start
 *   BENCH_SYMBOL=ENGRO npm run bench:start
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const PORT = 18090
const BASE = `http://127.0.0.1:${PORT}`
const SYMBOL = process.env["BENCH_SYMBOL"] ?? "HUBC"
const LIMIT_MS = 300_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const probe = async (path: string) => {
  const started = performance.now()
  try {
    const r = await fetch(`${BASE}${path}`, { signal: AbortSignal.timeout(2_000) })
    const text = await r.text()
    return { status: r.status, text, ms: performance.now() - started }
  } catch {
    return { status: 0, text: "", ms: performance.now() - started }
  }
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+)/u.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return m ? Number(m[1]) / 1024 : NaN
}

const pct = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

interface StartResult {
  readonly portMs: number
  readonly installedMs: number
  readonly fullAnswerMs: number
  readonly readyMs: ReadonlyArray<number>
  readonly timeouts: number
  readonly flaps: number
  readonly installedBeforeServed: number
  readonly rssMb: number
  readonly settledRssMb: number
}

const start = async (dataDir: string): Promise<StartResult> => {
  const t0 = performance.now()
  const child: ChildProcess = spawn("sh", ["scripts/serve.sh"], {
    env: {
      ...process.env,
      PSX_NODE: process.execPath,
      PORT: String(PORT),
      PSX_DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "Warn"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  const since = () => performance.now() - t0
  let portMs = NaN, installedMs = NaN, fullAnswerMs = NaN
  let timeouts = 0, flaps = 0, installedBeforeServed = 0
  let wasUp = false
  const readyMs: Array<number> = []
  try {
    while (since() < LIMIT_MS && Number.isNaN(fullAnswerMs)) {
      const r = await probe("/ready")
      if (r.status === 0) {
        if (!Number.isNaN(portMs)) timeouts++
      } else {
        if (Number.isNaN(portMs)) portMs = since()
        readyMs.push(r.ms)
        if (r.status === 200) wasUp = true
        else if (wasUp) flaps++
      }
      const installed = r.status === 200 && JSON.parse(r.text).data_pack === "installed"
      if (installed && Number.isNaN(installedMs)) installedMs = since()
      if (installed) {
        const [quote, prices] = await Promise.all([
          probe(`/v1/quotes/${SYMBOL}?allow_stale=true`),
          probe(`/v1/prices/${SYMBOL}?range=1Y`)
        ])
        const served = quote.status === 200 && prices.status === 200 && JSON.parse(prices.text).items?.length > 0
        if (served) fullAnswerMs = since()
        else installedBeforeServed++
      }
      await sleep(50)
    }
    await sleep(10_000)
    const at10 = rssMb(child.pid!)
    await sleep(10_000)
    return {
      portMs,
      installedMs,
      fullAnswerMs,
      readyMs,
      timeouts,
      flaps,
      installedBeforeServed,
      rssMb: at10,
      settledRssMb: rssMb(child.pid!)
    }
  } finally {
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
  }
}

const row = (label: string, r: StartResult) =>
  `| ${label} | ${(r.portMs / 1000).toFixed(1)} | ${(r.installedMs / 1000).toFixed(1)} | ${
    (r.fullAnswerMs / 1000).toFixed(1)
  } | ` +
  `${pct(r.readyMs, 50).toFixed(0)}/${pct(r.readyMs, 99).toFixed(0)}/${
    Math.max(...r.readyMs).toFixed(0)
  } | ${r.timeouts} | ` +
  `${r.flaps} | ${r.installedBeforeServed} | ${r.rssMb.toFixed(0)} | ${r.settledRssMb.toFixed(0)} |`

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "psx-bench-start-"))
  const dataDir = join(dir, "pg")
  try {
    console.log(
      "| start | port answers s | /ready installed s | first full answer s | /ready p50/p99/max ms | /ready timeouts | 200→503 flaps | installed before served | RSS at 10 s MB | RSS settled (20 s) MB |"
    )
    console.log("|---|---|---|---|---|---|---|---|---|---|")
    console.log(row("cold (empty data directory)", await start(dataDir)))
    console.log(row("warm (same directory)", await start(dataDir)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
