/** The answer of a name-to-ticker search (GET /v1/search, MCP search_symbols). */
import { Schema } from "effect"
import { Source } from "../shared/Schemas.ts"

export const SearchHit = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sector: Schema.optionalKey(Schema.String),
  match: Schema.Literals(["exact_ticker", "exact_name", "ticker_prefix", "name", "near_miss"]).annotate({
    description:
      "exact_ticker; exact_name (the registered name or a reviewed alias, whole); ticker_prefix; name (every " +
      "query word starts a word of the name or an alias); near_miss (within a few edits of the ticker, name or alias: " +
      "given only when nothing matched otherwise)"
  }),
  matched: Schema.String.annotate({ description: "The ticker, name or alias the query matched" })
})

export const SearchResult = Schema.Struct({
  query: Schema.String,
  items: Schema.Array(SearchHit),
  total: Schema.Int,
  sources: Schema.Array(Source)
})
export type SearchResult = typeof SearchResult.Type
