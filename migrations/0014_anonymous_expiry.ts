/**
 * Anonymous users that never recorded an event expire.
 *
 * - `users.last_seen_at`: when one of the user's credentials last
 *   authenticated, written at most once an hour per user (absent: never since
 *   it was created).
 * - `users.has_events`: set once by the sweep when it finds a user's
 *   portfolio stream has events; such a user is never removed, and the
 *   partial index leaves it out of every later sweep, so a sweep reads only
 *   users it may remove.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE users ADD COLUMN last_seen_at timestamptz, ADD COLUMN has_events boolean NOT NULL DEFAULT false`
  yield* sql`CREATE INDEX users_idle ON users ((coalesce(last_seen_at, created_at))) WHERE NOT has_events`
})
