/**
 * The CSV cells, header mapping and file reading of the transactions import
 * and export, as pure functions (no store). Synthetic test fixtures: every
 * file and cell here is made by hand; each expected value is worked beside it.
 */
import { assert, describe, it } from "@effect/vitest"
import { readDate, readDecimal, readKind, restoreText, startsFormula, textCell } from "../../domain/ledger/csv/Cells.ts"
import { readFile } from "../../domain/ledger/csv/ImportFile.ts"
import { mapHeader, readOverrides } from "../../domain/ledger/csv/Mapping.ts"

/** A quoted text cell's content (the export writes every text cell quoted). */
const unquoted = (cell: string) => cell.slice(1, -1).replaceAll("\"\"", "\"")
const rows = (...lines: ReadonlyArray<ReadonlyArray<string>>) => lines.map((cells, i) => ({ line: i + 2, cells }))

describe("transactions CSV cells", () => {
  it("a text cell never starts a formula, and the import gives back exactly the value", () => {
    // value → the cell's content: one more apostrophe only before (apostrophes and) = + - @ tab CR.
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["=1", "'=1"],
      ["'=1", "''=1"],
      ["''@x", "'''@x"],
      ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
      ["+1", "'+1"],
      ["\tx", "'\tx"],
      ["'abc", "'abc"],
      ["typo;=cmd", "typo;=cmd"],
      ["a\"b", "a\"b"]
    ]
    for (const [value, content] of cases) {
      const cell = textCell(value)
      assert.strictEqual(unquoted(cell), content, value)
      assert.isTrue(cell.startsWith("\"") && cell.endsWith("\""), `${value}: quoted`)
      assert.strictEqual(restoreText(unquoted(cell)), value, `${value}: the round trip`)
      assert.isFalse(startsFormula(unquoted(cell)), `${value}: no formula`)
    }
  })

  it("a number, negative or grouped, is not a formula; text after a sign is", () => {
    for (const n of ["-50", "+50", "-1,000.50", "1,00,000", "0.5", "-"]) assert.isFalse(startsFormula(n), n)
    for (const f of ["=1", "-2+3", "@SUM(1)", "--", "-1,0000", "+cmd", "\t1"]) assert.isTrue(startsFormula(f), f)
  })

  it("decimals: thousands and lakh separators, a sign, bounds", () => {
    assert.deepStrictEqual(readDecimal("1,000"), { ok: "1000" })
    assert.deepStrictEqual(readDecimal("\"1,00,000\"".slice(1, -1)), { ok: "100000" })
    assert.deepStrictEqual(readDecimal(" -50 "), { ok: "-50" })
    assert.deepStrictEqual(readDecimal("+215.425"), { ok: "215.425" })
    for (const bad of ["1,0000", "1.000,5", "12,34", "1e3", "0x10", "1.123456789", "99999999999999"]) {
      assert.isTrue("problem" in readDecimal(bad), bad)
    }
  })

  it("dates: ISO, day or month first as ordered, month names, a time dropped, two-digit years refused", () => {
    assert.deepStrictEqual(readDate("20/05/2026", "dmy"), { ok: "2026-05-20" })
    assert.deepStrictEqual(readDate("3/20/2023", "mdy"), { ok: "2023-03-20" })
    assert.deepStrictEqual(readDate("3/20/2023 0:00", "mdy"), { ok: "2023-03-20" })
    assert.deepStrictEqual(readDate("04.03.2026", "dmy"), { ok: "2026-03-04" })
    assert.deepStrictEqual(readDate("04.03.2026", "mdy"), { ok: "2026-04-03" })
    assert.deepStrictEqual(readDate("2026/5/20", undefined), { ok: "2026-05-20" })
    assert.deepStrictEqual(readDate("20-May-2026", undefined), { ok: "2026-05-20" })
    assert.deepStrictEqual(readDate("Sept 1, 2025", undefined), { ok: "2025-09-01" })
    assert.deepStrictEqual(readDate("05/05/2026", undefined), { ok: "2026-05-05" }, "day and month equal: either order")
    assert.include((readDate("20/05/26", "dmy") as { problem: string }).problem, "two-digit year")
    assert.include((readDate("31/02/2026", "dmy") as { problem: string }).problem, "no such date")
    assert.include((readDate("20/05/2026", "ymd") as { problem: string }).problem, "not year-first")
    assert.include((readDate("20-Mai-2026", undefined) as { problem: string }).problem, "not a date")
  })

  it("a broker's side in any case", () => {
    assert.deepStrictEqual(["BUY", "buy", "Buy", " b ", "Purchase", "SELL", "s", "Sold", "Dividend"].map(readKind), [
      "buy",
      "buy",
      "buy",
      "buy",
      "buy",
      "sell",
      "sell",
      "sell",
      "dividend"
    ])
  })
})

