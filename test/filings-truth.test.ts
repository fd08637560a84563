/**
 * Issue 34, items 2-4, on the vendored recordings (test/fixtures/research and
 * test/fixtures/psx) and through the API over the bundled pack: a date-only
 * filing is served as its Karachi date with no invented time; `revoked`
 * comes only from the portal's REVOKED marker; the essashahid filings
 * inventory is served, filings answers say their coverage, and two filings
 * of one day and title with different documents are two filings. Expected
 * values are read from the recordings here, independently of the parsers.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import {
  parseAnnouncementExport,
  parseCompanyPageAnnouncements,
  parseFilingsInventory
} from "../domain/psx/CompanyAnnouncements.ts"
import { csvRecords } from "../domain/psx/Csv.ts"
import { parseAnnouncements } from "../domain/psx/Filings.ts"
import { readPsx } from "./support/Fixtures.ts"
import type { ItemOf } from "./support/ReplyTypes.ts"
import { assertOk, get, SharedTestApp } from "./support/TestApp.ts"

const fixture = (f: string) => readFileSync(new URL(`./fixtures/research/${f}`, import.meta.url), "utf8")
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
/** "Oct 27, 2025" → 2025-10-27, read here independently of the parser. */
const isoOf = (date: string) => {
  const m = /^(\w{3})\w* (\d{1,2}), (\d{4})/.exec(date.trim())!
  return `${m[3]}-${String(MONTHS.indexOf(m[1]!.toLowerCase()) + 1).padStart(2, "0")}-${m[2]!.padStart(2, "0")}`
}
const documentId = (url: string) => /\/(\d+)\.pdf$/.exec(url)![1]!

