/**
 * The ledger's checkpoint signer: Ed25519 over a stream head's canonical
 * bytes (domain/ledger/Checkpoint.ts), with `node:crypto`.
 *
 * The private key comes from configuration (LEDGER_SIGNING_KEY, a PEM, or
 * the file LEDGER_SIGNING_KEY_FILE). Without one, the embedded store
 * generates a key on first use and keeps it in its data directory
 * (`<PSX_DATA_DIR>/psx-ledger-signing-key.pem`, mode 0600); against a
 * PostgreSQL server without a configured key, each process signs with a key
 * of its own (logged). The private key is never written to the database;
 * every public key ever used is (`signing_keys`), so checkpoints signed
 * before a rotation stay verifiable. A key's id is the first 16 hex digits of
 * SHA-256 over its DER (SPKI) public key.
 */
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { DataNotFound } from "../../domain/Errors.ts"
import { CHECKPOINT_FORMAT, CheckpointBody, checkpointBytes, type SignedCheckpoint, SigningKey } from "../../domain/ledger/Checkpoint.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { Database } from "../db/Database.ts"
import { iso } from "../db/Rows.ts"

export const KEY_FILE = "psx-ledger-signing-key.pem"

/** The key id of a public key: 16 hex digits of SHA-256 over its SPKI DER. */
export const keyIdOf = (publicKey: KeyObject) =>
  createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex").slice(0, 16)

/** Every public key in a PEM text (one or more `BEGIN PUBLIC KEY` blocks), by key id. */
export const publicKeysFromPem = (pem: string): ReadonlyMap<string, KeyObject> =>
  new Map(
    [...pem.matchAll(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/gu)].map((m) => {
      const key = createPublicKey(m[0])
      return [keyIdOf(key), key] as const
    })
  )

/** Checks an Ed25519 signature (base64) of `bytes` under the key `keyId` among `keys`. */
export const verifyWith = (keys: ReadonlyMap<string, KeyObject>) => (keyId: string, bytes: string, signature: string) => {
  const key = keys.get(keyId)
  if (key === undefined) return "unknown key" as const
  return verify(null, Buffer.from(bytes, "utf8"), key, Buffer.from(signature, "base64"))
}

const KeyRows = Schema.Array(Schema.Struct({ key_id: Schema.String, public_key_pem: Schema.String, first_used_at: Schema.String }))
const HeadRows = Schema.Array(Schema.Struct({ version: Schema.Int, hash: Schema.String }))
const CheckpointRows = Schema.Array(Schema.Struct({
  stream_id: Schema.String,
  version: Schema.Int,
  key_id: Schema.String,
  signed: Schema.String,
  signature: Schema.String,
  signed_at: Schema.String
}))

const decodeBody = Schema.decodeUnknownOption(Schema.fromJsonString(CheckpointBody))

