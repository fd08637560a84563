/**
 * One CSV cell, written and read: the formula guard of the export (OWASP's
 * CSV-injection advice, made reversible), and the numbers, dates and sides a
 * spreadsheet or a broker's statement writes. Pure; the caller names the line.
 */

/** What a spreadsheet runs as a formula when a cell starts with it. */
const FORMULA_START = /^[=+\-@\t\r]/u
/** A cell the export prefixed: apostrophes, then a formula start. */
const PREFIXED = /^'+[=+\-@\t\r]/u
/** A value the export prefixes: any apostrophes, then a formula start (so a value starting `'=` keeps its apostrophe). */
const NEEDS_PREFIX = /^'*[=+\-@\t\r]/u

const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/u
const GROUPED = /^[-+]?(\d{1,3}(,\d{3})+|\d{1,2}(,\d{2})*,\d{3})(\.\d+)?$/u

/** A number as a spreadsheet writes it (a sign, digits, one point; thousands or lakh separators): a number, not a formula. */
export const isNumberCell = (cell: string) => PLAIN_NUMBER.test(cell) || GROUPED.test(cell)

/**
 * Whether a cell would run as a spreadsheet formula: it starts with = + - @, a tab or a CR and is not a number, nor a
 * lone dash (a statement's "nothing here").
 */
export const startsFormula = (cell: string) => FORMULA_START.test(cell) && !isNumberCell(cell) && cell.trim() !== "-"

/**
 * A text value as the export writes it: quoted, and with one more leading apostrophe when it starts (after any
 * apostrophes) with = + - @, a tab or a CR. `restoreText` undoes it exactly; a value like `'abc` is left as it is.
 */
export const textCell = (value: string): string => {
  if (value === "") return ""
  const safe = NEEDS_PREFIX.test(value) ? `'${value}` : value
  return `"${safe.replaceAll("\"", "\"\"")}"`
}

/** A number as the export writes it: a plain decimal, bare (a negative one too: it is a number, not a formula). */
export const numberCell = (value: number | undefined): string => (value === undefined ? "" : String(value))

/** A cell as the import reads it: one leading apostrophe the export added is dropped (see `textCell`). */
export const restoreText = (cell: string): string => (PREFIXED.test(cell) ? cell.slice(1) : cell)

export type Read<A> = { readonly ok: A } | { readonly problem: string }

const MAX_INTEGER_DIGITS = 13
const MAX_DECIMALS = 8

/** A decimal cell (a sign, thousands or lakh separators, at most 8 decimals) as an exact decimal string, e.g. "-1000.5". */
export const readDecimal = (cell: string): Read<string> => {
  const text = cell.trim()
  if (!isNumberCell(text)) {
    return {
      problem: `${JSON.stringify(text.slice(0, 20))} is not a number (digits, one point, optional thousands separators)`
    }
  }
  const plain = text.replaceAll(",", "").replace(/^\+/u, "")
  const [whole = "", decimals = ""] = plain.replace(/^-/u, "").split(".")
  if (whole.replace(/^0+(?=\d)/u, "").length > MAX_INTEGER_DIGITS) {
    return { problem: `${JSON.stringify(text.slice(0, 20))} is too large` }
  }
  if (decimals.length > MAX_DECIMALS) {
    return { problem: `${JSON.stringify(text.slice(0, 20))} has more than ${MAX_DECIMALS} decimals` }
  }
  return { ok: plain }
}

/** A decimal string as an integer count of 10^-8 (exact). */
export const toUnits = (decimal: string): bigint => {
  const negative = decimal.startsWith("-")
  const [whole = "0", decimals = ""] = decimal.replace(/^-/u, "").split(".")
  const units = BigInt(whole) * 100_000_000n + BigInt(decimals.padEnd(MAX_DECIMALS, "0"))
  return negative ? -units : units
}
export const UNITS_PER_PAISA = 1_000_000n

/** The number of decimals a decimal string is written with. */
export const decimalsOf = (decimal: string) => decimal.split(".")[1]?.length ?? 0

