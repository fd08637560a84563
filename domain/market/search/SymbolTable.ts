/**
 * The names each listed security goes by, for search and for the close matches of an unknown-symbol error:
 * its ticker, registered name and sector from the universe, and the aliases of the news tagger's reviewed
 * table (domain/news/company-aliases.json, context-only names included: a search is about the market). Built
 * once per securities list (the read model's snapshot holds one); the alias table is passed in (src/ingest/CompanyAliases.ts reads it).
 */
import type { AliasEntry } from "../../news/Tagger.ts"
import type { SecurityRow } from "../snapshot/StoreRows.ts"
import { type NamedSymbol, unknownSymbolMessage } from "./NameMatch.ts"

const built = new WeakMap<ReadonlyArray<SecurityRow>, ReadonlyArray<NamedSymbol>>()

/** Every security of `securities` with the names it goes by (a delisted one too: its symbol is still served). */
export const namedSymbols = (
  securities: ReadonlyArray<SecurityRow>,
  aliasTable: ReadonlyArray<AliasEntry>
): ReadonlyArray<NamedSymbol> => {
  const kept = built.get(securities)
  if (kept !== undefined) return kept
  const aliases = new Map(aliasTable.map((a) => [a.symbol, [...a.aliases, ...(a.context_aliases ?? [])]]))
  const table = securities.map((s) => ({
    symbol: s.symbol,
    name: s.name,
    aliases: aliases.get(s.symbol) ?? [],
    sector: s.sector_name ?? undefined,
    equity: s.security_type === "equity"
  }))
  built.set(securities, table)
  return table
}

/** The message of an unknown-symbol error: `unknown symbol HUBCO; close matches: HUBC (The Hub Power Company Limited)`. */
export const unknownSymbol = (
  securities: ReadonlyArray<SecurityRow>,
  aliasTable: ReadonlyArray<AliasEntry>,
  symbol: string
) => unknownSymbolMessage(namedSymbols(securities, aliasTable), symbol)
