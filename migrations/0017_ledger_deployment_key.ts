/**
 * Ledger signing: one key per deployment, and each key's validity period.
 *
 * - `ledger_deployment_key`: at most one row (the `one` column is true and
 *   unique): the checkpoint-signing key of a PostgreSQL deployment that has no
 *   LEDGER_SIGNING_KEY(_FILE). The first process to sign makes it and inserts
 *   it with ON CONFLICT DO NOTHING; every process (and the CLI) reads the row
 *   that won, so restarts and instances sign with the same key. Its private
 *   half is a PKCS#8 PEM, encrypted with LEDGER_KEY_PASSPHRASE when the
 *   operator set one (`sealed`).
 * - `signing_keys.last_used_at`: when each key last signed a checkpoint, so
 *   the published keys carry the period each one signed in (filled from the
 *   checkpoints already issued).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE ledger_deployment_key (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      key_id text NOT NULL,
      private_key_pem text NOT NULL,
      sealed boolean NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`ALTER TABLE signing_keys ADD COLUMN last_used_at timestamptz`
  yield* sql`UPDATE signing_keys k SET last_used_at = (SELECT max(signed_at) FROM checkpoints c WHERE c.key_id = k.key_id)`
})
