/**
 * Ledger writers for the benchmarks: `count` users, each appending buys to
 * its own portfolio in a loop, as fast as the service accepts them, until
 * the parent sends "stop". Reports appends, failures and append p50/p99.
 *
 *   fork("bench/writers.ts", [baseUrl, "8"])  → "ready", then on "stop": {appended, failed, p50, p99}
 */
const [base, countArg] = process.argv.slice(2)
const count = Number(countArg ?? 8)
let running = true
let appended = 0
let failed = 0
const latencies: Array<number> = []

const session = async () => {
  const r = await fetch(`${base}/v1/me/session`, { method: "POST" })
  const body: any = await r.json()
  return String(body.token)
}

// HUBC's recorded close on a trading day (2026-05-25): a real price, a real trading day.
const buy = JSON.stringify({ kind: "buy", symbol: "HUBC", quantity: 10, price: 219.5, trade_date: "2026-05-25" })

const writer = async (token: string) => {
  while (running) {
    const started = performance.now()
    const r = await fetch(`${base}/v1/me/transactions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: buy
    }).catch(() => undefined)
    latencies.push(performance.now() - started)
    if (r?.ok) appended++
    else failed++
    await r?.arrayBuffer()
  }
}

const tokens = await Promise.all(Array.from({ length: count }, session))
const writers = tokens.map(writer)
process.send?.("ready")
process.on("message", async () => {
  running = false
  await Promise.all(writers)
  const sorted = latencies.sort((a, b) => a - b)
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)
  process.send?.({ appended, failed, append_p50_ms: at(0.5), append_p99_ms: at(0.99) })
  process.exit(0)
})