describe("transactions CSV header mapping", () => {
  it("a broker's headers read as the ledger's columns; charges add up; unknown headers are listed", () => {
    const mapped = mapHeader(["Date", "Type", "Scrip", "Qty", "Rate", "Commission", "CDC Charges", "Net Amount"])
    assert.isTrue("mapping" in mapped)
    if (!("mapping" in mapped)) return
    assert.strictEqual(mapped.mapping.format, "mapped")
    assert.deepStrictEqual(mapped.mapping.fields.map((f) => [f.header, f.field]), [
      ["Date", "trade_date"],
      ["Type", "kind"],
      ["Scrip", "symbol"],
      ["Qty", "quantity"],
      ["Rate", "price"],
      ["Commission", "charge"],
      ["CDC Charges", "charge"]
    ])
    assert.deepStrictEqual(mapped.mapping.ignored, ["Net Amount"])
    // A broker's "Shares" is the quantity, its "Amount" the trade's value (not a donation's amount): not read.
    const own = mapHeader(["Trade Date", "Buy/Sell", "Symbol", "Shares", "Price", "Amount", "Note"])
    assert.deepStrictEqual("mapping" in own && [own.mapping.fields.map((f) => f.field), own.mapping.ignored], [
      ["trade_date", "kind", "symbol", "quantity", "price"],
      ["Amount", "Note"]
    ])
  })

  it("the ledger's format stays strict; two headers for one column and no side refuse the file", () => {
    assert.deepStrictEqual(mapHeader(["kind", "notes"]), {
      problem: "unknown column \"notes\" (columns: " +
        "trade_date, kind, symbol, quantity, price, fees, per_share, gross_amount, tax_withheld, filer, book_closure_from, percent, numerator, denominator, reverses, reason, amount, note, shares, dividend_gross, dividend_tax, dividend_net, event_id)"
    })
    assert.include(
      (mapHeader(["Date", "Trade Date", "Type"]) as { problem: string }).problem,
      "both read as trade_date"
    )
    assert.include((mapHeader(["Date", "Symbol", "Qty"]) as { problem: string }).problem, "no column says buy or sell")
  })
  it("a client's mapping reads unknown headers, may ignore a known one, and must match the file", () => {
    const given = readOverrides(
      "{\"Dt\":\"trade_date\",\"Instrument\":\"symbol\",\"Px\":\"price\",\"Levy\":\"fees (added)\",\"Units\":\"ignore\"}"
    )
    if (!("overrides" in given)) return assert.fail(given.problem)
    const mapped = mapHeader(["Dt", "B/S", "Instrument", "Units", "Px", "Levy"], given.overrides)
    assert.deepStrictEqual(
      "mapping" in mapped && [mapped.mapping.fields.map((f) => [f.header, f.field]), mapped.mapping.ignored],
      [
        [["Dt", "trade_date"], ["B/S", "kind"], ["Instrument", "symbol"], ["Px", "price"], ["Levy", "charge"]],
        ["Units"]
      ]
    )
    assert.include((mapHeader(["Dt", "B/S"], given.overrides) as { problem: string }).problem, "the file does not have")
    assert.include((readOverrides("{\"Dt\":\"when\"}") as { problem: string }).problem, "\"when\" is not one of")
    assert.include((readOverrides("[1]") as { problem: string }).problem, "an object")
    assert.include((readOverrides("{") as { problem: string }).problem, "not JSON")
  })
})

