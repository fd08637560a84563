/**
 * The portfolio as a spreadsheet: one row per event, in the columns a user
 * reads (trade date, kind, symbol, quantity, price, fees, then each kind's own
 * fields, then the event id), and back. A row is the transaction body of
 * POST /v1/me/transactions spelt as cells, so an import is decided by the same
 * decider and rules; `commandOf` gives a stored event's body, so an exported
 * row imports as the event it came from.
 *
 * Exported cells never start a formula: a cell beginning with = + - @, a tab
 * or a carriage return gets a leading apostrophe (OWASP's advice on CSV
 * injection). On import a cell so prefixed loses the apostrophe, and a cell
 * that starts a formula without it refuses the file.
 */
import { Schema } from "effect"
import { canonicalJson } from "../Chain.ts"
import type { Command } from "../Decider.ts"
import type { PortfolioEvent } from "../Events.ts"

export const COLUMNS = [
  "trade_date",
  "kind",
  "symbol",
  "quantity",
  "price",
  "fees",
  "per_share",
  "gross_amount",
  "tax_withheld",
  "filer",
  "book_closure_from",
  "percent",
  "numerator",
  "denominator",
  "reverses",
  "reason",
  "event_id"
] as const
export type Column = (typeof COLUMNS)[number]

/** The bounds of an import: rows, bytes, one cell. */
export const IMPORT_LIMITS = { rows: 10_000, bytes: 2_000_000, cell: 1_000 } as const

/** Columns each kind reads (besides `kind` and `event_id`); a reversal's trade date and symbol are the reversed event's, shown only. */
const FIELDS: Record<Command["kind"], ReadonlyArray<Column>> = {
  buy: ["trade_date", "symbol", "quantity", "price", "fees"],
  sell: ["trade_date", "symbol", "quantity", "price", "fees"],
  dividend: ["trade_date", "symbol", "per_share", "gross_amount", "tax_withheld", "filer", "book_closure_from"],
  bonus: ["trade_date", "symbol", "percent", "book_closure_from"],
  split: ["trade_date", "symbol", "numerator", "denominator"],
  tax_status: ["trade_date", "filer"],
  reversal: ["trade_date", "symbol", "reverses", "reason"]
}
const NUMBERS = new Set<Column>(["quantity", "price", "fees", "per_share", "gross_amount", "tax_withheld", "percent", "numerator", "denominator"])

/** A body field's column (the body's `event_id` of a reversal is the `reverses` column). */
export const columnOf = (field: string): Column | undefined =>
  field === "event_id" ? "reverses" : (COLUMNS as ReadonlyArray<string>).includes(field) ? field as Column : undefined

const FORMULA_START = /^[=+\-@\t\r]/u

/** A cell as a spreadsheet shows it: formula starts neutralised, quoted when it holds a comma, quote or line break. */
export const csvCell = (value: string): string => {
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/u.test(safe) ? `"${safe.replaceAll("\"", "\"\"")}"` : safe
}

/** The body a stored event answers to (a reversal's `event_id` is the event it reverses). */
export const commandOf = (e: PortfolioEvent): Command => {
  switch (e.type) {
    case "TradeRecorded":
      return { kind: e.side, symbol: e.symbol, quantity: e.quantity, price: e.price, fees: e.fees, trade_date: e.trade_date }
    case "DividendRecorded":
      return {
        kind: "dividend",
        symbol: e.symbol,
        trade_date: e.trade_date,
        ...pick(e, ["book_closure_from", "per_share", "gross_amount", "tax_withheld", "filer"])
      }
    case "BonusRecorded":
      return { kind: "bonus", symbol: e.symbol, trade_date: e.trade_date, percent: e.percent, ...pick(e, ["book_closure_from"]) }
    case "SplitRecorded":
      return { kind: "split", symbol: e.symbol, trade_date: e.trade_date, numerator: e.numerator, denominator: e.denominator }
    case "TaxStatusRecorded":
      return { kind: "tax_status", filer: e.filer, trade_date: e.trade_date }
    case "TransactionReversed":
      return { kind: "reversal", event_id: e.reverses, reason: e.reason }
  }
}

const pick = <T extends object, K extends keyof T>(o: T, keys: ReadonlyArray<K>): Partial<Pick<T, K>> =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<T, K>>

/** An event's row: its body's cells, a reversal's reversed trade date and symbol, and the event id. */
export const rowOf = (e: PortfolioEvent, eventId: string): string => {
  const body: Record<string, unknown> = { ...commandOf(e) }
  const cells: Record<string, unknown> = { ...body, event_id: eventId }
  if (body["kind"] === "reversal" && e.type === "TransactionReversed") {
    Object.assign(cells, { reverses: e.reverses, symbol: e.symbol, trade_date: e.trade_date })
  }
  return COLUMNS.map((c) => csvCell(cells[c] === undefined ? "" : String(cells[c]))).join(",")
}

