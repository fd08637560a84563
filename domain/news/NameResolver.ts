/**
 * Names to tickers, over the news tagger's reviewed alias table (passed in):
 * "Hub Power" and "HUBCO" are HUBC, "Lucky Cement" is LUCK, "Meezan" is most
 * likely MEBL. For search and for "did you mean" on an unknown symbol. Pure:
 * the table is read in src/ (src/ingest/CompanyAliases.ts).
 */
import { type AliasEntry, normalText } from "./Tagger.ts"

export interface SymbolMatch {
  readonly symbol: string
  /** The registered name. */
  readonly name: string
  /**
   * How the query matched: `ticker` (the symbol itself), `name` (a whole name
   * of the table: registered, short or alias), `prefix` (the first words of a
   * name, or the start of a ticker), `near` (a ticker or name within one or two
   * typing slips).
   */
  readonly match: "ticker" | "name" | "prefix" | "near"
  /** The ticker or name that matched, as the table writes it. */
  readonly matched: string
}

const RANK = { ticker: 0, name: 1, prefix: 2, near: 3 } as const
const LEGAL = / (limited|ltd|company|co|corporation|corp|plc|inc|the) /g

/** Lower-case words without legal words ("The Hub Power Company Limited" -> "hub power"). */
const words = (s: string) => normalText(s.replace(/\([^)]*\)?/g, " ")).replace(LEGAL, " ").replace(LEGAL, " ").trim()

/** Edit distance with transpositions (optimal string alignment), or `max + 1` once it exceeds `max`. */
export const editDistance = (a: string, b: string, max: number): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev2: Array<number> = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1)
      row.push(d)
    }
    if (Math.min(...row) > max) return max + 1
    prev2 = prev
    prev = row
  }
  return Math.min(prev[b.length]!, max + 1)
}

/** Slips allowed for a string of this length: none below 4 characters, one to 7, two beyond. */
const slips = (length: number) => (length < 4 ? 0 : length <= 7 ? 1 : 2)

interface Candidate {
  readonly match: SymbolMatch
  /** Within a kind, lower is closer: extra words of a prefix, slips of a near match. */
  readonly distance: number
}

/** Every way one entry matches the query, closest first. */
const candidates = (c: AliasEntry, query: string, ticker: string): ReadonlyArray<Candidate> => {
  const out: Array<Candidate> = []
  const at = (match: SymbolMatch["match"], matched: string, distance: number) =>
    out.push({ match: { symbol: c.symbol, name: c.name, match, matched }, distance })
  const symbol = c.symbol.toUpperCase()
  if (ticker === symbol) at("ticker", c.symbol, 0)
  else if (ticker.length >= 2 && symbol.startsWith(ticker)) at("prefix", c.symbol, symbol.length - ticker.length)
  else if (editDistance(ticker, symbol, slips(symbol.length)) <= slips(symbol.length)) {
    at("near", c.symbol, editDistance(ticker, symbol, 2))
  }
  const q = query.split(" ")
  for (const n of [c.name, ...c.aliases, ...(c.context_aliases ?? []), ...(c.case_aliases ?? [])]) {
    const w = words(n)
    if (w === "") continue
    const nw = w.split(" ")
    if (w === query) at("name", n, 0)
    else if (q.length <= nw.length && q.every((x, i) => nw[i] === x)) at("prefix", n, nw.length - q.length)
    else {
      const d = editDistance(query.replaceAll(" ", ""), w.replaceAll(" ", ""), slips(w.length))
      if (d <= slips(w.length)) at("near", n, d)
    }
  }
  return out
}

/**
 * The listed companies a query names, best first, at most `limit` (one row a
 * symbol, by its closest match): the ticker itself ("hubc", "PSX:HUBC"), then
 * whole names ("Hub Power", "HUBCO"), then names the query starts ("Meezan":
 * Meezan Bank before Meezan Pakistan ETF, fewer words left over first), then
 * near spellings ("Meezn Bank"). An empty or unmatched query gives [].
 */
export const resolveSymbols = (
  table: ReadonlyArray<AliasEntry>,
  query: string,
  limit = 5
): ReadonlyArray<SymbolMatch> => {
  const bounded = query.slice(0, 120)
  const plain = words(bounded)
  const ticker = bounded.trim().replace(/^PSX:/i, "").toUpperCase()
  if (plain === "" || limit < 1) return []
  const best = new Map<string, Candidate>()
  for (const c of table) {
    for (const k of candidates(c, plain, ticker)) {
      const held = best.get(c.symbol)
      if (held === undefined || RANK[k.match.match] * 100 + k.distance < RANK[held.match.match] * 100 + held.distance) {
        best.set(c.symbol, k)
      }
    }
  }
  return [...best.values()]
    .sort((a, b) =>
      RANK[a.match.match] - RANK[b.match.match] || a.distance - b.distance ||
      a.match.symbol.localeCompare(b.match.symbol)
    )
    .slice(0, limit)
    .map((k) => k.match)
}
