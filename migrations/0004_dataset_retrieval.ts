/**
 * Datasets say when their figures were fetched from upstream, and separately
 * when this service loaded them. `retrieved_at` becomes text: a recording's
 * retrieval is known to the day or the month (as its provenance states it), a
 * live portal read to the instant (ISO 8601 UTC); a time of day is never
 * invented. `loaded_at` is the instant this service wrote the dataset (what
 * `retrieved_at` used to hold).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE datasets ADD COLUMN loaded_at timestamptz`
  yield* sql`UPDATE datasets SET loaded_at = retrieved_at`
  yield* sql`ALTER TABLE datasets ALTER COLUMN loaded_at SET NOT NULL`
  // Pack datasets: the recording's retrieval date; portal datasets: the read instant.
  yield* sql`
    ALTER TABLE datasets ALTER COLUMN retrieved_at TYPE text USING CASE
      WHEN pack_version IS NOT NULL THEN recorded_at
      ELSE to_char(retrieved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    END`
})
