/**
 * Ledger: a leaner commit, and a hash chain over the exact stored bytes.
 *
 * - `events.payload_json`, `events.metadata_json`: new events store their
 *   payload and metadata as canonical JSON text, and chain format 2 hashes
 *   those bytes verbatim, the metadata (actor, the server's request id, the
 *   client's) included. Older rows keep `payload`/`metadata` (jsonb, format 1);
 *   exactly one of the two forms is set on every row.
 * - `events.last_effective`: the latest effective date of the stream up to
 *   and including this event. The head an append continues from is then the
 *   stream's last row (version, hash, latest effective date), read through the
 *   (stream_id, version) index, so `stream_heads` is no longer written by every
 *   commit and is dropped. `verify` checks each row's value against the replay.
 * - Indexes no query needs are dropped: the primary key on `position` (the
 *   catch-up reader pages by (txn, position), which has its own index) and the
 *   unique index on `event_id` (an idempotent replay finds its event by the
 *   version its claim now records). What remains on `events`: (stream_id,
 *   version), the expected-version check and every stream read, and
 *   (txn, position), the commit-safe catch-up order.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE events ADD COLUMN payload_json text, ADD COLUMN metadata_json text, ADD COLUMN last_effective date`
  yield* sql`ALTER TABLE events ALTER COLUMN payload DROP NOT NULL, ALTER COLUMN metadata DROP NOT NULL`
  // A derived column on existing rows: the append-only trigger is lifted for this one statement.
  yield* sql`ALTER TABLE events DISABLE TRIGGER events_no_update_delete`
  yield* sql`
    UPDATE events e SET last_effective = r.last_effective
    FROM (SELECT position, max(effective_date) OVER (PARTITION BY stream_id ORDER BY version) AS last_effective FROM events) r
    WHERE r.position = e.position`
  yield* sql`ALTER TABLE events ENABLE TRIGGER events_no_update_delete`
  yield* sql`ALTER TABLE events ALTER COLUMN last_effective SET NOT NULL`
  yield* sql`ALTER TABLE events ADD CONSTRAINT events_one_payload CHECK ((payload IS NULL) <> (payload_json IS NULL))`
  yield* sql`ALTER TABLE events DROP CONSTRAINT IF EXISTS events_pkey`
  yield* sql`ALTER TABLE events DROP CONSTRAINT IF EXISTS events_event_id_key`
  yield* sql`ALTER TABLE idempotency ADD COLUMN version integer`
  yield* sql`DROP TABLE IF EXISTS stream_heads`
})
