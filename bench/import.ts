/**
 * Import benchmark: starts the service (`npm start`; on PostgreSQL when DATABASE_URL is
 * set, else the embedded store in a new data directory), then
 *
 * 1. `/health` latency (p50, p95, max; probed every 20 ms) while a 10,000-row dry run of one-share OGDC buys over
 *    2021–2025, newest first, runs from a new anonymous session, and the dry run's own time;
 * 2. the time to import 10,000 sorted HBL buys into a portfolio that already holds a later-dated HBL buy.
 *
 *   node bench/import.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/import.ts
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { addDays, isTradingDay } from "../domain/market/calendar/Calendar.ts"

const PORT = 18093
const BASE = `http://127.0.0.1:${PORT}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const pct = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

/** `n` one-share buys of `symbol` over the trading days of 2021–2025, oldest first. */
const rows = (symbol: string, n: number) => {
  const days: Array<string> = []
  for (let d = "2021-06-01"; d <= "2025-12-31"; d = addDays(d, 1)) if (isTradingDay(d)) days.push(d)
  return Array.from({ length: n }, (_, i) => `${days[Math.floor((i * days.length) / n)]},buy,${symbol},1,100`)
}
const csvOf = (lines: ReadonlyArray<string>) =>
  ["trade_date,kind,symbol,quantity,price", ...lines].map((l) => `${l}\r\n`).join("")

const session = async () =>
  ((await (await fetch(`${BASE}/v1/me/session`, { method: "POST" })).json()) as { token: string }).token

const timedImport = async (token: string, text: string, query: string) => {
  const started = performance.now()
  const r = await fetch(`${BASE}/v1/me/transactions/import${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" },
    body: text
  })
  const body = (await r.json()) as Record<string, unknown>
  return {
    status: r.status,
    ms: performance.now() - started,
    recorded: body["recorded"],
    errors: (body["errors"] as Array<unknown> | undefined)?.length,
    message: body["message"]
  }
}

const waitForService = async () => {
  const deadline = Date.now() + 900_000
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${BASE}/ready`, { signal: AbortSignal.timeout(2_000) })
      if (r.status === 200 && (await r.text()).includes("installed")) return
    } catch {
      // not listening yet
    }
    await sleep(500)
  }
  throw new Error("the service did not answer within 15 minutes")
}

const main = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "psx-bench-import-"))
  const child: ChildProcess = spawn("sh", ["scripts/serve.sh"], {
    env: { ...process.env, PSX_NODE: process.execPath, PORT: String(PORT), PSX_DATA_DIR: dataDir, LOG_LEVEL: "Warn" },
    stdio: ["ignore", "ignore", "inherit"]
  })
  try {
    await waitForService()
    await sleep(5_000)
    // 1. /health during the newest-first dry run.
    const latencies: Array<number> = []
    let running = true
    const probing = (async () => {
      while (running) {
        const started = performance.now()
        await fetch(`${BASE}/health`).then((r) => r.text())
        latencies.push(performance.now() - started)
        await sleep(20)
      }
    })()
    const dry = await timedImport(await session(), csvOf(rows("OGDC", 10_000).reverse()), "?dry_run=true")
    running = false
    await probing
    console.log(JSON.stringify({
      store: process.env["DATABASE_URL"] ? "postgres" : "embedded",
      dry_run: dry,
      health_ms: {
        probes: latencies.length,
        p50: pct(latencies, 50),
        p95: pct(latencies, 95),
        max: pct(latencies, 100)
      }
    }))
    // 2. Sorted rows into a portfolio with a later-dated buy of the same symbol.
    const token = await session()
    await fetch(`${BASE}/v1/me/transactions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "buy", symbol: "HBL", quantity: 10, price: 300, trade_date: "2026-05-20" })
    })
    console.log(JSON.stringify({ sorted_into_history: await timedImport(token, csvOf(rows("HBL", 10_000)), "") }))
  } finally {
    child.kill("SIGTERM")
    await sleep(2_000)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
