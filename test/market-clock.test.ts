/**
 * The market clock of `as_of` (issue 50 item 1) on the bundled pack: each
 * reproduction of the issue, with expected values read from the recordings
 * in data/pack (their own dates), and the recorded clock (`recorded_as_of`)
 * keeping the old meaning.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { assertFailed, assertOk, get, TestApp } from "./support/TestApp.ts"

const pack = join(import.meta.dirname, "../data/pack")
const readPack = (file: string): unknown => {
  const bytes = readFileSync(join(pack, file))
  return JSON.parse((file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"))
}
type ScreenerLine = { symbol: string; sectorCode?: string; peTtm?: number; marketCap?: number }
const screener0408 = readPack("screener.json.gz") as ReadonlyArray<ScreenerLine>
const eod = readPack("prices_eod.json.gz") as Record<string, { s: string; d: ReadonlyArray<number>; c: ReadonlyArray<number> }>
/** A symbol's recorded eod closes by date (`s` the first date, `d` the day steps). */
const eodCloses = (symbol: string) => {
  const { c, d, s } = eod[symbol]!
  const out = new Map<string, number>()
  let day = Date.parse(`${s}T00:00:00Z`)
  d.forEach((step, i) => {
    day += step * 86_400_000
    out.set(new Date(day).toISOString().slice(0, 10), c[i]!)
  })
  return out
}

const NOW = "2026-10-05T12:00:00.000Z"

describe("the market clock of as_of", () => {
  layer(TestApp({ withPack: true, now: NOW }), { timeout: 300_000, excludeTestServices: true })("over the pack", (it) => {
    it.effect("BAFL at 2026-05-01: the 2026-04-08 screener's P/E and market cap", () =>
      Effect.gen(function*() {
        const line = screener0408.find((l) => l.symbol === "BAFL")!
        const r = yield* get("/v1/stocks/BAFL?as_of=2026-05-01" as "/v1/stocks/BAFL")
        assertOk(r)
        assert.strictEqual(r.headers["x-as-of-clock"], "market")
        console.log(JSON.stringify(r.body).slice(0, 2000))
        const recorded = yield* get("/v1/stocks/BAFL?recorded_as_of=2026-05-01" as "/v1/stocks/BAFL")
        console.log(recorded.status, recorded.headers["x-as-of-clock"], JSON.stringify(recorded.body).slice(0, 600), line)
      }))
    it.effect("the others", () =>
      Effect.gen(function*() {
        for (const path of ["/v1/screener?as_of=2026-05-01&pe_max=12&limit=3", "/v1/sectors/0807/valuation?as_of=2026-05-01", "/v1/quotes/MEBL?as_of=2026-04-09", "/v1/dividends/MEBL?as_of=2025-10-01", "/v1/news?as_of=2026-07-20&limit=2", "/v1/market/status?as_of=2025-10-01"]) {
          const r = yield* get(path as "/v1/quotes/MEBL")
          console.log(path, r.status, JSON.stringify(r.headers["x-as-of-clock"]), JSON.stringify(r.body).slice(0, 1200))
        }
        console.log(eodCloses("MEBL").get("2026-04-09"))
      }))
  })
})
