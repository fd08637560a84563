/**
 * Signed checkpoints of a stream's head, and what an auditor checks offline.
 *
 * A checkpoint's signed bytes are the canonical JSON of
 * `{format, stream_id, version, head_hash, signed_at, key_id}`: the head
 * event's chain hash appears verbatim in them. The service signs those bytes
 * with Ed25519; anyone holding the public key can check them, and then check
 * that the exported events recompute to that head hash at that version.
 *
 * Pure: signature checking is passed in (`verifySignature`).
 */
import { Schema } from "effect"
import { canonicalJson, chainInput, chainInputV2, GENESIS } from "./Chain.ts"
import { EventRecord } from "./Schemas.ts"

export const CHECKPOINT_FORMAT = "psx-ledger-checkpoint/1"

export const CheckpointBody = Schema.Struct({
  format: Schema.Literal(CHECKPOINT_FORMAT),
  stream_id: Schema.String,
  version: Schema.Int,
  head_hash: Schema.String,
  signed_at: Schema.String,
  key_id: Schema.String
})
export type CheckpointBody = typeof CheckpointBody.Type

export const SignedCheckpoint = Schema.Struct({
  ...CheckpointBody.fields,
  signed: Schema.String.annotate({ description: "The exact bytes signed (UTF-8): canonical JSON of the other fields" }),
  signature: Schema.String.annotate({ description: "Ed25519 signature of `signed`, base64" })
})
export type SignedCheckpoint = typeof SignedCheckpoint.Type

export const SigningKey = Schema.Struct({
  key_id: Schema.String.annotate({ description: "First 16 hex digits of SHA-256 over the key's DER (SPKI) encoding" }),
  algorithm: Schema.Literal("Ed25519"),
  public_key_pem: Schema.String,
  first_used_at: Schema.optionalKey(
    Schema.String.annotate({
      description: "When the service first took it up to sign (absent: never, here): the start of its validity period"
    })
  ),
  last_used_at: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "When it last signed a checkpoint (absent: it has signed none): the end of its validity period so far"
    })
  ),
  current: Schema.Boolean
})
export const SigningKeys = Schema.Struct({
  keys: Schema.Array(SigningKey).annotate({
    description:
      "The keys this service trusts: those pinned in its configuration and the one it signs with (`current`). Pin these."
  }),
  untrusted_keys: Schema.Array(SigningKey).annotate({
    description:
      "Every other key the store records as having signed: neither pinned nor the signing key, so a checkpoint " +
      "signed with one fails verification as a key problem (an old key not pinned after a rotation, or a key someone " +
      "with write access to the database added). Listed for auditors; never pin one of these from this list."
  })
})

export const checkpointBytes = (body: CheckpointBody) => canonicalJson(body)

/**
 * An exported event line as the offline verifier reads it (the fields the
 * chain covers). A line with `metadata` is chain format 2: its hash covers the
 * canonical JSON of `event` and `metadata` byte for byte (the stored bytes).
 */
export const ExportedEvent = Schema.Struct({
  stream_id: Schema.String,
  version: Schema.Int,
  event_id: Schema.String,
  position: Schema.Finite,
  recorded_at: Schema.String,
  effective_date: Schema.String,
  event: Schema.Unknown,
  metadata: Schema.optionalKey(Schema.Unknown),
  prev_hash: Schema.String,
  hash: Schema.String
})
export type ExportedEvent = typeof ExportedEvent.Type

/**
 * An item of the ledger listing (GET /v1/me/ledger): an export line's fields (what `ledger export` writes and the
 * offline verifier recomputes) beside the listing's own `type` and `payload` (the same object as `event`).
 */
export const LedgerItem = Schema.Struct({
  ...EventRecord.fields,
  stream_id: Schema.String,
  event: Schema.Unknown.annotate({
    description:
      "The event as stored (the same object as `payload`): the name `ledger export` and the offline verifier use"
  }),
  metadata: Schema.optionalKey(Schema.Unknown.annotate({
    description: "The metadata the event's hash covers, as stored (the actor's key id, the server's and the client's " +
      "request ids, the Idempotency-Key). Absent for an event written before the hash covered metadata (chain format 1)"
  }))
}).annotate({
  description:
    "One ledger event. Its export line, as `ledger export` writes it and docs/verify-ledger.mjs checks it, is the " +
    "canonical JSON of stream_id, version, event_id, position, recorded_at, effective_date, event, metadata (when present), " +
    "prev_hash and hash: `hash` is SHA-256 over prev_hash, a newline and the canonical JSON of those fields but position, " +
    "prev_hash and hash (with the event under the name `payload`)."
})

export const LedgerListing = Schema.Struct({
  stream_id: Schema.String,
  total: Schema.Int,
  next_cursor: Schema.NullOr(Schema.String),
  items: Schema.Array(LedgerItem)
})
export const ExportLine = Schema.Union([
  Schema.Struct({ checkpoint: SignedCheckpoint }),
  ExportedEvent
])
export const decodeExportLine = Schema.decodeUnknownExit(Schema.fromJsonString(ExportLine))

export interface OfflineFailure {
  readonly stream_id: string
  readonly version: number
  readonly event_id?: string
  readonly reason: string
  /** A checkpoint's problem (key, signature or chain); absent for an event that does not recompute. */
  readonly kind?: CheckpointProblem["kind"]
}

export interface OfflineReport {
  readonly streams: number
  readonly events: number
  readonly checkpoints: number
  readonly failures: ReadonlyArray<OfflineFailure>
}

