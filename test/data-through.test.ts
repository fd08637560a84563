/**
 * `X-Data-Through` on the market answers over the bundled pack: the last day of each dataset, read here from
 * the recordings in data/pack by their own dates (never from the service); under `as_of`, the days known at
 * that instant; the same header on a kept answer served again, and none on the portfolio routes.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { karachiDate } from "../domain/Karachi.ts"
import { asOfInstant } from "../src/market/readmodel/AsOf.ts"
import { getAsOf, readPack } from "./support/KnownTable.ts"
import { get, SharedTestApp } from "./support/TestApp.ts"

const NOW = "2026-10-05T12:00:00.000Z"

type Columns = { s: string; d: ReadonlyArray<number> }
type Dated = { publishedAt?: string; publishedOn?: string; announcedAt?: string }

/** Every date of a recorded series (`s` the first date, `d` the day steps). */
const datesOf = (series: Columns) => {
  let day = Date.parse(`${series.s}T00:00:00Z`)
  return series.d.map((step) => {
    day += step * 86_400_000
    return new Date(day).toISOString().slice(0, 10)
  })
}
const newest = (days: ReadonlyArray<string>) => [...days].sort().at(-1)!

/** The recordings' last days, by the same names as the header, no later than `day` (Karachi). */
const recordedThrough = (at: number) => {
  const day = karachiDate(at)
  const series = ["prices_eod.json.gz", "prices_as_traded.json.gz"].flatMap((f) =>
    Object.values(readPack(f) as Record<string, Columns>)
  )
  const rows = (files: ReadonlyArray<string>) => files.flatMap((f) => readPack(f) as ReadonlyArray<Dated>)
  const instants = (xs: ReadonlyArray<string | undefined>) =>
    xs.filter((x): x is string => x !== undefined && Date.parse(x) <= at).map((x) => karachiDate(Date.parse(x)))
  return {
    prices: newest(series.flatMap(datesOf).filter((d) => d <= day)),
    index: newest(datesOf((readPack("index_history_kse100.json.gz") as Record<string, Columns>).KSE100!)),
    news: newest(instants(rows(["news.json.gz", "news_headlines.json.gz"]).map((n) => n.publishedAt))),
    payouts: newest(
      instants(rows(["payouts.json", "payouts_company_pages_2025_09.json"]).map((p) => p.announcedAt))
    ),
    filings: newest(
      rows([
        "announcements.json",
        "announcements_company_pages.json.gz",
        "announcements_company_pages_2025_09.json",
        "announcements_filings_inventory.json"
      ]).map((a) => a.publishedOn!).filter((d) => d <= day)
    )
  }
}

/**
 * A point-in-time read, sent once more after a client-side transport error: the instant's snapshot is built in
 * process, and on a loaded machine a new connection can be reset before its request is read.
 */
const readAt = <P extends string>(path: P) => getAsOf(path).pipe(Effect.catchDefect(() => getAsOf(path)))

/** The header's days by dataset, checking its form: `name=YYYY-MM-DD`, comma and space between. */
const daysOf = (header: string | undefined) => {
  assert.isDefined(header, "X-Data-Through is present")
  assert.match(header!, /^[a-z_]+=\d{4}-\d{2}-\d{2}(, [a-z_]+=\d{4}-\d{2}-\d{2})*$/)
  return new Map(header!.split(", ").map((part) => part.split("=") as [string, string]))
}

describe("X-Data-Through", () => {
  layer(SharedTestApp(NOW), { timeout: 300_000, excludeTestServices: true })(
    "over the pack",
    (it) => {
      it.effect("names each dataset's last recorded day, in a stable order, on every market answer", () =>
        Effect.gen(function*() {
          const expected = recordedThrough(Date.parse(NOW))
          // 2026-05-25, 2026-08-07, 2026-09-29 and 2026-08-10 in the recordings.
          const quote = yield* get("/v1/quotes/HUBC?allow_stale=true")
          const days = daysOf(quote.headers["x-data-through"])
          assert.deepStrictEqual(
            [days.get("prices"), days.get("index"), days.get("news"), days.get("filings"), days.get("payouts")],
            [expected.prices, expected.index, expected.news, expected.filings, expected.payouts]
          )
          assert.strictEqual(days.get("screener"), "2026-08-04", "the exchange's screener of 2026-08-04")
          const pages = (readPack("manifest.json") as { datasets: ReadonlyArray<{ id: string; asOf: string }> })
            .datasets.find((d) => d.id === "company_pages")!
          assert.strictEqual(days.get("company_pages"), karachiDate(Date.parse(pages.asOf)), "read 2026-01-27")
          assert.deepStrictEqual(
            [...days.keys()],
            ["prices", "index", "screener", "company_pages", "payouts", "filings", "news"]
          )
          for (const path of ["/v1/news?limit=1", "/v1/sectors", "/v1/dividends/MEBL", "/v1/screener?limit=1"]) {
            const r = yield* get(path as "/v1/news")
            assert.strictEqual(r.headers["x-data-through"], quote.headers["x-data-through"], path)
          }
        }))

      it.effect("a kept answer served again carries the header it was made with; so does an error record", () =>
        Effect.gen(function*() {
          const first = yield* get("/v1/companies/LUCK")
          const again = yield* get("/v1/companies/LUCK")
          assert.strictEqual(again.headers["etag"], first.headers["etag"], "the kept answer")
          assert.isDefined(first.headers["x-data-through"])
          assert.strictEqual(again.headers["x-data-through"], first.headers["x-data-through"])
          const missing = yield* get("/v1/quotes/NOSUCH")
          const missingAgain = yield* get("/v1/quotes/NOSUCH")
          assert.strictEqual(missing.status, 404)
          assert.strictEqual(missing.headers["x-data-through"], first.headers["x-data-through"])
          assert.strictEqual(missingAgain.headers["x-data-through"], first.headers["x-data-through"])
        }))

      it.effect("under as_of 2026-05-01 (before the last news day), each day is one known then, never a later one", () =>
        Effect.gen(function*() {
          const at = asOfInstant("2026-05-01")!
          const expected = recordedThrough(at)
          const r = yield* readAt("/v1/quotes/MEBL?as_of=2026-05-01&allow_stale=true" as "/v1/quotes/MEBL")
          const days = daysOf(r.headers["x-data-through"])
          // 2026-05-01 is Labour Day: the last session before it is 2026-04-30.
          assert.deepStrictEqual(
            [days.get("prices"), days.get("news"), days.get("payouts"), days.get("filings")],
            [expected.prices, expected.news, expected.payouts, expected.filings]
          )
          assert.strictEqual(expected.prices, "2026-04-30")
          assert.isTrue(days.get("news")! < "2026-08-07", "no news after the instant is named")
          // The 2026-08-04 screener was not public yet: the 2026-04-08 one was.
          assert.strictEqual(days.get("screener"), "2026-04-08")
          for (const [dataset, day] of days) assert.isTrue(day <= "2026-05-01", `${dataset} ${day}`)
          const again = yield* get("/v1/quotes/MEBL?as_of=2026-05-01&allow_stale=true" as "/v1/quotes/MEBL")
          assert.strictEqual(again.headers["x-data-through"], r.headers["x-data-through"], "the instant's kept answer")
        }))

      it.effect("the portfolio routes carry none", () =>
        Effect.gen(function*() {
          const r = yield* get("/v1/me/holdings")
          assert.isUndefined(r.headers["x-data-through"])
        }))
    }
  )
})
