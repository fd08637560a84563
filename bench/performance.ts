/**
 * Latency of GET /v1/me/performance for a portfolio of 20
 * KSE-100 symbols and 2,000 events from 2010 to the pack's last close
 * (~4,000 sessions: the longest history the spec bounds), on the whole
 * service: `node src/main.ts serve` on a throwaway PostgreSQL database
 * with the bundled pack, asked over HTTP one request at a time (the
 * portfolio routes always read the store). Each symbol gets 100 trades at
 * its own recorded closes, every fifth a sale of half a lot, so positions
 * stay open. Target: p99 ≤ 50 ms.
 *
 *   node bench/ledger.ts --only=performance     # this part alone (bench/ledger.ts runs it last)
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { cpus, loadavg } from "node:os"
import { waitFor } from "./ready.ts"

const SYMBOLS = [
  "HUBC",
  "OGDC",
  "PPL",
  "POL",
  "MCB",
  "HBL",
  "ENGRO",
  "FFC",
  "EFERT",
  "PSO",
  "MARI",
  "NBP",
  "BAHL",
  "MEBL",
  "DGKC",
  "MLCF",
  "FCCL",
  "ABL",
  "NML",
  "PIOC"
]
const EVENTS_PER_SYMBOL = 100
const SINCE = "2010-01-01"
const WARM_UP = 20
const SAMPLES = Number(process.env["BENCH_PERFORMANCE_SAMPLES"] ?? 300)
const PORT = 18090

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** CPU seconds a process has used (user + system), from /proc (Linux; 10 ms ticks), or undefined elsewhere. */
const cpuSecondsOf = (pid: number | undefined) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /su, "").split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

const json = async (r: Response) => {
  const body: any = await r.json()
  if (!r.ok) throw new Error(`${r.status} ${JSON.stringify(body)}`)
  return body
}

/** A symbol's recorded closes from SINCE on (the default series), oldest first. */
const closesOf = async (base: string, symbol: string) => {
  const rows: Array<{ date: string; close: number }> = []
  let cursor: string | null = null
  do {
    const url = `${base}/v1/prices/${symbol}?date_from=${SINCE}&limit=1000${
      cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""
    }`
    const page = await json(await fetch(url))
    rows.push(
      ...page.items.filter((i: any) => i.close > 0 && i.flag === undefined).map((i: any) => ({
        date: i.date,
        close: Math.round(i.close * 100) / 100
      }))
    )
    cursor = page.next_cursor
  } while (cursor !== null)
  return rows.sort((a, b) => (a.date < b.date ? -1 : 1))
}

/** The portfolio's trades: each symbol's 100 spread evenly over its recorded sessions, in date order overall. */
const tradesOf = async (base: string) => {
  const trades: Array<Record<string, unknown>> = []
  for (const symbol of SYMBOLS) {
    const closes = await closesOf(base, symbol)
    const step = Math.floor(closes.length / EVENTS_PER_SYMBOL)
    if (step < 1) throw new Error(`${symbol}: only ${closes.length} closes recorded`)
    for (let i = 0; i < EVENTS_PER_SYMBOL; i++) {
      const { date, close } = closes[i * step]!
      trades.push({
        kind: i % 5 === 4 ? "sell" : "buy",
        symbol,
        quantity: i % 5 === 4 ? 50 : 100,
        price: close,
        fees: 25,
        trade_date: date
      })
    }
  }
  return trades.sort((a, b) => (String(a["trade_date"]) < String(b["trade_date"]) ? -1 : 1))
}

