/**
 * Names to tickers over the read model's securities and the news tagger's reviewed aliases (GET /v1/search, MCP
 * search_symbols). The matching is domain/market/search/NameMatch.ts; the names each security goes by,
 * domain/market/search/SymbolTable.ts.
 */
import { Context, Effect, Layer } from "effect"
import { InvalidRequest, type SourceUnavailable } from "../../../domain/Errors.ts"
import { resolveName } from "../../../domain/market/search/NameMatch.ts"
import type { SearchResult } from "../../../domain/market/search/SearchSchemas.ts"
import { namedSymbols } from "../../../domain/market/search/SymbolTable.ts"
import { SEARCH_MAX } from "../../../domain/market/shared/Limits.ts"
import { companyAliases } from "../../ingest/CompanyAliases.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"

/** Results given when the request names no limit. */
export const SEARCH_DEFAULT = 10
export const QUERY_MAX_CHARS = 100

export class Search extends Context.Service<Search, {
  readonly search: (q: string, limit?: number) => Effect.Effect<SearchResult, InvalidRequest | SourceUnavailable>
}>()("psx/market/Search") {
  static readonly layer = Layer.effect(
    Search,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      const search = Effect.fn("Search.search")(function*(raw: string, limit?: number) {
        const q = raw.trim()
        if (q === "") return yield* new InvalidRequest({ message: "query field `q` must not be empty" })
        if (q.length > QUERY_MAX_CHARS) {
          return yield* new InvalidRequest({
            message: `query field \`q\` is longer than ${QUERY_MAX_CHARS} characters`
          })
        }
        const snapshot = yield* model.snapshot
        const items = resolveName(
          namedSymbols(snapshot.securities, companyAliases()),
          q,
          Math.min(limit ?? SEARCH_DEFAULT, SEARCH_MAX)
        )
        const listings = items.map((i) => snapshot.symbols.get(i.symbol)?.security.dataset ?? "universe")
        return {
          query: q,
          items,
          total: items.length,
          sources: sourcesOf(snapshot, [...new Set(["universe", ...listings])])
        }
      })
      return { search }
    })
  )
}
