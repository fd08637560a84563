/**
 * Which column of the ledger each header of an uploaded file reads as. A
 * header with a `kind` column is the ledger's own format (the export's
 * columns, read strictly: any other column refuses the file). Any other
 * header is a broker's statement: each header is matched, ignoring case,
 * spaces and punctuation, against the names brokers use (Date, Type, Symbol,
 * Scrip, Qty, Rate, Commission, CDC…), the client's own mapping first;
 * commission and every other charge column add up to the fees; a header
 * matching none is ignored and listed.
 */
import { type Column, COLUMNS, COMPUTED } from "./Columns.ts"

/** A header's meaning: a ledger column, or a charge added to the fees. */
export type Field = Column | "charge"

export interface Mapping {
  readonly format: "ledger" | "mapped"
  /** Each read header, by its index in the file. */
  readonly fields: ReadonlyArray<{ readonly index: number; readonly header: string; readonly field: Field }>
  readonly ignored: ReadonlyArray<string>
}

/**
 * The ledger's own names a broker's header may use: not the computed figures, nor a donation's amount and note (in
 * a broker's statement "Amount" is a trade's value and "Shares" its quantity).
 */
const OWN_NAMES = COLUMNS.filter((c) => !COMPUTED.includes(c) && c !== "amount" && c !== "note")

/** Normalised header → ledger column. */
const NAMES: Record<string, Field> = {
  ...Object.fromEntries(OWN_NAMES.map((c) => [c.replaceAll("_", ""), c])),
  date: "trade_date",
  tradingdate: "trade_date",
  transactiondate: "trade_date",
  txndate: "trade_date",
  dealdate: "trade_date",
  type: "kind",
  side: "kind",
  buysell: "kind",
  bs: "kind",
  transactiontype: "kind",
  txntype: "kind",
  tradetype: "kind",
  action: "kind",
  scrip: "symbol",
  script: "symbol",
  scripcode: "symbol",
  scriptcode: "symbol",
  ticker: "symbol",
  stock: "symbol",
  security: "symbol",
  securitycode: "symbol",
  symbolcode: "symbol",
  qty: "quantity",
  shares: "quantity",
  volume: "quantity",
  units: "quantity",
  noofshares: "quantity",
  rate: "price",
  tradeprice: "price",
  traderate: "price",
  avgrate: "price",
  averagerate: "price",
  avgprice: "price",
  averageprice: "price",
  pricepershare: "price",
  ratepershare: "price",
  fee: "fees",
  commission: "charge",
  comm: "charge",
  brokerage: "charge",
  brokeragecommission: "charge",
  cdc: "charge",
  cdccharges: "charge",
  cdcfee: "charge",
  cvt: "charge",
  sst: "charge",
  salestax: "charge",
  fed: "charge",
  laga: "charge",
  secp: "charge",
  secpfee: "charge",
  secplevy: "charge",
  nccpl: "charge",
  nccplcharges: "charge",
  psxfee: "charge",
  charges: "charge",
  othercharges: "charge",
  otherfees: "charge"
}

/** The broker header names the mapping knows, by the column they read as (for the OpenAPI description). */
export const KNOWN_NAMES = NAMES

const normalised = (header: string) => header.trim().toLowerCase().replace(/[^a-z0-9]/gu, "")

/** A client's own reading of some headers (the `mapping` query parameter): a column, a charge, or ignored. */
export type Overrides = ReadonlyMap<string, Field | "ignore">

/** How the answer names a charge, and a client may send it back. */
export const CHARGE_NAME = "fees (added)"
const MAX_OVERRIDES = 40

/** A `mapping` parameter (a JSON object of header → column, "fees (added)" or "ignore"), or why it is refused. */
export const readOverrides = (json: string): { readonly overrides: Overrides } | { readonly problem: string } => {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return { problem: "not JSON: send an object of header → column, e.g. {\"Instrument\":\"symbol\"}" }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: "an object of header → column" }
  }
  const entries = Object.entries(value)
  if (entries.length > MAX_OVERRIDES) return { problem: `at most ${MAX_OVERRIDES} headers` }
  const overrides = new Map<string, Field | "ignore">()
  for (const [header, column] of entries) {
    const field = column === CHARGE_NAME
      ? "charge"
      : column === "ignore"
      ? "ignore"
      : OWN_NAMES.find((c) => c === column)
    if (field === undefined || header.length > 100) {
      return {
        problem: `${JSON.stringify(header.slice(0, 40))}: ${
          JSON.stringify(String(column).slice(0, 40))
        } is not one of ${OWN_NAMES.join(", ")}, ${CHARGE_NAME}, ignore`
      }
    }
    overrides.set(header.trim(), field)
  }
  return { overrides }
}

/** The header's own reading: the client's, the ledger's column (its own format), or the broker names'. */
const fieldOf = (name: string, ledger: boolean, overrides: Overrides): Field | "ignore" | undefined =>
  overrides.get(name) ??
    (ledger
      ? ((COLUMNS as ReadonlyArray<string>).includes(name) ? name as Column : undefined)
      : NAMES[normalised(name)])

/**
 * The header's mapping, or why the file is refused. With overrides the file is read as a broker's statement, and
 * every header they name must be in it (a statement whose columns changed is refused, not misread).
 */
export const mapHeader = (
  header: ReadonlyArray<string>,
  overrides: Overrides = new Map()
): { readonly mapping: Mapping } | { readonly problem: string } => {
  const names = header.map((h) => h.trim())
  const missing = [...overrides.keys()].find((h) => !names.includes(h))
  if (missing !== undefined) {
    return { problem: `the mapping names a column ${JSON.stringify(missing.slice(0, 40))} the file does not have` }
  }
  const ledger = overrides.size === 0 && names.includes("kind")
  const fields: Array<Mapping["fields"][number]> = []
  const ignored: Array<string> = []
  for (const [index, name] of names.entries()) {
    const field = fieldOf(name, ledger, overrides)
    if (field === undefined && ledger) {
      return { problem: `unknown column ${JSON.stringify(name.slice(0, 40))} (columns: ${COLUMNS.join(", ")})` }
    }
    if (field === undefined || field === "ignore") {
      ignored.push(name)
      continue
    }
    const twin = fields.find((f) => f.field === field && field !== "charge")
    if (twin !== undefined) {
      return {
        problem: ledger
          ? `column ${field} appears twice`
          : `columns ${JSON.stringify(twin.header)} and ${
            JSON.stringify(name.slice(0, 40))
          } both read as ${field}: rename or remove one`
      }
    }
    fields.push({ index, header: name, field })
  }
  if (!fields.some((f) => f.field === "kind")) {
    return {
      problem:
        "no column says buy or sell: name it kind (the ledger's format) or Type, Side or Buy/Sell (a broker's statement)" +
        (ignored.length > 0
          ? `; columns not recognised: ${ignored.slice(0, 8).map((h) => JSON.stringify(h.slice(0, 30))).join(", ")}`
          : "")
    }
  }
  return { mapping: { format: ledger ? "ledger" : "mapped", fields, ignored } }
}

/** The file's header a ledger column was read from (the first, for fees), for naming a cell at fault. */
export const headerOf = (mapping: Mapping, column: string): string =>
  mapping.fields.find((f) => f.field === column)?.header ?? (column === "fees"
    ? mapping.fields.find((f) => f.field === "charge")?.header
    : undefined) ??
    column
