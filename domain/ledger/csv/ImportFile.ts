/**
 * A parsed upload read whole: its header mapped (Mapping.ts), every row the
 * header's width, no read cell that would run as a spreadsheet formula (a
 * number, negative or not, is not one, nor a lone dash), one date order for
 * the file, then each row read (ImportRows.ts). What refuses the file is a
 * problem naming its line.
 */
import { dateEvidence, type DateOrder, startsFormula } from "./Cells.ts"
import { DATES } from "./Columns.ts"
import { type Note, readRow, type RowRead } from "./ImportRows.ts"
import { mapHeader, type Mapping, type Overrides } from "./Mapping.ts"
import type { CsvRow } from "./Rfc4180.ts"

export interface FileRead {
  readonly mapping: Mapping
  readonly dateOrder?: DateOrder
  readonly rows: ReadonlyArray<{ readonly line: number; readonly read: RowRead }>
  readonly notes: ReadonlyArray<Note>
}
export interface FileProblem {
  readonly line: number
  /** The column at fault, as the header names it. */
  readonly column?: string
  readonly problem: string
}

const FORMULA = "a cell starting with =, +, -, @, a tab or a carriage return (other than a number) is a spreadsheet " +
  "formula and is refused (to mean the text, start the cell with an apostrophe)"

/** The first row of another width than the header, or with a read cell that starts a formula (ignored ones are not read). */
const shapeProblem = (
  rows: ReadonlyArray<CsvRow>,
  header: ReadonlyArray<string>,
  mapping: Mapping
): FileProblem | undefined => {
  for (const row of rows) {
    if (row.cells.length !== header.length) {
      return {
        line: row.line,
        problem: `the row has ${row.cells.length} cells, the header ${header.length} (ragged rows are refused)`
      }
    }
    const formula = mapping.fields.find((f) => startsFormula(row.cells[f.index]!))
    if (formula !== undefined) return { line: row.line, column: formula.header.slice(0, 40), problem: FORMULA }
  }
  return undefined
}

/** The order the file's dates like 03/04/2026 are in: the one asked for, else the one its other dates show. */
const dateOrderOf = (
  rows: ReadonlyArray<CsvRow>,
  mapping: Mapping,
  asked: DateOrder | undefined
): DateOrder | FileProblem | undefined => {
  if (asked !== undefined) return asked
  const seen: Partial<Record<"dmy" | "mdy" | "either", number>> = {}
  const dateIndexes = mapping.fields.filter((f) => f.field !== "charge" && DATES.has(f.field)).map((f) => f.index)
  for (const row of rows) {
    for (const i of dateIndexes) {
      const evidence = dateEvidence(row.cells[i] ?? "")
      if (evidence !== "none") seen[evidence] ??= row.line
    }
  }
  if (seen.dmy !== undefined && seen.mdy !== undefined) {
    return {
      line: Math.max(seen.dmy, seen.mdy),
      problem:
        `the file mixes day-first dates (line ${seen.dmy}) and month-first dates (line ${seen.mdy}): use one order`
    }
  }
  if (seen.dmy !== undefined) return "dmy"
  if (seen.mdy !== undefined) return "mdy"
  if (seen.either !== undefined) {
    return {
      line: seen.either,
      problem:
        "the dates are ambiguous (like 03/04/2026: 3 April or March 4): send date_order=dmy (day first) or date_order=mdy (month first)"
    }
  }
  return undefined
}

/** The file's rows as read, or the problem that refuses it. */
export const readFile = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<CsvRow>,
  asked: DateOrder | undefined,
  overrides?: Overrides
): FileRead | FileProblem => {
  const mapped = mapHeader(header, overrides)
  if ("problem" in mapped) return { line: 1, problem: mapped.problem }
  const { mapping } = mapped
  const shape = shapeProblem(rows, header, mapping)
  if (shape !== undefined) return shape
  const order = dateOrderOf(rows, mapping, asked)
  if (typeof order === "object") return order
  const notes: Array<Note> = []
  const read = rows.map((row) => {
    const found: Array<Omit<Note, "line">> = []
    const result = readRow(row.cells, mapping, order, found)
    notes.push(...found.map((n) => ({ line: row.line, ...n })))
    return { line: row.line, read: result }
  })
  return { mapping, ...(order !== undefined ? { dateOrder: order } : {}), rows: read, notes }
}
