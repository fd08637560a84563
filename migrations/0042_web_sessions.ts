/**
 * The website's sign-in (src/ledger/accounts/WebSession.ts): one row per signed-in browser, holding only the
 * SHA-256 of its cookie, the credential it was opened with (its grants are that credential's, and revoking the
 * credential ends it), whether "remember this device" was chosen, and when it ends.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE web_sessions (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      secret_hash text NOT NULL UNIQUE,
      remember boolean NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      ended_at timestamptz
    )`
  yield* sql`CREATE INDEX web_sessions_user ON web_sessions (user_id)`
})
