/**
 * The ledger's audit trail against someone who can write the database: the
 * hash covers the actor and the request ids, the exact stored bytes are
 * hashed and unknown keys flagged, trust comes from pinned keys (never the
 * `signing_keys` table), a checkpoint is issued only when the head moved, and
 * the auditor's stand-alone script (docs/verify-ledger.mjs, Node's standard
 * library only) names a rewritten event. Events are appended through the
 * store (no market data needed); runs on both stores.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { spawnSync } from "node:child_process"
import { createPublicKey, generateKeyPairSync, sign } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { canonicalJson, chainInputV2 } from "../domain/ledger/Chain.ts"
import { checkpointBytes } from "../domain/ledger/Checkpoint.ts"
import type { LedgerEvent } from "../domain/ledger/Events.ts"
import { Keys } from "../src/ledger/accounts/Keys.ts"
import { Audit } from "../src/ledger/events/Audit.ts"
import { COLUMNS, EventStore, sha256 } from "../src/ledger/events/EventStore.ts"
import { eventRows } from "../src/ledger/events/StoredRows.ts"
import { verifyReport } from "../src/ledger/events/VerifyReport.ts"
import { streamOf } from "../src/ledger/portfolio/Portfolio.ts"
import { keyIdOf, LedgerSigner } from "../src/ledger/signing/Signing.ts"
import { assertOk, bodyOf, get, post, TestApp } from "./support/TestApp.ts"

const signingKey = generateKeyPairSync("ed25519").privateKey
const publicPem = createPublicKey(signingKey).export({ type: "spki", format: "pem" }).toString()
const App = TestApp({
  now: "2026-11-21T05:00:00.000Z",
  ledgerSigningKey: Option.some(Redacted.make(signingKey.export({ type: "pkcs8", format: "pem" }).toString()))
})

// Synthetic donation events (a unit fixture: the audit trail does not depend on what an event says).
const donation = (n: number): LedgerEvent => ({
  type: "DonationRecorded",
  donation_id: `d-${n}`,
  amount: n,
  currency: "PKR",
  status: "pending"
})
const fresh = (name: string) => `${name}-${Math.random().toString(36).slice(2)}`
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** Appends `n` events one by one with the given metadata. */
const appendN = (stream: string, n: number, metadata: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const store = yield* EventStore
    for (let i = 1; i <= n; i++) yield* store.append(stream, yield* store.head(stream), [donation(i)], metadata)
  })

