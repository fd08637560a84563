/**
 * At the parser level: every recorded CSV the pack
 * reads is read by its header. The header line of each file (cut unchanged
 * by scripts/cut-fixtures.ts into test/fixtures/psx/csv-headers.json) must
 * name a layout its reader knows; an unknown header stops the build naming
 * the file. 786R's file is the one in the layout date,open,high,low,close,volume.
 * Expected values are the recorded lines, read here by hand.
 */
import { assert, describe, it } from "@effect/vitest"
import { parseMarketSummary, parsePriceCsv } from "../../domain/psx/PriceCsv.ts"
import { type CsvReader, readPackCsv } from "../../scripts/pack-csv.ts"
import { readPsx } from "../support/Fixtures.ts"

type Headers = ReadonlyArray<{ readonly path: string; readonly reader: CsvReader; readonly header: string }>
const headers: Headers = JSON.parse(readPsx("csv-headers.json"))

/** The recorded line of `date` in a CSV, as a record keyed by the header's names (split by hand: no quotes in these files). */
const recordedLine = (text: string, date: string) => {
  const lines = text.split(/\r?\n/)
  const names = lines[0]!.split(",")
  const cells = lines.find((l) => l.startsWith(date))!.split(",")
  return Object.fromEntries(names.map((n, i) => [n, Number(cells[i])])) as Record<string, number>
}

describe("every recorded CSV the pack reads is read by its header", () => {
  it("each of the 717 files' header is a layout its reader knows (613 eod, 101 as traded, KSE-100, the market summary, the announcement export)", () => {
    assert.strictEqual(headers.length, 613 + 101 + 1 + 1 + 1)
    for (const f of headers) {
      assert.doesNotThrow(() => readPackCsv(f.path, `${f.header}\n`, f.reader), `${f.path}: header ${f.header}`)
    }
    assert.strictEqual(
      parseMarketSummary(`${headers.find((f) => f.reader === "market_summary")!.header}\n`).layout,
      "summary"
    )
    const layouts = new Map<string, Array<string>>()
    for (const f of headers.filter((f) => f.reader === "price")) {
      const layout = parsePriceCsv(`${f.header}\n`).layout!
      layouts.set(layout, [...(layouts.get(layout) ?? []), f.path.slice(f.path.lastIndexOf("/") + 1)])
    }
    assert.deepStrictEqual(layouts.get("ohlcv"), ["786R.csv"], "the eod recording's one OHLCV file")
    assert.deepStrictEqual(layouts.get("closes"), ["macro_kse100.csv"])
    assert.strictEqual(layouts.get("close_volume")?.length, 612)
    assert.strictEqual(
      layouts.get("ohlcv_change")?.length,
      101,
      "ChubsB's 100 symbols and its KSE100.csv (a header, no row)"
    )
  })

  it("an unknown header stops the read, naming the file; a known one in another column order reads by name", () => {
    assert.throws(
      () => readPackCsv("X/PRICE.csv", "date,price,volume\n2026-01-02,2.47,198132\n", "price"),
      /X\/PRICE\.csv: unknown CSV header "date,price,volume"/
    )
    assert.throws(
      () => readPackCsv("Y/announcements.csv", "symbol,title,pdf\nHUBC,x,y\n", "announcement_export"),
      /Y\/announcements\.csv: unknown CSV header/
    )
    const p = parsePriceCsv("volume,close,date\n198132,2.47,2026-01-02\n")
    assert.deepStrictEqual(p.rows, [{ date: "2026-01-02", close: 2.47, volume: 198132 }])
  })

  it("786R on 2026-01-02: close 2.47 and volume 198,132 with open 2.64, high 2.77, low 2.25 (not close 2.64, volume 2.77)", () => {
    const text = readPsx("I-Zaifa__psx-analyzer/data/csv/symbols/786R.csv")
    const line = recordedLine(text, "2026-01-02")
    const p = parsePriceCsv(text)
    assert.strictEqual(p.layout, "ohlcv")
    assert.strictEqual(p.rows.length, text.trim().split(/\r?\n/).length - 1)
    assert.deepStrictEqual(p.rows.find((r) => r.date === "2026-01-02"), {
      date: "2026-01-02",
      close: line["close"]!,
      open: line["open"]!,
      high: line["high"]!,
      low: line["low"]!,
      volume: line["volume"]!
    })
    assert.deepStrictEqual([line["close"], line["volume"]], [2.47, 198132])
  })

  it("the KSE-100 closes: 3,984 rows from 2010-01-04 to 2026-05-25", () => {
    const text = readPsx("I-Zaifa__psx-analyzer/data/csv/macro_kse100.csv")
    const p = parsePriceCsv(text)
    assert.strictEqual(p.layout, "closes")
    assert.strictEqual(p.rows.length, 3984)
    assert.deepStrictEqual(p.rows[0], { date: "2010-01-04", close: recordedLine(text, "2010-01-04")["close"]! })
    assert.deepStrictEqual(p.rows[p.rows.length - 1], {
      date: "2026-05-25",
      close: recordedLine(text, "2026-05-25")["close"]!
    })
    assert.deepStrictEqual(p.skipped, {})
  })
})
