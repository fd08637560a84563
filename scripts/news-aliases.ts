/**
 * Keeps domain/news/company-aliases.json (the news tagger's one reviewed
 * alias table) in step with the pack's universe: a listed equity with no
 * entry gets one, its short name taken from the registered name (legal words
 * dropped, two words at least) and its ticker mode `word`. Entries already in
 * the table are never changed: they are the reviewed ones. Entries naming a
 * symbol the universe lacks are reported, not removed.
 *
 *   node scripts/news-aliases.ts          (then review the added entries by hand)
 */
import { readFileSync, writeFileSync } from "node:fs"
import { type AliasEntry, autoAliases } from "../domain/news/Tagger.ts"

const TABLE = "domain/news/company-aliases.json"
const universe = (JSON.parse(readFileSync("data/pack/universe.json", "utf8")) as ReadonlyArray<
  { symbol: string; name: string; isDebt: boolean }
>).filter((s) => !s.isDebt)
const table = JSON.parse(readFileSync(TABLE, "utf8")) as { notes: ReadonlyArray<string>; companies: Array<AliasEntry> }
const known = new Set(table.companies.map((c) => c.symbol))
const added = universe.filter((s) => !known.has(s.symbol)).map((s): AliasEntry => ({
  symbol: s.symbol,
  name: s.name,
  ticker: "word",
  aliases: autoAliases(s.name)
}))
const listed = new Set(universe.map((s) => s.symbol))
for (const c of table.companies) if (!listed.has(c.symbol)) process.stderr.write(`not in the universe: ${c.symbol}\n`)
table.companies.push(...added)
table.companies.sort((a, b) => (a.symbol < b.symbol ? -1 : 1))
writeFileSync(TABLE, JSON.stringify(table, null, 1) + "\n")
process.stderr.write(`${added.length} entries added for review: ${added.map((a) => a.symbol).join(", ")}\n`)
