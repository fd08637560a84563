/** The handler of GET /v1/search: a thin call into Search. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../http/Api.ts"
import { Search } from "./Search.ts"

export const SearchHttp = HttpApiBuilder.group(
  Api,
  "search",
  (handlers) =>
    Effect.map(Search, (search) => handlers.handle("search", ({ query }) => search.search(query.q, query.limit)))
)
