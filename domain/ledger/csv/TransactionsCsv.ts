/**
 * The portfolio as a spreadsheet: one row per event in the columns a user
 * reads (Columns.ts), and the answer of an import. A row is the transaction
 * body of POST /v1/me/transactions spelt as cells, so an import is decided by
 * the same decider and rules; `commandOf` gives a stored event's body, so an
 * exported row imports as the event it came from.
 *
 * Every text cell is quoted, and one starting with = + - @, a tab or a CR
 * gets a leading apostrophe the import drops again (Cells.ts): no cell starts
 * a formula, whatever separator a spreadsheet splits on. Numbers are bare.
 */
import { Schema } from "effect"
import { canonicalJson } from "../Chain.ts"
import type { Command } from "../Decider.ts"
import type { LedgerEvent, PortfolioEvent } from "../Events.ts"
import { numberCell, textCell } from "./Cells.ts"
import { COLUMNS, NUMBERS } from "./Columns.ts"
import type { Figures } from "./ExportFigures.ts"

export { type Column, columnOf, COLUMNS, IMPORT_LIMITS } from "./Columns.ts"

/** The body a stored event answers to (a reversal's `event_id` is the event it reverses). */
export const commandOf = (e: PortfolioEvent): Command => {
  switch (e.type) {
    case "TradeRecorded":
      return {
        kind: e.side,
        symbol: e.symbol,
        quantity: e.quantity,
        price: e.price,
        fees: e.fees,
        trade_date: e.trade_date
      }
    case "DividendRecorded":
      return {
        kind: "dividend",
        symbol: e.symbol,
        trade_date: e.trade_date,
        ...pick(e, ["book_closure_from", "per_share", "gross_amount", "tax_withheld", "filer"])
      }
    case "BonusRecorded":
      return {
        kind: "bonus",
        symbol: e.symbol,
        trade_date: e.trade_date,
        percent: e.percent,
        ...pick(e, ["book_closure_from"])
      }
    case "SplitRecorded":
      return {
        kind: "split",
        symbol: e.symbol,
        trade_date: e.trade_date,
        numerator: e.numerator,
        denominator: e.denominator
      }
    case "TaxStatusRecorded":
      return { kind: "tax_status", filer: e.filer, trade_date: e.trade_date }
    case "TransactionReversed":
      return { kind: "reversal", event_id: e.reverses, reason: e.reason }
  }
}

const pick = <T extends object, K extends keyof T>(o: T, keys: ReadonlyArray<K>): Partial<Pick<T, K>> =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<T, K>>

/** The cells of an event: its body's, a reversal's reversed trade date and symbol, a donation's date, amount and note. */
const cellsOf = (e: LedgerEvent, effectiveDate: string): Record<string, unknown> => {
  if (e.type === "DonationRecorded") {
    return { kind: "donation", trade_date: effectiveDate, amount: e.amount, note: e.note }
  }
  const body: Record<string, unknown> = { ...commandOf(e) }
  if (e.type !== "TransactionReversed") return body
  return { ...body, event_id: undefined, reverses: e.reverses, symbol: e.symbol, trade_date: e.trade_date }
}

/** An event's row: its cells, the figures the ledger computed for it, and its id. */
export const rowOf = (e: LedgerEvent, eventId: string, effectiveDate: string, figures: Figures = {}): string => {
  const cells: Record<string, unknown> = { ...cellsOf(e, effectiveDate), ...figures, event_id: eventId }
  return COLUMNS.map((c) => {
    const value = cells[c]
    if (value === undefined) return ""
    return NUMBERS.has(c) && typeof value === "number" ? numberCell(value) : textCell(String(value))
  }).join(",")
}

export const HEADER_LINE = COLUMNS.join(",")

/** Two bodies with this key record the same event: a row already recorded with the same content is skipped. */
export const contentKey = (body: Command): string => canonicalJson(body)

export interface CellProblem {
  readonly column: string
  readonly message: string
}

export const ImportRowError = Schema.Struct({
  line: Schema.Int.annotate({ description: "The file's line the row starts on (the header is line 1)" }),
  column: Schema.String.annotate({
    description: "The column at fault, as the file's header names it (kind when the whole row is)"
  }),
  message: Schema.String
})

export const ImportMapping = Schema.Struct({
  format: Schema.Literals(["ledger", "mapped"]).annotate({
    description:
      "ledger: the export's own columns (a header with a kind column); mapped: a broker's statement read by its headers"
  }),
  columns: Schema.Array(Schema.Struct({
    header: Schema.String.annotate({ description: "The header as the file writes it" }),
    reads_as: Schema.String.annotate({
      description: "The ledger column it fills; `fees (added)` for a charge added to the fees"
    })
  })),
  ignored: Schema.Array(Schema.String).annotate({
    description: "Headers matching no column: their cells are not read"
  }),
  date_order: Schema.optionalKey(
    Schema.Literals(["dmy", "mdy", "ymd"]).annotate({
      description: "How dates like 03/04/2026 were read: the date_order sent, or the one the file's own dates show"
    })
  )
}).annotate({
  description: "How the file's columns were read: show it, and keep it to check the next file of the same broker"
})

export const ImportResult = Schema.Struct({
  dry_run: Schema.Boolean,
  rows: Schema.Int.annotate({ description: "Data rows read (blank rows not counted)" }),
  recorded: Schema.Int.annotate({ description: "Events recorded (0 in a dry run)" }),
  skipped: Schema.Int.annotate({ description: "Rows already recorded with the same content, left as they are" }),
  mapping: ImportMapping,
  events: Schema.Array(Schema.Struct({
    line: Schema.Int,
    event_id: Schema.optionalKey(Schema.String.annotate({ description: "Absent in a dry run" })),
    type: Schema.String,
    payload: Schema.Unknown
  })).annotate({ description: "The events recorded, or in a dry run the events that would be, in file order" }),
  notes: Schema.Array(ImportRowError).annotate({
    description:
      "Rows read with a change the ledger needs, each said (a rate with more than two decimals, charges summed to the paisa)"
  }),
  errors: Schema.Array(ImportRowError).annotate({
    description: "Every refused row (a dry run only: otherwise a refused row is a 400)"
  })
})
