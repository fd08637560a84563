/**
 * Where the ledger's checkpoint-signing key comes from: one key per
 * deployment, the same in every process, after every restart, and in the CLI.
 * The order and the checks are at `loadPrivateKey`.
 */
import { Effect, Option, Redacted, Schema } from "effect"
import { type SqlClient } from "effect/sql"
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  scryptSync
} from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { AppConfig } from "../../config/AppConfig.ts"

/** The key file an embedded store kept before the deployment key lived in the store. */
export const KEY_FILE = "psx-ledger-signing-key.pem"

/** The key id of a public key: 16 hex digits of SHA-256 over its SPKI DER. */
export const keyIdOf = (publicKey: KeyObject) =>
  createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex").slice(0, 16)

const DeploymentRows = Schema.Array(
  Schema.Struct({ key_id: Schema.String, private_key_pem: Schema.String, sealed: Schema.Boolean })
)
type DeploymentRow = typeof DeploymentRows.Type[number]

/**
 * The passphrase as PKCS#8 encryption takes it: stretched with scrypt first, since PKCS#8's PBKDF2 (2,048 rounds of
 * HMAC-SHA256) alone makes a guess cheap for someone who copied the row.
 */
const stretch = (passphrase: Redacted.Redacted) =>
  scryptSync(Redacted.value(passphrase), "psx-ledger-deployment-key/1", 32, {
    N: 2 ** 15,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024
  }).toString("base64")

/** The PEM a deployment row holds: sealed (encrypted) with a passphrase, else in the clear. */
export const pemOf = (key: KeyObject, passphrase: Option.Option<Redacted.Redacted>) =>
  String(
    Option.isSome(passphrase)
      ? key.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: stretch(passphrase.value) })
      : key.export({ type: "pkcs8", format: "pem" })
  )

/** The private key a deployment row holds, or why it cannot be used. */
export const openDeploymentKey = (
  row: DeploymentRow,
  passphrase: Option.Option<Redacted.Redacted>
): KeyObject | string => {
  if (row.sealed && Option.isNone(passphrase)) {
    return "the ledger's deployment key in the store is sealed: set LEDGER_KEY_PASSPHRASE to the passphrase it was sealed with"
  }
  if (!row.sealed && Option.isSome(passphrase)) {
    return "LEDGER_KEY_PASSPHRASE is set but the deployment key in the store is not sealed with it: it was made before the " +
      "passphrase was set, or someone replaced it (see README, 'The signing key')"
  }
  let key: KeyObject
  try {
    key = Option.isSome(passphrase)
      ? createPrivateKey({ key: row.private_key_pem, format: "pem", passphrase: stretch(passphrase.value) })
      : createPrivateKey(row.private_key_pem)
  } catch {
    return "the ledger's deployment key in the store does not open" +
      (row.sealed ? " with LEDGER_KEY_PASSPHRASE (a wrong passphrase, or the row was replaced)" : "")
  }
  if (key.asymmetricKeyType !== "ed25519") return "the ledger's deployment key in the store is not an Ed25519 key"
  if (keyIdOf(createPublicKey(key)) !== row.key_id) {
    return `the deployment key row names key ${row.key_id}, but holds another key: the row was altered`
  }
  return key
}

/** The deployment key kept in the store: made and inserted once (race-safe), then read back by every process. */
export const deploymentKey = (
  sql: SqlClient.SqlClient,
  passphrase: Option.Option<Redacted.Redacted>,
  candidate: () => KeyObject,
  now: string
) =>
  Effect.gen(function*() {
    const read = Effect.flatMap(
      sql`SELECT key_id, private_key_pem, sealed FROM ledger_deployment_key`,
      Schema.decodeUnknownEffect(DeploymentRows)
    ).pipe(Effect.orDie)
    let row = (yield* read)[0]
    if (row === undefined) {
      const key = candidate()
      yield* sql`INSERT INTO ledger_deployment_key (key_id, private_key_pem, sealed, created_at)
                 VALUES (${keyIdOf(createPublicKey(key))}, ${pemOf(key, passphrase)}, ${
        Option.isSome(passphrase)
      }, ${now}::timestamptz)
                 ON CONFLICT (one) DO NOTHING`
      row = (yield* read)[0]
    }
    if (row === undefined) {
      return yield* Effect.die(new Error("the ledger's deployment key row vanished after it was inserted"))
    }
    const key = openDeploymentKey(row, passphrase)
    if (typeof key === "string") return yield* Effect.die(new Error(key))
    if (!row.sealed) {
      yield* Effect.logWarning({
        msg:
          "the ledger's deployment signing key is kept unencrypted in the store: whoever can read the database can sign " +
          "checkpoints. Set LEDGER_KEY_PASSPHRASE (a new deployment) or LEDGER_SIGNING_KEY_FILE",
        key_id: row.key_id
      })
    }
    return key
  })

type Config = typeof AppConfig.Service

/**
 * The signing key: the configured one, else the store's deployment key (offering an embedded store's old key file).
 *
 * 1. A configured key (LEDGER_SIGNING_KEY, a PEM, or the file
 *    LEDGER_SIGNING_KEY_FILE): the operator holds it; it never enters the
 *    store.
 * 2. Otherwise the deployment key kept in the store (`ledger_deployment_key`,
 *    one row). The first process that signs makes a key and inserts it with
 *    ON CONFLICT DO NOTHING, then reads the row back: whoever lost the race
 *    uses the winner's key. An embedded store that still has the key file of
 *    earlier versions (`<PSX_DATA_DIR>/psx-ledger-signing-key.pem`) offers
 *    that key, so its id (and every checkpoint signed with it) is kept.
 *    With LEDGER_KEY_PASSPHRASE the private half is stored encrypted
 *    (PKCS#8, AES-256-CBC; the passphrase is stretched with scrypt, N = 2^15,
 *    before PKCS#8's own PBKDF2 of 2,048 rounds) and the row is `sealed`;
 *    without it the row holds the key in the clear and a warning is logged.
 *
 * A sealed row that does not open with the passphrase, a row whose key id is
 * not its key's, or an unsealed row while a passphrase is set (someone may
 * have put their own key there) stops signing with a defect naming the cause;
 * nothing is signed with a key the operator did not make.
 */
export const loadPrivateKey = (sql: SqlClient.SqlClient, config: Config, embedded: boolean, now: string) =>
  Effect.gen(function*() {
    if (Option.isSome(config.ledgerSigningKey)) return createPrivateKey(Redacted.value(config.ledgerSigningKey.value))
    if (Option.isSome(config.ledgerSigningKeyFile)) {
      return createPrivateKey(readFileSync(config.ledgerSigningKeyFile.value, "utf8"))
    }
    const legacy = join(config.dataDir, KEY_FILE)
    const candidate = () =>
      embedded && existsSync(legacy)
        ? createPrivateKey(readFileSync(legacy, "utf8"))
        : generateKeyPairSync("ed25519").privateKey
    return yield* deploymentKey(sql, config.ledgerKeyPassphrase, candidate, now)
  })
