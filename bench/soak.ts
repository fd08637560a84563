/**
 * Soak: mixed load at a fixed rate for a long time, to see memory and latency
 * stay flat and errors stay at zero. Not in CI (it takes minutes on purpose).
 *
 *   npm run soak                                  # 10 minutes, 40 requests/s, a fresh embedded store
 *   SOAK_SECONDS=180 SOAK_RATE=40 npm run soak
 *   SOAK_DATABASE_URL=postgres://postgres@127.0.0.1:5432/psx_soak npm run soak   # an existing (created) database
 *   SOAK_URL=http://127.0.0.1:8080 npm run soak   # a service already running (RSS then not measured)
 *
 * The mix (open loop: a request is sent every 1/rate s whether or not earlier ones answered): quotes, stocks and
 * prices rotating over every listed symbol, the market status, the screener when the service serves it (skipped on
 * 404), holdings, and ledger appends (one in ten). Every minute: requests, errors, p50/p99 and the service's RSS.
 * A 404 or 409 on a market read (no quote or dividend record; DATA_UNVERIFIED) is the right answer, counted apart.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const seconds = Number(process.env["SOAK_SECONDS"] ?? 600)
const rate = Number(process.env["SOAK_RATE"] ?? 40)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const rssMb = (pid: number | undefined) => {
  if (pid === undefined) return undefined
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024)
  } catch {
    return undefined
  }
}

const start = async (): Promise<{ url: string; child?: ChildProcess; cleanup: () => void }> => {
  const given = process.env["SOAK_URL"]
  if (given !== undefined) return { url: given, cleanup: () => {} }
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const dir = mkdtempSync(join(tmpdir(), "psx-soak-"))
  const db = process.env["SOAK_DATABASE_URL"]
  const child = spawn(process.execPath, ["src/main.ts", "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: "Warn",
      ...(db ? { DATABASE_URL: db } : { PSX_DATA_DIR: join(dir, "pg") })
    },
    stdio: ["ignore", "inherit", "inherit"]
  })
  const url = `http://127.0.0.1:${port}`
  const until = Date.now() + 300_000
  while (Date.now() < until) {
    try {
      const r = await fetch(`${url}/ready`)
      if (r.ok && (await r.json()).data_pack === "installed") break
    } catch {
      // starting
    }
    await sleep(500)
  }
  // The read model loads the pack after the import.
  while (Date.now() < until) {
    if ((await fetch(`${url}/v1/companies/HUBC`).catch(() => undefined))?.ok) break
    await sleep(500)
  }
  return {
    url,
    child,
    cleanup: () => {
      child.kill("SIGTERM")
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const main = async () => {
  const { url, child, cleanup } = await start()
  stop = cleanup
  const symbols: Array<string> = []
  for (let cursor: string | null = ""; cursor !== null;) {
    const page: { items: Array<{ symbol: string }>; next_cursor: string | null } =
      await (await fetch(`${url}/v1/companies?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`))
        .json()
    symbols.push(...page.items.map((c) => c.symbol))
    cursor = page.next_cursor
  }
  const token = (await (await fetch(`${url}/v1/me/session`, { method: "POST" })).json()).token as string
  const auth = { authorization: `Bearer ${token}` }
  const screener = (await fetch(`${url}/v1/screener`)).status !== 404
  let n = 0
  const mix: Array<() => [string, RequestInit?]> = [
    () => [`/v1/quotes/${symbols[n % symbols.length]}?allow_stale=true`],
    () => [`/v1/stocks/${symbols[n % symbols.length]}`],
    () => [`/v1/prices/${symbols[n % symbols.length]}?range=1Y`],
    () => ["/v1/market/status"],
    () => [`/v1/prices/${symbols[(n * 7) % symbols.length]}?range=1M`],
    () => ["/v1/me/holdings", { headers: auth }],
    () => [`/v1/companies/${symbols[n % symbols.length]}`],
    () => [screener ? "/v1/screener" : `/v1/quotes/${symbols[(n * 3) % symbols.length]}?allow_stale=true`],
    () => [`/v1/dividends/${symbols[n % symbols.length]}`],
    () => ["/v1/me/transactions", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": `soak-${n}` },
      body: JSON.stringify({ kind: "buy", symbol: "HUBC", quantity: 1, price: 215.42, trade_date: "2026-05-22" })
    }]
  ]
  const rssStart = rssMb(child?.pid)
  console.log(
    `soak: ${seconds} s at ${rate} requests/s against ${url} (${symbols.length} symbols; screener ${
      screener ? "on" : "not served, skipped"
    }); RSS at start ${rssStart ?? "?"} MB`
  )
  console.log("minute  requests  errors  p50_ms  p99_ms  max_ms  rss_mb")
  const minutes: Array<
    {
      minute: number
      requests: number
      errors: number
      p50: number
      p99: number
      max: number
      rss?: number | undefined
    }
  > = []
  let window: Array<number> = []
  let errors = 0
  let notFound = 0
  const errorSamples: Array<string> = []
  const inflight = new Set<Promise<void>>()
  const began = Date.now()
  let nextMinute = began + 60_000
  const flush = (minute: number) => {
    const sorted = [...window].sort((a, b) => a - b)
    const row = {
      minute,
      requests: window.length,
      errors,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
      rss: rssMb(child?.pid)
    }
    minutes.push(row)
    console.log(
      `${String(minute).padStart(6)}  ${String(row.requests).padStart(8)}  ${String(row.errors).padStart(6)}  ${
        String(row.p50).padStart(6)
      }  ${String(row.p99).padStart(6)}  ${String(row.max).padStart(6)}  ${row.rss ?? "?"}`
    )
    window = []
    errors = 0
  }
  for (let i = 0; Date.now() - began < seconds * 1000; i++) {
    const due = began + (i * 1000) / rate
    const wait = due - Date.now()
    if (wait > 0) await sleep(wait)
    if (Date.now() >= nextMinute) {
      flush(minutes.length + 1)
      nextMinute += 60_000
    }
    n = i
    const [path, init] = mix[i % mix.length]!()
    const t = performance.now()
    const p: Promise<void> = fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) })
      .then(async (r) => {
        await r.arrayBuffer()
        // A market read of a symbol without that record (404) or with unverified figures (409 DATA_UNVERIFIED) is the
        // correct answer, counted apart.
        if ((r.status === 404 || r.status === 409) && init === undefined) notFound++
        else if (r.status >= 400) {
          errors++
          if (errorSamples.length < 10) errorSamples.push(`${r.status} ${path}`)
        }
      })
      .catch((e) => {
        errors++
        if (errorSamples.length < 10) errorSamples.push(`${String(e)} ${path}`)
      })
      .finally(() => {
        window.push(Math.round(performance.now() - t))
        inflight.delete(p)
      })
    inflight.add(p)
  }
  await Promise.all(inflight)
  flush(minutes.length + 1)
  const rssEnd = rssMb(child?.pid)
  const verify = await (await fetch(`${url}/v1/me/ledger/verify`, { headers: auth })).json()
  const total = minutes.reduce((s, m) => s + m.requests, 0)
  const totalErrors = minutes.reduce((s, m) => s + m.errors, 0)
  console.log(
    `soak done: ${total} requests, ${totalErrors} errors (5xx, 429, other 4xx, transport), ${notFound} 404/409 record answers for symbols without that record or with unverified figures${
      errorSamples.length ? ` (e.g. ${errorSamples.join("; ")})` : ""
    }; ` +
      `RSS ${rssStart ?? "?"} MB → ${rssEnd ?? "?"} MB; p99 per minute ${
        minutes.map((m) => m.p99).join(", ")
      } ms; ledger verify ${verify.ok}`
  )
  cleanup()
  process.exitCode = totalErrors === 0 && verify.ok === true ? 0 : 1
}

let stop = () => {}
process.on("exit", () => stop())
void main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
