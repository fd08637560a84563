/**
 * Delistings: a symbol that leaves the portal's listing (`GET /symbols`) is
 * kept, with the Karachi day it was first seen gone, so its history and
 * filings stay served. NULL while listed; cleared if it comes back.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE securities ADD COLUMN delisted_on date`
})
