/**
 * The news tagger: which listed companies a story names, for recorded and live
 * news alike, over the reviewed alias table (domain/news/company-aliases.json,
 * read in src/ and passed in). A story is tagged with a company when it names
 * it by ticker (unless the table says the letters are something else), by a
 * name of the table, or by a name written with its capitals ("Air Link", not
 * an air link). A longer name that is another body is removed first ("Elbit
 * Systems Ltd"), and a brokerage quoted as a source is not the story's subject
 * ("according to a report by Arif Habib Limited (AHL)"). The table's `notes`
 * give each rule; a recording's own keywords are never tags.
 */
import { Schema } from "effect"

export const AliasEntry = Schema.Struct({
  symbol: Schema.String,
  /** The registered name, as the universe gives it. */
  name: Schema.String,
  ticker: Schema.Literals(["word", "context", "never"]),
  aliases: Schema.Array(Schema.String),
  /** Names that are something else abroad: matched only beside a Pakistani-market word. */
  context_aliases: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Names matched only with their capitals as written, beside a Pakistani-market word ("Air Link", "Pakistan Refinery"). */
  case_aliases: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Longer names that contain an alias but are another body ("Elbit Systems Ltd" is not Systems Limited): removed before matching. */
  not: Schema.optionalKey(Schema.Array(Schema.String)),
  /** The name also ends other companies' names ("Axalta Coating Systems Ltd"): it counts only when the word before it is not a capitalised name. */
  name_ends_others: Schema.optionalKey(Schema.Boolean),
  /** A brokerage or research house: a mention as the source of a comment, report or figure is not a tag. */
  cited: Schema.optionalKey(Schema.Boolean)
})
export type AliasEntry = typeof AliasEntry.Type

export const AliasTable = Schema.Struct({ notes: Schema.Array(Schema.String), companies: Schema.Array(AliasEntry) })

/** The alias table's entries, checked; `json` is the parsed company-aliases.json. */
export const decodeAliasTable = (json: unknown): ReadonlyArray<AliasEntry> =>
  Schema.decodeUnknownSync(AliasTable)(json).companies

const LEGAL = /\b(limited|ltd|company|co|corporation|corp|plc|inc|the)\b\.?/gi

/** Text as the name matcher reads it: lower case, "&" as "and", every other mark a space, padded with spaces. */
export const normalText = (s: string): string =>
  ` ${
    s.replace(/&amp;/g, "&").replace(/&/g, " and ").replace(/['’]s\b/g, "").toLowerCase().replace(/[^a-z0-9]+/g, " ")
      .trim()
  } `

/**
 * The short name a registered name gives without review: legal words and a
 * parenthesised "(Pakistan)" dropped, two words at least (a one-word name such
 * as "Bunny's" or "Systems" names nothing until a reviewer adds it).
 */
export const autoAliases = (name: string): ReadonlyArray<string> => {
  const short = name.replace(/\([^)]*\)?/g, " ").replace(LEGAL, " ").replace(/\s+/g, " ").trim().replace(
    /\s+(of|and|&)$/i,
    ""
  )
  return normalText(short).trim().split(" ").filter((w) => w !== "").length >= 2 ? [short] : []
}

/** Words that place a story in Pakistan's market (a rupee amount, a Pakistani business publisher), for tickers and names that are something else abroad. */
const PAKISTAN_CONTEXT =
  /\b(Pakistan|Pakistani|PSX|KSE|Karachi|Lahore|Islamabad|SECP|SBP|PKR|Rs\.?\s?\d|TechJuice|ProPakistani|Mettis|Business Recorder|Express Tribune|Trade Chronicle|PhoneWorld|Pkrevenue)/i

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A name as a pattern over raw text: its words in order, any marks but a line break between them (a headline and its summary are two lines). */
const namePattern = (name: string) =>
  name.split(/[^A-Za-z0-9]+/).filter((w) => w !== "").map(escape).join("[^A-Za-z0-9\\n]+")

/** What introduces a source: "according to", "a report by", "research at", "analysts at", "said". */
const CITED_BEFORE = String
  .raw`(?:according to|(?:report|note|study|survey|analysis|data|estimates?)(?: compiled)? (?:by|from|of)|compiled by|quoted by|cited by|research (?:at|by|from)|analysts? (?:at|from|of)|economists? (?:at|from)|said|says)`
/** What follows a source: "said", "noted", "in a report". */
const CITED_AFTER = String
  .raw`(?:said|says|noted|notes|reported|expects|expected|estimates|estimated|wrote|added|observed|commented|analysts?|research|economists?|in a (?:report|note))`

