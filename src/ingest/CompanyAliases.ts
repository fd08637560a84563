/**
 * The reviewed company alias table (domain/news/company-aliases.json), read
 * and checked once. The news tagger (domain/news/Tagger.ts) and the name
 * resolver (domain/news/NameResolver.ts) take it as an argument, so the domain
 * does no I/O; every caller that ingests or serves news reads it here.
 */
import { readFileSync } from "node:fs"
import { type AliasEntry, decodeAliasTable } from "../../domain/news/Tagger.ts"

let loaded: ReadonlyArray<AliasEntry> | undefined

/** The alias table's entries, one per listed equity of the pack's universe. */
export const companyAliases = (): ReadonlyArray<AliasEntry> => {
  loaded ??= decodeAliasTable(
    JSON.parse(readFileSync(new URL("../../domain/news/company-aliases.json", import.meta.url), "utf8"))
  )
  return loaded
}
