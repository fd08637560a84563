/**
 * Benchmark: ledger appends per second (each append hashed into its
 * stream's chain and projected into holdings in the same transaction) and
 * verify + replay events per second, side by side with
 * @event-driven-io/emmett-postgresql appending the same events to the same
 * PostgreSQL server (each in its own throwaway database).
 *
 *   node bench/ledger.ts [postgres://postgres@127.0.0.1:5432/postgres]
 */
import { getPostgreSQLEventStore } from "@event-driven-io/emmett-postgresql"
import { Effect, Layer, Redacted } from "effect"
import { execFileSync } from "node:child_process"
import type { LedgerEvent } from "../domain/ledger/Events.ts"
import { layerPostgres } from "../src/db/Database.ts"
import { Audit } from "../src/ledger/Audit.ts"
import { EventStore } from "../src/ledger/EventStore.ts"
import { positionsOf } from "../src/ledger/Projection.ts"

const admin = process.argv[2] ?? process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
const STREAMS = Number(process.env["BENCH_STREAMS"] ?? 100)
const PER_STREAM = Number(process.env["BENCH_EVENTS"] ?? 400)
const CONCURRENCY = 8

const psql = (sql: string) => execFileSync("psql", [admin, "-qtAc", sql], { encoding: "utf8" })
const dbUrl = (name: string) => {
  const u = new URL(admin)
  u.pathname = `/${name}`
  return u.toString()
}

// HUBC buys at its recorded 2026-05 closes: the same payload for both stores.
const trade = (i: number): LedgerEvent => ({
  type: "TradeRecorded",
  side: "buy",
  symbol: "HUBC",
  quantity: 1 + (i % 7),
  price: 215.42,
  fees: 10,
  trade_date: "2026-05-22",
  settlement_date: "2026-05-25",
  flags: []
})

const ours = async (url: string) => {
  const program = Effect.gen(function*() {
    const store = yield* EventStore
    const audit = yield* Audit
    const started = performance.now()
    yield* Effect.forEach(Array.from({ length: STREAMS }, (_, s) => s), (s) =>
      Effect.forEach(Array.from({ length: PER_STREAM }, (_, i) => i), (i) =>
        store.append(`portfolio-bench-${s}`, i, [trade(i)], {}, { holdings: positionsOf }),
        { discard: true }), { concurrency: CONCURRENCY, discard: true })
    const appendSeconds = (performance.now() - started) / 1000
    const v = yield* audit.verifyAll()
    if (v.failures.length > 0) throw new Error("verify failed")
    return { appendSeconds, verifySeconds: v.seconds, events: v.events }
  })
  const layer = Layer.mergeAll(EventStore.layer, Audit.layer).pipe(Layer.provideMerge(layerPostgres(Redacted.make(url), 10)))
  return Effect.runPromise(Effect.provide(program, layer) as Effect.Effect<{ appendSeconds: number; verifySeconds: number; events: number }>)
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

const main = async () => {
  const a = `psx_bench_ledger_${process.pid}`
  const b = `psx_bench_emmett_${process.pid}`
  psql(`CREATE DATABASE ${a}`)
  psql(`CREATE DATABASE ${b}`)
  try {
    const total = STREAMS * PER_STREAM
    const e = await emmett(dbUrl(b))
    const o = await ours(dbUrl(a))
    console.log(`${STREAMS} streams × ${PER_STREAM} appends of one event, ${CONCURRENCY} writers, PostgreSQL`)
    console.log("| store | appends/s | verify + replay events/s |")
    console.log("|---|---|---|")
    console.log(`| this ledger (hash chain + holdings projection in the transaction) | ${Math.round(total / o.appendSeconds)} | ${Math.round(o.events / o.verifySeconds)} |`)
    console.log(`| emmett-postgresql 0.42 (append only) | ${Math.round(total / e.appendSeconds)} | - |`)
    console.log(`ratio of appends/s (ours / emmett): ${(e.appendSeconds / o.appendSeconds).toFixed(2)}`)
  } finally {
    psql(`DROP DATABASE IF EXISTS ${a} WITH (FORCE)`)
    psql(`DROP DATABASE IF EXISTS ${b} WITH (FORCE)`)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
