/**
 * A strict, bounded reader of RFC 4180 comma-separated text, for files a user
 * uploads, over the one CSV reader (domain/Csv.ts, Effect's decoder). Quoted
 * fields with doubled quotes and commas inside; records end in CRLF or LF; a
 * leading byte-order mark is dropped. Whatever RFC 4180 does not allow, or a
 * bound refuses, is a problem naming its line (1-based, the header is line
 * 1), never a guess: a quote inside an unquoted field, text after a closing
 * quote, an unterminated quote, a bare CR, a line break inside a quoted cell
 * (no column of the ledger holds one), a byte-order mark past the start, a
 * cell, a row count or a column count over its bound. Rows whose cells are all
 * empty (a spreadsheet's blank lines) are skipped.
 */

import { type CsvSyntaxProblem, readCsv } from "../../Csv.ts"

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

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length

const syntaxMessage = (p: CsvSyntaxProblem, bounds: CsvBounds): string => {
  switch (p.kind) {
    case "quote in an unquoted cell":
      return `a quote inside unquoted cell ${p.cell} (quote the whole cell and double the quote)`
    case "text after a closing quote":
      return `text after the closing quote of cell ${p.cell}`
    case "unterminated quote":
      return "a quoted cell with no closing quote"
    case "record too long":
      return `a row over ${
        recordSize(bounds).toLocaleString("en")
      } characters (at most ${bounds.maxColumns} cells of ${bounds.maxCellLength})`
  }
}

/** The longest record the bounds allow: every cell at its longest, quoted, its quotes doubled. */
const recordSize = (bounds: CsvBounds) => bounds.maxColumns * (2 * bounds.maxCellLength + 3)

/** What the file's characters refuse before it is split into records: a byte-order mark past the start, a bare CR. */
const characterProblem = (text: string): CsvParse | undefined => {
  const bom = text.indexOf("\uFEFF")
  if (bom !== -1) {
    return problem(
      lineAt(text, bom),
      "a byte-order mark (U+FEFF) inside the file: only one, at the very start, is allowed"
    )
  }
  const cr = text.search(/\r(?!\n)/u)
  if (cr !== -1) {
    return problem(lineAt(text, cr), "a carriage return (CR) not followed by a line feed: lines end in CRLF or LF")
  }
  return undefined
}

/** What the bounds and the ledger's columns refuse in one record (none holds a line break). */
const recordProblem = (cells: ReadonlyArray<string>, bounds: CsvBounds): string | undefined => {
  if (cells.length > bounds.maxColumns) return `more than ${bounds.maxColumns} cells`
  const long = cells.findIndex((c) => c.length > bounds.maxCellLength)
  if (long !== -1) return `cell ${long + 1} is over ${bounds.maxCellLength} characters`
  if (cells.some((c) => /[\r\n]/u.test(c))) return "a line break inside a quoted cell (no column takes one)"
  return undefined
}

/** Parses `text` (already decoded) as a header and rows, within `bounds`. */
export const parseCsv = (input: string, bounds: CsvBounds): CsvParse => {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input
  const refused = characterProblem(text)
  if (refused !== undefined) return refused
  const read = readCsv(text, recordSize(bounds))
  if (read._tag === "Problem") return problem(read.line, syntaxMessage(read, bounds))
  const records: Array<CsvRow> = []
  // No record spans lines (a line break in a cell is refused at its record), so record i starts on line i + 1.
  for (let i = 0; i < read.records.length; i++) {
    const cells = read.records[i]!
    const wrong = recordProblem(cells, bounds)
    if (wrong !== undefined) return problem(i + 1, wrong)
    if (cells.some((c) => c !== "")) {
      records.push({ line: i + 1, cells })
      if (records.length > bounds.maxRows + 1) {
        return problem(i + 1, `more than ${bounds.maxRows.toLocaleString("en")} rows`)
      }
    }
  }
  const [header, ...rows] = records
  if (header === undefined) return problem(1, "the file is empty: the first line names the columns")
  return { _tag: "Ok", header: header.cells, rows }
}
