/**
 * Entitlements a user dismissed (`POST /v1/me/entitlements/{id}/dismiss`):
 * one row per user and entitlement id (`ent-<payout id>`), so the inbox hides
 * it. Entitlements themselves are computed on read and never stored.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE entitlement_dismissals (
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      entitlement_id text NOT NULL,
      dismissed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, entitlement_id)
    )`
})
