/**
 * The live news reader's pure parts: RSS and Atom feeds into items, tickers
 * and company names into tags, republished copies into one event. The feeds
 * are synthetic encodings of recorded items (test/fixtures/news/README.md);
 * the universe is the pack's recorded /symbols.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { newsEvents } from "../domain/news/News.ts"
import { feedItemsOf, feedTime, parseFeed, plainText } from "../domain/news/Rss.ts"
import { newsTagger } from "../domain/news/Tagger.ts"
import { companyAliases } from "../src/ingest/CompanyAliases.ts"

const fixture = (name: string) => readFileSync(new URL(`./fixtures/news/${name}`, import.meta.url), "utf8")
const universe: ReadonlyArray<{ symbol: string }> = JSON.parse(
  readFileSync(new URL("../data/pack/universe.json", import.meta.url), "utf8")
)
const tag = newsTagger(companyAliases(), new Set(universe.map((u) => u.symbol)))

describe("news feeds", () => {
  it("reads an RSS 2.0 feed: publisher's times in UTC, entities decoded, an undated item left out", () => {
    const parsed = parseFeed(fixture("dawn-business.rss"))
    assert.deepStrictEqual(parsed.rows.map((r) => [r.title, r.publishedAt]), [
      ["ADB approves $700m loan for Pakistan's insurance sector", "2026-06-18T07:34:58.000Z"],
      ["Islamabad High Court dismisses bank petition on super tax", "2026-07-28T03:25:18.000Z"]
    ])
    assert.deepStrictEqual(parsed.skipped, { "no publication time with its zone": 1 })
    assert.include(parsed.rows[1]!.summary, "petition filed by Meezan Bank Ltd")
    assert.strictEqual(parsed.rows[0]!.summary, "ADB approves $700m loan for Pakistan's insurance sector")
  })

  it("reads an Atom feed by its alternate link and published time", () => {
    const parsed = parseFeed(fixture("brecorder.atom"))
    assert.deepStrictEqual(parsed.rows.map((r) => [r.url, r.publishedAt]), [[
      "https://www.brecorder.com/news/40426177/port-qasim-authority-renews-engro-vopak-terminal-implementation-agreement",
      "2026-06-18T11:42:40.000Z"
    ]])
  })

  it("takes no time without a zone, and never the time it was read", () => {
    assert.strictEqual(feedTime("Thu, 18 Jun 2026 07:34:58 GMT"), "2026-06-18T07:34:58.000Z")
    assert.strictEqual(feedTime("2026-06-18T16:42:40+05:00"), "2026-06-18T11:42:40.000Z")
    assert.isUndefined(feedTime("2026-06-18 16:42:40"))
    assert.isUndefined(feedTime(undefined))
    assert.strictEqual(plainText("<![CDATA[a <b>bold</b> & plain]]>"), "a bold & plain")
  })

  it("tags by ticker and by company name from the alias table; the exchange's own name is not a tag", () => {
    assert.deepStrictEqual(tag("OGDC Share Price Hits New Record High As Production Recovery Boosts Sentiment"), [
      "OGDC"
    ])
    assert.deepStrictEqual(tag("a petition filed by Meezan Bank Ltd challenging super tax"), ["MEBL"])
    // A recorded headline about the market: "PSX" is the exchange here, not the listed company.
    assert.deepStrictEqual(tag("Selling returns to PSX, benchmark index down over 400 points"), [])
    // "Pakistan Petroleum" without "Limited" is the country's petroleum as often as the company.
    assert.deepStrictEqual(tag("Petroleum prices rise"), [])
    assert.deepStrictEqual(tag("Pakistan Petroleum Imports Rise 5.76% in FY2025-26"), [])
  })

  it("a publisher's story and its Google News copy are one event, with both sources and the tags of either", () => {
    const items = [
      ...parseFeed(fixture("dawn-business.rss")).rows,
      ...parseFeed(fixture("google-news.rss")).rows,
      ...parseFeed(fixture("brecorder.atom")).rows
    ]
    const events = newsEvents(feedItemsOf(items, tag))
    assert.strictEqual(events.length, 4)
    const adb = events.find((e) => e.title === "ADB approves $700m loan for Pakistan's insurance sector")!
    assert.deepStrictEqual(adb.sources.map((s) => s.publisher).sort(), ["Dawn", "Dawn"])
    assert.strictEqual(adb.publishedAt, "2026-06-18T07:34:58.000Z")
    const ogdc = events.find((e) => e.symbols.includes("OGDC"))!
    assert.strictEqual(ogdc.sources[0]!.publisher, "ProPakistani")
    assert.deepStrictEqual(events.find((e) => e.title.startsWith("Islamabad High Court"))!.symbols, ["MEBL"])
  })
})
