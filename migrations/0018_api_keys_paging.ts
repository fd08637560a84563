/**
 * A user's credentials in listing order, for the paged key list
 * (`GET /v1/me/keys`: keyset pages by creation time, then id) and the count
 * of a user's live API keys that bounds how many a user may hold.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX api_keys_user_created ON api_keys (user_id, created_at, id)`
})
