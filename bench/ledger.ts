/**
 * Benchmark of the ledger's appends on PostgreSQL (each throwaway database on
 * the server named below):
 *
 * 1. Append latency at stream lengths 10, 1,000 and 20,000 events: p50 and
 *    p99 of one buy decided and appended through LedgerWriter (decided from
 *    the kept state, hashed into the chain, projected into holdings in the
 *    same statement; concurrent appends to other streams share its commit).
 *    Target: p99 at 20,000 within 1.5× of p99 at 10.
 * 2. Appends per second with 8 writers on 100 streams, side by side with
 *    @event-driven-io/emmett-postgresql appending the same events (target
 *    ≥ 1.5× emmett), and verify + replay events per second: the median of
 *    three runs after a first (the first also warms the verifier's code up;
 *    its rate is shown beside it).
 * 3. PostgreSQL's own single-row INSERT+COMMIT rate at 8 clients (pgbench,
 *    10 s), and our appends/s as a ratio of it (target ≥ 0.5×).
 * 4. GET /v1/me/performance for a portfolio of 20 symbols and 2,000 events
 *    (bench/performance.ts): p50 and p99 over HTTP (target: p99 ≤ 50 ms).
 *
 *   node bench/ledger.ts [postgres://postgres@127.0.0.1:5432/postgres] [--only=performance]
 */
import { getPostgreSQLEventStore } from "@event-driven-io/emmett-postgresql"
import { Effect, Layer, Redacted } from "effect"
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Command, Context } from "../domain/ledger/Decider.ts"
import type { LedgerEvent } from "../domain/ledger/Events.ts"
import { isTradingDay, settlementDate } from "../domain/market/calendar/Calendar.ts"
import { AppConfig } from "../src/config/AppConfig.ts"
import { layerPostgres } from "../src/db/Database.ts"
import { Audit } from "../src/ledger/events/Audit.ts"
import { EventStore } from "../src/ledger/events/EventStore.ts"
import { LedgerWriter } from "../src/ledger/portfolio/Writer.ts"
import { LedgerSigner } from "../src/ledger/signing/Signing.ts"
import { performanceBench, performanceReport } from "./performance.ts"

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"))
const onlyPerformance = process.argv.includes("--only=performance")
const admin = positional[0] ?? process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
const STREAMS = Number(process.env["BENCH_STREAMS"] ?? 100)
const PER_STREAM = Number(process.env["BENCH_EVENTS"] ?? 400)
const SAMPLES = Number(process.env["BENCH_SAMPLES"] ?? 300)
const CONCURRENCY = 8

const psql = (sql: string) => execFileSync("psql", [admin, "-qtAc", sql], { encoding: "utf8" })
const dbUrl = (name: string) => {
  const u = new URL(admin)
  u.pathname = `/${name}`
  return u.toString()
}

// HUBC buys at its recorded close of 2026-05-22: the same payload for both stores.
const DATE = "2026-05-22"
const buy = (i: number): Command => ({
  kind: "buy",
  symbol: "HUBC",
  quantity: 1 + (i % 7),
  price: 215.42,
  fees: 10,
  trade_date: DATE
})
const trade = (i: number): LedgerEvent => ({
  type: "TradeRecorded",
  side: "buy",
  symbol: "HUBC",
  quantity: 1 + (i % 7),
  price: 215.42,
  fees: 10,
  trade_date: DATE,
  settlement_date: settlementDate(DATE),
  flags: []
})
const ctx: Context = { today: "2026-05-25", isTradingDay, settlementDate }

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

const ours = async (url: string) => {
  const program = Effect.gen(function*() {
    const store = yield* EventStore
    const writer = yield* LedgerWriter
    const audit = yield* Audit
    // 1. Latency by stream length: seed in batches of 500 events, then time single appends.
    const latency: Array<{ length: number; p50: number; p99: number }> = []
    for (const length of [10, 1_000, 20_000]) {
      const stream = `portfolio-latency-${length}`
      let head = yield* store.head(stream)
      for (let done = 0; done < length;) {
        const n = Math.min(500, length - done)
        const events = Array.from({ length: n }, (_, i) => trade(done + i))
        const r = yield* store.append(stream, head, events, {})
        head = r.head
        done += n
      }
      yield* audit.rebuildAll // the seeded stream's holdings, as appends would have left them
      const times: Array<number> = []
      for (let i = 0; i < SAMPLES; i++) {
        const t = performance.now()
        const r = yield* writer.write(stream, buy(i), ctx, {})
        if (r._tag !== "Appended") throw new Error(r.rejection.message)
        times.push(performance.now() - t)
      }
      times.sort((a, b) => a - b)
      latency.push({ length, p50: percentile(times, 50), p99: percentile(times, 99) })
    }
    // 2. Throughput: 8 writers over 100 streams.
    const started = performance.now()
    yield* Effect.forEach(
      Array.from({ length: STREAMS }, (_, s) => s),
      (s) =>
        Effect.forEach(
          Array.from({ length: PER_STREAM }, (_, i) => i),
          (i) =>
            Effect.flatMap(writer.write(`portfolio-bench-${s}`, buy(i), ctx, {}), (r) =>
              r._tag === "Appended" ? Effect.void : Effect.die(new Error(r.rejection.message))),
          { discard: true }
        ),
      { concurrency: CONCURRENCY, discard: true }
    )
    const appendSeconds = (performance.now() - started) / 1000
    // This process's CPU time during verify as well: on a shared machine the wall clock also counts waiting for a core.
    // The first verify of the process is also its code's warm-up; three more give the steady rate (their median).
    const verifies: Array<{ seconds: number; cpuSeconds: number }> = []
    let events = 0
    for (let i = 0; i < 4; i++) {
      const cpuBefore = process.cpuUsage()
      const v = yield* audit.verifyAll()
      const cpu = process.cpuUsage(cpuBefore)
      if (v.failures.length > 0) throw new Error(`verify failed: ${JSON.stringify(v.failures[0])}`)
      verifies.push({ seconds: v.seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 })
      events = v.events
    }
    const steady = verifies.slice(1).sort((a, b) => a.seconds - b.seconds)[1]!
    return { latency, appendSeconds, first: verifies[0]!, steady, events }
  })
  const layer = Layer.mergeAll(LedgerWriter.layer, Audit.layer).pipe(
    Layer.provideMerge(LedgerSigner.layer.pipe(Layer.provideMerge(EventStore.layer))),
    Layer.provideMerge(layerPostgres(Redacted.make(url), 10)),
    Layer.provideMerge(AppConfig.layer)
  )
  return Effect.runPromise(Effect.provide(program, layer) as Effect.Effect<{
    latency: Array<{ length: number; p50: number; p99: number }>
    appendSeconds: number
    first: { seconds: number; cpuSeconds: number }
    steady: { seconds: number; cpuSeconds: number }
    events: number
  }>)
}

