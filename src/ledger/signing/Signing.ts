/**
 * The ledger's checkpoint signer: Ed25519 over a stream head's canonical
 * bytes (domain/ledger/Checkpoint.ts), with `node:crypto`.
 *
 * The private key is one per deployment (KeySource.ts): the configured one
 * (LEDGER_SIGNING_KEY(_FILE)), else the deployment key kept in the store,
 * made once, so every process, every restart and the CLI sign and verify with
 * the same key.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createPublicKey, type KeyObject, sign, verify } from "node:crypto"
import { readFileSync } from "node:fs"
import { DataNotFound } from "../../../domain/Errors.ts"
import {
  checkCheckpoint,
  CHECKPOINT_FORMAT,
  CheckpointBody,
  checkpointBytes,
  type SignedCheckpoint,
  type SigningKeys
} from "../../../domain/ledger/Checkpoint.ts"
import { AppConfig } from "../../config/AppConfig.ts"
import { Database } from "../../db/Database.ts"
import { iso } from "../../db/Rows.ts"
import { EventStore } from "../events/EventStore.ts"
import { keyIdOf, loadPrivateKey } from "./KeySource.ts"

export { KEY_FILE, keyIdOf } from "./KeySource.ts"

/** Every public key in a PEM text (one or more `BEGIN PUBLIC KEY` blocks), by key id. */
export const publicKeysFromPem = (pem: string): ReadonlyMap<string, KeyObject> =>
  new Map(
    [...pem.matchAll(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/gu)].map((m) => {
      const key = createPublicKey(m[0])
      return [keyIdOf(key), key] as const
    })
  )

/** Checks an Ed25519 signature (base64) of `bytes` under the key `keyId` among `keys`. */
export const verifyWith =
  (keys: ReadonlyMap<string, KeyObject>) => (keyId: string, bytes: string, signature: string) => {
    const key = keys.get(keyId)
    if (key === undefined) return "unknown key" as const
    return verify(null, Buffer.from(bytes, "utf8"), key, Buffer.from(signature, "base64"))
  }

const KeyRows = Schema.Array(Schema.Struct({
  key_id: Schema.String,
  public_key_pem: Schema.String,
  first_used_at: Schema.String,
  last_used_at: Schema.NullOr(Schema.String)
}))
const CheckpointRows = Schema.Array(Schema.Struct({
  id: Schema.String,
  stream_id: Schema.String,
  version: Schema.Int,
  key_id: Schema.String,
  signed: Schema.String,
  signature: Schema.String,
  signed_at: Schema.String
}))
const CHECKPOINT_COLUMNS = `id::text AS id, stream_id, version, key_id, signed, signature, ${
  iso("signed_at")
} AS signed_at`

const decodeBody = Schema.decodeUnknownOption(Schema.fromJsonString(CheckpointBody))

/** A stored checkpoint row as a signed checkpoint: its fields read back from the signed bytes, the source of truth. */
const fromRow = (r: typeof CheckpointRows.Type[number]): SignedCheckpoint & { readonly id: string } => ({
  // An unreadable body keeps the row's fields, and fails verification rather than the export.
  ...Option.getOrElse(decodeBody(r.signed), () => ({
    format: CHECKPOINT_FORMAT,
    stream_id: r.stream_id,
    version: r.version,
    head_hash: "",
    signed_at: r.signed_at,
    key_id: r.key_id
  })),
  signed: r.signed,
  signature: r.signature,
  id: r.id
})

export type SignatureCheck = (keyId: string, bytes: string, signature: string) => boolean | "unknown key"

type Config = typeof AppConfig.Service
/** The signing key as a signer of any bytes, by its id. */
export interface BytesSigner {
  readonly keyId: string
  readonly sign: (bytes: Uint8Array) => Uint8Array
}

/** The signing key: its private and public halves and its id. */
interface SigningKey {
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  readonly keyId: string
}

/** The signing key, made or read once and recorded in signing_keys. */
const signingKeyOnce = (sql: SqlClient.SqlClient, config: Config, embedded: boolean) =>
  Effect.cached(Effect.gen(function*() {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const privateKey = yield* loadPrivateKey(sql, config, embedded, now).pipe(Effect.orDie)
    if (privateKey.asymmetricKeyType !== "ed25519") {
      return yield* Effect.die(new Error("the ledger signing key must be an Ed25519 private key (PEM, PKCS#8)"))
    }
    const publicKey = createPublicKey(privateKey)
    const keyId = keyIdOf(publicKey)
    yield* sql`INSERT INTO signing_keys (key_id, public_key_pem, first_used_at)
               VALUES (${keyId}, ${String(publicKey.export({ type: "spki", format: "pem" }))}, ${now}::timestamptz)
               ON CONFLICT (key_id) DO NOTHING`
    return { privateKey, publicKey, keyId }
  }))