export type DateOrder = "dmy" | "mdy" | "ymd"

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
const YEAR_FIRST = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/u
const YEAR_LAST = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/u
const SHORT_YEAR = /^\d{1,2}[-/.](\d{1,2}|[a-z]{3,9})[-/.]\d{2}$/iu
const DAY_MONTH_NAME = /^(\d{1,2})[-/. ]([a-z]{3,9})[-/., ]+(\d{4})$/iu
const MONTH_NAME_DAY = /^([a-z]{3,9})[-/. ](\d{1,2})[-/., ]+(\d{4})$/iu
/** A time after the date (a spreadsheet's re-save, a broker's execution time): the trade date is the date. */
const TIME_PART = /[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?( ?[ap]m)?$/iu

/** How a numeric date's first two parts could be read: day first, month first, either (both ≤ 12), or none. */
export type DateEvidence = "dmy" | "mdy" | "either" | "none"

const dateText = (cell: string) => cell.trim().replace(TIME_PART, "").trim()

/** What a date cell says about the file's order (only dates like 03/04/2026 need one). */
export const dateEvidence = (cell: string): DateEvidence => {
  const m = YEAR_LAST.exec(dateText(cell))
  if (m === null) return "none"
  const [a, b] = [Number(m[1]), Number(m[2])]
  if (a === b) return "none"
  return a > 12 ? "dmy" : b > 12 ? "mdy" : "either"
}

const iso = (y: number, m: number, d: number): Read<string> => {
  const date = new Date(Date.UTC(y, m - 1, d))
  if (m < 1 || m > 12 || date.getUTCDate() !== d || date.getUTCMonth() !== m - 1) {
    return { problem: `no such date (year ${y}, month ${m}, day ${d})` }
  }
  return { ok: `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}` }
}
const monthOf = (name: string) => {
  const i = MONTHS.indexOf(name.slice(0, 3).toLowerCase())
  return i === -1 ||
      !"january february march april may june july august september october november december".split(" ")[i]!
        .startsWith(name.toLowerCase())
    ? undefined
    : i + 1
}

/**
 * A date cell as YYYY-MM-DD: ISO and other year-first dates; 20/05/2026 or 5/20/2026 (with / - or .) in `order`;
 * 20-May-2026 and May 20, 2026; a time after the date is dropped. Two-digit years are refused, never guessed.
 */
export const readDate = (cell: string, order: DateOrder | undefined): Read<string> => {
  const text = dateText(cell)
  const quoted = JSON.stringify(cell.trim().slice(0, 30))
  const yearFirst = YEAR_FIRST.exec(text)
  if (yearFirst !== null) return iso(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]))
  const yearLast = YEAR_LAST.exec(text)
  if (yearLast !== null) {
    const [a, b, y] = [Number(yearLast[1]), Number(yearLast[2]), Number(yearLast[3])]
    if (order === "ymd") return { problem: `${quoted} is not year-first, as date_order=ymd says` }
    if (order === undefined && a !== b) return { problem: `${quoted} needs a date order (date_order=dmy or mdy)` }
    return order === "mdy" ? iso(y, a, b) : iso(y, b, a)
  }
  const named = DAY_MONTH_NAME.exec(text) ?? MONTH_NAME_DAY.exec(text)
  if (named !== null) {
    const dayFirst = /^\d/u.test(text)
    const month = monthOf(dayFirst ? named[2]! : named[1]!)
    if (month !== undefined) return iso(Number(named[3]), month, Number(dayFirst ? named[1] : named[2]))
  }
  if (SHORT_YEAR.test(text)) return { problem: `${quoted} has a two-digit year: write the year in four digits` }
  return { problem: `${quoted} is not a date (YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY or 20-May-2026)` }
}

const SIDES: Record<string, "buy" | "sell"> = {
  buy: "buy",
  b: "buy",
  bought: "buy",
  purchase: "buy",
  purchased: "buy",
  sell: "sell",
  s: "sell",
  sold: "sell",
  sale: "sell"
}

/** A kind cell in any case; a broker's side (B, Bought, Purchase; S, Sold, Sale) as buy or sell. */
export const readKind = (cell: string): string => {
  const text = cell.trim().toLowerCase()
  return SIDES[text] ?? text
}
