/**
 * The pack's news through the API: tags by what
 * an item names, daily editions served apart, coverage only where news was
 * recorded, and the umarfarooq2044 headline digests imported. Expected values
 * come from the recordings' slices in test/fixtures/research/ (PROVENANCE.md
 * there), counted here, never from the service.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { karachiDateOf, karachiInstant } from "../domain/Karachi.ts"
import { csvRecords } from "../domain/psx/Csv.ts"
import { assertSucceeded, bodyOf, get, SharedTestApp } from "./support/TestApp.ts"

const research = (f: string) => new URL(`./fixtures/research/${f}`, import.meta.url)
const recorded: ReadonlyArray<{ symbol: string; title: string; url: string; published: string }> =
  JSON.parse(readFileSync(research("news_editions_and_tags.json"), "utf8")).items

/** Every digest row of the umarfarooq2044 recording: address → the first digest time (Karachi wall clock) that lists it. */
const digests = () => {
  const dir = research("umarfarooq_hourly_news/")
  const first = new Map<string, string>()
  for (const f of readdirSync(dir).sort()) {
    for (const r of csvRecords(readFileSync(new URL(f, dir), "utf8"))) {
      const url = r["URL"]!
      const [day, hm] = r["Time"]!.split(" ")
      const at = new Date(karachiInstant(day!, Number(hm!.slice(0, 2)), Number(hm!.slice(3, 5)))).toISOString()
      if (url !== "" && (!first.has(url) || at < first.get(url)!)) first.set(url, at)
    }
  }
  return first
}

/** Every item of a /v1/news query, page after page, with the first page's coverage. */
const allNews = (query: string) =>
  Effect.gen(function*() {
    const url = `/v1/news?${query}&limit=200` as const
    const first = yield* get(url)
    assertSucceeded(first)
    const items = [...first.body.items]
    let cursor = first.body.next_cursor
    while (cursor !== null) {
      const page: typeof first.body = bodyOf(yield* get(`${url}&cursor=${cursor}` as const))
      items.push(...page.items)
      cursor = page.next_cursor
    }
    return { coverage: first.body.coverage, items }
  })

/** 11:00 in Karachi on Monday 23 November 2026. */
const NOW = "2026-11-23T06:00:00.000Z"

layer(SharedTestApp(NOW), { timeout: 600_000, excludeTestServices: true })(
  "news from the pack",
  (it) => {
    it.effect("BNL serves no Bad Bunny story; HBL serves its half-year result; HUBC's research news all name Hub Power", () =>
      Effect.gen(function*() {
        const bnl = bodyOf(yield* get("/v1/news?symbol=BNL&limit=200"))
        const bunny = recorded.filter((i) => i.symbol === "BNL").map((i) => i.url)
        assert.isAtLeast(bunny.length, 3)
        assert.isFalse(bnl.items.some((n) => n.sources.some((s) => bunny.includes(s.url))))
        // The recording's keyword is kept, apart, on the items it was filed with.
        for (const item of recorded.filter((i) => i.symbol === "BNL")) {
          const { items } = yield* allNews(
            `date_from=${karachiDateOf(item.published)}&date_to=${karachiDateOf(item.published)}`
          )
          const n = items.find((x) => x.sources.some((s) => s.url === item.url))
          assert.exists(n, item.url)
          assert.isFalse(n.symbols.includes("BNL"))
          assert.include(n.source_keywords ?? [], "BNL")
        }
        const hblUrl = recorded.find((i) => i.title.startsWith("HBL declares H1"))!.url
        const hbl = bodyOf(yield* get("/v1/news?symbol=HBL&limit=200"))
        assert.strictEqual(hbl.coverage, "recorded")
        assert.isTrue(hbl.items.some((n) => n.url === hblUrl))
        const hubc = bodyOf(yield* get("/v1/stocks/HUBC/research"))
        assert.isAbove(hubc.news.length, 0)
        for (const n of hubc.news) assert.match(n.title, /hub ?power|hubco/i)
        const hubcNews = bodyOf(yield* get("/v1/news?symbol=HUBC&limit=200"))
        assert.isBelow(hubcNews.total, 10) // the recording filed 200+ items under HUBC; two name the company
      }))

    it.effect("the Morning Breeze of 22, 23 and 24 June are three items, each at its own address and time", () =>
      Effect.gen(function*() {
        const editions = recorded.filter((i) =>
          i.title.startsWith("MG Morning Breeze") && i.published >= "2026-06-22" && i.published < "2026-06-25"
        )
        assert.strictEqual(editions.length, 3)
        for (const e of editions) {
          const day = karachiDateOf(e.published)
          const r = yield* allNews(`date_from=${day}&date_to=${day}`)
          const served = r.items.filter((n) => n.title.startsWith("MG Morning Breeze"))
          assert.strictEqual(served.length, 1, day)
          assert.strictEqual(served[0]!.url, e.url)
          assert.strictEqual(served[0]!.published_at, new Date(e.published).toISOString())
          assert.isFalse(served[0]!.republished)
        }
      }))

    it.effect("coverage is unknown for days nothing was read (before 31 Jan, 4 Feb-15 Jun 2026), recorded inside the windows", () =>
      Effect.gen(function*() {
        const spring = bodyOf(yield* get("/v1/news?date_from=2026-03-01&date_to=2026-06-01"))
        assert.strictEqual(spring.coverage, "unknown")
        assert.strictEqual(spring.total, 0)
        assert.include(spring.note ?? "", "2026-01-31 to 2026-02-03")
        const before = bodyOf(yield* get("/v1/news?date_to=2026-01-30"))
        assert.strictEqual(before.coverage, "unknown")
        const june = bodyOf(yield* get("/v1/news?date_from=2026-06-20&date_to=2026-06-20"))
        assert.strictEqual(june.coverage, "recorded") // a Saturday inside the recorded fetches
        const gap = bodyOf(yield* get("/v1/news?date_from=2026-07-01&date_to=2026-07-10"))
        assert.strictEqual(gap.coverage, "unknown")
      }))

    it.effect("the umarfarooq2044 headlines of 31 Jan-3 Feb 2026: every address once, timed at the first digest listing it", () =>
      Effect.gen(function*() {
        const first = digests()
        assert.isAbove(first.size, 400)
        const { coverage, items } = yield* allNews("date_from=2026-01-31&date_to=2026-02-03")
        assert.strictEqual(coverage, "recorded")
        assert.strictEqual(items.length, first.size)
        for (const n of items) {
          assert.strictEqual(n.published_at_basis, "first_seen")
          assert.strictEqual(n.published_at, first.get(n.url), n.url)
        }
        const sources = bodyOf(yield* get("/v1/news?date_from=2026-02-01&date_to=2026-02-01&limit=1")).sources
        assert.deepStrictEqual(sources.map((s) => s.dataset), ["news_headlines"])
      }))
  }
)