export class LedgerSigner extends Context.Service<LedgerSigner, {
  /** Signs the stream's current head and records the checkpoint. DATA_NOT_FOUND for an empty stream. */
  readonly checkpoint: (streamId: string) => Effect.Effect<SignedCheckpoint, DataNotFound | SqlError.SqlError>
  /** Every public key the service has signed with (the current one marked). */
  readonly publicKeys: Effect.Effect<ReadonlyArray<typeof SigningKey.Type>, SqlError.SqlError>
  /** Every checkpoint issued, oldest first (for `ledger export`). */
  readonly allCheckpoints: Effect.Effect<ReadonlyArray<SignedCheckpoint>, SqlError.SqlError>
}>()("psx/ledger/LedgerSigner") {
  static readonly layer = Layer.effect(
    LedgerSigner,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const database = yield* Effect.serviceOption(Database)
      const embedded = Option.isSome(database) && database.value.mode === "embedded"

      const loadPrivate = Effect.gen(function*() {
        if (Option.isSome(config.ledgerSigningKey)) return createPrivateKey(Redacted.value(config.ledgerSigningKey.value))
        if (Option.isSome(config.ledgerSigningKeyFile)) return createPrivateKey(readFileSync(config.ledgerSigningKeyFile.value, "utf8"))
        const generate = () => generateKeyPairSync("ed25519").privateKey
        if (!embedded) {
          yield* Effect.logWarning({ msg: "no LEDGER_SIGNING_KEY(_FILE) configured: checkpoints are signed with a key of this process" })
          return generate()
        }
        const path = join(config.dataDir, KEY_FILE)
        if (existsSync(path)) return createPrivateKey(readFileSync(path, "utf8"))
        const key = generate()
        mkdirSync(config.dataDir, { recursive: true })
        writeFileSync(path, key.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" })
        return key
      })

      // On first use: a process that never signs never reads or makes a key.
      const current = yield* Effect.cached(Effect.gen(function*() {
        const privateKey = yield* Effect.try(() => loadPrivate).pipe(Effect.flatten, Effect.orDie)
        if (privateKey.asymmetricKeyType !== "ed25519") {
          return yield* Effect.die(new Error("the ledger signing key must be an Ed25519 private key (PEM, PKCS#8)"))
        }
        const publicKey = createPublicKey(privateKey)
        const keyId = keyIdOf(publicKey)
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* sql`INSERT INTO signing_keys (key_id, public_key_pem, first_used_at)
                   VALUES (${keyId}, ${String(publicKey.export({ type: "spki", format: "pem" }))}, ${now}::timestamptz)
                   ON CONFLICT (key_id) DO NOTHING`
        return { privateKey, keyId }
      }))

      const checkpoint = Effect.fn("LedgerSigner.checkpoint")(function*(streamId: string) {
        const key = yield* current
        const heads = yield* Effect.flatMap(
          sql`SELECT version, hash FROM events WHERE stream_id = ${streamId} ORDER BY version DESC LIMIT 1`,
          Schema.decodeUnknownEffect(HeadRows)
        ).pipe(Effect.orDie)
        const head = heads[0]
        if (head === undefined) return yield* new DataNotFound({ message: `stream ${streamId} has no events yet: nothing to sign` })
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
        yield* sql`INSERT INTO checkpoints (stream_id, version, key_id, signed, signature, signed_at)
                   VALUES (${streamId}, ${head.version}, ${key.keyId}, ${signed}, ${signature}, ${body.signed_at}::timestamptz)`
        return { ...body, signed, signature }
      })

      const publicKeys = Effect.gen(function*() {
        const key = yield* current
        const rows = yield* Effect.flatMap(
          sql.unsafe(`SELECT key_id, public_key_pem, ${iso("first_used_at")} AS first_used_at FROM signing_keys ORDER BY first_used_at, key_id`),
          Schema.decodeUnknownEffect(KeyRows)
        ).pipe(Effect.orDie)
        return rows.map((r) => ({ ...r, algorithm: "Ed25519" as const, current: r.key_id === key.keyId }))
      })

      const allCheckpoints = Effect.flatMap(
        sql.unsafe(`SELECT stream_id, version, key_id, signed, signature, ${iso("signed_at")} AS signed_at FROM checkpoints ORDER BY id`),
        Schema.decodeUnknownEffect(CheckpointRows)
      ).pipe(
        Effect.orDie,
        // The stored signed bytes are the source of truth: the fields are read back from them (an
        // unreadable one keeps the row's fields, and fails verification rather than the export).
        Effect.map((rows) =>
          rows.map((r): SignedCheckpoint => ({
            ...Option.getOrElse(decodeBody(r.signed), () => ({
              format: CHECKPOINT_FORMAT,
              stream_id: r.stream_id,
              version: r.version,
              head_hash: "",
              signed_at: r.signed_at,
              key_id: r.key_id
            })),
            signed: r.signed,
            signature: r.signature
          }))
        )
      )

      return { checkpoint, publicKeys, allCheckpoints }
    })
  )
}