const exportRows = csvRecords(fixture("announcements_ABOT_AIRLINK.csv"))
const withdrawals = csvRecords(fixture("announcements_withdrawals_MQTM.csv"))
const FRAGMENT = "afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/announcements_sample.html"
/** The fragment's rows as raw HTML, each with its document id (read by hand from the recording's markup). */
const fragmentRows = readPsx(FRAGMENT).split("<tr>").slice(1).map((tr) => ({
  id: /(?:data-images="|\/)(\d+)(?:-\d+)?\.(?:gif|pdf)"/.exec(tr)![1]!,
  html: tr
}))
const marked = fragmentRows.filter((r) => />\s*REVOKED\s*</.test(r.html)).map((r) => r.id)

interface InventoryFiling {
  readonly title: string
  readonly date: string
  readonly url: string
}
const inventory = JSON.parse(fixture("filings-inventory.json")) as {
  entries: Record<string, { ticker: string; interim: InventoryFiling | null; annual: InventoryFiling | null }>
}
const inventoryFilings = Object.values(inventory.entries).flatMap((e) =>
  [e.interim, e.annual].filter((f): f is InventoryFiling => f !== null).map((f) => ({ symbol: e.ticker, ...f }))
)
/** Ids the issue names as live filings wrongly marked revoked; TRG 256274 is on TRG's company page. */
const WITHDRAWAL_IDS = ["264823", "262335", "264879", "268908", "268862"]

describe("filing parsers", () => {
  it("a date-only filing keeps its Karachi date and carries no time (AIRLINK 263491 of 27 Oct 2025)", () => {
    const parsed = parseAnnouncementExport(fixture("announcements_ABOT_AIRLINK.csv"))
    const raw = exportRows.find((r) => r["pdf_url"]!.endsWith("/263491.pdf"))!
    const a = parsed.rows.find((r) => r.id === "263491")!
    assert.strictEqual(a.publishedOn, isoOf(raw["headline"]!))
    assert.strictEqual(a.publishedOn, "2025-10-27")
    assert.notProperty(a, "publishedAt")
    assert.isTrue(parsed.rows.every((r) => r.publishedAt === undefined))
  })

  it("a portal row with a time keeps its instant and its Karachi date (HUBC 281033, Aug 11, 2026 3:22 PM)", () => {
    const html = readPsx("yasir-a__psx-data/tests/fixtures/announcements_hubc.html")
    const a = parseAnnouncements(html).rows.find((r) => r.id === "281033")!
    assert.strictEqual(a.publishedOn, "2026-08-11")
    assert.strictEqual(a.publishedAt, "2026-08-11T10:22:00.000Z", "3:22 PM at UTC+5")
  })

  it("revoked only under the portal's REVOKED marker; its title is shown without the marker", () => {
    assert.deepStrictEqual(marked, ["281016"])
    const rows = parseAnnouncements(readPsx(FRAGMENT)).rows
    assert.deepStrictEqual(rows.filter((r) => r.revoked).map((r) => r.id), marked)
    assert.strictEqual(rows.find((r) => r.id === "281016")!.title, "Board Meeting")
    // Titles that speak of a withdrawal carry no marker in the recordings: live filings.
    const exported = parseAnnouncementExport(fixture("announcements_withdrawals_MQTM.csv")).rows
    for (const id of WITHDRAWAL_IDS) {
      assert.match(withdrawals.find((r) => r["pdf_url"]!.endsWith(`/${id}.pdf`))!["headline"]!, /Withdrawal/)
      assert.isFalse(exported.find((r) => r.id === id)!.revoked, id)
    }
    const trgPage = fixture("TRG_psx_announcements.html")
    assert.notMatch(trgPage, /REVOKED/)
    const trg = parseCompanyPageAnnouncements("TRG", trgPage).rows.find((r) => r.id === "256274")!
    assert.match(trg.title, /^Withdrawal of Civil Suit/)
    assert.isFalse(trg.revoked)
  })

  it("the filings inventory: 79 filings of 43 symbols, each dated by the exchange's day, none with a time", () => {
    const parsed = parseFilingsInventory(inventory)
    assert.strictEqual(inventoryFilings.length, 79)
    assert.strictEqual(parsed.rows.length, 79)
    for (const f of inventoryFilings) {
      const a = parsed.rows.find((r) => r.id === documentId(f.url))!
      assert.deepStrictEqual([a.symbol, a.publishedOn, a.title, a.documentUrl], [
        f.symbol,
        isoOf(f.date),
        f.title,
        f.url
      ])
      assert.notProperty(a, "publishedAt")
    }
  })
})

/** 11:00 in Karachi on Monday 23 November 2026. */
const NOW = "2026-11-23T06:00:00.000Z"

layer(SharedTestApp(NOW), { timeout: 600_000, excludeTestServices: true })(
  "filings through the API",
  (it) => {
    it.effect("AIRLINK 263491 is served as 2025-10-27 with no published_at; the day filter keeps it on that day only", () =>
      Effect.gen(function*() {
        const on = yield* get("/v1/announcements?symbol=AIRLINK&date_from=2025-10-27&date_to=2025-10-27")
        assertOk(on)
        const a = on.body.items.find((x) => x.id === "263491")
        assert.isDefined(a)
        assert.strictEqual(a.published_on, "2025-10-27")
        assert.notProperty(a, "published_at")
        assert.isTrue(on.body.items.every((x) => x.published_on === "2025-10-27"))
        const before = yield* get("/v1/announcements?symbol=AIRLINK&date_to=2025-10-26&limit=200")
        assertOk(before)
        assert.isFalse(before.body.items.some((x) => x.id === "263491"))
        // Newest first by date across the company's filings.
        const all = yield* get("/v1/announcements?symbol=AIRLINK&limit=200")
        assertOk(all)
        const days = all.body.items.map((x) => x.published_on)
        assert.deepStrictEqual(days, [...days].sort().reverse())
        const mine = exportRows.filter((r) => r["symbol"] === "AIRLINK" && r["pdf_url"] !== "").map((r) =>
          documentId(r["pdf_url"]!)
        )
        assert.includeMembers(all.body.items.map((x) => x.id), mine)
      }))

    it.effect("a timed portal filing keeps its time; date-only and timed filings page in one order", () =>
      Effect.gen(function*() {
        const hubc = yield* get("/v1/announcements/HUBC?limit=200")
        assertOk(hubc)
        const timed = hubc.body.items.find((x) => x.id === "281033")!
        assert.strictEqual(timed.published_at, "2026-08-11T10:22:00.000Z")
        assert.strictEqual(timed.published_on, "2026-08-11")
        assert.isTrue(
          hubc.body.items.some((x) => x.published_at === undefined),
          "HUBC's company-page filings carry a date only"
        )
        // Paging in threes returns the same filings in the same order as one page.
        const ids: Array<string> = []
        const pageAt = (c: string | null) => get(`/v1/announcements/HUBC?limit=3${c !== null ? `&cursor=${c}` : ""}`)
        let cursor: string | null = null
        do {
          const page: Effect.Success<ReturnType<typeof pageAt>> = yield* pageAt(cursor)
          assertOk(page)
          ids.push(...page.body.items.map((x) => x.id))
          cursor = page.body.next_cursor
        } while (cursor !== null)
        assert.deepStrictEqual(ids, hubc.body.items.map((x) => x.id))
      }))

    it.effect("revoked: the withdrawal filings are live, PICT 281016 under the REVOKED marker is revoked", () =>
      Effect.gen(function*() {
        const byId = new Map<string, { revoked: boolean }>()
        for (const symbol of ["ACPL", "CHCC", "ESBL", "AKDSL", "TRG", "PICT"]) {
          const r = yield* get(`/v1/announcements/${symbol}?limit=200`)
          assertOk(r)
          for (const x of r.body.items) byId.set(x.id, x)
        }
        for (const id of [...WITHDRAWAL_IDS, "256274"]) assert.isFalse(byId.get(id)?.revoked, id)
        assert.isTrue(byId.get("281016")?.revoked)
      }))

    it.effect("every filing of the essashahid inventory is served with its date and title; SIEM's coverage is recorded", () =>
      Effect.gen(function*() {
        for (const symbol of [...new Set(inventoryFilings.map((f) => f.symbol))]) {
          const r = yield* get(`/v1/announcements?symbol=${symbol}&limit=200`)
          assertOk(r)
          assert.strictEqual(r.body.coverage, "recorded", symbol)
          for (const f of inventoryFilings.filter((x) => x.symbol === symbol)) {
            const a: ItemOf<"/v1/announcements"> | undefined = r.body.items.find((x) => x.id === documentId(f.url))
            assert.isDefined(a, `${symbol} ${f.url}`)
            assert.strictEqual(a.published_on, isoOf(f.date), `${symbol} ${f.url}`)
            assert.strictEqual(a.title.toLowerCase(), f.title.toLowerCase())
          }
        }
        const siem = yield* get("/v1/announcements?symbol=SIEM")
        assertOk(siem)
        assert.includeMembers(siem.body.items.map((x) => `${x.id} ${x.published_on}`), [
          "277869 2026-05-29",
          "267636 2025-12-23"
        ])
        assert.include(siem.body.sources.map((s) => s.dataset), "announcements_filings_inventory")
        const bafl = yield* get("/v1/announcements?symbol=BAFL&date_from=2026-04-30&date_to=2026-04-30")
        assertOk(bafl)
        assert.include(bafl.body.items.map((x) => x.id), "276161")
      }))

    it.effect("no filing held: coverage unknown with a note, not an empty 'none'", () =>
      Effect.gen(function*() {
        // AKBLTFC6 is a term finance certificate: no recording lists a filing of it.
        const r = yield* get("/v1/announcements?symbol=AKBLTFC6")
        assertOk(r)
        assert.strictEqual(r.body.total, 0)
        assert.strictEqual(r.body.coverage, "unknown")
        assert.match(r.body.note ?? "", /unknown, not an absence/)
      }))

    it.effect("MQTM 263780 and 263785: one day, one title, two documents, two filings", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/announcements?symbol=MQTM&date_from=2025-10-28&date_to=2025-10-28")
        assertOk(r)
        const recorded = withdrawals.filter((x) => x["symbol"] === "MQTM").map((x) => documentId(x["pdf_url"]!))
        assert.deepStrictEqual(recorded.sort(), ["263780", "263785"])
        assert.includeMembers(r.body.items.map((x) => x.id), recorded)
      }))
  }
)
