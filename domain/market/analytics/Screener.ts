/**
 * The market-wide screener (SPEC 2.2, 4.4): the filter. The per-symbol
 * figures it filters on are in `ScreenerFigures.ts` (re-exported here); the
 * request, its fields and their decoding (unknown fields and wrong types
 * rejected) are in `ScreenRequest.ts`.
 */
import type { ScreenFigures } from "./AnalyticsSchemas.ts"
import { type NumberField, SCREENER_DEFAULT_LIMIT, type ScreenRequest } from "./ScreenRequest.ts"

export { exDividendOn, screenFigures, type ScreenInput } from "./ScreenerFigures.ts"

type Verdict = boolean | undefined
/** A filter: its verdict for row `i` of the table (true, false, or undefined when the figure is unknown). */
interface Gate {
  readonly name: string
  readonly test: (i: number) => Verdict
}

/** The numeric figures of a screen row. */
export type NumericFigure = {
  [K in keyof ScreenFigures]-?: ScreenFigures[K] extends number | undefined ? K : never
}[keyof ScreenFigures]

/** Request field → the figure it bounds, and whether it is a lower or an upper bound. */
const BOUNDS: ReadonlyArray<readonly [NumberField, NumericFigure, "min" | "max"]> = [
  ["dividend_yield_min", "dividend_yield_pct", "min"],
  ["daily_change_max", "change_pct", "max"],
  ["daily_change_min", "change_pct", "min"],
  ["pe_max", "pe_ttm", "max"],
  ["pe_min", "pe_ttm", "min"],
  ["market_cap_min", "market_cap", "min"],
  ["market_cap_max", "market_cap", "max"],
  ["min_value_traded", "value_traded", "min"],
  ["min_avg_volume_30d", "avg_volume_30d", "min"],
  ["min_avg_value_traded_30d", "avg_value_traded_30d", "min"],
  ["free_float_min_pct", "free_float_pct", "min"],
  ["free_float_min_shares", "free_float_shares", "min"],
  ["drawdown_5d_min", "drawdown_5d_pct", "min"],
  ["drawdown_20d_min", "drawdown_20d_pct", "min"]
]

/**
 * The rows in columns, built once per set of rows (a read model builds it
 * once per snapshot): every filter then reads typed arrays, whatever shape
 * each row object has. NaN is unknown; ex_dividend is -1 for null.
 */
export interface ScreenTable {
  /** Ascending by symbol. */
  readonly rows: ReadonlyArray<ScreenFigures>
  readonly symbols: ReadonlyArray<string>
  readonly numbers: ReadonlyMap<NumericFigure, Float64Array>
  readonly sector: ReadonlyArray<string | undefined>
  readonly sectorCode: ReadonlyArray<string | undefined>
  readonly kse100: Uint8Array
  readonly securityType: ReadonlyArray<string>
  readonly exDividend: Int8Array
}

const bySymbol = (a: ScreenFigures, b: ScreenFigures) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)

/**
 * The rows in typed-array columns, sorted by symbol, built once per snapshot: `screen` then runs each filter as
 * one loop over a column, so a screen of the whole market costs well under a millisecond whatever the filters.
 */
export const screenTable = (unsorted: ReadonlyArray<ScreenFigures>): ScreenTable => {
  const rows = [...unsorted].sort(bySymbol)
  const n = rows.length
  const numbers = new Map<NumericFigure, Float64Array>()
  for (const [, field] of BOUNDS) {
    if (numbers.has(field)) continue
    const col = new Float64Array(n)
    for (let i = 0; i < n; i++) col[i] = rows[i]![field] ?? NaN
    numbers.set(field, col)
  }
  return {
    rows,
    symbols: rows.map((r) => r.symbol),
    numbers,
    sector: rows.map((r) => r.sector?.toLowerCase()),
    sectorCode: rows.map((r) => r.sector_code?.toLowerCase()),
    kse100: Uint8Array.from(rows, (r) => (r.inside_kse100 ? 1 : 0)),
    securityType: rows.map((r) => r.security_type),
    exDividend: Int8Array.from(rows, (r) => (r.ex_dividend === null ? -1 : r.ex_dividend ? 1 : 0))
  }
}

