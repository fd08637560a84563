/**
 * A portfolio's settings (`GET`/`PUT /v1/me/settings`): one row per user.
 * `auto_record_entitlements` opts in to recording entitlements as they fall
 * due; `auto_record_since` is the Karachi date it was last turned on (only
 * entitlements falling due from then are recorded automatically) and
 * `auto_record_key_id` the credential that turned it on (the actor named in
 * the metadata of the events recorded for it). The partial index serves the
 * background sweep, which pages through the portfolios that opted in.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE portfolio_settings (
      user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      auto_record_entitlements boolean NOT NULL DEFAULT false,
      auto_record_since date,
      auto_record_key_id text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX portfolio_settings_auto_record ON portfolio_settings (user_id) WHERE auto_record_entitlements`
})
