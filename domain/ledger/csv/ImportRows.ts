/**
 * An uploaded file's rows as transaction bodies (the draft the import plan
 * decides) or donations, by its header's mapping (Mapping.ts). Cells are read
 * as spreadsheets and brokers write them (Cells.ts): dates in the file's date
 * order, numbers with separators, buy and sell in any case, the charges added
 * to the fees. A rate with more than two decimals is recorded as the price to
 * the paisa (down for a buy, up for a sale) with the difference times the
 * quantity added to the fees, so price × quantity ± fees is the broker's
 * amount; the fees are rounded to the paisa once; either change is a note.
 */
import { Schema } from "effect"
import { DonationBody, TaxStatusBody } from "../Schemas.ts"
import {
  type DateOrder,
  decimalsOf,
  readDate,
  readDecimal,
  readKind,
  restoreText,
  toUnits,
  UNITS_PER_PAISA
} from "./Cells.ts"
import { type Column, COMPUTED, DATES, FIELDS, type Kind, NUMBERS } from "./Columns.ts"
import type { Mapping } from "./Mapping.ts"
import type { CellProblem } from "./TransactionsCsv.ts"

export interface Donation {
  readonly trade_date: string
  readonly amount: number
  readonly note?: string
}

/** A row as read: a transaction body (with the file's event id), a donation, or the row's first problem. */
export type RowRead =
  | { readonly body: Record<string, unknown>; readonly eventId?: string }
  | { readonly donation: Donation }
  | CellProblem

export interface Note {
  readonly line: number
  readonly column: string
  readonly message: string
}

type Cells = ReadonlyArray<string>

const DonationRow = Schema.Struct({
  trade_date: TaxStatusBody.fields.trade_date,
  amount: DonationBody.fields.amount,
  note: DonationBody.fields.note
})

const parseValue = (
  column: Column,
  value: string,
  order: DateOrder | undefined
): string | number | boolean | CellProblem => {
  if (NUMBERS.has(column)) {
    const d = readDecimal(value)
    return "ok" in d ? Number(d.ok) : { column, message: d.problem }
  }
  if (DATES.has(column)) {
    const d = readDate(value, order)
    return "ok" in d ? d.ok : { column, message: d.problem }
  }
  if (column === "filer") {
    const v = value.trim().toLowerCase()
    return v === "true" ? true : v === "false" ? false : { column, message: "true or false" }
  }
  return value
}

/** The charges and a rate's extra decimals folded into price and fees (see the module comment), or a problem. */
const tradeMoney = (
  body: Record<string, unknown>,
  price: string | undefined,
  charges: ReadonlyArray<string>,
  notes: Array<Omit<Note, "line">>
): CellProblem | undefined => {
  let fees = 0n
  for (const c of charges) {
    const d = readDecimal(c)
    if ("problem" in d) return { column: "fees", message: d.problem }
    if (toUnits(d.ok) < 0n) {
      return { column: "fees", message: `${JSON.stringify(c.trim())}: a charge cannot be negative` }
    }
    fees += toUnits(d.ok)
  }
  const quantity = body["quantity"]
  if (
    price !== undefined && decimalsOf(price) > 2 && typeof quantity === "number" && Number.isSafeInteger(quantity) &&
    quantity > 0
  ) {
    const rate = toUnits(price)
    const floor = rate / UNITS_PER_PAISA
    const paisa = body["kind"] === "sell" && rate % UNITS_PER_PAISA !== 0n ? floor + 1n : floor
    const extra = (rate - paisa * UNITS_PER_PAISA) * BigInt(quantity)
    fees += extra < 0n ? -extra : extra
    body["price"] = Number(paisa) / 100
    notes.push({
      column: "price",
      message: `rate ${price} recorded as price ${
        Number(paisa) / 100
      }, the difference times the quantity added to the fees`
    })
  }
  if (charges.length === 0 && fees === 0n) return undefined
  const rounded = (fees + UNITS_PER_PAISA / 2n) / UNITS_PER_PAISA
  if (rounded * UNITS_PER_PAISA !== fees) {
    notes.push({ column: "fees", message: `fees of ${Number(fees) / 1e8} rounded to ${Number(rounded) / 100}` })
  }
  body["fees"] = Number(rounded) / 100
  return undefined
}

const donationOf = (body: Record<string, unknown>): RowRead => {
  const decoded = Schema.decodeUnknownExit(DonationRow)(body)
  if (decoded._tag === "Success") return { donation: decoded.value }
  const missing = ["trade_date", "amount"].find((c) => body[c] === undefined)
  return missing !== undefined
    ? { column: missing, message: `a donation row needs ${missing}` }
    : {
      column: "amount",
      message:
        "a donation is rupees above 0 and at most 10,000,000 with two decimals at most, and a note of at most 500 characters"
    }
}

/** One row's cells as read (see the module comment); `notes` gains what was changed. */
export const readRow = (
  cells: Cells,
  mapping: Mapping,
  order: DateOrder | undefined,
  notes: Array<Omit<Note, "line">>
): RowRead => {
  // In a broker's statement a lone dash is an empty cell.
  const blank = (value: string) => (mapping.format === "mapped" && value.trim() === "-" ? "" : value)
  const fieldCells = mapping.fields.map((f) => ({ field: f.field, value: blank(restoreText(cells[f.index] ?? "")) }))
  const kind = readKind(fieldCells.find((f) => f.field === "kind")?.value ?? "")
  if (!(kind in FIELDS)) {
    return {
      column: "kind",
      message: `kind ${JSON.stringify(kind.slice(0, 20))} is not one of ${Object.keys(FIELDS).join(", ")}`
    }
  }
  const fields = FIELDS[kind as Kind]
  const body: Record<string, unknown> = { kind }
  const charges: Array<string> = []
  let price: string | undefined
  for (const { field, value } of fieldCells) {
    if (value.trim() === "" || field === "kind" || field === "event_id" || COMPUTED.includes(field as Column)) continue
    const column: Column = field === "charge" ? "fees" : field
    if (!fields.includes(column)) return { column, message: `not a field of a ${kind} row: leave it empty` }
    if (kind === "reversal" && (column === "trade_date" || column === "symbol")) continue
    if (column === "fees") {
      charges.push(value)
      continue
    }
    const parsed = parseValue(column, value, order)
    if (typeof parsed === "object") return parsed
    if (column === "price") {
      const d = readDecimal(value)
      price = "ok" in d ? d.ok : undefined
    }
    body[column === "reverses" ? "event_id" : column] = parsed
  }
  // A broker may write a sale's quantity as negative: the side says it is a sale.
  if (kind === "sell" && typeof body["quantity"] === "number" && body["quantity"] < 0) {
    body["quantity"] = -body["quantity"]
  }
  if (kind === "buy" || kind === "sell") {
    const problem = tradeMoney(body, price, charges, notes)
    if (problem !== undefined) return problem
  }
  if (kind === "donation") return donationOf(body)
  const eventId = fieldCells.find((f) => f.field === "event_id")?.value ?? ""
  return eventId === "" ? { body } : { body, eventId }
}
