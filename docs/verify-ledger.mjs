#!/usr/bin/env node
// An auditor's check of a ledger export, with nothing but Node's standard library and the pinned public key(s).
//
//   node verify-ledger.mjs --public-key trusted-keys.pem export.ndjson
//
// The export is what `ledger export` writes, or the website's Export (the same format, from the items of
// GET /v1/me/ledger): one event per line, then `{"checkpoint": …}` lines. The key file
// holds the PEM public key(s) you pinned (as GET /v1/ledger/signing-key published them when you first trusted
// the service); a checkpoint signed by any other key fails. What is checked:
//   1. every stream's hash chain recomputes: SHA-256 over the previous hash, a newline and the canonical JSON of
//      the event (keys sorted at every depth, no white space; a line with `metadata` is chain format 2, whose
//      hash covers the payload and metadata — actor and request ids — byte for byte);
//   2. every checkpoint's fields are the bytes it signed, its key is pinned, its Ed25519 signature verifies;
//   3. the recomputed chain reaches each checkpoint's head hash at its version. Someone who rewrote an event
//      and recomputed every later hash passes 1 and fails 3: the event is named (between the last checkpoint
//      that still holds and the first that does not).
// Exit status 0 when everything holds, 1 otherwise (each failure on a line starting FAIL).
import { createHash, createPublicKey, verify } from "node:crypto"
import { readFileSync } from "node:fs"

const GENESIS = "0".repeat(64)
const sha256 = (text) => createHash("sha256").update(text, "utf8").digest("hex")

export const canonical = (v) => {
  if (v === null || typeof v === "boolean") return JSON.stringify(v)
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null"
  if (typeof v === "string") return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x === undefined ? null : x)).join(",")}]`
  if (typeof v === "object") {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`
  }
  return "null"
}

/** The text an event line's hash covers (format 2 with metadata, format 1 without). */
export const hashInput = (prev, e) => {
  const record = {
    effective_date: e.effective_date,
    event_id: e.event_id,
    payload: e.event,
    recorded_at: e.recorded_at,
    stream_id: e.stream_id,
    version: e.version
  }
  if (e.metadata !== undefined) record.metadata = e.metadata
  return `${prev}\n${canonical(record)}`
}

const keyIdOf = (key) =>
  createHash("sha256").update(key.export({ type: "spki", format: "der" })).digest("hex").slice(0, 16)

export const pinnedKeys = (pem) =>
  new Map([...pem.matchAll(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/gu)].map((m) => {
    const key = createPublicKey(m[0])
    return [keyIdOf(key), key]
  }))

