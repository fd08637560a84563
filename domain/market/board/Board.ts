/**
 * The market board's pure rules: breadth, movers and sector tone from one
 * day's lines (a market summary, or the read model's latest quotes). Which
 * lines are left out of the movers, and how each is detected, is stated in
 * `moverRules` (the text the OpenAPI description carries).
 *
 * Nothing here estimates a figure: a line without a price, a previous close
 * or a volume is not priced that day and is counted as such. The value
 * traded is the source's turnover when it gives one, else volume × price,
 * and the response says which (`value_basis`).
 */
import { defined } from "../../Objects.ts"
import { median } from "../shared/Stats.ts"

export type ExMarker = "XD" | "XB" | "XR"

/** One security's line for a day. */
export interface BoardLine {
  readonly symbol: string
  readonly name?: string
  readonly sector_code?: string
  /** From the universe (domain/market/shared/Classify.ts), when known. */
  readonly security_type?: "equity" | "etf" | "debt" | "right" | "preference" | "other"
  readonly price?: number
  readonly previous_close?: number
  readonly change?: number
  readonly change_pct?: number
  readonly volume?: number
  /** Turnover in rupees, when the source gives it. */
  readonly value_traded?: number
  readonly ex_markers?: ReadonlyArray<ExMarker>
}

export type Exclusion = "derivative" | "debt" | "right" | "preference" | "placeholder" | "ex_marked" | "value_under_1m"

/** How each exclusion is detected: one line per rule, for the OpenAPI description. */
export const moverRules: Readonly<Record<Exclusion, string>> = {
  derivative:
    "Futures contract lines: symbol ending -MMM or -CMMM (e.g. HBL-JAN, HBL-CFEB) or the summary's sector code 40.",
  debt: "Debt lines (TFCs, sukuk, bills and bonds): the exchange's debt flag or the summary's sector code 36.",
  right:
    "Rights lines: security type right (name carries (R) or Right), a symbol ending -R, or a listed symbol followed by R and an optional number (SHEL → SHELR, LOADS → LOADSR1).",
  preference:
    "Preference lines: security type preference (name carries Pref or P/S), or a listed symbol followed by PS or CPS (POWER → POWERPS).",
  placeholder:
    "Placeholder lines: no trade that day (volume 0 or absent) or no usable price (price or previous close absent or 0; a board shows 0 for a security that did not trade).",
  ex_marked:
    "Ex-marked lines (XD, XB, XR on the exchange's short name that day) are left out of gainers and losers: their change includes the entitlement dropping off the price, not a move. They stay in breadth and in most active.",
  value_under_1m: "Lines with under Rs 1,000,000 traded that day (the source's turnover, else volume × price)."
}

/** Rupees: movers leave out anything traded under this that day (SPEC 8). */
export const MIN_VALUE_TRADED = 1_000_000

