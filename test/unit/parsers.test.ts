/**
 * Every parser against the real recorded responses (vendored in test/fixtures/psx):
 * row counts equal what the recordings hold, and spot values equal the raw
 * cells (checked by eye against the files).
 */
import { assert, describe, it } from "@effect/vitest"
import { parseCompanyPage } from "../../domain/psx/CompanyPage.ts"
import { parseAnnouncements, parseCompanyPayouts, parseMarketPayouts } from "../../domain/psx/Filings.ts"
import {
  listedFromScreener,
  parseIndexConstituents,
  parseScreener,
  parseSectors,
  parseSymbols
} from "../../domain/psx/Listing.ts"
import { parseMarketSummary, parsePriceCsv } from "../../domain/psx/PriceCsv.ts"
import { parseEod, parseHistorical, parseMarketWatch } from "../../domain/psx/Prices.ts"
import { parseScreenerExport } from "../../domain/psx/ScreenerExport.ts"
import { readPsx } from "../support/Fixtures.ts"

const read = readPsx

describe("listing parsers", () => {
  it("GET /symbols: 1,029 instruments, 282 debt and 9 ETFs", () => {
    const p = parseSymbols(JSON.parse(read("mtauha__psxdata/tests/fixtures/symbols.json")))
    assert.strictEqual(p.rows.length, 1029)
    assert.strictEqual(p.rows.filter((r) => r.isDebt).length, 282)
    assert.strictEqual(p.rows.filter((r) => r.isEtf).length, 9)
    assert.deepStrictEqual(p.rows[0], {
      symbol: "AKBLTFC6",
      name: "Askari Bank(TFC6)",
      sectorName: "BILLS AND BONDS",
      isEtf: false,
      isDebt: true
    })
    assert.deepStrictEqual(p.skipped, {})
  })

  it("the 5-row symbols excerpt without isETF/isDebt reads as not ETF, not debt", () => {
    const p = parseSymbols(JSON.parse(read("yasir-a__psx-data/tests/fixtures/symbols.json")))
    assert.strictEqual(p.rows.length, 5)
    assert.isTrue(p.rows.every((r) => !r.isEtf && !r.isDebt))
  })

  it("GET /screener: 729 rows, numbers from data-order, a 0 P/E or 0 yield left out", () => {
    const p = parseScreener(read("mtauha__psxdata/tests/fixtures/screener.html"))
    assert.strictEqual(p.rows.length, 729)
    const first = p.rows[0]!
    assert.strictEqual(first.symbol, "786")
    assert.strictEqual(first.marketCap, 892213549.6899999)
    assert.strictEqual(first.price, 44.69)
    assert.strictEqual(first.changePct, -9.99)
    assert.strictEqual(first.freeFloatShares, 5240813)
    assert.strictEqual(first.volume30dAvg, 585040.77)
    assert.isUndefined(first.dividendYieldPct, "the recording shows 0.00: unknown, not zero")
    const hubc = p.rows.find((r) => r.symbol === "HUBC")!
    assert.strictEqual(hubc.peTtm, 14.092198581560284)
    assert.strictEqual(hubc.dividendYieldPct, 9.034239768723463)
    assert.include(hubc.listedIn, "KSE100")
  })

  it("GET /indices/KSE100: 100 constituents whose weights sum to about 100%", () => {
    const p = parseIndexConstituents(read("mtauha__psxdata/tests/fixtures/indices_KSE100.html"))
    assert.strictEqual(p.rows.length, 100)
    const abl = p.rows[0]!
    assert.deepStrictEqual(
      [abl.symbol, abl.ldcp, abl.current, abl.weightPct, abl.volume, abl.freeFloatShares],
      ["ABL", 173.84, 186.39, 0.44, 226586, 114507383]
    )
    const total = p.rows.reduce((s, r) => s + (r.weightPct ?? 0), 0)
    assert.isTrue(Math.abs(total - 100) < 0.5, `weights sum to ${total}`)
  })

  it("GET /indices/ALLSHR: 549 rows", () => {
    assert.strictEqual(
      parseIndexConstituents(read("mtauha__psxdata/tests/fixtures/indices_ALLSHR.html")).rows.length,
      549
    )
  })

  it("sector summary: the first table only, 37 sectors, entities decoded", () => {
    const p = parseSectors(read("mtauha__psxdata/tests/fixtures/sector_summary.html"))
    assert.strictEqual(p.rows.length, 37)
    assert.deepStrictEqual(p.rows[1], { code: "0802", name: "AUTOMOBILE PARTS & ACCESSORIES" })
  })
})