/** Spans that cite a brokerage as a source, for removal before its names are matched. */
const citations = (c: AliasEntry): RegExp => {
  const names = [...c.aliases, ...(c.context_aliases ?? []), c.symbol].map(namePattern).join("|")
  const name = `(?:${names})(?:\\s*\\([A-Z0-9]+\\))?`
  return new RegExp(
    `\\b${CITED_BEFORE}\\s+(?:(?:a|an|the)\\s+)?(?:(?:report|note|study|research)\\s+(?:by|from|of)\\s+)?${name}|\\b${name}(?:['’]s)?\\s*,?\\s+${CITED_AFTER}\\b`,
    "gi"
  )
}

/** Title-case words that may stand before a name without being part of another name. */
const LINKING = new Set([
  "a",
  "an",
  "and",
  "as",
  "at",
  "by",
  "for",
  "from",
  "in",
  "into",
  "of",
  "on",
  "the",
  "to",
  "with",
  "its",
  "says",
  "said"
])

/** Whether an occurrence at `index` follows a capitalised word that is not a linking word ("Axalta Coating" before "Systems Ltd"). */
const followsOtherName = (text: string, index: number) => {
  const before = /([A-Za-z0-9][A-Za-z0-9&.'’-]*)[ \t]+$/.exec(text.slice(0, index))?.[1]
  return before !== undefined && /^[A-Z0-9]/.test(before) && !LINKING.has(before.toLowerCase())
}

type Matcher = (text: string, plain: string) => boolean

/** One entry's matchers: each answers whether the text names the company. */
const matchersOf = (c: AliasEntry): ReadonlyArray<readonly [Matcher, boolean]> => {
  const out: Array<readonly [Matcher, boolean]> = []
  const names = [
    ...c.aliases.map((a) => [a, false] as const),
    ...(c.context_aliases ?? []).map((a) => [a, true] as const)
  ]
  for (const [a, needsContext] of names) {
    if (/^[A-Z0-9-]{2,5}$/.test(a)) {
      const re = new RegExp(`(?<![A-Za-z0-9])${escape(a)}(?![A-Za-z0-9])`)
      out.push([(text) => re.test(text), needsContext])
    } else if (c.name_ends_others === true) {
      const re = new RegExp(`(?<![A-Za-z0-9])${namePattern(a)}(?![A-Za-z0-9])`, "gi")
      out.push([(text) => [...text.matchAll(re)].some((m) => !followsOtherName(text, m.index)), needsContext])
    } else if (normalText(a).trim() !== "") {
      const phrase = normalText(a)
      out.push([(_, plain) => plain.includes(phrase), needsContext])
    }
  }
  if (c.cited === true && c.ticker !== "never") {
    // A brokerage's ticker is matched with its names, once its citations are removed.
    const re = new RegExp(`(?<![A-Za-z0-9])${escape(c.symbol)}(?![A-Za-z0-9])`)
    out.push([(text) => re.test(text), c.ticker === "context"])
  }
  for (const a of c.case_aliases ?? []) {
    const re = new RegExp(`(?<![A-Za-z0-9])${namePattern(a)}(?![A-Za-z0-9])`)
    out.push([(text) => re.test(text), true])
  }
  return out
}

/** A tagger over the alias table: text in, the sorted symbols it names out. */
export const companyTagger = (table: ReadonlyArray<AliasEntry>) => {
  const tickers = new Map<string, AliasEntry>()
  for (const c of table) if (c.ticker !== "never" && /^[A-Z][A-Z0-9]{1,}$/.test(c.symbol)) tickers.set(c.symbol, c)
  const others = table.flatMap((c) => c.not ?? []).map((n) =>
    new RegExp(`(?<![A-Za-z0-9])${namePattern(n)}(?![A-Za-z0-9])`, "gi")
  )
  const entries = table.map((c) => ({
    entry: c,
    matchers: matchersOf(c),
    cited: c.cited === true ? citations(c) : undefined
  }))
  return (raw: string): ReadonlyArray<string> => {
    const text = others.reduce((t, re) => t.replace(re, " "), raw)
    const pakistan = PAKISTAN_CONTEXT.test(text)
    const plain = normalText(text)
    const found = new Set<string>()
    for (const word of text.match(/(?<![A-Za-z0-9])[A-Z][A-Z0-9]+(?![A-Za-z0-9])/g) ?? []) {
      const c = tickers.get(word)
      if (c !== undefined && c.cited !== true && (c.ticker === "word" || pakistan)) found.add(c.symbol)
    }
    for (const { entry, matchers, cited } of entries) {
      const own = cited === undefined ? text : text.replace(cited, " ")
      const ownPlain = cited === undefined ? plain : normalText(own)
      if (matchers.some(([m, needsContext]) => (pakistan || !needsContext) && m(own, ownPlain))) found.add(entry.symbol)
    }
    return [...found].sort()
  }
}

/** The tagger over the reviewed table, for listed symbols only (a delisted company is not tagged in live news). */
export const newsTagger = (table: ReadonlyArray<AliasEntry>, listed?: ReadonlySet<string>) =>
  companyTagger(listed === undefined ? table : table.filter((c) => listed.has(c.symbol)))
