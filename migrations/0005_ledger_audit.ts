/**
 * Ledger: a catch-up order the embedded store can compare, and signed
 * checkpoints.
 *
 * - `events.txn`: the writing transaction's id as a bigint, derived from
 *   `tx`. The embedded store (PGlite, 32-bit WebAssembly) mis-orders `xid8`
 *   values, so catch-up readers page by (txn, position) instead.
 * - `checkpoints`: every signed checkpoint the service issued (the signed
 *   bytes and the Ed25519 signature; never a private key).
 * - `signing_keys`: every public key the service has signed with, so old
 *   checkpoints stay verifiable after a rotation.
 * - `stream_heads`: per stream, the head an append continues from (version,
 *   hash) and the latest effective date. With the holdings projection this is
 *   the state a command is decided from, so an append's cost does not grow
 *   with its stream; `verify` checks it against a replay.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE events ADD COLUMN txn bigint GENERATED ALWAYS AS ((tx::text)::bigint) STORED`
  yield* sql`CREATE INDEX events_txn_position ON events (txn, position)`
  yield* sql`
    CREATE TABLE signing_keys (
      key_id text PRIMARY KEY,
      public_key_pem text NOT NULL,
      first_used_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE checkpoints (
      id bigserial PRIMARY KEY,
      stream_id text NOT NULL,
      version integer NOT NULL,
      key_id text NOT NULL REFERENCES signing_keys (key_id),
      signed text NOT NULL,
      signature text NOT NULL,
      signed_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX checkpoints_stream ON checkpoints (stream_id, version)`
  yield* sql`
    CREATE TABLE stream_heads (
      stream_id text PRIMARY KEY,
      version integer NOT NULL,
      head_hash text NOT NULL,
      last_effective date NOT NULL
    )`
  yield* sql`
    INSERT INTO stream_heads (stream_id, version, head_hash, last_effective)
    SELECT DISTINCT ON (stream_id) stream_id, version, hash,
           max(effective_date) OVER (PARTITION BY stream_id)
    FROM events ORDER BY stream_id, version DESC`
})