describe("price parsers", () => {
  it("POST /historical ENGRO: 2,162 rows, dates from the data-order epoch in Karachi", () => {
    const p = parseHistorical(read("mtauha__psxdata/tests/fixtures/historical_engro.html"))
    assert.strictEqual(p.rows.length, 2162)
    assert.deepStrictEqual(p.rows[0], {
      date: "2025-01-03",
      open: 481.99,
      high: 496,
      low: 474.01,
      close: 485.38,
      volume: 4496408
    })
    assert.strictEqual(p.rows[p.rows.length - 1]!.date, "2016-04-11")
  })

  it("POST /historical month mode: 3 rows with thousands separators", () => {
    const p = parseHistorical(read("umairsandhu__psx-dps/tests/fixtures/history_month.html"))
    assert.strictEqual(p.rows.length, 3)
    assert.deepStrictEqual(p.rows[0], {
      date: "2026-09-29",
      open: 637,
      high: 638.5,
      low: 629,
      close: 630.3,
      volume: 337455
    })
  })

  it("market watch: 3 rows, commented-out columns ignored", () => {
    const p = parseMarketWatch(read("umairsandhu__psx-dps/tests/fixtures/market_watch.html"))
    assert.strictEqual(p.rows.length, 3)
    const r = p.rows[0]!
    assert.deepStrictEqual([r.symbol, r.ldcp, r.current, r.change, r.changePct, r.volume], [
      "CNERGY",
      13.32,
      13.09,
      -0.23,
      -1.727,
      56532151
    ])
    assert.include(r.listedIn, "KSE100")
  })

  it("market summary 2021-01-21: every row, ex-markers split off the name", () => {
    const p = parseMarketSummary(read("nmnbkhr__psx_ohlcv/market_summary_2021-01-21.csv"))
    const lines = read("nmnbkhr__psx_ohlcv/market_summary_2021-01-21.csv").trim().split("\n").length - 1
    // Rows left out are counted by row reasons; a price of 0 left out of a kept row is counted apart.
    const rowsLeftOut = (p.skipped["unreadable row"] ?? 0) + (p.skipped["duplicate row"] ?? 0)
    assert.strictEqual(p.rows.length + rowsLeftOut, lines)
    const aabs = p.rows.find((r) => r.symbol === "AABS")!
    assert.deepStrictEqual([aabs.name, aabs.exMarkers, aabs.close, aabs.prevClose], [
      "AL-Abbas Sugar",
      ["XD"],
      348,
      349
    ])
    assert.deepStrictEqual(p.rows.find((r) => r.symbol === "AMBL")!.exMarkers, ["XR"])
  })

  it("the eod CSV recording: calendar dates from UTC timestamps, close and volume only", () => {
    const p = parsePriceCsv(read("I-Zaifa__psx-analyzer/data/csv/symbols/HUBC.csv"))
    assert.deepStrictEqual(p.rows[0], { date: "2021-05-26", close: 77.48, volume: 6033448 })
    assert.isUndefined(p.rows[0]!.open)
  })

  it("the as-traded OHLCV recording: the duplicate GADT date is counted, not kept", () => {
    const p = parsePriceCsv(read("ChubsB__KSE-100-Data/GADT.csv"))
    assert.strictEqual(p.skipped["duplicate date"], 1)
    const hubc = parsePriceCsv(read("ChubsB__KSE-100-Data/HUBC.csv"))
    assert.deepStrictEqual(hubc.rows[0], {
      date: "2004-01-01",
      open: 38.45,
      high: 39,
      low: 38.35,
      close: 38.5,
      volume: 22002000
    })
  })

  it("the eod JSON shape [epoch, close, volume, open]; an empty data array is no rows (SYNTHETIC fixture: no raw eod JSON was recorded)", () => {
    const p = parseEod({
      status: 1,
      message: "",
      data: [[1735902000, 485.38, 4496408, 481.99], [1735815600, 478.3, 3602326, 0]]
    })
    assert.deepStrictEqual(p.rows[0], { date: "2025-01-03", close: 485.38, volume: 4496408, open: 481.99 })
    assert.isUndefined(p.rows[1]!.open, "an open of 0 is not a price")
    assert.strictEqual(parseEod({ status: 1, message: "", data: [] }).rows.length, 0)
    assert.strictEqual(parseEod("<html>holiday</html>").rows.length, 0)
  })
})

