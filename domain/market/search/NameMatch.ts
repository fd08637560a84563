/**
 * Names to tickers, pure: a query is matched against each security's ticker,
 * registered name and aliases (the news tagger's reviewed table), then, when
 * nothing matches exactly, against near misses by edit distance ("HUBCO",
 * "Meezn Bank"). The table is a plain list (`NamedSymbol`), so the alias
 * source can be swapped without touching the matching.
 *
 * Ranking: exact ticker, alias or name equal to the query, ticker prefix,
 * every query word starting a word of a name or alias, then near misses
 * (fewest edits first); ordinary shares before other types, then shorter
 * tickers.
 */
import { distance } from "fastest-levenshtein"
import { searchKey } from "../shared/Classify.ts"

export interface NamedSymbol {
  readonly symbol: string
  readonly name: string
  /** Other names people use ("Hub Power", "Hubco"); may be empty. */
  readonly aliases: ReadonlyArray<string>
  readonly sector?: string | undefined
  readonly equity: boolean
}

export type MatchKind = "exact_ticker" | "exact_name" | "ticker_prefix" | "name" | "near_miss"

export interface NameMatch {
  readonly symbol: string
  readonly name: string
  readonly sector?: string
  readonly match: MatchKind
  /** The ticker, name or alias the query matched. */
  readonly matched: string
}

const RANK: Record<MatchKind, number> = { exact_ticker: 0, exact_name: 1, ticker_prefix: 2, name: 3, near_miss: 4 }

/** The edits a near miss may need: one per four characters of the query, at least one, at most three. */
const allowedEdits = (length: number) => Math.min(3, Math.max(1, Math.floor(length / 4)))

interface Candidate {
  readonly entry: NamedSymbol
  readonly kind: MatchKind
  readonly matched: string
  readonly edits: number
}

const wordsStart = (text: string, words: ReadonlyArray<string>) => {
  const padded = ` ${text}`
  return words.every((w) => padded.includes(` ${w}`))
}

/** How one security matches the query (its best match), or undefined. */
const matchOf = (entry: NamedSymbol, ticker: string, key: string): Candidate | undefined => {
  if (entry.symbol === ticker) return { entry, kind: "exact_ticker", matched: entry.symbol, edits: 0 }
  const names = [entry.name, ...entry.aliases]
  const keys = names.map(searchKey)
  const exact = keys.findIndex((k) => k === key)
  if (exact >= 0) return { entry, kind: "exact_name", matched: names[exact]!, edits: 0 }
  if (ticker.length >= 2 && entry.symbol.startsWith(ticker)) {
    return { entry, kind: "ticker_prefix", matched: entry.symbol, edits: 0 }
  }
  const words = key.split(" ")
  const word = keys.findIndex((k) => wordsStart(k, words))
  if (word >= 0) return { entry, kind: "name", matched: names[word]!, edits: 0 }
  return nearMiss(entry, ticker, key, names, keys)
}

/** The closest of the ticker, names and aliases within the allowed edits (a name's leading words count as the name). */
const nearMiss = (
  entry: NamedSymbol,
  ticker: string,
  key: string,
  names: ReadonlyArray<string>,
  keys: ReadonlyArray<string>
) => {
  const limit = allowedEdits(key.length)
  let best: Candidate | undefined
  const consider = (edits: number, matched: string) => {
    if (edits <= limit && (best === undefined || edits < best.edits)) {
      best = { entry, kind: "near_miss", matched, edits }
    }
  }
  if (Math.abs(entry.symbol.length - ticker.length) <= limit) consider(distance(entry.symbol, ticker), entry.symbol)
  const wordCount = key.split(" ").length
  keys.forEach((k, i) => {
    const head = k.split(" ").slice(0, wordCount).join(" ")
    if (Math.abs(head.length - key.length) <= limit) consider(distance(head, key), names[i]!)
  })
  return best
}

const byRank = (a: Candidate, b: Candidate) =>
  RANK[a.kind] - RANK[b.kind] ||
  a.edits - b.edits ||
  Number(!a.entry.equity) - Number(!b.entry.equity) ||
  a.entry.symbol.length - b.entry.symbol.length ||
  (a.entry.symbol < b.entry.symbol ? -1 : 1)

/** The securities a query names, best first, at most `max`; near misses only when nothing matched otherwise. */
export const resolveName = (
  table: ReadonlyArray<NamedSymbol>,
  query: string,
  max: number
): ReadonlyArray<NameMatch> => {
  const key = searchKey(query)
  if (key === "") return []
  const ticker = query.trim().toUpperCase()
  const found: Array<Candidate> = []
  for (const entry of table) {
    const candidate = matchOf(entry, ticker, key)
    if (candidate !== undefined) found.push(candidate)
  }
  const exactish = found.filter((c) => c.kind !== "near_miss")
  return (exactish.length > 0 ? exactish : found).sort(byRank).slice(0, max).map(({ entry, kind, matched }) => ({
    symbol: entry.symbol,
    name: entry.name,
    ...(entry.sector === undefined ? {} : { sector: entry.sector }),
    match: kind,
    matched
  }))
}

/** The tickers closest to an unknown one (for its error message), at most `max`. */
export const closeTickers = (table: ReadonlyArray<NamedSymbol>, symbol: string, max = 3): ReadonlyArray<NameMatch> =>
  resolveName(table, symbol, max).filter((m) => m.symbol !== symbol.toUpperCase())

/** `unknown symbol X`, with the close matches named when there are any. */
export const unknownSymbolMessage = (table: ReadonlyArray<NamedSymbol>, symbol: string) => {
  const close = closeTickers(table, symbol)
  return close.length === 0
    ? `unknown symbol ${symbol}`
    : `unknown symbol ${symbol}; close matches: ${close.map((m) => `${m.symbol} (${m.name})`).join(", ")}`
}
