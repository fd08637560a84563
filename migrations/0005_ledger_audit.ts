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
})
