/**
 * HTTP benchmarks: throughput and latency of the service against a bare
 * node:http server answering with the same route's bytes, in one run. The
 * load generator is wrk (bench/load.ts; `apt-get install wrk`: without it the
 * bench refuses to report a ratio), one thread on a core of its own; the
 * service and the bare server share the other cores. Each route is warmed up
 * on both (2 s each); then its measured time (8 s each) is taken in four
 * turns, service and bare server alternating, so that a shared machine's
 * drift in speed falls on both alike; the turns' requests are summed and their
 * latency histograms merged. The bare server's req/s is printed beside every
 * ratio so a reader sees it was saturated.
 *
 * The service runs at its default settings (LOG_LEVEL Info: one request log
 * line per request, as users run it), except the rate limit, raised so that
 * one load generator on one address is not throttled.
 *
 * Rotating targets cycle through every listed symbol (as agents scanning
 * the market do; symbols without a quote answer 404, a quote without
 * allow_stale outside a session 409), so no answer is helped by being asked
 * twice in a row; the bare server answers each path with the bytes the
 * service gave for that path (fetched just before the run), so both send the
 * same bytes for every request.
 *
 *   npm run bench                          # every target, both stores
 *   npm run bench -- stocks prices         # some targets
 *   npm run bench -- --store=embedded      # or --store=postgres (BENCH_DATABASE_URL, default the local server)
 *   npm run bench -- --writers             # also: the rotating reads while 8 writers append to the ledger
 *   BENCH_SECONDS=20 npm run bench
 */
import { type ChildProcess, execFileSync, fork, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { combined, findWrk, generatorCore, load, type LoadResult, pinned, serverCores } from "./load.ts"
import { waitFor } from "./ready.ts"

/** Yesterday's date (UTC), for the point-in-time target: a date means the end of that Karachi day. */
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)

export interface Target {
  readonly name: string
  /** A fixed path, or one per listed symbol. */
  readonly path: string | ((symbol: string) => string)
  readonly connections: number
  /** Each request carries `If-None-Match` with the answer's ETag (a cache in front revalidating): 304s. */
  readonly revalidate?: true
}

/** Every screener filter set at once, over the full universe. */
const SCREEN_ALL_FILTERS =
  "dividend_yield_min=2&daily_change_max=5&daily_change_min=-10&drawdown_5d_min=0&drawdown_20d_min=0" +
  "&drawdown_mode=any&pe_min=1&pe_max=40&market_cap_min=1000000000&market_cap_max=10000000000000&min_value_traded=0" +
  "&min_avg_volume_30d=0&min_avg_value_traded_30d=0&free_float_min_pct=1&free_float_min_shares=1&sectors=CEMENT,0807,FERTILIZER" +
  "&inside_kse100=true&security_types=equity&exclude_ex_dividend=true&limit=50"

export const targets: ReadonlyArray<Target> = [
  { name: "health", path: "/health", connections: 50 },
  { name: "quotes", path: (s) => `/v1/quotes/${s}?allow_stale=true`, connections: 50 },
  { name: "quotes-plain", path: (s) => `/v1/quotes/${s}`, connections: 50 },
  { name: "stocks", path: (s) => `/v1/stocks/${s}`, connections: 50 },
  { name: "stocks-304", path: (s) => `/v1/stocks/${s}`, connections: 50, revalidate: true },
  { name: "prices", path: (s) => `/v1/prices/${s}?range=1Y`, connections: 50 },
  { name: "companies", path: "/v1/companies?limit=50", connections: 50 },
  { name: "sectors-board", path: "/v1/sectors/board", connections: 50 },
  { name: "market-board", path: "/v1/market/board", connections: 50 },
  { name: "screener", path: `/v1/screener?${SCREEN_ALL_FILTERS}`, connections: 20 },
  { name: "research", path: (s) => `/v1/stocks/${s}/research`, connections: 50 },
  // Point-in-time: the quotes as known at the end of yesterday (Karachi); the first request builds that snapshot, the rest share it.
  { name: "quotes-as-of", path: (s) => `/v1/quotes/${s}?allow_stale=true&as_of=${YESTERDAY}`, connections: 50 }
]