const gates = (t: ScreenTable, q: ScreenRequest): Array<Gate> => {
  const out: Array<Gate> = []
  const add = (name: string, test: Gate["test"]) => out.push({ name, test })
  const verdict = (field: NumericFigure, side: "min" | "max", bound: number) => {
    const col = t.numbers.get(field)!
    return side === "min"
      ? (i: number): Verdict => (Number.isNaN(col[i]!) ? undefined : col[i]! >= bound)
      : (i: number): Verdict => (Number.isNaN(col[i]!) ? undefined : col[i]! <= bound)
  }
  const d5 = q.drawdown_5d_min, d20 = q.drawdown_20d_min
  const both = d5 !== undefined && d20 !== undefined
  for (const [name, field, side] of BOUNDS) {
    const v = q[name]
    if (v === undefined || (both && (name === "drawdown_5d_min" || name === "drawdown_20d_min"))) continue
    add(name, verdict(field, side, v))
  }
  if (both) {
    const all = q.drawdown_mode === "all"
    const a5 = verdict("drawdown_5d_pct", "min", d5), a20 = verdict("drawdown_20d_pct", "min", d20)
    add(all ? "drawdown_all" : "drawdown_any", (i) => {
      const a = a5(i), b = a20(i)
      if (all) return a === false || b === false ? false : a === undefined || b === undefined ? undefined : true
      return a === true || b === true ? true : a === undefined || b === undefined ? undefined : false
    })
  }
  if (q.sectors !== undefined && q.sectors.length > 0) {
    const wanted = new Set(q.sectors.map((s) => s.toLowerCase()))
    add("sectors", (i) => {
      const name = t.sector[i], code = t.sectorCode[i]
      return name === undefined && code === undefined ? undefined : wanted.has(name ?? "") || wanted.has(code ?? "")
    })
  }
  if (q.inside_kse100 !== undefined && q.inside_kse100 !== null) {
    const want = q.inside_kse100 ? 1 : 0
    add("inside_kse100", (i) => t.kse100[i] === want)
  }
  if (q.security_types !== undefined && q.security_types.length > 0) {
    const types = new Set<string>(q.security_types)
    add("security_types", (i) => types.has(t.securityType[i]!))
  }
  if (q.exclude_ex_dividend === true) {
    add("exclude_ex_dividend", (i) => (t.exDividend[i] === -1 ? undefined : t.exDividend[i] === 0))
  }
  return out
}

export interface ScreenResult {
  /** Securities matching every filter. */
  readonly total: number
  /** This page, ascending by symbol. */
  readonly items: ReadonlyArray<ScreenFigures>
  /** The last symbol of this page when more follow (encode it as `next_cursor`). */
  readonly next_after?: string
  readonly left_out_unknown: number
  readonly unknown_by_filter: Readonly<Record<string, number>>
}

/**
 * Filters the rows (or their prebuilt `screenTable`) by the request and
 * returns the page after symbol `after` (exclusive; from the start when absent).
 *
 * - A security whose figure is unknown for a filtered field does not match
 *   (unknown is not zero); `left_out_unknown` counts those that failed no
 *   filter on a known figure, `unknown_by_filter` how many lacked each figure.
 * - An empty `sectors` or `security_types` list is no filter.
 * - daily_change_max=0 means at or below the previous close (change_pct ≤ 0).
 * - Drawdown gates, mode `any`: a known drawdown meets its gate; `all`: both
 *   must be known and meet their gates.
 * - exclude_ex_dividend=true keeps only securities known not to be ex-dividend.
 * - Order: ascending symbol (code-unit order), paged by keyset.
 */
export const screen = (
  rows: ReadonlyArray<ScreenFigures> | ScreenTable,
  request: ScreenRequest,
  after?: string
): ScreenResult => {
  const t = "numbers" in rows ? rows : screenTable(rows)
  const gs = gates(t, request)
  const n = t.rows.length
  // One gate at a time over every row: each loop calls one function, so it stays tight.
  const failed = new Uint8Array(n), unknown = new Uint8Array(n)
  const unknownBy: Record<string, number> = {}
  for (const g of gs) {
    const test = g.test
    let count = 0
    for (let i = 0; i < n; i++) {
      const v = test(i)
      if (v === undefined) {
        unknown[i] = 1
        count++
      } else if (!v) failed[i] = 1
    }
    unknownBy[g.name] = count
  }
  const matched: Array<number> = []
  let leftOut = 0
  for (let i = 0; i < n; i++) {
    if (failed[i] === 1) continue
    if (unknown[i] === 1) leftOut++
    else matched.push(i)
  }
  const limit = request.limit ?? SCREENER_DEFAULT_LIMIT
  let start = 0
  if (after !== undefined) { while (start < matched.length && t.symbols[matched[start]!]! <= after) start++ }
  const items = matched.slice(start, start + limit).map((i) => t.rows[i]!)
  return {
    total: matched.length,
    items,
    ...(start + limit < matched.length ? { next_after: items[items.length - 1]!.symbol } : {}),
    left_out_unknown: leftOut,
    unknown_by_filter: unknownBy
  }
}