const rowsOf = (stream: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* Effect.flatMap(
      sql.unsafe(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY version`, [stream]),
      eventRows
    )
  })

/** Rewrites stored rows with the append-only trigger lifted, as an attacker with the owner's rights could. */
const tamper = (statement: string, params: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
    yield* sql.unsafe(statement, params)
    yield* sql.unsafe("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
  })

/** Rewrites version `at`'s payload text and recomputes every later hash, so the chain alone still holds. */
const rewriteAndRehash = (stream: string, at: number, rewrite: (payloadJson: string) => string) =>
  Effect.gen(function*() {
    const rows = yield* rowsOf(stream)
    let prev = rows[at - 2]?.hash ?? "0".repeat(64)
    for (const r of rows.slice(at - 1)) {
      const payload_json = r.version === at ? rewrite(r.payload_json!) : r.payload_json!
      assert.isTrue(r.version !== at || payload_json !== r.payload_json, "the rewrite changes the stored bytes")
      const hash = sha256(chainInputV2(prev, { ...r, payload_json, metadata_json: r.metadata_json! }))
      yield* tamper("UPDATE events SET payload_json = $1, prev_hash = $2, hash = $3 WHERE event_id = $4", [
        payload_json,
        prev,
        hash,
        r.event_id
      ])
      prev = hash
    }
  })

layer(App, { timeout: 300_000, excludeTestServices: true })("ledger audit trail", (it) => {
  it.effect("the actor and the server's request id are hashed; the client's X-Request-Id is kept apart; changing either fails verify", () =>
    Effect.gen(function*() {
      const r = yield* post("/v1/donations", { amount: 250 }, { "x-request-id": "client-says-42" })
      assertOk(r)
      const serverId = r.headers["x-request-id"]!
      assert.notStrictEqual(serverId, "client-says-42")
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<
        { metadata_json: string }
      >`SELECT metadata_json FROM events WHERE event_id = ${r.body.event_id}`
      assert.deepStrictEqual(JSON.parse(stored[0]!.metadata_json), { request_id: serverId })

      const stream = fresh("audit-meta")
      yield* appendN(stream, 3, { actor_key_id: "key-a", request_id: "srv-1", client_request_id: "cli-1" })
      const audit = yield* Audit
      assert.isTrue((yield* audit.verifyStream(stream)).ok)
      const second = (yield* rowsOf(stream))[1]!
      assert.include(second.metadata_json!, `"actor_key_id":"key-a"`)
      yield* tamper("UPDATE events SET metadata_json = replace(metadata_json, 'key-a', 'key-b') WHERE event_id = $1", [
        second.event_id
      ])
      const v = yield* audit.verifyStream(stream)
      assert.isFalse(v.ok)
      assert.deepStrictEqual([v.first_failure?.event_id, v.first_failure?.version], [second.event_id, 2])
      assert.match(v.first_failure!.reason, /altered/)
      const all = yield* audit.verifyAll()
      assert.include(all.failures.map((f) => f.first_failure?.event_id), second.event_id)
    }))

  it.effect("an extra key added to the stored JSON is flagged, even with every hash recomputed", () =>
    Effect.gen(function*() {
      const stream = fresh("audit-extra")
      yield* appendN(stream, 3)
      yield* rewriteAndRehash(stream, 2, (json) => json.replace(/^\{/u, `{"approved_by":"nobody",`))
      const audit = yield* Audit
      const v = yield* audit.verifyStream(stream)
      assert.isFalse(v.ok)
      assert.strictEqual(v.first_failure?.version, 2)
      assert.match(v.first_failure!.reason, /keys no schema knows: approved_by/)
      const all = yield* audit.verifyAll()
      assert.match(all.failures.find((f) => f.stream_id === stream)!.first_failure!.reason, /approved_by/)
    }))

  it.effect("a stored value its event's schema refuses is flagged, even with every hash recomputed", () =>
    Effect.gen(function*() {
      const stream = fresh("audit-value")
      yield* appendN(stream, 3)
      // Donation 2 of Rs 2 rewritten to a status the schema does not allow, then to a negative amount.
      yield* rewriteAndRehash(stream, 2, (json) => json.replace(`"status":"pending"`, `"status":"waived"`))
      const audit = yield* Audit
      const first = yield* audit.verifyStream(stream)
      assert.deepStrictEqual([first.ok, first.first_failure?.version], [false, 2])
      assert.match(first.first_failure!.reason, /not a valid event of its type/)
      yield* rewriteAndRehash(
        stream,
        2,
        (json) => json.replace(`"status":"waived"`, `"status":"pending"`).replace(`"amount":2`, `"amount":-2`)
      )
      const second = yield* audit.verifyAll()
      assert.match(
        second.failures.find((f) => f.stream_id === stream)!.first_failure!.reason,
        /not a valid event of its type/
      )
    }))

  it.effect("a checkpoint signed by a key that is not pinned is a key problem, not a changed event, though the database lists the key", () =>
    Effect.gen(function*() {
      const stream = fresh("audit-unpinned")
      yield* appendN(stream, 2)
      const audit = yield* Audit
      assert.isTrue((yield* audit.verifyStream(stream)).ok)
      // The attacker registers a key of their own and signs the (true) head with it.
      const attacker = generateKeyPairSync("ed25519")
      const keyId = keyIdOf(attacker.publicKey)
      const head = yield* (yield* EventStore).head(stream)
      const body = {
        format: "psx-ledger-checkpoint/1" as const,
        stream_id: stream,
        version: head.version,
        head_hash: head.hash,
        signed_at: "2026-11-21T05:00:00.000Z",
        key_id: keyId
      }
      const signed = checkpointBytes(body)
      const signature = sign(null, Buffer.from(signed), attacker.privateKey).toString("base64")
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO signing_keys (key_id, public_key_pem, first_used_at)
                 VALUES (${keyId}, ${attacker.publicKey.export({ type: "spki", format: "pem" }).toString()}, now())`
      yield* sql`INSERT INTO checkpoints (stream_id, version, key_id, signed, signature, signed_at)
                 VALUES (${stream}, ${head.version}, ${keyId}, ${signed}, ${signature}, now())`
      // A key problem, reported as one: no event is named as changed.
      const v = yield* audit.verifyStream(stream)
      assert.isFalse(v.ok)
      assert.isUndefined(v.first_failure, JSON.stringify(v))
      assert.deepStrictEqual(
        [v.checkpoint_problem?.kind, v.checkpoint_problem?.key_id, v.checkpoint_problem?.version],
        ["key", keyId, 2]
      )
      assert.match(
        v.checkpoint_problem!.reason,
        new RegExp(`key ${keyId}, which is not among the pinned trusted public keys`)
      )
      const all = (yield* audit.verifyAll()).failures.filter((f) => f.stream_id === stream)
      assert.deepStrictEqual(all.map((f) => [f.first_failure, f.checkpoint_problem?.kind]), [[undefined, "key"]])
      const published = bodyOf(yield* get("/v1/ledger/signing-key"))
      assert.notInclude(published.keys.map((k) => k.key_id), keyId, "only pinned keys are published as trusted")
      assert.include(published.keys.map((k) => k.key_id), keyIdOf(createPublicKey(signingKey)))
      assert.include(
        published.untrusted_keys.map((k) => k.key_id),
        keyId,
        "the key the store records is listed apart, as untrusted"
      )
    }))

  it.effect("a repeated GET of the checkpoint adds no row; a moved head issues a new one", () =>
    Effect.gen(function*() {
      const session = bodyOf(yield* post("/v1/me/session", {})).token as string
      const principal = yield* (yield* Keys).authenticate(session)
      const stream = streamOf(principal.userId)
      yield* appendN(stream, 1)
      const sql = yield* SqlClient.SqlClient
      const count = Effect.map(
        sql<{ n: number }>`SELECT count(*)::int AS n FROM checkpoints WHERE stream_id = ${stream}`,
        (r) => r[0]!.n
      )
      const first = bodyOf(yield* get("/v1/me/ledger/checkpoint", bearer(session)))
      const again = (yield* get("/v1/me/ledger/checkpoint", bearer(session))).body
      assert.deepStrictEqual(again, first)
      assert.strictEqual(yield* count, 1)
      yield* appendN(stream, 1)
      const moved = bodyOf(yield* get("/v1/me/ledger/checkpoint", bearer(session)))
      assert.strictEqual(moved.version, first.version + 1)
      assert.strictEqual(yield* count, 2)
    }))

  it.effect("the stand-alone auditor's script verifies an export with the pinned key, and names a rewritten event", () =>
    Effect.gen(function*() {
      const stream = fresh("audit-export")
      const signer = yield* LedgerSigner
      for (let i = 1; i <= 4; i++) {
        yield* appendN(stream, 1, { actor_key_id: "key-x", request_id: `srv-${i}` })
        yield* signer.checkpoint(stream)
      }
      const audit = yield* Audit
      const exportOf = Effect.gen(function*() {
        const events = yield* audit.exportStream(stream)
        const checkpoints = (yield* signer.allCheckpoints).filter((c) => c.stream_id === stream)
        return [...events, ...checkpoints.map((c) => canonicalJson({ checkpoint: c }))].join("\n") + "\n"
      })
      const dir = mkdtempSync(join(tmpdir(), "psx-verify-ledger-"))
      const keyFile = join(dir, "pinned.pem")
      writeFileSync(keyFile, publicPem)
      const script = fileURLToPath(new URL("../docs/verify-ledger.mjs", import.meta.url))
      const run = (text: string, name: string) => {
        writeFileSync(join(dir, name), text)
        return spawnSync(process.execPath, [script, "--public-key", keyFile, join(dir, name)], {
          encoding: "utf8",
          env: {}
        })
      }
      const clean = run(yield* exportOf, "clean.ndjson")
      assert.strictEqual(clean.status, 0, clean.stdout + clean.stderr)
      assert.include(clean.stdout, "1 streams, 4 events, 4 signed checkpoints")

      const victim = (yield* rowsOf(stream))[2]!
      yield* rewriteAndRehash(stream, 3, (json) => json.replace(`"amount":1,`, `"amount":1000,`))
      const bad = run(yield* exportOf, "tampered.ndjson")
      assert.strictEqual(bad.status, 1, bad.stdout + bad.stderr)
      assert.include(bad.stdout, `FAIL ${stream} version 3 (event ${victim.event_id})`)
      assert.include(bad.stdout, `event ${victim.event_id} (version 3) was rewritten`)
      assert.notInclude(bad.stdout, "version 2 (", "nothing before the rewrite is blamed")
    }))

  it.effect("`ledger verify` counts failing streams, not failures, and names no empty event", () =>
    Effect.gen(function*() {
      const signer = yield* LedgerSigner
      const signedEach = (stream: string, n: number) =>
        Effect.gen(function*() {
          for (let i = 0; i < n; i++) {
            yield* appendN(stream, 1)
            yield* signer.checkpoint(stream)
          }
        })
      // Seven failures in four streams, as the issue found: three checkpoints that no longer hold after a
      // rewrite with every hash recomputed, two more of those, a checkpoint past a removed event, an altered event.
      const [three, two, removed, altered] = ["cp3", "cp2", "removed", "altered"].map((n) => fresh(`audit-count-${n}`))
      yield* signedEach(three!, 3)
      yield* rewriteAndRehash(three!, 1, (json) => json.replace(`"amount":1,`, `"amount":7,`))
      yield* signedEach(two!, 2)
      yield* rewriteAndRehash(two!, 1, (json) => json.replace(`"amount":1,`, `"amount":7,`))
      yield* signedEach(removed!, 3)
      yield* tamper("DELETE FROM events WHERE stream_id = $1 AND version = 3", [removed!])
      yield* appendN(altered!, 2)
      const victim = (yield* rowsOf(altered!))[1]!
      yield* tamper(
        "UPDATE events SET payload_json = replace(payload_json, '\"amount\":2', '\"amount\":20') WHERE event_id = $1",
        [victim.event_id]
      )

      const all = yield* (yield* Audit).verifyAll()
      const mine = [three!, two!, removed!, altered!]
      const failures = all.failures.filter((f) => mine.includes(f.stream_id))
      assert.deepStrictEqual(failures.map((f) => f.stream_id).sort(), [...mine].sort(), "one result per stream")
      const report = verifyReport({ ...all, failures })
      assert.strictEqual(report.error, "4 stream(s) do not verify")
      const fails = report.lines.filter((l) => l.startsWith("FAIL "))
      assert.strictEqual(fails.length, 4)
      for (const line of fails) assert.notMatch(line, /event \(|event {2}/, `no empty event id: ${line}`)
      assert.include(fails.find((l) => l.includes(three!)), "version 1", "the earliest broken checkpoint is named")
      assert.include(fails.find((l) => l.includes(removed!)), "version 3 (no event is stored at that version)")
      assert.include(fails.find((l) => l.includes(removed!)), "events were removed")
      assert.include(fails.find((l) => l.includes(altered!)), `event ${victim.event_id} (version 2`)
    }))

  it.effect("the ledger listing pages from the store, newest first, with the stream's length", () =>
    Effect.gen(function*() {
      const stream = fresh("audit-page")
      yield* appendN(stream, 7)
      const store = yield* EventStore
      const first = yield* store.readPage(stream, undefined, 3)
      assert.deepStrictEqual(first.events.map((e) => e.version), [7, 6, 5])
      assert.strictEqual(first.total, 7)
      const next = yield* store.readPage(stream, 5, 3)
      assert.deepStrictEqual(next.events.map((e) => e.version), [4, 3, 2])
      assert.strictEqual(next.total, 7)
    }))
})
