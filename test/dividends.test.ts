/** Dividend rows, the ex-date repair and trailing figures on the recorded MEBL payouts, against hand computation. */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import {
  dividendRows,
  fiscalYearEndMonth,
  payoutPeriod,
  type PayoutRecord,
  repairExDate,
  trailing
} from "../domain/market/filings/Dividends.ts"
import { parseCompanyPayouts } from "../domain/psx/Filings.ts"
import { parsePayoutDetails } from "../domain/psx/PayoutNotation.ts"
import { readPsx } from "./support/Fixtures.ts"
import { bodyOf, get, SharedTestApp } from "./support/TestApp.ts"

const html = readPsx("uzairbukhari__psx-portfolio/tests/fixtures/psx-mebl-payouts.html")
const records: ReadonlyArray<PayoutRecord> = parseCompanyPayouts("MEBL", html).rows.flatMap((r) =>
  r.parts.map((p) => ({
    symbol: r.symbol,
    details: r.details,
    kind: p.kind,
    ...(p.percent !== undefined ? { percent: p.percent } : {}),
    ...(p.sequence ? { sequence: p.sequence } : {}),
    ...(r.announcedAt ? { announcedAt: r.announcedAt } : {}),
    ...(r.periodEnd ? { periodEnd: r.periodEnd } : {}),
    ...(r.periodType ? { periodType: r.periodType } : {}),
    ...(r.bookClosureFrom ? { bookClosureFrom: r.bookClosureFrom } : {}),
    ...(r.bookClosureTo ? { bookClosureTo: r.bookClosureTo } : {})
  }))
)

describe("MEBL dividend history (recorded)", () => {
  const fy = fiscalYearEndMonth(records)
  const rows = dividendRows(records, undefined, fy)

  it("fiscal year ends in December (from the YR rows); rows newest first keyed by fiscal year; xd_date is the XD day", () => {
    assert.strictEqual(fy, 12)
    assert.deepStrictEqual(rows.map((r) => [r.book_closure_from, r.xd_date, r.fiscal_year, r.period_end]), [
      ["2026-08-19", "2026-08-18", 2026, "2026-06-30"],
      ["2026-05-06", "2026-05-05", 2026, "2026-03-31"],
      // Eid 20–23 Mar 2026: last buy Thu 19 Mar (T+1 settles Tue 24 Mar), XD Tue 24 Mar.
      ["2026-03-25", "2026-03-24", 2025, "2025-12-31"],
      ["2025-11-05", "2025-11-03", 2025, "2025-09-30"],
      ["2025-08-27", "2025-08-25", 2025, "2025-06-30"],
      ["2025-05-02", "2025-04-29", 2025, "2025-03-31"],
      ["2025-03-24", "2025-03-20", 2024, "2024-12-31"]
    ])
  })

  it("SPEC 2.3: ex_date is the book closure's first day; the XD day is xd_date, beside last_buy_date", () => {
    // The recording: "80(ii) (D)", book closure 19/08/2026 – 20/08/2026. T+1 since 9 Feb 2026: a trade on Mon 17 Aug
    // settles Tue 18 Aug, before the closure; one on Tue 18 Aug settles on the 19th, too late. So the last buy date is
    // 17 Aug and the stock trades ex (XD) on Tue 18 Aug; the book closure, and so ex_date, starts on Wed 19 Aug.
    const row = rows.find((r) => r.details === "80(ii) (D)")!
    assert.deepStrictEqual(
      [row.ex_date, row.book_closure_from, row.book_closure_to, row.last_buy_date, row.xd_date, row.calendar_year],
      ["2026-08-19", "2026-08-19", "2026-08-20", "2026-08-17", "2026-08-18", 2026]
    )
    assert.isTrue(rows.every((r) => r.ex_date === r.book_closure_from))
  })

  it("no recorded closure precedes its announcement, so none is repaired", () => {
    assert.isTrue(rows.every((r) => r.ex_date_corrected === undefined))
  })

  it("without a known face value no rupee amount is invented", () => {
    assert.isTrue(rows.every((r) => r.amount_per_share === undefined))
    const t = trailing(rows, "2026-08-31", "2025-03-24", { price: 519.04, date: "2026-08-31" })
    assert.isUndefined(t.ttm_dividend_per_share)
    assert.isUndefined(t.ttm_dividend_yield_pct)
  })

  it("trailing 12 months to 2026-08-31: 70 + 70 + 75 + 80 = 295% of face value; paid in 2 of the last 5 years", () => {
    const t = trailing(rows, "2026-08-31", "2025-03-24", undefined)
    assert.strictEqual(t.ttm_dividend_percent, 295)
    assert.strictEqual(t.years_paid, 2)
  })

  it("with a face value (Rs 10, SYNTHETIC input, not a recorded figure) DPS is 29.5 and the yield at 519.04 is 5.6836%", () => {
    const t = trailing(dividendRows(records, 10, fy), "2026-08-31", "2025-03-24", { price: 519.04, date: "2026-08-31" })
    assert.strictEqual(t.ttm_dividend_per_share, 29.5)
    assert.strictEqual(t.ttm_dividend_yield_pct, Math.round((29.5 / 519.04) * 1_000_000) / 10_000)
  })

  it("a window that starts before the record does is not summed (a short record is not a stop in payments)", () => {
    const t = trailing(rows, "2026-01-15", "2025-03-24", undefined)
    assert.isUndefined(t.ttm_dividend_percent)
  })
})

