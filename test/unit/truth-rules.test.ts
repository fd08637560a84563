/**
 * the ex day of a payout, and the dated rule tables
 * (price limits, settlement) of domain/market/calendar/Rules.ts, on recorded payouts
 * and prices (uzairbukhari MEBL payouts page; I-Zaifa /timeseries/eod slice
 * of MEBL in test/fixtures/series).
 */
import { assert, describe, it } from "@effect/vitest"
import {
  circuitBounds,
  lastBuyDate,
  nextSessionBounds,
  settlementDays,
  xdDate
} from "../../domain/market/calendar/Calendar.ts"
import { priceLimitRules, settlementRules } from "../../domain/market/calendar/Rules.ts"
import { dividendRows, type PayoutRecord, trailing } from "../../domain/market/filings/Dividends.ts"
import { faceValueOn } from "../../domain/market/filings/FaceValues.ts"
import { beyondLimit, priceLimitPct } from "../../domain/market/prices/PriceSteps.ts"
import { parseCompanyPayouts, parseMarketPayouts } from "../../domain/psx/Filings.ts"
import { readPsx } from "../support/Fixtures.ts"
import { loadSeries } from "../support/SeriesFixture.ts"

const toRecords = (rows: ReturnType<typeof parseCompanyPayouts>["rows"]): ReadonlyArray<PayoutRecord> =>
  rows.map((r) => ({
    symbol: r.symbol,
    details: r.details,
    kind: r.parts[0]!.kind,
    ...(r.parts[0]!.percent !== undefined ? { percent: r.parts[0]!.percent } : {}),
    ...(r.periodEnd ? { periodEnd: r.periodEnd } : {}),
    ...(r.periodType ? { periodType: r.periodType } : {}),
    ...(r.bookClosureFrom ? { bookClosureFrom: r.bookClosureFrom } : {}),
    ...(r.announcedAt ? { announcedAt: r.announcedAt } : {})
  }))
const mebl =
  parseCompanyPayouts("MEBL", readPsx("uzairbukhari__psx-portfolio/tests/fixtures/psx-mebl-payouts.html")).rows
const records: ReadonlyArray<PayoutRecord> = mebl.map((r) => ({
  symbol: r.symbol,
  details: r.details,
  kind: r.parts[0]!.kind,
  ...(r.bookClosureFrom ? { bookClosureFrom: r.bookClosureFrom } : {}),
  ...(r.announcedAt ? { announcedAt: r.announcedAt } : {})
}))

describe("4. ex_dividend is the XD day (xd_date), not the book-closure start (ex_date, SPEC 2.3)", () => {
  it("MEBL 70% (F), book closure from 2025-08-27: last buy 2025-08-22 (T+2), XD 2025-08-25, where the eod close fell 409.19 → 396.42", () => {
    const row = dividendRows(records, undefined, 12).find((r) => r.book_closure_from === "2025-08-27")!
    assert.deepStrictEqual([row.last_buy_date, row.xd_date, row.ex_date], ["2025-08-22", "2025-08-25", "2025-08-27"])
    const s = loadSeries("MEBL-eod-2025-2026.json", "2026-05-25")
    const i = s.dates.indexOf("2025-08-25")
    assert.deepStrictEqual([s.dates[i - 1], s.close[i - 1], s.close[i]], ["2025-08-22", 409.19, 396.42])
    // The closure start (08-27) is two sessions later and shows no such drop (391.24 → 394.97).
    assert.isAbove(s.close[s.dates.indexOf("2025-08-27")]!, s.close[s.dates.indexOf("2025-08-26")]!)
  })

  it("under T+1 (MEBL 80% (ii), closure from 2026-08-19): XD 2026-08-18, the day after the last buy date 2026-08-17", () => {
    assert.deepStrictEqual([lastBuyDate("2026-08-19"), xdDate("2026-08-19")], ["2026-08-17", "2026-08-18"])
  })
})