const record = async (base: string, token: string, trades: ReadonlyArray<Record<string, unknown>>) => {
  for (const t of trades) {
    await json(
      await fetch(`${base}/v1/me/transactions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(t)
      })
    )
  }
}

/** Latency of one kind of request. */
export interface Run {
  readonly p50: number
  readonly p99: number
  /** The service's CPU time per request, ms (what a request costs without a busy neighbour's wait). */
  readonly cpuMs?: number
  /** The machine's 1-minute load average during the run. */
  readonly load: number
}

export interface PerformanceFigures {
  /** Each request with another `to` (the last SAMPLES sessions): computed, never from the answer cache. */
  readonly computed: Run
  /** The same request again: the encoded answer from the cache (the stream and the snapshot unchanged). */
  readonly repeated: Run
  readonly samples: number
  readonly events: number
  readonly symbols: number
  readonly rows: number
  readonly bytes: number
  readonly from: string | undefined
  readonly to: string | undefined
  readonly cores: number
}

const run = async (
  base: string,
  token: string,
  pid: number | undefined,
  paths: ReadonlyArray<string>
): Promise<Run & { last: string }> => {
  const ask = async (path: string) => {
    const started = performance.now()
    const r = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
    const text = await r.text()
    if (!r.ok) throw new Error(`${r.status} ${text.slice(0, 300)}`)
    return { ms: performance.now() - started, text }
  }
  for (let i = 0; i < WARM_UP; i++) await ask(paths[i % paths.length]!)
  const times: Array<number> = []
  let last = ""
  const cpuBefore = cpuSecondsOf(pid)
  const loadBefore = loadavg()[0]!
  for (const path of paths) {
    const { ms, text } = await ask(path)
    times.push(ms)
    last = text
  }
  const cpuAfter = cpuSecondsOf(pid)
  times.sort((a, b) => a - b)
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    load: (loadBefore + loadavg()[0]!) / 2,
    last,
    ...(cpuBefore !== undefined && cpuAfter !== undefined
      ? { cpuMs: ((cpuAfter - cpuBefore) * 1000) / paths.length }
      : {})
  }
}

const measure = async (base: string, token: string, pid: number | undefined): Promise<PerformanceFigures> => {
  const repeated = await run(base, token, pid, Array.from({ length: SAMPLES }, () => "/v1/me/performance"))
  const body = JSON.parse(repeated.last)
  const sessions: Array<string> = body.days.map((d: { date: string }) => d.date)
  const computed = await run(base, token, pid, sessions.slice(-SAMPLES).map((to) => `/v1/me/performance?to=${to}`))
  return {
    computed,
    repeated,
    samples: SAMPLES,
    events: SYMBOLS.length * EVENTS_PER_SYMBOL,
    symbols: SYMBOLS.length,
    rows: sessions.length,
    bytes: Buffer.byteLength(repeated.last),
    from: sessions[0],
    to: body.last_session,
    cores: cpus().length
  }
}

/** Starts the service on a fresh database of the server `admin` names, builds the portfolio, measures, stops. */
export const performanceBench = async (admin: string): Promise<PerformanceFigures> => {
  const database = `psx_bench_performance_${process.pid}`
  const url = new URL(admin)
  url.pathname = `/${database}`
  execFileSync("psql", [admin, "-qtAc", `CREATE DATABASE ${database}`])
  const service: ChildProcess = spawn(process.execPath, ["src/main.ts", "serve"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: url.toString(),
      RATE_LIMIT_PER_SECOND: "1000000000",
      RATE_LIMIT_BURST: "1000000000",
      LOG_LEVEL: "Warn"
    },
    stdio: ["ignore", "ignore", process.env["BENCH_SERVICE_LOG"] ? "inherit" : "ignore"]
  })
  try {
    const base = `http://127.0.0.1:${PORT}`
    await waitFor(`${base}/ready`, 600_000, (b) => b.data_pack === "installed")
    const token = String((await json(await fetch(`${base}/v1/me/session`, { method: "POST" }))).token)
    await record(base, token, await tradesOf(base))
    return await measure(base, token, service.pid)
  } finally {
    service.kill("SIGTERM")
    await new Promise((r) => service.once("exit", r))
    execFileSync("psql", [admin, "-qtAc", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
  }
}

/** The report's lines. */
export const performanceReport = (f: PerformanceFigures) => {
  const line = (name: string, r: Run) =>
    `| ${name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuMs === undefined ? "-" : r.cpuMs.toFixed(1)} | ${
      r.load.toFixed(1)
    } |`
  return [
    `GET /v1/me/performance: ${f.symbols} symbols, ${f.events.toLocaleString("en")} events, ${
      f.rows.toLocaleString("en")
    } daily rows ` +
    `(${f.from} to ${f.to}), ${
      Math.round(f.bytes / 1024)
    } KB; ${f.samples} sequential requests a run over HTTP after ${WARM_UP} of ` +
    `warm-up, PostgreSQL, ${f.cores} cores shared with other work`,
    "| request | p50 ms | p99 ms | service CPU per request, ms | load average |",
    "|---|---|---|---|---|",
    line("computed (another `to` each time)", f.computed),
    line("repeated (the kept answer)", f.repeated),
    `p99 computed ${f.computed.p99.toFixed(1)} ms, repeated ${
      f.repeated.p99.toFixed(1)
    } ms (target ≤ 50 ms); with a load average above ` +
    "the cores, the tail includes waiting for a core"
  ]
}