const emmett = async (url: string) => {
  const store = getPostgreSQLEventStore(url)
  await store.appendToStream("warmup", [{ type: "TradeRecorded", data: trade(0) } as any])
  const started = performance.now()
  const queue = Array.from({ length: STREAMS }, (_, s) => s)
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      for (let i = 0; i < PER_STREAM; i++) {
        await store.appendToStream(`portfolio-bench-${s}`, [{ type: "TradeRecorded", data: trade(i) } as any], {
          expectedStreamVersion: BigInt(i) as any
        })
      }
    }
  }))
  const appendSeconds = (performance.now() - started) / 1000
  await store.close()
  return { appendSeconds }
}

/** PostgreSQL's single-row INSERT+COMMIT (autocommit) transactions per second at 8 clients, by pgbench. */
const pgbench = (url: string) => {
  execFileSync("psql", [url, "-qtAc", "CREATE TABLE insert_rate (id bigserial PRIMARY KEY, v integer NOT NULL)"])
  const script = join(tmpdir(), `insert-rate-${process.pid}.sql`)
  writeFileSync(script, "INSERT INTO insert_rate (v) VALUES (1);\n")
  const out = execFileSync("pgbench", ["-n", "-c", "8", "-j", "2", "-T", "10", "-f", script, url], { encoding: "utf8" })
  const m = /tps = ([\d.]+)/u.exec(out)
  if (!m) throw new Error(`pgbench printed no tps:\n${out}`)
  return Number(m[1])
}

const main = async () => {
  if (!onlyPerformance) await appendBench()
  console.log()
  for (const line of performanceReport(await performanceBench(admin))) console.log(line)
}

const appendBench = async () => {
  const a = `psx_bench_ledger_${process.pid}`
  const b = `psx_bench_emmett_${process.pid}`
  const c = `psx_bench_pgbench_${process.pid}`
  for (const db of [a, b, c]) psql(`CREATE DATABASE ${db}`)
  try {
    const total = STREAMS * PER_STREAM
    const e = await emmett(dbUrl(b))
    const o = await ours(dbUrl(a))
    const insertRate = pgbench(dbUrl(c))
    const oursRate = total / o.appendSeconds
    console.log(`append latency (one buy decided from the kept state and appended; ${SAMPLES} samples per length)`)
    console.log("| stream length | p50 ms | p99 ms |")
    console.log("|---|---|---|")
    for (const l of o.latency) {
      console.log(`| ${l.length.toLocaleString("en")} | ${l.p50.toFixed(2)} | ${l.p99.toFixed(2)} |`)
    }
    const p99At = (n: number) => o.latency.find((l) => l.length === n)!.p99
    console.log(`p99 at 20,000 / p99 at 10: ${(p99At(20_000) / p99At(10)).toFixed(2)} (target ≤ 1.5)`)
    console.log()
    console.log(`${STREAMS} streams × ${PER_STREAM} appends of one event, ${CONCURRENCY} writers, PostgreSQL`)
    console.log("| store | appends/s | verify + replay events/s: steady (first run) |")
    console.log("|---|---|---|")
    console.log(
      `| this ledger (decide from state, hash chain over the stored bytes, holdings in the same transaction, group commit) | ${
        Math.round(oursRate)
      } | ${Math.round(o.events / o.steady.seconds)} (${Math.round(o.events / o.first.seconds)}) |`
    )
    console.log(`| emmett-postgresql 0.42 (append only) | ${Math.round(total / e.appendSeconds)} | - |`)
    console.log(`| PostgreSQL single-row INSERT+COMMIT, 8 clients (pgbench, 10 s) | ${Math.round(insertRate)} | - |`)
    for (const [name, v] of [["steady (median of runs 2-4)", o.steady], ["first run", o.first]] as const) {
      console.log(
        `verify + replay, ${name}: ${o.events} events in ${v.seconds.toFixed(2)} s wall, ${
          v.cpuSeconds.toFixed(2)
        } s of this process's CPU (${
          Math.round(o.events / v.cpuSeconds)
        } events per CPU-second; the server's share not included)`
      )
    }
    console.log(`ratio of appends/s, ours / emmett: ${(e.appendSeconds / o.appendSeconds).toFixed(2)} (target ≥ 1.5)`)
    console.log(
      `ratio of appends/s, ours / PostgreSQL INSERT+COMMIT: ${(oursRate / insertRate).toFixed(2)} (target ≥ 0.5)`
    )
  } finally {
    for (const db of [a, b, c]) psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
