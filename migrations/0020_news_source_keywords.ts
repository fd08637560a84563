/**
 * News: the words a recording's author searched for to find an item, kept
 * apart from the tags (which say what the item names). Space-separated
 * tickers as the recording gives them; NULL when the source has none (live
 * feeds, the headline digests).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE news_items ADD COLUMN source_keywords text`
})