/**
 * The pinned keys and the signing key's own: never the database's list.
 *
 * Trust is pinned in configuration, not read from the database (which the
 * threat model lets an attacker write): the trusted public keys are those in
 * LEDGER_TRUSTED_KEYS (PEM text) or the file LEDGER_TRUSTED_KEYS_FILE (the
 * same file the offline verifier takes), plus the signing key's own. A
 * checkpoint signed by any other key fails verification as a key problem. To
 * rotate, pin the old public key beside the new private key. `signing_keys`
 * records when each key first and last signed; the keys it records that are
 * not trusted are published apart. A key's id is the first 16 hex digits of
 * SHA-256 over its DER (SPKI) public key.
 */
const trustedKeysOnce = (config: Config, current: Effect.Effect<SigningKey, SqlError.SqlError>) =>
  Effect.cached(Effect.gen(function*() {
    const pinned = Option.isSome(config.ledgerTrustedKeys)
      ? config.ledgerTrustedKeys.value
      : Option.isSome(config.ledgerTrustedKeysFile)
      ? yield* Effect.try(() => readFileSync(config.ledgerTrustedKeysFile.pipe(Option.getOrThrow), "utf8")).pipe(
        Effect.orDie
      )
      : ""
    const keys = new Map(yield* Effect.try(() => publicKeysFromPem(pinned)).pipe(Effect.orDie))
    const own = yield* current
    keys.set(own.keyId, own.publicKey)
    return keys as ReadonlyMap<string, KeyObject>
  }))

/**
 * A stream's checkpoint: the standing one while the head has not moved, else a new one signed and stored.
 *
 * A checkpoint is issued only when the stream's head (read from the event
 * store) has moved since the latest one this key signed; asking again returns
 * that one (no new row).
 */
const makeCheckpoint = (
  sql: SqlClient.SqlClient,
  events: typeof EventStore.Service,
  current: Effect.Effect<SigningKey, SqlError.SqlError>
) => {
  const latestOf = (streamId: string) =>
    Effect.flatMap(
      sql.unsafe(
        `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints WHERE stream_id = $1 ORDER BY version DESC, id DESC LIMIT 1`,
        [streamId]
      ),
      Schema.decodeUnknownEffect(CheckpointRows)
    ).pipe(Effect.orDie, Effect.map((rows) => (rows[0] ? fromRow(rows[0]) : undefined)))

  const checkpoint = Effect.fn("LedgerSigner.checkpoint")(function*(streamId: string) {
    const key = yield* current
    const head = yield* events.head(streamId)
    if (head.version === 0) {
      return yield* new DataNotFound({ message: `stream ${streamId} has no events yet: nothing to sign` })
    }
    // The head has not moved since the latest checkpoint this key signed (and that one verifies): it stands.
    const latest = yield* latestOf(streamId)
    if (
      latest !== undefined && latest.version === head.version && latest.head_hash === head.hash &&
      latest.key_id === key.keyId &&
      checkCheckpoint(latest, () => head.hash, verifyWith(new Map([[key.keyId, key.publicKey]]))) === undefined
    ) {
      const { id: _, ...signedCheckpoint } = latest
      return signedCheckpoint
    }
    const body = {
      format: CHECKPOINT_FORMAT,
      stream_id: streamId,
      version: head.version,
      head_hash: head.hash,
      signed_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
      key_id: key.keyId
    } as const
    const signed = checkpointBytes(body)
    const signature = sign(null, Buffer.from(signed, "utf8"), key.privateKey).toString("base64")
    // The key's last use moves with the checkpoint, in the same statement.
    yield* sql`WITH used AS (
                 UPDATE signing_keys SET last_used_at = greatest(last_used_at, ${body.signed_at}::timestamptz) WHERE key_id = ${key.keyId}
               )
               INSERT INTO checkpoints (stream_id, version, key_id, signed, signature, signed_at)
               VALUES (${streamId}, ${head.version}, ${key.keyId}, ${signed}, ${signature}, ${body.signed_at}::timestamptz)`
    return { ...body, signed, signature }
  })

  return checkpoint
}

/** A key's validity period as the store records it: when it was first taken up and when it last signed. */
const periodOf = (row: typeof KeyRows.Type[number] | undefined) => ({
  ...(row ? { first_used_at: row.first_used_at } : {}),
  ...(row?.last_used_at ? { last_used_at: row.last_used_at } : {})
})
const byFirstUse = (a: { readonly first_used_at?: string; readonly key_id: string }, b: typeof a) =>
  (a.first_used_at ?? "~").localeCompare(b.first_used_at ?? "~") || a.key_id.localeCompare(b.key_id)

/**
 * The keys a verifier trusts (pinned, and the signing key), each with its validity period; and apart, every other
 * key the store records as having signed (their checkpoints fail verification as a key problem).
 */
