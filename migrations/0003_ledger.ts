/**
 * The ledger: users, API keys (hashed), the append-only event store with its
 * hash chain, the holdings projection, and idempotency records.
 *
 * The database itself refuses UPDATE, DELETE and TRUNCATE on `events`, so
 * even a bug cannot rewrite history. Each event records the id of the
 * transaction that wrote it, so catch-up readers can stop below the oldest
 * transaction still in flight and never skip an event committed late with a
 * lower position.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE users (
      id text PRIMARY KEY,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id),
      secret_hash text NOT NULL UNIQUE,
      prefix text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('session', 'key')),
      label text,
      grants text[] NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX api_keys_user ON api_keys (user_id)`
  yield* sql`
    CREATE TABLE events (
      position bigserial PRIMARY KEY,
      stream_id text NOT NULL,
      version integer NOT NULL CHECK (version > 0),
      event_id text NOT NULL UNIQUE,
      type text NOT NULL,
      payload jsonb NOT NULL,
      metadata jsonb NOT NULL,
      recorded_at timestamptz NOT NULL,
      effective_date date NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL,
      tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
      UNIQUE (stream_id, version)
    )`
  yield* sql`
    CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$`
  yield* sql`
    CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only()`
  yield* sql`
    CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only()`
  yield* sql`
    CREATE TABLE holdings (
      stream_id text NOT NULL,
      symbol text NOT NULL,
      quantity numeric NOT NULL,
      cost numeric NOT NULL,
      realized_pnl numeric NOT NULL,
      dividends_gross numeric NOT NULL,
      dividends_net numeric NOT NULL,
      tax_withheld numeric NOT NULL,
      fractional_entitlements numeric NOT NULL,
      as_of_version integer NOT NULL,
      PRIMARY KEY (stream_id, symbol)
    )`
  yield* sql`
    CREATE TABLE idempotency (
      user_id text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      event_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, key)
    )`
})
