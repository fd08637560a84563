/**
 * The columns of the transactions CSV: the body of POST /v1/me/transactions
 * spelt as cells, a donation's amount and note, the figures the ledger
 * computes for a dividend or bonus (written by the export, not read back),
 * and the event id. Which columns each kind reads, and which hold numbers or
 * dates.
 */
import type { Command } from "../Decider.ts"

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
  "amount",
  "note",
  "shares",
  "dividend_gross",
  "dividend_tax",
  "dividend_net",
  "event_id"
] as const
export type Column = (typeof COLUMNS)[number]

/** The figures the ledger computes (shares entitled or credited, a dividend's rupees): written, never read. */
export const COMPUTED: ReadonlyArray<Column> = ["shares", "dividend_gross", "dividend_tax", "dividend_net"]

/** The bounds of an import: rows, bytes, one cell. */
export const IMPORT_LIMITS = { rows: 10_000, bytes: 2_000_000, cell: 1_000 } as const

/** The kinds of a row: a transaction's, and a donation. */
export type Kind = Command["kind"] | "donation"

/** Columns each kind reads (besides `kind` and `event_id`); a reversal's trade date and symbol are the reversed event's, shown only. */
export const FIELDS: Record<Kind, ReadonlyArray<Column>> = {
  buy: ["trade_date", "symbol", "quantity", "price", "fees"],
  sell: ["trade_date", "symbol", "quantity", "price", "fees"],
  dividend: ["trade_date", "symbol", "per_share", "gross_amount", "tax_withheld", "filer", "book_closure_from"],
  bonus: ["trade_date", "symbol", "percent", "book_closure_from"],
  split: ["trade_date", "symbol", "numerator", "denominator"],
  tax_status: ["trade_date", "filer"],
  reversal: ["trade_date", "symbol", "reverses", "reason"],
  donation: ["trade_date", "amount", "note"]
}

export const NUMBERS: ReadonlySet<Column> = new Set<Column>([
  "quantity",
  "price",
  "fees",
  "per_share",
  "gross_amount",
  "tax_withheld",
  "percent",
  "numerator",
  "denominator",
  "amount",
  "shares",
  "dividend_gross",
  "dividend_tax",
  "dividend_net"
])
export const DATES: ReadonlySet<Column> = new Set<Column>(["trade_date", "book_closure_from"])

/** A body field's column (the body's `event_id` of a reversal is the `reverses` column). */
export const columnOf = (field: string): Column | undefined =>
  field === "event_id" ? "reverses" : (COLUMNS as ReadonlyArray<string>).includes(field) ? field as Column : undefined