const seconds = Number(process.env["BENCH_SECONDS"] ?? 8)
const WARM_UP_SECONDS = 2
/** How long the service is left after its first full answer before it is measured. */
const SETTLE_MS = 20_000
/** Each target's measured time is taken in this many turns, service and bare server alternating. */
const TURNS = 4
const turnSeconds = Math.max(1, Math.round(seconds / TURNS))
const pgAdmin = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

const listedSymbols = async (base: string) => {
  const out: Array<string> = []
  let cursor: string | null = null
  do {
    const url = `${base}/v1/companies?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
    const page: any = await (await fetch(url, { signal: AbortSignal.timeout(10_000) })).json()
    out.push(...page.items.map((i: { symbol: string }) => i.symbol))
    cursor = page.next_cursor
  } while (cursor !== null)
  return out
}

const psql = (url: string, statement: string) => execFileSync("psql", [url, "-qc", statement], { stdio: "ignore" })

/** Starts the service on a store, runs `body`, stops it. */
const withService = async (
  store: "embedded" | "postgres",
  body: (base: string, dir: string, pid: number | undefined) => Promise<void>
) => {
  const dir = mkdtempSync(join(tmpdir(), "psx-bench-"))
  const port = 18080
  const database = `psx_bench_${process.pid}`
  const url = new URL(pgAdmin)
  url.pathname = `/${database}`
  if (store === "postgres") psql(pgAdmin, `CREATE DATABASE ${database}`)
  const [command, ...args] = pinned(serverCores, ["sh", "scripts/serve.sh"])
  const service: ChildProcess = spawn(command!, args, {
    env: {
      ...process.env,
      PSX_NODE: process.execPath, // scripts/serve.sh: the service as `npm start` runs it, on this Node
      PORT: String(port),
      PSX_DATA_DIR: join(dir, "pg"),
      RATE_LIMIT_PER_SECOND: "1000000000",
      RATE_LIMIT_BURST: "1000000000",
      ...(store === "postgres" ? { DATABASE_URL: url.toString() } : { DATABASE_URL: "" })
    },
    stdio: ["ignore", "ignore", process.env["BENCH_SERVICE_LOG"] ? "inherit" : "ignore"]
  })
  try {
    const base = `http://127.0.0.1:${port}`
    await waitFor(`${base}/ready`, 300_000, (b) => b.data_pack === "installed")
    await waitFor(`${base}/v1/quotes/HUBC?allow_stale=true`, 60_000)
    // The background encoding of the new snapshot's hottest answers (readmodel/SnapshotAnswers.ts) takes a few seconds,
    // and V8's memory reducer runs once the service goes quiet. Measured after that, as the service runs settled
    // (`npm run bench:start` finds RSS settled by 20 s after the first full answer).
    await new Promise((r) => setTimeout(r, SETTLE_MS))
    await body(base, dir, service.pid)
  } finally {
    service.kill("SIGTERM")
    await new Promise((r) => service.once("exit", r))
    if (store === "postgres") psql(pgAdmin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  }
}

/** What the service answers for each path (status, content type, body, ETag): the bytes the bare server gives back. */
const answersOf = async (base: string, paths: ReadonlyArray<string>) => {
  const answers: Record<string, { status: number; contentType: string; body: string; etag: string | null }> = {}
  const one = async (path: string) => {
    // Retried once: a pooled connection may have been closed by the server between runs.
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) })
      .catch(() => fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) }))
    answers[path] = {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "application/json",
      body: await response.text(),
      etag: response.headers.get("etag")
    }
  }
  for (let i = 0; i < paths.length; i += 8) await Promise.all(paths.slice(i, i + 8).map(one))
  return answers
}

