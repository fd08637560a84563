/**
 * Memory comes back after the attacks: the service started as `npm start` starts it (scripts/serve.sh, its
 * documented start line), on a throwaway store with the bundled pack, settles; then one client asks for six
 * point-in-time states over distinct instants, dry-runs a 10,000-row import newest first, and imports 10,000
 * rows into a portfolio with history. Within 60 s of the last answer the process's resident memory (VmRSS of
 * /proc/PID/status; on PostgreSQL the service process is the Node process only) is back to at most 1.75 × its
 * settled size. Nothing here forces a collection: the process is left alone and its RSS read every 250 ms.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Schedule } from "effect"
import { readFileSync } from "node:fs"
import { buys, csvOf } from "./support/ImportFiles.ts"
import { call, type Service, startService, throwawayStore } from "./support/ServiceProcess.ts"

const MiB = 1024 * 1024
/**
 * The bound: RSS within 60 s of the attacks at most this many times the settled RSS. The goal is 1.25; what stands
 * between is in RELIABILITY.md ("Memory after the attacks"): V8 gives back its heap's free pages only at a
 * memory-reducing collection, which comes about 100 s after allocation calms down, and glibc keeps the holes the
 * point-in-time builds leave in the main heap. Measured 1.20 to 1.44 on a quiet machine and up to 1.55 with
 * other suites running beside it, so the bound leaves room for a busy CI machine.
 */
const BOUND = 1.75
const SETTLE_WITHIN_MS = 60_000

/** Six instants, each a state of its own on the market clock (five instants an attacker chose, and a month end). */
const INSTANTS = ["2024-01-01", "2025-06-30", "2026-01-22", "2026-04-08", "2026-07-08", "2026-10-01"]

/** The process's resident set in bytes, read from the kernel. */
const rssOf = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))
  return Number(line!.split(/\s+/)[1]) * 1024
}

/** Settled: one reading a second, until the last 20 lie within 2% of each other (at most 4 minutes); their mean. */
const settledRss = (pid: number) =>
  Effect.gen(function*() {
    const readings: Array<number> = []
    const spread = () => {
      const last = readings.slice(-20)
      return (Math.max(...last) - Math.min(...last)) / Math.min(...last)
    }
    yield* Effect.sync(() => readings.push(rssOf(pid))).pipe(
      Effect.repeat({ schedule: Schedule.spaced("1 second"), until: () => readings.length >= 20 && spread() <= 0.02 }),
      Effect.timeout("240 seconds"),
      Effect.orDie
    )
    return readings.slice(-20).reduce((a, b) => a + b, 0) / 20
  })

/** A request the service may ask to repeat (503 while a state loads, 429 past the rate limit): sent until answered. */
const answered = (request: Effect.Effect<{ readonly status: number; readonly text: string }>) =>
  request.pipe(
    Effect.flatMap((r) => r.status === 503 || r.status === 429 || r.status === 0 ? Effect.fail(r) : Effect.succeed(r)),
    Effect.retry(Schedule.spaced("1 second")),
    Effect.timeout("300 seconds"),
    Effect.orDie
  )

const post = (service: Service, path: string, body: string, headers: Record<string, string>) =>
  call(`${service.url}${path}`, { method: "POST", body, headers, timeoutMs: 120_000 })

const tokenOf = (service: Service) =>
  Effect.map(
    answered(post(service, "/v1/me/session", "{}", { "content-type": "application/json" })),
    (r) => JSON.parse(r.text).token as string
  )

/** The attack sequence: six point-in-time states, a newest-first dry run, an import into a portfolio with history. */
const attack = (service: Service) =>
  Effect.gen(function*() {
    for (const day of INSTANTS) {
      const r = yield* answered(call(`${service.url}/v1/market/status?as_of=${day}`, { timeoutMs: 60_000 }))
      assert.strictEqual(r.status, 200, `as_of=${day}: ${r.text.slice(0, 300)}`)
    }
    const csv = { "content-type": "text/csv" }
    const dry = yield* answered(
      post(service, "/v1/me/transactions/import?dry_run=true", csvOf(buys("OGDC", 10_000).reverse()), {
        ...csv,
        authorization: `Bearer ${yield* tokenOf(service)}`
      })
    )
    assert.strictEqual(dry.status, 200, dry.text.slice(0, 300))
    assert.strictEqual(JSON.parse(dry.text).rows, 10_000)
    const owner = { authorization: `Bearer ${yield* tokenOf(service)}` }
    const later = JSON.stringify({ kind: "buy", symbol: "HBL", quantity: 10, price: 300, trade_date: "2026-05-20" })
    const first = yield* answered(
      post(service, "/v1/me/transactions", later, { ...owner, "content-type": "application/json" })
    )
    assert.strictEqual(first.status, 201, first.text.slice(0, 300))
    const real = yield* answered(
      post(service, "/v1/me/transactions/import", csvOf(buys("HBL", 10_000)), { ...csv, ...owner })
    )
    assert.strictEqual(real.status, 200, real.text.slice(0, 300))
    assert.strictEqual(JSON.parse(real.text).recorded, 10_000)
  })

describe("memory after the attacks", () => {
  it.live(
    "six point-in-time states, a 10,000-row dry run and a 10,000-row import: RSS back to 1.75 x settled within 60 s",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const service = yield* startService(store, { launcher: "npm start", awaitPack: true, readyWithinMs: 600_000 })
        const pid = service.child.pid!
        const settled = yield* settledRss(pid)
        let peak = settled
        const sampler = yield* Effect.forkScoped(
          Effect.sync(() => (peak = Math.max(peak, rssOf(pid)))).pipe(Effect.repeat(Schedule.spaced("250 millis")))
        )
        yield* attack(service)
        const last = Date.now()
        const after: Array<readonly [number, number]> = []
        yield* Effect.sync(() => after.push([Date.now() - last, rssOf(pid)])).pipe(
          Effect.repeat({
            schedule: Schedule.spaced("250 millis"),
            until: () => after.at(-1)![1] <= BOUND * settled || after.at(-1)![0] >= SETTLE_WITHIN_MS
          })
        )
        yield* Fiber.interrupt(sampler)
        const [ms, rss] = after.at(-1)!
        const mib = (b: number) => Math.round(b / MiB)
        console.log(
          `RSS (${store.mode}): settled ${mib(settled)} MiB, peak ${mib(peak)} MiB, ` +
            `${mib(rss)} MiB ${(ms / 1000).toFixed(1)} s after the last answer (bound ${mib(BOUND * settled)} MiB)`
        )
        assert.isAtMost(rss, BOUND * settled, `RSS ${mib(rss)} MiB after ${ms} ms; settled ${mib(settled)} MiB`)
        assert.isTrue(service.child.exitCode === null, service.output().slice(-2_000))
      }).pipe(Effect.scoped),
    1_500_000
  )
})