describe("7. one dated table per rule, kept only from its sourced date", () => {
  it("Steps (step detection) and Calendar (circuit bounds) read the same limit on every day from 2017 to 2026", () => {
    for (let t = Date.parse("2017-12-01"); t <= Date.parse("2026-12-31"); t += 86_400_000) {
      const d = new Date(t).toISOString().slice(0, 10)
      const pct = priceLimitPct(d)
      const b = circuitBounds(1000, d)
      assert.strictEqual(b === undefined ? undefined : Math.round(b.upper - 1000) / 10, pct, d)
    }
    // 27 May 2024 starts the step-up (8%), 22 Jul 2024 reaches 10%; the two old copies disagreed here.
    assert.deepStrictEqual(["2024-05-24", "2024-05-27", "2024-07-19", "2024-07-22"].map(priceLimitPct), [
      7.5,
      8,
      9.5,
      10
    ])
  })

  it("no rule before its first sourced date: no price limit before 2017-12-07, no settlement cycle before 2020-09-03", () => {
    assert.isUndefined(priceLimitPct("2004-01-20"))
    assert.isFalse(beyondLimit(52.05, 30, "2004-01-20"), "nothing is detected without a rule")
    assert.isUndefined(settlementDays("2019-06-03"))
    assert.strictEqual(settlementDays("2020-09-03"), 2)
    assert.isUndefined(lastBuyDate("2019-06-10"))
    assert.isUndefined(xdDate("2019-06-10"))
    for (const table of [priceLimitRules, settlementRules]) {
      assert.deepStrictEqual(
        table.map((r) => r.from),
        [...table.map((r) => r.from)].sort().reverse(),
        "newest first, one row per date"
      )
      assert.isTrue(table.every((r) => r.source.length > 0))
    }
  })

  it("bounds name the session they apply to: the next trading day, not the next calendar day", () => {
    // OGDC's last recorded close, Mon 2026-05-25 → Tue 2026-05-26.
    assert.strictEqual(nextSessionBounds(300, "2026-05-25")?.session, "2026-05-26")
    // Tue 2026-05-26 → Eid-ul-Azha 27–29 May and the weekend → Mon 2026-06-01.
    assert.strictEqual(nextSessionBounds(300, "2026-05-26")?.session, "2026-06-01")
    // A Friday close → Monday.
    assert.strictEqual(nextSessionBounds(300, "2026-05-22")?.session, "2026-05-25")
  })
})

describe("6. trailing dividends bounded by the record; face value only from a sourced record", () => {
  const luck = toRecords(
    parseMarketPayouts(readPsx("afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/payouts_sample.html")).rows
  )
    .filter((r) => r.symbol === "LUCK")

  it("LUCK 250% (F), closure 2026-08-18 (afireseeker /payouts page): Rs 5 on its Rs 2 face value (split 28 Apr 2025); 200% of Sep 2025 = Rs 4", () => {
    assert.strictEqual(faceValueOn("LUCK", "2025-04-18")?.rupees, 10)
    assert.isUndefined(faceValueOn("LUCK", "2025-04-23"), "suspended for the change: no face value claimed")
    assert.isUndefined(faceValueOn("HUBC", "2026-01-01"), "no sourced record: unknown, never Rs 10")
    // MEBL's record: the news of 6 Aug 2026 says "declares Rs8 dividend" for the payout PSX lists as "80(ii) (D)".
    assert.strictEqual(faceValueOn("MEBL", "2026-08-18")?.rupees, 8 / 0.8)
    const rows = dividendRows(luck, (d) => faceValueOn("LUCK", d)?.rupees, undefined)
    assert.deepStrictEqual(rows.map((r) => [r.book_closure_from, r.percent, r.amount_per_share]), [
      ["2026-08-18", 250, 5],
      ["2025-09-19", 200, 4]
    ])
    // The recording gives no period for LUCK's rows: no fiscal year or period label is invented.
    assert.isTrue(rows.every((r) => r.fiscal_year === undefined && r.period_label === undefined))
  })

  it("MEBL on 2026-11-23 (payouts recorded to 2026-08-10): the window ends 2026-08-10, not today; years_paid is over the 2 covered years", () => {
    const rows = dividendRows(toRecords(mebl), undefined, 12)
    const t = trailing(rows, "2026-11-23", "2025-03-24", undefined, "2026-08-10")
    assert.deepStrictEqual([t.ttm_from, t.ttm_to], ["2025-08-10", "2026-08-10"])
    const inWindow = rows.filter((r) => r.kind === "cash" && r.xd_date! > "2025-08-10" && r.xd_date! <= "2026-08-10")
    assert.strictEqual(t.ttm_dividend_percent, inWindow.reduce((n, r) => n + r.percent!, 0))
    assert.deepStrictEqual([t.years_covered, t.years_paid], [2, 2])
  })
})