/** A process's resident set (MB), from /proc (Linux), or undefined elsewhere. */
export const rssMbOf = (pid: number | undefined) => {
  try {
    const kb = /VmRSS:\s+(\d+)/u.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}

const measure = async (
  base: string,
  dir: string,
  chosen: ReadonlyArray<Target>,
  symbols: ReadonlyArray<string>,
  label: string
) => {
  const barePort = 18081
  for (const target of chosen) {
    const paths = typeof target.path === "string" ? [target.path] : symbols.map(target.path)
    const file = join(dir, `${target.name}.json`)
    const answers = await answersOf(base, paths)
    writeFileSync(file, JSON.stringify(answers))
    // A revalidating request: the path, a tab, the ETag to send as If-None-Match (bench/wrk-rotate.lua).
    const requests = target.revalidate === true ? paths.map((p) => `${p}\t${answers[p]?.etag ?? ""}`) : paths
    const [command, ...args] = pinned(serverCores, [
      process.execPath,
      join("bench", "bare-server.ts"),
      String(barePort),
      file
    ])
    const bare = spawn(command!, args, { stdio: ["ignore", "pipe", "ignore"] })
    await new Promise((r) => bare.stdout!.once("data", r))
    const bareBase = `http://127.0.0.1:${barePort}`
    load(dir, base, target.connections, WARM_UP_SECONDS, requests)
    load(dir, bareBase, target.connections, WARM_UP_SECONDS, requests)
    // In turns, so that a change in the machine's speed during the run (a shared machine's neighbours) falls on both alike.
    const service: Array<LoadResult> = []
    const baseline: Array<LoadResult> = []
    for (let turn = 0; turn < TURNS; turn++) {
      service.push(load(dir, base, target.connections, turnSeconds, requests))
      baseline.push(load(dir, bareBase, target.connections, turnSeconds, requests))
    }
    const s = combined(service)
    const b = combined(baseline)
    bare.kill()
    const rotation = paths.length > 1 ? `rotating over ${paths.length} symbols` : paths[0]
    const ms = (r: LoadResult) => `${r.p50.toFixed(1)}/${r.p99.toFixed(1)}`
    console.log(
      `| ${label} | ${target.name} (${rotation}) | ${target.connections} | ${s.rps.toFixed(0)} | ${
        b.rps.toFixed(0)
      } | ` +
        `**${(s.rps / b.rps).toFixed(2)}×** | ${ms(s)} | ${ms(b)} | ${s.statusErrors} | ${
          s.socketErrors + b.socketErrors
        } |`
    )
  }
}

const main = async () => {
  const args = process.argv.slice(2)
  const storeArg = args.find((a) => a.startsWith("--store="))?.slice(8) ?? "both"
  const writers = args.includes("--writers")
  const wanted = args.filter((a) => !a.startsWith("--"))
  const chosen = wanted.length === 0 ? targets : targets.filter((t) => wanted.includes(t.name))
  const stores = storeArg === "both"
    ? (["embedded", "postgres"] as const)
    : ([storeArg] as ReadonlyArray<"embedded" | "postgres">)
  findWrk()
  console.log(
    `${seconds} s per server and target (${TURNS} turns, service and bare alternating) after ${WARM_UP_SECONDS} s of warm-up each; wrk, one thread${
      generatorCore === undefined ? "" : ` on core ${generatorCore}`
    }; ` +
      `service and bare node:http${
        serverCores === undefined ? "" : ` on cores ${serverCores}`
      }; service at default settings (request log on)`
  )
  console.log(
    "| store | target | connections | service req/s | bare req/s | ratio | service p50/p99 ms | bare p50/p99 ms | service ≥400 | socket errors |"
  )
  console.log("|---|---|---|---|---|---|---|---|---|---|")
  for (const store of stores) {
    await withService(store, async (base, dir, pid) => {
      const settled = rssMbOf(pid)
      const symbols = await listedSymbols(base)
      await measure(base, dir, chosen, symbols, store)
      console.log(
        `(${store}: service RSS settled before the load ${settled?.toFixed(0) ?? "?"} MB, after it ${
          rssMbOf(pid)?.toFixed(0) ?? "?"
        } MB)`
      )
      if (!writers) return
      const appender = fork(join("bench", "writers.ts"), [base, "8"], {
        stdio: ["ignore", "inherit", "inherit", "ipc"]
      })
      await new Promise((r) => appender.once("message", r))
      await measure(base, dir, chosen.filter((t) => typeof t.path !== "string"), symbols, `${store} + 8 ledger writers`)
      appender.send("stop")
      const appended = await new Promise((r) => appender.once("message", r))
      console.log(`(ledger writers during those runs: ${JSON.stringify(appended)})`)
    })
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