/** Verifies export lines against pinned keys: { streams, events, checkpoints, failures: [{stream_id, version, event_id?, reason}] }. */
export const verifyExport = (lines, keys) => {
  const failures = []
  const streams = new Map()
  const checkpoints = []
  lines.forEach((line, i) => {
    if (line.trim() === "") return
    let value
    try {
      value = JSON.parse(line)
    } catch {
      failures.push({ stream_id: "?", version: 0, reason: `line ${i + 1} is not JSON` })
      return
    }
    if (value.checkpoint) checkpoints.push(value.checkpoint)
    else streams.set(value.stream_id, [...(streams.get(value.stream_id) ?? []), value])
  })
  const chains = new Map()
  let events = 0
  for (const [stream, list] of streams) {
    list.sort((a, b) => a.version - b.version)
    events += list.length
    const heads = [GENESIS]
    let broken = false
    for (const e of list) {
      const prev = heads[heads.length - 1]
      const hash = sha256(hashInput(prev, e))
      if (!broken) {
        const reason = e.version !== heads.length
          ? `version ${e.version} where ${heads.length} was expected (a gap or a reorder)`
          : e.prev_hash !== prev
          ? "prev_hash does not match the previous event's hash"
          : hash !== e.hash
          ? "the stored hash does not match the event's content: it was altered"
          : undefined
        if (reason) {
          failures.push({ stream_id: stream, version: e.version, event_id: e.event_id, reason })
          broken = true
        }
      }
      heads.push(hash)
    }
    chains.set(stream, { heads, list })
  }
  const lastGood = new Map()
  const firstBad = new Map()
  for (const c of checkpoints.sort((a, b) => a.stream_id.localeCompare(b.stream_id) || a.version - b.version)) {
    const fail = (reason) =>
      failures.push({
        stream_id: c.stream_id,
        version: c.version,
        reason: `checkpoint at version ${c.version}: ${reason}`
      })
    const body = {
      format: c.format,
      head_hash: c.head_hash,
      key_id: c.key_id,
      signed_at: c.signed_at,
      stream_id: c.stream_id,
      version: c.version
    }
    if (canonical(body) !== c.signed) {
      fail("its fields are not the bytes it signed")
      continue
    }
    const key = keys.get(c.key_id)
    if (key === undefined) {
      fail(
        `key problem: signed with key ${c.key_id}, which is not pinned (the checkpoint cannot be checked; this says nothing about the events)`
      )
      continue
    }
    if (!verify(null, Buffer.from(c.signed, "utf8"), key, Buffer.from(c.signature, "base64"))) {
      fail("the signature does not verify")
      continue
    }
    const head = chains.get(c.stream_id)?.heads[c.version]
    if (head === undefined) {
      fail(`the export holds fewer than ${c.version} events of this stream: events were removed`)
      continue
    }
    if (head === c.head_hash) {
      if (!firstBad.has(c.stream_id)) lastGood.set(c.stream_id, c.version)
      continue
    }
    if (firstBad.has(c.stream_id)) continue
    firstBad.set(c.stream_id, c.version)
    const from = (lastGood.get(c.stream_id) ?? 0) + 1
    const suspects = chains.get(c.stream_id).list.filter((e) => e.version >= from && e.version <= c.version)
    const named = suspects.length === 1
      ? `event ${suspects[0].event_id} (version ${suspects[0].version}) was rewritten`
      : `an event among versions ${from}–${c.version} was rewritten (${suspects.map((e) => e.event_id).join(", ")})`
    failures.push({
      stream_id: c.stream_id,
      version: from,
      ...(suspects.length === 1 ? { event_id: suspects[0].event_id } : {}),
      reason: `the signed checkpoint at version ${c.version} does not match the recomputed chain: ${named}`
    })
  }
  failures.sort((a, b) => a.stream_id.localeCompare(b.stream_id) || a.version - b.version)
  return { streams: streams.size, events, checkpoints: checkpoints.length, failures }
}

const main = (argv) => {
  const at = argv.indexOf("--public-key")
  const keyFile = at >= 0 ? argv[at + 1] : undefined
  const file = argv.filter((_, i) => i !== at && i !== at + 1)[0]
  if (!keyFile || !file) {
    console.error("usage: node verify-ledger.mjs --public-key trusted-keys.pem export.ndjson")
    return 2
  }
  const keys = pinnedKeys(readFileSync(keyFile, "utf8"))
  if (keys.size === 0) {
    console.error(`${keyFile} holds no PEM public key`)
    return 2
  }
  const r = verifyExport(readFileSync(file, "utf8").split("\n"), keys)
  console.log(
    `${r.streams} streams, ${r.events} events, ${r.checkpoints} signed checkpoints checked against ${keys.size} pinned key(s)`
  )
  for (const f of r.failures) {
    console.log(`FAIL ${f.stream_id} version ${f.version}${f.event_id ? ` (event ${f.event_id})` : ""}: ${f.reason}`)
  }
  if (r.failures.length > 0) return 1
  if (r.checkpoints === 0) {
    console.log("note: no signed checkpoint in the export; only the chains themselves were checked")
  }
  console.log("OK: every chain recomputes and every signed checkpoint matches it")
  return 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2))