/** The text hashed for an exported event line (format 2 when it carries its metadata). */
export const exportedHashInput = (prev: string, e: ExportedEvent) =>
  e.metadata !== undefined
    ? chainInputV2(prev, { ...e, payload_json: canonicalJson(e.event), metadata_json: canonicalJson(e.metadata) })
    : chainInput(prev, { ...e, payload: e.event })

/**
 * What is wrong with a checkpoint: its key is not trusted (`key`), its bytes or signature do not hold (`signature`:
 * the checkpoint itself was forged or altered), or the events do not reach its head (`chain`: the events changed).
 */
export interface CheckpointProblem {
  readonly kind: "key" | "signature" | "chain"
  readonly reason: string
}

/**
 * Why a signed checkpoint does not hold, or undefined when it does: its fields
 * are the bytes it signed, it is signed by a trusted (pinned) key, the
 * signature verifies, and the chain recomputes to its head hash at its
 * version (`headAt(version)`: the recomputed or stored hash there, undefined
 * when the stream is shorter).
 */
export const checkpointProblem = (
  c: SignedCheckpoint,
  headAt: (version: number) => string | undefined,
  verifySignature: (keyId: string, bytes: string, signatureBase64: string) => boolean | "unknown key"
): CheckpointProblem | undefined => {
  const body = {
    format: c.format,
    stream_id: c.stream_id,
    version: c.version,
    head_hash: c.head_hash,
    signed_at: c.signed_at,
    key_id: c.key_id
  }
  if (checkpointBytes(body) !== c.signed) {
    return { kind: "signature", reason: "the checkpoint's fields are not the bytes it signed" }
  }
  const ok = verifySignature(c.key_id, c.signed, c.signature)
  if (ok === "unknown key") {
    return {
      kind: "key",
      reason:
        `signed with key ${c.key_id}, which is not among the pinned trusted public keys: the checkpoint cannot be checked (this says nothing about the events)`
    }
  }
  if (!ok) return { kind: "signature", reason: "the signature does not verify: a forged or altered checkpoint" }
  const head = c.version === 0 ? GENESIS : headAt(c.version)
  if (head === undefined) {
    return {
      kind: "chain",
      reason: `the ledger holds fewer than ${c.version} events of this stream: events were removed`
    }
  }
  if (head !== c.head_hash) {
    return {
      kind: "chain",
      reason:
        `the events up to version ${c.version} recompute to another head than the signed checkpoint: history was rewritten at or before this version`
    }
  }
  return undefined
}

/** Why a signed checkpoint does not hold (the reason of `checkpointProblem`), or undefined when it does. */
export const checkCheckpoint = (...args: Parameters<typeof checkpointProblem>): string | undefined =>
  checkpointProblem(...args)?.reason

/**
 * Verifies an export: every stream's chain recomputes (`hash` of each line is
 * SHA-256 over the previous hash and the event), every checkpoint's signature
 * verifies under a trusted key, and every checkpoint's head hash equals the
 * recomputed chain at its version. An attacker who rewrote an event and
 * recomputed every later hash passes the first check and fails the last at
 * the earliest checkpoint after the rewrite.
 */
export const verifyExport = (
  events: ReadonlyArray<ExportedEvent>,
  checkpoints: ReadonlyArray<SignedCheckpoint>,
  sha256: (text: string) => string,
  verifySignature: (keyId: string, bytes: string, signatureBase64: string) => boolean | "unknown key"
): OfflineReport => {
  const failures: Array<OfflineFailure> = []
  const byStream = new Map<string, Array<ExportedEvent>>()
  for (const e of events) {
    const list = byStream.get(e.stream_id)
    if (list === undefined) byStream.set(e.stream_id, [e])
    else list.push(e)
  }
  /** Recomputed head hash after each version, per stream. */
  const recomputed = new Map<string, Array<string>>()
  for (const [stream, list] of byStream) {
    list.sort((a, b) => a.version - b.version)
    const heads: Array<string> = []
    let prev = GENESIS
    let broken = false
    for (const e of list) {
      const hash = sha256(exportedHashInput(prev, e))
      if (!broken) {
        const fail = (reason: string) => {
          failures.push({ stream_id: stream, version: e.version, event_id: e.event_id, reason })
          broken = true
        }
        if (e.version !== heads.length + 1) {
          fail(`version ${e.version} where ${heads.length + 1} was expected (a gap or a reorder)`)
        } else if (e.prev_hash !== prev) fail("prev_hash does not match the previous event's hash")
        else if (hash !== e.hash) fail("the stored hash does not match the event's content: it was altered")
      }
      heads.push(hash)
      prev = hash
    }
    recomputed.set(stream, heads)
  }
  for (const c of [...checkpoints].sort((a, b) => a.stream_id.localeCompare(b.stream_id) || a.version - b.version)) {
    const problem = checkpointProblem(c, (v) => recomputed.get(c.stream_id)?.[v - 1], verifySignature)
    if (problem !== undefined) {
      const reason = problem.kind === "key" ? `key problem: ${problem.reason}` : problem.reason
      failures.push({ stream_id: c.stream_id, version: c.version, reason, kind: problem.kind })
    }
  }
  // One failure per stream and kind is enough to act on: keep the earliest version of each stream first.
  failures.sort((a, b) => a.stream_id.localeCompare(b.stream_id) || a.version - b.version)
  return { streams: byStream.size, events: events.length, checkpoints: checkpoints.length, failures }
}