describe("transactions CSV file reading", () => {
  const header = ["Date", "Type", "Symbol", "Qty", "Rate", "Commission", "CDC"]

  it("the file's dates decide the order; an ambiguous file needs date_order; a mixed one is refused", () => {
    const ambiguous = rows(["03/04/2026", "BUY", "HUBC", "10", "100", "", ""])
    assert.include((readFile(header, ambiguous, undefined) as { problem: string }).problem, "date_order=dmy")
    const asked = readFile(header, ambiguous, "dmy")
    assert.deepStrictEqual("rows" in asked && asked.rows[0]!.read, {
      body: { kind: "buy", trade_date: "2026-04-03", symbol: "HUBC", quantity: 10, price: 100 }
    })
    const dayFirst = readFile(
      header,
      rows(["03/04/2026", "buy", "HUBC", "10", "100", "", ""], ["20/05/2026", "sell", "HUBC", "5", "101", "", ""]),
      undefined
    )
    assert.strictEqual("rows" in dayFirst && dayFirst.dateOrder, "dmy")
    assert.strictEqual(
      "rows" in dayFirst && (dayFirst.rows[0]!.read as { body: Record<string, unknown> }).body["trade_date"],
      "2026-04-03"
    )
    const mixed = readFile(
      header,
      rows(["20/05/2026", "buy", "HUBC", "1", "1", "", ""], ["3/20/2026", "buy", "HUBC", "1", "1", "", ""]),
      undefined
    )
    assert.include(
      (mixed as { problem: string }).problem,
      "mixes day-first dates (line 2) and month-first dates (line 3)"
    )
  })

  it("a rate with three decimals: the price to the paisa, the rest in the fees, said in a note", () => {
    const file = readFile(
      header,
      rows(
        ["20/05/2026", "BUY", "HUBC", "1,000", "215.425", "150", "5.25"],
        ["21/05/2026", "Sell", "HUBC", "-500", "219.333", "100", ""],
        ["22/05/2026", "buy", "HUBC", "3", "100.005", "", ""]
      ),
      undefined
    )
    if (!("rows" in file)) return assert.fail(file.problem)
    // Buy: 215.425 → 215.42 (down); 1,000 × 0.005 = 5.00 added: fees 150 + 5.25 + 5.00 = 160.25.
    // Cost 215.42 × 1,000 + 160.25 = 215,580.25 = 215.425 × 1,000 + 155.25, the broker's amount.
    assert.deepStrictEqual(file.rows[0]!.read, {
      body: { kind: "buy", trade_date: "2026-05-20", symbol: "HUBC", quantity: 1000, price: 215.42, fees: 160.25 }
    })
    // Sale (quantity written negative): 219.333 → 219.34 (up); 500 × 0.007 = 3.50 added: fees 103.50.
    // Proceeds 219.34 × 500 − 103.50 = 109,566.50 = 219.333 × 500 − 100.
    assert.deepStrictEqual(file.rows[1]!.read, {
      body: { kind: "sell", trade_date: "2026-05-21", symbol: "HUBC", quantity: 500, price: 219.34, fees: 103.5 }
    })
    // 3 × 0.005 = 0.015: the fees rounded once, half up, to 0.02.
    assert.deepStrictEqual(file.rows[2]!.read, {
      body: { kind: "buy", trade_date: "2026-05-22", symbol: "HUBC", quantity: 3, price: 100, fees: 0.02 }
    })
    assert.deepStrictEqual(file.notes.map((n) => [n.line, n.column]), [[2, "price"], [3, "price"], [4, "price"], [
      4,
      "fees"
    ]])
  })

  it("a read cell that starts a formula refuses the file, naming its line and header; -50 does not", () => {
    const refused = readFile(header, rows(["20/05/2026", "buy", "=HUBC", "1", "1", "", ""]), undefined)
    assert.deepStrictEqual([("line" in refused) && refused.line, (refused as { column?: string }).column], [
      2,
      "Symbol"
    ])
    assert.isTrue("rows" in readFile(header, rows(["20/05/2026", "sell", "HUBC", "-50", "1", "", ""]), undefined))
    // An ignored column is not read, so not checked; a lone dash is a statement's empty cell.
    const remarks = readFile(
      [...header, "Remarks"],
      rows(["20/05/2026", "buy", "HUBC", "5", "1", "-", "-", "=cmd"]),
      undefined
    )
    assert.deepStrictEqual("rows" in remarks && remarks.rows[0]!.read, {
      body: { kind: "buy", trade_date: "2026-05-20", symbol: "HUBC", quantity: 5, price: 1 }
    })
  })
})