const makePublicKeys = (
  sql: SqlClient.SqlClient,
  current: Effect.Effect<SigningKey, SqlError.SqlError>,
  trusted: Effect.Effect<ReadonlyMap<string, KeyObject>, SqlError.SqlError>
) =>
  Effect.fn("LedgerSigner.publicKeys")(function*() {
    const key = yield* current
    const keys = yield* trusted
    const rows = yield* Effect.flatMap(
      sql.unsafe(
        `SELECT key_id, public_key_pem, ${iso("first_used_at")} AS first_used_at, ${
          iso("last_used_at")
        } AS last_used_at FROM signing_keys`
      ),
      Schema.decodeUnknownEffect(KeyRows)
    ).pipe(Effect.orDie)
    const recorded = new Map(rows.map((r) => [r.key_id, r]))
    const trustedKeys = [...keys].map(([keyId, publicKey]) => ({
      key_id: keyId,
      algorithm: "Ed25519" as const,
      public_key_pem: String(publicKey.export({ type: "spki", format: "pem" })),
      ...periodOf(recorded.get(keyId)),
      current: keyId === key.keyId
    }))
    const untrusted = rows.filter((r) => !keys.has(r.key_id)).map((r) => ({
      key_id: r.key_id,
      algorithm: "Ed25519" as const,
      public_key_pem: r.public_key_pem,
      ...periodOf(r),
      current: false
    }))
    return { keys: trustedKeys.sort(byFirstUse), untrusted_keys: untrusted.sort(byFirstUse) }
  })()

/** Stored checkpoints: all of them, or a stream's after a given id. */
const checkpointReads = (sql: SqlClient.SqlClient) => {
  const readCheckpoints = (where: string, params: ReadonlyArray<unknown>) =>
    Effect.flatMap(
      sql.unsafe(`SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints ${where} ORDER BY id`, params),
      Schema.decodeUnknownEffect(CheckpointRows)
    ).pipe(Effect.orDie, Effect.map((rows) => rows.map(fromRow)))

  const allCheckpoints = Effect.fn("LedgerSigner.allCheckpoints")(function*() {
    const rows = yield* readCheckpoints("", [])
    return rows.map(({ id: _, ...c }) => c)
  })()

  const checkpointsOf = Effect.fn("LedgerSigner.checkpointsOf")(function*(streamId: string, afterId: string) {
    return yield* readCheckpoints("WHERE stream_id = $1 AND id > $2::bigint", [streamId, afterId])
  })

  return { allCheckpoints, checkpointsOf }
}

export class LedgerSigner extends Context.Service<LedgerSigner, {
  /** The stream's checkpoint at its current head: the latest one when the head has not moved, else a new one. DATA_NOT_FOUND for an empty stream. */
  readonly checkpoint: (streamId: string) => Effect.Effect<SignedCheckpoint, DataNotFound | SqlError.SqlError>
  /** The trusted (pinned) public keys, the current one marked, and apart the other keys the store records. */
  readonly publicKeys: Effect.Effect<typeof SigningKeys.Type, SqlError.SqlError>
  /** Checks a signature against the pinned keys only ("unknown key" for any other). */
  readonly verifier: Effect.Effect<SignatureCheck, SqlError.SqlError>
  /** Every checkpoint issued, oldest first (for `ledger export`). */
  readonly allCheckpoints: Effect.Effect<ReadonlyArray<SignedCheckpoint>, SqlError.SqlError>
  /** A stream's checkpoints issued after the one with id `afterId`, oldest first, with their ids. */
  readonly checkpointsOf: (
    streamId: string,
    afterId: string
  ) => Effect.Effect<ReadonlyArray<SignedCheckpoint & { readonly id: string }>, SqlError.SqlError>
  /** The same key signing other bytes (signed answers, AnswerKey.ts): its id and an Ed25519 signature of any bytes. */
  readonly bytesSigner: Effect.Effect<BytesSigner, SqlError.SqlError>
}>()("psx/ledger/LedgerSigner") {
  static readonly layer = Layer.effect(
    LedgerSigner,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const embedded = (yield* Database).mode === "embedded"
      // On first use: a process that never signs never reads or makes a key.
      const current = yield* signingKeyOnce(sql, config, embedded)
      const trusted = yield* trustedKeysOnce(config, current)
      const verifier = Effect.fn("LedgerSigner.verifier")(function*() {
        return verifyWith(yield* trusted)
      })()
      const bytesSigner = Effect.map(current, (key): BytesSigner => ({
        keyId: key.keyId,
        sign: (bytes) => sign(null, bytes, key.privateKey)
      }))
      return {
        checkpoint: makeCheckpoint(sql, yield* EventStore, current),
        publicKeys: makePublicKeys(sql, current, trusted),
        verifier,
        ...checkpointReads(sql),
        bytesSigner
      }
    })
  )
}