describe("filing parsers", () => {
  it("POST /announcements for HUBC: 15 rows, document ids, image-only rows kept", () => {
    const p = parseAnnouncements(read("yasir-a__psx-data/tests/fixtures/announcements_hubc.html"))
    assert.strictEqual(p.rows.length, 15)
    const first = p.rows[0]!
    assert.strictEqual(first.id, "281033")
    assert.strictEqual(first.publishedAt, "2026-08-11T10:22:00.000Z", "3:22 PM Karachi")
    assert.isUndefined(first.documentUrl)
    assert.isTrue(p.rows.some((r) => r.title.startsWith("Credit of Third Interim Cash Dividend (D-59)")))
  })

  it("POST /announcements market-wide: 3 rows with entities decoded", () => {
    const p = parseAnnouncements(read("umairsandhu__psx-dps/tests/fixtures/announcements.html"))
    assert.strictEqual(p.rows.length, 3)
    assert.strictEqual(p.rows[0]!.documentUrl, "https://dps.psx.com.pk/download/document/283814.pdf")
  })

  it("the announcements fragment: 12 rows", () => {
    const p = parseAnnouncements(
      read("afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/announcements_sample.html")
    )
    assert.strictEqual(p.rows.length, 12)
  })

  it("MEBL company payouts: 7 rows; the row missing its % sign still reads as 80% 2nd interim cash", () => {
    const p = parseCompanyPayouts("MEBL", read("uzairbukhari__psx-portfolio/tests/fixtures/psx-mebl-payouts.html"))
    assert.strictEqual(p.rows.length, 7)
    assert.deepStrictEqual(p.rows[0], {
      symbol: "MEBL",
      details: "80(ii) (D)",
      parts: [{ kind: "cash", percent: 80, sequence: "interim-2" }],
      announcedAt: "2026-08-06T10:37:00.000Z",
      periodEnd: "2026-06-30",
      periodType: "HYR",
      bookClosureFrom: "2026-08-19",
      bookClosureTo: "2026-08-20"
    })
    assert.deepStrictEqual(p.rows.map((r) => r.periodType), ["HYR", "IQ", "YR", "IIIQ", "HYR", "IQ", "YR"])
  })

  it("market-wide payouts: LUCK 250% final cash with its sector", () => {
    const p = parseMarketPayouts(read("afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/payouts_sample.html"))
    assert.strictEqual(p.rows.length, 2)
    assert.deepStrictEqual([p.rows[0]!.symbol, p.rows[0]!.sectorName, p.rows[0]!.parts], ["LUCK", "CEMENT", [{
      kind: "cash",
      percent: 250,
      sequence: "final"
    }]])
  })

  it("the HBL company page: quote stats, equity, income lines in thousands, ratios with negatives in parentheses", () => {
    const c = parseCompanyPage(read("nmnbkhr__psx_ohlcv/hblpsx.txt"))
    assert.deepStrictEqual([c.name, c.sectorName, c.price, c.change, c.changePct], [
      "Habib Bank Limited",
      "COMMERCIAL BANKS",
      343.72,
      0.92,
      0.27
    ])
    assert.deepStrictEqual([c.circuitLow, c.circuitHigh, c.week52Low, c.week52High], [308.52, 377.08, 127.52, 369.99])
    assert.deepStrictEqual([c.shares, c.freeFloatShares, c.freeFloatPct, c.marketCapThousands], [
      1466852508,
      586741003,
      40,
      504186544.05
    ])
    assert.strictEqual(c.fiscalYearEnd, "December")
    const pat2024 = c.statements.find((s) => s.period === "2024" && s.line === "Profit after Taxation")!
    assert.deepStrictEqual([pat2024.value, pat2024.units, pat2024.periodType], [56765819, "thousands", "annual"])
    const q3 = c.statements.find((s) => s.period === "Q3 2025" && s.line === "EPS")!
    assert.deepStrictEqual([q3.value, q3.units, q3.quarter, q3.fiscalYear], [10.89, "rupees", 3, 2025])
    assert.strictEqual(c.ratios.find((r) => r.period === "2024" && r.name === "EPS Growth (%)")!.value, -0.15)
    assert.isFalse(c.statements.some((s) => /assets|liabilities|equity/i.test(s.line)), "no balance-sheet lines")
    assert.strictEqual(c.unreadable, 0)
  })
})

