/**
 * Republication (domain/news/News.ts): one story is one event, separate
 * editions are separate events. From the recordings: the five "MG Morning
 * Breeze" editions (test/fixtures/research/news_editions_and_tags.json) and
 * two Google News addresses of one ProPakistani story minutes apart
 * (test/fixtures/news-labelled.json); two texts under one headline worked by hand.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { type FeedItem, newsEvents, parseFeedFile } from "../../domain/news/News.ts"
import { newsTagger } from "../../domain/news/Tagger.ts"
import { companyAliases } from "../../src/ingest/CompanyAliases.ts"

const json = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"))
const recorded = json("../fixtures/research/news_editions_and_tags.json")
const tag = newsTagger(companyAliases())

describe("news events", () => {
  it("the MG Morning Breeze of 22, 23 and 24 June are three events, each at its own address and time", () => {
    const raw: ReadonlyArray<{ title: string; url: string; published: string }> = recorded.items.filter((
      i: { title: string }
    ) => i.title.startsWith("MG Morning Breeze"))
    assert.strictEqual(new Set(raw.map((i) => i.url)).size, raw.length)
    const items = parseFeedFile({ items: raw }, tag).rows
    const events = newsEvents([...items, ...items]) // overlapping fetches repeat items
    assert.strictEqual(events.length, raw.length)
    for (const r of raw) {
      const e = events.find((x) => x.sources.some((s) => s.url === r.url))!
      assert.strictEqual(e.sources.length, 1)
      assert.strictEqual(e.publishedAt, new Date(r.published).toISOString())
    }
    const june24 = raw.find((r) => r.published.startsWith("2026-06-24"))!
    assert.strictEqual(june24.published, "2026-06-24T03:52:00+00:00")
  })

  it("one story under two Google News addresses minutes apart is one event", () => {
    const sample: ReadonlyArray<{ url: string; title: string; summary: string; published: string }> =
      json("../fixtures/news-labelled.json").items
    const copies = sample.filter((i) =>
      i.title === "Attock Refinery to Sell Majority Stake in Its Hospital Business - ProPakistani"
    )
    assert.strictEqual(copies.length, 2)
    const events = newsEvents(parseFeedFile({ items: copies }, tag).rows)
    assert.strictEqual(events.length, 1)
    assert.deepStrictEqual(events[0]!.sources.map((s) => s.publisher), ["ProPakistani", "ProPakistani"])
    assert.deepStrictEqual(events[0]!.symbols, ["ATRL"])
  })

  it("one headline with two different texts is two stories; the same text is one", () => {
    const item = (url: string, at: string, summary: string): FeedItem => ({
      url,
      title: "Hormuz reopening to release wave of oil supply, depress prices",
      publishedAt: at,
      summary,
      symbols: []
    })
    const first = item(
      "https://www.brecorder.com/news/1/a",
      "2026-06-18T08:44:39.000Z",
      "Crude markets could come under further pressure"
    )
    const updated = item(
      "https://www.brecorder.com/news/2/a",
      "2026-06-18T11:51:12.000Z",
      "Crude prices are likely to fall if the strait reopens"
    )
    assert.strictEqual(newsEvents([first, updated]).length, 2)
    const copy = item(
      "https://www.dawn.com/news/3/a",
      "2026-06-18T11:51:12.000Z",
      "Crude markets could come under further pressure"
    )
    assert.strictEqual(newsEvents([first, copy]).length, 1)
  })
})
