/**
 * Two crawls writing the market at once (the leader's and `refresh` started beside it, or two
 * instances' passes) against the loopback replay of the recorded portal: neither deadlocks nor
 * loses a write, and every recorded price series is served as recorded afterwards. On PostgreSQL
 * the passes run on separate connections, which is where the lock order matters.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type PassSummary, PortalCrawler } from "../src/ingest/PortalCrawler.ts"
import { datasetKinds } from "../src/ingest/PortalDatasets.ts"
import { eodRows, eodSymbols, FakePortal } from "./support/FakePortal.ts"
import { caughtUp, liveApp } from "./support/LiveApp.ts"
import { bodyOf, get } from "./support/TestApp.ts"

/** The writes a pass fetched but could not store (a portal 404 for an unrecorded symbol is not one). */
const failedWrites = (s: PassSummary) =>
  s.datasets.flatMap((d) =>
    Object.entries(d.reasons).filter(([why]) => why.startsWith("store")).map(([why, n]) =>
      `${d.dataset}: ${n} × ${why}`
    )
  )

describe("concurrent market writers", () => {
  layer(liveApp(), { excludeTestServices: true, timeout: 300_000 })(
    "two whole passes at once over the fake portal",
    (it) => {
      it.effect("both complete without a failed write, and every recorded series is served as recorded", () =>
        Effect.gen(function*() {
          const crawler = yield* PortalCrawler
          const fake = yield* FakePortal
          // A whole pass (the leader's), and beside it one writer per dataset in the opposite order
          // (a refresh, another instance): their transactions take the same rows in different orders.
          const beside = [...datasetKinds].reverse().map((kind) => crawler.pass({ datasets: [kind] }))
          const passes = yield* Effect.all([crawler.pass(), ...beside], { concurrency: "unbounded" })
          assert.deepStrictEqual(passes.flatMap(failedWrites), [], "every pass wrote everything it fetched")
          yield* caughtUp
          const day = fake.lastSession()
          for (const symbol of eodSymbols) {
            const recorded = eodRows(symbol).filter((r) => r.date <= day && r.date >= "2026-01-01").reverse()
            const served = bodyOf(yield* get(`/v1/prices/${symbol}?date_from=2026-01-01&limit=500`))
            assert.deepStrictEqual(
              served.items.map((i) => [i.date, i.close, i.volume]),
              recorded.map((r) => [r.date, r.close, r.volume]),
              symbol
            )
          }
        }))
    }
  )
})