describe("zeros the recordings write for 'no figure' are absent; a day's volume of 0 is kept", () => {
  const summaryText = read("nmnbkhr__psx_ohlcv/market_summary_2021-01-21.csv")
  const august = JSON.parse(read("alihamza098__psx-stock-screener/data_snapshot.json")) as {
    data: ReadonlyArray<
      {
        symbol: string
        name: string
        sectorCode?: string
        freeFloat: number
        mcap: number
        volume: number
        change: number
      }
    >
  }

  it("market summary 2021-01-21, BAFLTFC6 (no trade): open/high/low 0.0 are absent, volume 0 and close 100.375 kept", () => {
    const lines = summaryText.split(/\r?\n/)
    const names = lines[0]!.split(",")
    const cells = lines.find((l) => l.includes(",BAFLTFC6,"))!.split(",")
    const raw = Object.fromEntries(names.map((n, i) => [n, cells[i]!]))
    assert.deepStrictEqual([raw["open"], raw["high"], raw["low"], raw["volume"], raw["close"]], [
      "0.0",
      "0.0",
      "0.0",
      "0",
      "100.375"
    ])
    const row = parseMarketSummary(summaryText).rows.find((r) => r.symbol === "BAFLTFC6")!
    assert.isUndefined(row.open)
    assert.isUndefined(row.high)
    assert.isUndefined(row.low)
    assert.deepStrictEqual([row.close, row.volume], [100.375, 0])
  })

  it("an as-traded row with a low of 0 keeps its close and leaves the low out, counted", () => {
    const p = parsePriceCsv(
      `"Date_","Open","High","Low","Close","Change","ChangeP","Volume"\n"2016-09-23T00:00:00.000Z",135,135.99,0,135,-1,-0.73,1900\n`
    )
    assert.deepStrictEqual(p.rows, [{ date: "2016-09-23", open: 135, high: 135.99, close: 135, volume: 1900 }])
    assert.deepStrictEqual(p.skipped, { "low of 0 (no figure)": 1 })
  })

  it("the August screener: the 81 free floats of 0 are absent; market caps of 0 too; a day's change of 0 is kept", () => {
    const zeroFloat = august.data.filter((d) => d.freeFloat === 0).map((d) => d.symbol)
    assert.strictEqual(zeroFloat.length, 81)
    const rows = new Map(parseScreenerExport(august).rows.map((r) => [r.symbol, r]))
    for (const s of zeroFloat) assert.isUndefined(rows.get(s)!.freeFloatShares, s)
    for (const d of august.data.filter((d) => d.mcap === 0)) assert.isUndefined(rows.get(d.symbol)!.marketCap, d.symbol)
    for (const d of august.data.filter((d) => d.change === 0)) {
      assert.strictEqual(rows.get(d.symbol)!.changePct, 0, d.symbol)
    }
    assert.isFalse([...rows.values()].some((r) => r.freeFloatShares === 0 || r.marketCap === 0 || r.price === 0))
    // AASM rose 10.79% that day yet shows a 30-day average volume of 0: that 0 is not a figure.
    const aasm = august.data.find((d) => d.symbol === "AASM")!
    assert.deepStrictEqual([aasm.volume, aasm.change > 0], [0, true])
    assert.isUndefined(rows.get("AASM")!.volume30dAvg)
  })

  it("the April screener: a free float, market cap or price of 0 is absent", () => {
    const p = parseScreener(read("mtauha__psxdata/tests/fixtures/screener.html"))
    assert.isFalse(p.rows.some((r) => r.freeFloatShares === 0 || r.marketCap === 0 || r.price === 0))
    assert.strictEqual(p.skipped["freeFloatShares of 0 (no figure)"], 83)
  })

  it("symbols listed after April: the 10 the August screener shows and the April listing lacks, with its name and sector", () => {
    const listing = parseSymbols(JSON.parse(read("mtauha__psxdata/tests/fixtures/symbols.json"))).rows
    const april = new Set(listing.map((s) => s.symbol))
    const expected = august.data.filter((d) => !april.has(d.symbol)).map((d) => d.symbol).sort()
    assert.strictEqual(expected.length, 10)
    const since = listedFromScreener(listing, parseScreenerExport(august).rows)
    assert.deepStrictEqual(since.rows.map((r) => r.symbol).sort(), expected)
    assert.includeMembers(expected, ["SLM", "SPSL", "SELECT"])
    const slm = august.data.find((d) => d.symbol === "SLM")!
    assert.deepStrictEqual(since.rows.find((r) => r.symbol === "SLM"), {
      symbol: "SLM",
      name: slm.name,
      sectorCode: slm.sectorCode!,
      isEtf: false,
      isDebt: false
    })
  })
})