describe("ex-date repair (SYNTHETIC rows shaped like the recorded ones)", () => {
  it("a closure dated before its own announcement gets its year repaired and keeps the published value", () => {
    assert.deepStrictEqual(repairExDate("2025-08-19", "2026-08-06T10:37:00.000Z"), {
      ex_date: "2026-08-19",
      ex_date_corrected: true,
      ex_date_as_published: "2025-08-19"
    })
    assert.deepStrictEqual(repairExDate("2026-08-19", "2026-08-06T10:37:00.000Z"), { ex_date: "2026-08-19" })
  })
})

/** MCB's payouts as the pack holds them from its company page of Sep 2025 (aabdullah27 MCB_psx.html). */
const mcb: ReadonlyArray<PayoutRecord> = (JSON.parse(
  readFileSync(join(import.meta.dirname, "../data/pack/payouts_company_pages_2025_09.json"), "utf8")
) as ReadonlyArray<Record<string, string>>).filter((r) => r["symbol"] === "MCB").map((r) => {
  const part = parsePayoutDetails(r["details"]!)[0]!
  return {
    symbol: "MCB",
    details: r["details"]!,
    kind: part.kind,
    ...(part.percent !== undefined ? { percent: part.percent } : {}),
    ...(part.sequence ? { sequence: part.sequence } : {}),
    ...(r["announcedAt"] ? { announcedAt: r["announcedAt"] } : {}),
    ...(r["periodEnd"] ? { periodEnd: r["periodEnd"] } : {}),
    ...(r["periodType"] ? { periodType: r["periodType"] } : {})
  }
})

describe("MCB payout labels (recorded): fiscal year, period and sequence agree", () => {
  const rows = dividendRows(mcb, undefined, fiscalYearEndMonth(mcb))

  it("\"60%(i)\" announced 27 Apr 2023 against \"31/12/2022(YR)\" is FY2023's first interim: the first quarter to 2023-03-31", () => {
    // The page's row: "April 27, 2023 4:33 PM | 31/12/2022(YR) | 60%(i) (D)". MCB's year ends in December (its finals
    // are for 31/12/2023 and 31/12/2024). An interim is not paid on a closed year: the quarter that had ended when it
    // was announced is the one to 31 Mar 2023, three months into FY2023.
    assert.strictEqual(fiscalYearEndMonth(mcb), 12)
    const row = rows.find((r) => r.details === "60%(i) (D)")!
    assert.deepStrictEqual(
      [row.fiscal_year, row.period_end, row.period_label, row.sequence, row.period_corrected, row.period_as_published],
      [2023, "2023-03-31", "first quarter to 2023-03-31", "interim-1", true, "2022-12-31 (annual)"]
    )
  })

  it("every other MCB row keeps its stated period: finals on years, interims on part-years, in sequence within each fiscal year", () => {
    const byYear = new Map<number, Array<string>>()
    for (const r of [...rows].reverse()) {
      byYear.set(r.fiscal_year!, [...(byYear.get(r.fiscal_year!) ?? []), `${r.sequence} ${r.period_label}`])
    }
    assert.deepStrictEqual(Object.fromEntries(byYear), {
      2023: [
        "interim-1 first quarter to 2023-03-31",
        "interim-2 half-year to 2023-06-30",
        "interim-3 nine months to 2023-09-30",
        "final annual to 2023-12-31"
      ],
      2024: [
        "interim-1 first quarter to 2024-03-31",
        "interim-2 half-year to 2024-06-30",
        "interim-3 nine months to 2024-09-30",
        "final annual to 2024-12-31"
      ],
      2025: ["interim-1 first quarter to 2025-03-31", "interim-2 half-year to 2025-06-30"]
    })
    assert.strictEqual(rows.filter((r) => r.period_corrected).length, 1)
  })

  it("SYNTHETIC: a final stated against a quarter takes the year end before its announcement (June year)", () => {
    const p = payoutPeriod({
      symbol: "X",
      details: "SYNTHETIC 50%(F) (D)",
      kind: "cash",
      sequence: "final",
      announcedAt: "2024-09-20T10:00:00.000Z",
      periodEnd: "2024-03-31",
      periodType: "IIIQ"
    }, 6)
    assert.deepStrictEqual([p.fiscal_year, p.period_end, p.period_label], [2024, "2024-06-30", "annual to 2024-06-30"])
  })
})

layer(SharedTestApp("2026-08-12T07:00:00.000Z"), { timeout: 300_000, excludeTestServices: true })(
  "served payouts",
  (it) => {
    it.effect("/v1/dividends/MCB serves 60%(i) of 27 Apr 2023 as FY2023's first interim; MEBL's 80%(ii) with ex_date, last buy and xd_date", () =>
      Effect.gen(function*() {
        const mcbRow = bodyOf(yield* get("/v1/dividends/MCB")).items.find((r) => r.details === "60%(i) (D)")!
        assert.deepInclude(mcbRow, {
          fiscal_year: 2023,
          period_end: "2023-03-31",
          period_label: "first quarter to 2023-03-31",
          sequence: "interim-1",
          period_corrected: true,
          period_as_published: "2022-12-31 (annual)"
        })
        const meblRow = bodyOf(yield* get("/v1/stocks/MEBL/dividends")).items.find((r) => r.details === "80(ii) (D)")!
        assert.deepInclude(meblRow, {
          ex_date: "2026-08-19",
          book_closure_from: "2026-08-19",
          last_buy_date: "2026-08-17",
          xd_date: "2026-08-18"
        })
        const open = bodyOf(yield* get("/v1/calendar/dividends")).items.find((p) => p.symbol === "MEBL")!
        assert.deepInclude(open, { ex_date: "2026-08-19", last_buy_date: "2026-08-17", xd_date: "2026-08-18" })
      }))
  }
)
