/**
 * A strict, bounded reader of RFC 4180 comma-separated text, for files a user
 * uploads (domain/psx/Csv.ts is the lenient reader of the recordings). Quoted
 * fields with doubled quotes and commas inside; records end in CRLF or LF; a
 * leading byte-order mark is dropped. Whatever RFC 4180 does not allow, or a
 * bound refuses, is a problem naming its line (1-based, the header is line
 * 1), never a guess: a quote inside an unquoted field, text after a closing
 * quote, an unterminated quote, a bare CR, a line break inside a quoted cell
 * (no column of the ledger holds one), a byte-order mark past the start, a
 * cell, a row count or a column count over its bound. Rows whose cells are all
 * empty (a spreadsheet's blank lines) are skipped.
 */

export interface CsvBounds {
  /** Data rows, the header not counted. */
  readonly maxRows: number
  readonly maxColumns: number
  /** Characters in one cell. */
  readonly maxCellLength: number
}

export interface CsvRow {
  /** The line the row starts on (the header is line 1). */
  readonly line: number
  readonly cells: ReadonlyArray<string>
}

export type CsvParse =
  | { readonly _tag: "Ok"; readonly header: ReadonlyArray<string>; readonly rows: ReadonlyArray<CsvRow> }
  | { readonly _tag: "Problem"; readonly line: number; readonly message: string }

const problem = (line: number, message: string): CsvParse => ({ _tag: "Problem", line, message })

/** Reads one record from `i`: its cells and where the next begins, or the problem. */
const readRecord = (text: string, start: number, line: number, bounds: CsvBounds) => {
  const cells: Array<string> = []
  let i = start
  for (;;) {
    let cell = ""
    if (text[i] === "\"") {
      const close = closingQuote(text, i + 1)
      if (typeof close === "string") return { problem: close }
      cell = text.slice(i + 1, close).replaceAll("\"\"", "\"")
      i = close + 1
      if (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        return { problem: `text after the closing quote of cell ${cells.length + 1}` }
      }
    } else {
      let end = i
      while (end < text.length && text[end] !== "," && text[end] !== "\r" && text[end] !== "\n") end++
      cell = text.slice(i, end)
      if (cell.includes("\"")) return { problem: `a quote inside unquoted cell ${cells.length + 1} (quote the whole cell and double the quote)` }
      i = end
    }
    if (cell.length > bounds.maxCellLength) return { problem: `cell ${cells.length + 1} is over ${bounds.maxCellLength} characters` }
    cells.push(cell)
    if (cells.length > bounds.maxColumns) return { problem: `more than ${bounds.maxColumns} cells` }
    if (text[i] === ",") {
      i++
      continue
    }
    if (text[i] === "\r") {
      if (text[i + 1] !== "\n") return { problem: "a carriage return (CR) not followed by a line feed: lines end in CRLF or LF" }
      return { cells, next: i + 2, line: line + 1 }
    }
    return { cells, next: i + 1, line: line + 1 }
  }
}

/** The index of the quote closing a quoted cell that opened before `from`, or the problem. */
const closingQuote = (text: string, from: number): number | string => {
  let j = from
  for (;;) {
    const q = text.indexOf("\"", j)
    const brk = text.slice(j, q === -1 ? text.length : q).search(/[\r\n]/u)
    if (brk !== -1) return "a line break inside a quoted cell (no column takes one)"
    if (q === -1) return "a quoted cell with no closing quote"
    if (text[q + 1] === "\"") {
      j = q + 2
      continue
    }
    return q
  }
}

/** Parses `text` (already decoded) as a header and rows, within `bounds`. */
export const parseCsv = (input: string, bounds: CsvBounds): CsvParse => {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input
  const bom = text.indexOf("\uFEFF")
  if (bom !== -1) return problem(lineAt(text, bom), "a byte-order mark (U+FEFF) inside the file: only one, at the very start, is allowed")
  const records: Array<CsvRow> = []
  let i = 0
  let line = 1
  while (i < text.length) {
    const r = readRecord(text, i, line, bounds)
    if ("problem" in r) return problem(line, r.problem!)
    if (r.cells.some((c) => c !== "")) {
      records.push({ line, cells: r.cells })
      if (records.length > bounds.maxRows + 1) return problem(line, `more than ${bounds.maxRows.toLocaleString("en")} rows`)
    }
    i = r.next
    line = r.line
  }
  const [header, ...rows] = records
  if (header === undefined) return problem(1, "the file is empty: the first line names the columns")
  return { _tag: "Ok", header: header.cells, rows }
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length