export const HEADER_LINE = COLUMNS.join(",")

/** Two bodies with this key record the same event: a row already recorded with the same content is skipped. */
export const contentKey = (body: Command): string => canonicalJson(body)

/** What a header holds: each known column's index, or the problem with it. */
export const readHeader = (header: ReadonlyArray<string>): { readonly index: ReadonlyMap<Column, number> } | { readonly problem: string } => {
  const index = new Map<Column, number>()
  for (const [i, raw] of header.entries()) {
    const name = raw.trim()
    const column = (COLUMNS as ReadonlyArray<string>).includes(name) ? name as Column : undefined
    if (column === undefined) return { problem: `unknown column ${JSON.stringify(name.slice(0, 40))} (columns: ${COLUMNS.join(", ")})` }
    if (index.has(column)) return { problem: `column ${column} appears twice` }
    index.set(column, i)
  }
  if (!index.has("kind")) return { problem: "no kind column: the header names the columns, kind among them" }
  return { index }
}

export interface CellProblem {
  readonly column: Column
  readonly message: string
}

/** A cell that would run as a formula in a spreadsheet (its column), when the row has one. */
export const formulaCell = (cells: ReadonlyArray<string>, index: ReadonlyMap<Column, number>): Column | undefined =>
  [...index].find(([, i]) => FORMULA_START.test(cells[i] ?? ""))?.[0]

const unescape = (cell: string) => (/^'[=+\-@\t\r]/u.test(cell) ? cell.slice(1) : cell)

const DECIMAL = /^\d{1,13}(\.\d{1,8})?$/u

/** A row's cells as a transaction body (decoded by the caller with the body's Schema), or its first problem. */
export const bodyOfRow = (
  cells: ReadonlyArray<string>,
  index: ReadonlyMap<Column, number>
): { readonly body: Record<string, unknown>; readonly eventId?: string } | CellProblem => {
  const cell = (c: Column) => unescape(cells[index.get(c) ?? -1] ?? "")
  const kind = cell("kind").trim()
  if (!(kind in FIELDS)) return { column: "kind", message: `kind ${JSON.stringify(kind.slice(0, 20))} is not one of ${Object.keys(FIELDS).join(", ")}` }
  const fields = FIELDS[kind as Command["kind"]]
  const body: Record<string, unknown> = { kind }
  for (const column of COLUMNS) {
    const value = cell(column)
    if (value === "" || column === "kind" || column === "event_id") continue
    if (!fields.includes(column)) return { column, message: `not a field of a ${kind} row: leave it empty` }
    if (kind === "reversal" && (column === "trade_date" || column === "symbol")) continue
    const parsed = parseCell(column, value)
    if (typeof parsed === "object") return parsed
    body[column === "reverses" ? "event_id" : column] = parsed
  }
  const eventId = cell("event_id")
  return eventId === "" ? { body } : { body, eventId }
}

const parseCell = (column: Column, value: string): string | number | boolean | CellProblem => {
  if (NUMBERS.has(column)) {
    return DECIMAL.test(value) ? Number(value) : { column, message: `${JSON.stringify(value.slice(0, 20))} is not a decimal number (digits and one point)` }
  }
  if (column === "filer") {
    const v = value.toLowerCase()
    return v === "true" ? true : v === "false" ? false : { column, message: "true or false" }
  }
  return value
}

export const ImportRowError = Schema.Struct({
  line: Schema.Int.annotate({ description: "The file's line the row starts on (the header is line 1)" }),
  column: Schema.String.annotate({ description: "The column at fault (kind when the whole row is)" }),
  message: Schema.String
})

export const ImportResult = Schema.Struct({
  dry_run: Schema.Boolean,
  rows: Schema.Int.annotate({ description: "Data rows read (blank rows not counted)" }),
  recorded: Schema.Int.annotate({ description: "Events recorded (0 in a dry run)" }),
  skipped: Schema.Int.annotate({ description: "Rows already recorded with the same content, left as they are" }),
  events: Schema.Array(Schema.Struct({
    line: Schema.Int,
    event_id: Schema.optionalKey(Schema.String.annotate({ description: "Absent in a dry run" })),
    type: Schema.String,
    payload: Schema.Unknown
  })).annotate({ description: "The events recorded, or in a dry run the events that would be, in file order" }),
  errors: Schema.Array(ImportRowError).annotate({ description: "Every refused row (a dry run only: otherwise a refused row is a 400)" })
})
