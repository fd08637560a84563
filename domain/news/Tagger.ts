/**
 * The news tagger: which listed companies a story names. One tagger for the
 * pack's recorded news and for news read live from feeds. A story is tagged
 * with a company only when its headline or summary names it:
 *
 * - by its ticker, written in capitals as a whole word (`HUBC`, `PSX:TELE`),
 *   unless the ticker is also an ordinary word or another body's initials
 *   (the table's `ticker: "never"`: PSX the market, PPP the party, BOK the Bank
 *   of Korea), or is one only in Pakistani business news (`ticker: "context"`:
 *   PPL is also a US utility, so PPL tags only beside a word such as
 *   "Pakistan", "PSX", "KSE" or "Rs");
 * - by one of its names in the reviewed alias table
 *   (domain/news/company-aliases.json): the registered name without its legal
 *   words, and the short names people use ("Hub Power", "Hubco"; "Bank
 *   Alfalah"; "Lucky Cement"), matched as whole words, case and punctuation
 *   ignored. An alias written in capitals of five letters or fewer ("OGDCL",
 *   "PTCL") is matched in capitals only. A `context_aliases` name ("Hub
 *   Power", "Lucky Cement": a sports ranking, a Taiwanese company) names the
 *   company only beside a Pakistani-market word. A longer name that holds
 *   an alias but is another body (`not`: "Elbit Systems Ltd") is removed
 *   from the text before names are matched.
 *
 * A recording's own keywords (the words its author searched for) are never
 * tags: they are kept apart as `source_keywords`.
 */
import { readFileSync } from "node:fs"
import { Schema } from "effect"

export const AliasEntry = Schema.Struct({
  symbol: Schema.String,
  /** The registered name, as the universe gives it. */
  name: Schema.String,
  ticker: Schema.Literals(["word", "context", "never"]),
  aliases: Schema.Array(Schema.String),
  /** Names that are something else abroad: matched only beside a Pakistani-market word. */
  context_aliases: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Longer names that contain an alias but are another body ("Elbit Systems Ltd" is not Systems Limited): removed before matching. */
  not: Schema.optionalKey(Schema.Array(Schema.String))
})
export type AliasEntry = typeof AliasEntry.Type

export const AliasTable = Schema.Struct({ notes: Schema.Array(Schema.String), companies: Schema.Array(AliasEntry) })

const LEGAL = /\b(limited|ltd|company|co|corporation|corp|plc|inc|the)\b\.?/gi

/** Text as the name matcher reads it: lower case, "&" as "and", every other mark a space, padded with spaces. */
export const normalText = (s: string): string =>
  ` ${s.replace(/&amp;/g, "&").replace(/&/g, " and ").replace(/['’]s\b/g, "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()} `

/**
 * The short name a registered name gives without review: legal words and a
 * parenthesised "(Pakistan)" dropped, two words at least (a one-word name such
 * as "Bunny's" or "Systems" names nothing until a reviewer adds it).
 */
export const autoAliases = (name: string): ReadonlyArray<string> => {
  const short = name.replace(/\([^)]*\)?/g, " ").replace(LEGAL, " ").replace(/\s+/g, " ").trim().replace(/\s+(of|and|&)$/i, "")
  return normalText(short).trim().split(" ").filter((w) => w !== "").length >= 2 ? [short] : []
}

/** Words that place a story in Pakistan's market (a rupee amount, a Pakistani business publisher), for tickers and names that are something else abroad. */
const PAKISTAN_CONTEXT = /\b(Pakistan|Pakistani|PSX|KSE|Karachi|Lahore|Islamabad|SECP|SBP|PKR|Rs\.?\s?\d|TechJuice|ProPakistani|Mettis|Business Recorder|Express Tribune|Trade Chronicle)/i

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A tagger over the alias table: text in, the sorted symbols it names out. */
export const companyTagger = (table: ReadonlyArray<AliasEntry>) => {
  const tickers = new Map<string, AliasEntry>()
  const capitals: Array<readonly [RegExp, string, boolean]> = []
  const phrases: Array<readonly [string, string, boolean]> = []
  const others = table.flatMap((c) => (c.not ?? []).map((n) => normalText(n)))
  for (const c of table) {
    if (c.ticker !== "never" && /^[A-Z][A-Z0-9]{1,}$/.test(c.symbol)) tickers.set(c.symbol, c)
    const names = [...c.aliases.map((a) => [a, false] as const), ...(c.context_aliases ?? []).map((a) => [a, true] as const)]
    for (const [a, needsContext] of names) {
      if (/^[A-Z0-9-]{2,5}$/.test(a)) capitals.push([new RegExp(`(?<![A-Za-z0-9])${escape(a)}(?![A-Za-z0-9])`), c.symbol, needsContext])
      else if (normalText(a).trim() !== "") phrases.push([normalText(a), c.symbol, needsContext])
    }
  }
  return (text: string): ReadonlyArray<string> => {
    const found = new Set<string>()
    const pakistan = PAKISTAN_CONTEXT.test(text)
    for (const word of text.match(/(?<![A-Za-z0-9])[A-Z][A-Z0-9]+(?![A-Za-z0-9])/g) ?? []) {
      const c = tickers.get(word)
      if (c !== undefined && (c.ticker === "word" || pakistan)) found.add(c.symbol)
    }
    for (const [re, symbol, needsContext] of capitals) if ((pakistan || !needsContext) && re.test(text)) found.add(symbol)
    const plain = others.reduce((t, other) => t.replaceAll(other, " "), normalText(text))
    for (const [phrase, symbol, needsContext] of phrases) if ((pakistan || !needsContext) && plain.includes(phrase)) found.add(symbol)
    return [...found].sort()
  }
}

let loaded: ReadonlyArray<AliasEntry> | undefined

/** The reviewed alias table (domain/news/company-aliases.json), read and checked once. */
export const aliasTable = (): ReadonlyArray<AliasEntry> => {
  loaded ??= Schema.decodeUnknownSync(AliasTable)(
    JSON.parse(readFileSync(new URL("./company-aliases.json", import.meta.url), "utf8"))
  ).companies
  return loaded
}

/** The tagger over the reviewed table, for listed symbols only (a delisted company is not tagged in live news). */
export const newsTagger = (listed?: ReadonlySet<string>) =>
  companyTagger(listed === undefined ? aliasTable() : aliasTable().filter((c) => listed.has(c.symbol)))