const derivativeSymbol = /-C?(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)$/
const rightsName = /\(\s*R\s*\d*\s*\)|\bright\b|\brights\b/i
const preferenceName = /\bpref|\(pref|p\/s\b/i

const baseListed = (symbol: string, suffix: RegExp, listed: ReadonlySet<string>) => {
  const m = suffix.exec(symbol)
  return m !== null && m.index > 0 && listed.has(symbol.slice(0, m.index))
}

/** The kind of line, for the exclusions that do not depend on the day's figures. */
export const lineKind = (
  line: BoardLine,
  listed: ReadonlySet<string>
): "derivative" | "debt" | "right" | "preference" | "security" => {
  if (line.sector_code === "40" || derivativeSymbol.test(line.symbol)) return "derivative"
  if (line.security_type === "debt" || line.sector_code === "36") return "debt"
  if (
    line.security_type === "right" || /-R\d*$/.test(line.symbol) || rightsName.test(line.name ?? "") ||
    baseListed(line.symbol, /R\d*$/, listed)
  ) return "right"
  if (
    line.security_type === "preference" || preferenceName.test(line.name ?? "") ||
    baseListed(line.symbol, /C?PS$/, listed)
  ) {
    return "preference"
  }
  return "security"
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places

/** The day's change in rupees and percent, from the line's own figures or its price and previous close. */
export const changeOf = (line: BoardLine): { change: number; change_pct: number } | undefined => {
  const { price, previous_close: prev } = line
  if (price === undefined || !(price > 0) || prev === undefined || !(prev > 0)) return undefined
  const change = line.change ?? round(price - prev, 4)
  const change_pct = line.change_pct ?? round(((price - prev) / prev) * 100, 4)
  return { change, change_pct }
}

/** Value traded and its basis; undefined without a volume. */
export const valueTraded = (line: BoardLine): { value: number; basis: "turnover" | "volume_x_price" } | undefined =>
  line.value_traded !== undefined
    ? { value: line.value_traded, basis: "turnover" }
    : line.volume !== undefined && line.price !== undefined
    ? { value: round(line.volume * line.price, 2), basis: "volume_x_price" }
    : undefined

const traded = (line: BoardLine) => line.volume !== undefined && line.volume > 0

/** Every rule that leaves a line out of gainers and losers, in order (all but ex_marked also leave it out of most active). */
export const moverExclusions = (line: BoardLine, listed: ReadonlySet<string>): ReadonlyArray<Exclusion> => {
  const out: Array<Exclusion> = []
  const kind = lineKind(line, listed)
  if (kind !== "security") out.push(kind)
  if (!traded(line) || changeOf(line) === undefined) out.push("placeholder")
  if ((line.ex_markers?.length ?? 0) > 0) out.push("ex_marked")
  const v = valueTraded(line)
  if (v === undefined || v.value < MIN_VALUE_TRADED) out.push("value_under_1m")
  return out
}

/** The first rule that leaves a line out of every mover list, or undefined (ex-marked lines stay in most active). */
export const moverExclusion = (line: BoardLine, listed: ReadonlySet<string>): Exclusion | undefined =>
  moverExclusions(line, listed).find((e) => e !== "ex_marked")

export interface Breadth {
  readonly advancers: number
  readonly decliners: number
  readonly unchanged: number
  /** advancers + decliners + unchanged: securities that traded that day with a previous close. */
  readonly priced: number
  /** Security lines given that did not trade or lack a price or previous close. */
  readonly not_priced: number
}

/** Breadth over the security lines priced that day (derivative and debt lines are not counted). */
export const breadth = (lines: ReadonlyArray<BoardLine>, listed: ReadonlySet<string> = symbolsOf(lines)): Breadth => {
  let advancers = 0, decliners = 0, unchanged = 0, notPriced = 0
  for (const line of lines) {
    const kind = lineKind(line, listed)
    if (kind === "derivative" || kind === "debt") continue
    const c = traded(line) ? changeOf(line) : undefined
    if (c === undefined) notPriced++
    else if (c.change > 0) advancers++
    else if (c.change < 0) decliners++
    else unchanged++
  }
  return { advancers, decliners, unchanged, priced: advancers + decliners + unchanged, not_priced: notPriced }
}

export interface Mover {
  readonly symbol: string
  readonly name?: string
  readonly sector_code?: string
  readonly price: number
  readonly previous_close: number
  readonly change: number
  readonly change_pct: number
  readonly volume: number
  readonly value_traded: number
  readonly value_basis: "turnover" | "volume_x_price"
  readonly ex_markers?: ReadonlyArray<ExMarker>
}

export interface Movers {
  readonly gainers: ReadonlyArray<Mover>
  readonly losers: ReadonlyArray<Mover>
  readonly most_active: ReadonlyArray<Mover>
  /** How many lines each rule left out (a line is counted under its first rule). */
  readonly excluded: Readonly<Partial<Record<Exclusion, number>>>
}

export const symbolsOf = (lines: ReadonlyArray<BoardLine>): ReadonlySet<string> => new Set(lines.map((l) => l.symbol))

/**
 * Top gainers, top losers and most active by value traded, `n` each.
 * `listed` is the set of listed symbols used to recognise rights and
 * preference lines by their base symbol (default: the lines' own symbols).
 */
export const movers = (
  lines: ReadonlyArray<BoardLine>,
  n = 10,
  listed: ReadonlySet<string> = symbolsOf(lines)
): Movers => {
  const excluded: Partial<Record<Exclusion, number>> = {}
  const eligible: Array<Mover> = []
  for (const line of lines) {
    const why = moverExclusion(line, listed)
    if (why !== undefined) {
      excluded[why] = (excluded[why] ?? 0) + 1
      continue
    }
    const c = changeOf(line)!
    const v = valueTraded(line)!
    eligible.push({
      symbol: line.symbol,
      ...defined({ name: line.name, sector_code: line.sector_code }),
      price: line.price!,
      previous_close: line.previous_close!,
      ...c,
      volume: line.volume!,
      value_traded: v.value,
      value_basis: v.basis,
      ...(line.ex_markers !== undefined && line.ex_markers.length > 0 ? { ex_markers: line.ex_markers } : {})
    })
  }
  const unmarked = eligible.filter((m) => m.ex_markers === undefined)
  excluded.ex_marked = eligible.length - unmarked.length
  const bySymbol = (a: Mover, b: Mover) => a.symbol.localeCompare(b.symbol)
  return {
    gainers: unmarked.filter((m) => m.change_pct > 0).sort((a, b) => b.change_pct - a.change_pct || bySymbol(a, b))
      .slice(0, n),
    losers: unmarked.filter((m) => m.change_pct < 0).sort((a, b) => a.change_pct - b.change_pct || bySymbol(a, b))
      .slice(0, n),
    most_active: [...eligible].sort((a, b) => b.value_traded - a.value_traded || bySymbol(a, b)).slice(0, n),
    excluded
  }
}

export interface SectorTone extends Breadth {
  readonly sector_code: string
  readonly sector?: string
  /** Median change (%) of the sector's priced security lines; absent when none is priced. */
  readonly median_change_pct?: number
}

/** Per sector: breadth and the median change of its priced security lines. Sorted by sector code. */
export const sectorTone = (
  lines: ReadonlyArray<BoardLine>,
  sectorNames: ReadonlyMap<string, string> = new Map(),
  listed: ReadonlySet<string> = symbolsOf(lines)
): ReadonlyArray<SectorTone> => {
  const groups = new Map<string, Array<BoardLine>>()
  for (const line of lines) {
    if (line.sector_code === undefined) continue
    const kind = lineKind(line, listed)
    if (kind === "derivative" || kind === "debt") continue
    const group = groups.get(line.sector_code)
    if (group) group.push(line)
    else groups.set(line.sector_code, [line])
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, group]) => {
      const changes = group.flatMap((l) => (traded(l) ? [changeOf(l)?.change_pct] : [])).filter((c) => c !== undefined)
      const m = median(changes)
      const name = sectorNames.get(code)
      return {
        sector_code: code,
        ...defined({ sector: name }),
        ...breadth(group, listed),
        ...defined({ median_change_pct: m })
      }
    })
}
