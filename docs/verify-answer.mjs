#!/usr/bin/env node
// Checks a signed answer of the PSX data service offline, with nothing but Node's standard library and the
// service's published key (as docs/verify-ledger.mjs does for the ledger).
//
//   curl -s https://HOST/v1/ledger/signing-key > key.json                      # once; keep it (pin it)
//   curl -si 'https://HOST/v1/quotes/OGDC?signed=true' > answer.txt            # or -H 'Accept-Signature: sig1=()'
//   node verify-answer.mjs answer.txt --target '/v1/quotes/OGDC?signed=true' --key key.json
//
// The answer file is an HTTP response as `curl -si` saves it: the status line, the header lines, a blank line and
// the body, byte for byte (do not use --compressed; informational and proxy header blocks before it are skipped).
// `curl -si` does not print the request, which the signature covers too, so say what was asked:
//   --target  the request's path and query exactly as sent (a full URL is read as its path and query);
//   --method  the request's method (default GET).
// The signature covers the path in the one spelling the service routes (RFC 3986 §6.2.2.2: a percent-escape of a
// letter, digit, `-`, `.`, `_` or `~` is that character), so /v1/quotes/%4FGDC is signed as /v1/quotes/OGDC: pass
// the path either way, this script spells it the same before it checks. The query is covered exactly as sent.
// --key is the JSON of GET /v1/ledger/signing-key (only its `keys` are trusted, never `untrusted_keys`), a PEM file
// of public key(s), or the URL of /v1/ledger/signing-key (then fetched: not offline, and it trusts the network;
// prefer a copy saved when you first trusted the service).
//
// An MCP tool result signed in its `_meta["psx/signature"]` is checked the same way: pass the saved result as JSON
// (the CallToolResult, the JSON-RPC response holding it, or the `data:` line of an event stream); no --target.
//
// What is checked: 1. the body's SHA-256 is the answer's Content-Digest (RFC 9530); 2. the signature (RFC 9421)
// covers the request's method, path and query, the status and the digest (a tool result: the tool, its arguments,
// its error flag and the digest of its text); 3. its Ed25519 signature over the signature base (RFC 9421 §2.5)
// verifies with the key its keyid names. Exit status 0 when all hold, 1 when one fails (a line starting FAIL),
// 2 for a usage or input problem. --show-base prints the signature base it rebuilt (to compare with your own).
import { createHash, createPublicKey, verify } from "node:crypto"
import { readFileSync } from "node:fs"

/** The components a signed answer must cover; a tool result's. */
export const ANSWER_COVERS = ["\"@method\";req", "\"@path\";req", "\"@query\";req", "\"@status\"", "\"content-digest\""]
export const TOOL_COVERS = ["\"psx-tool\"", "\"psx-arguments\"", "\"psx-is-error\"", "\"content-digest\""]

export const contentDigest = (bytes) => `sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`

const keyIdOf = (key) =>
  createHash("sha256").update(key.export({ type: "spki", format: "der" })).digest("hex").slice(0, 16)

/** The trusted keys by id: the JSON of GET /v1/ledger/signing-key (its `keys`), or PEM public keys. */
export const publishedKeys = (text) => {
  const keys = new Map()
  const add = (pem, claimed) => {
    const key = createPublicKey(pem)
    const id = keyIdOf(key)
    if (claimed !== undefined && claimed !== id) {
      throw new Error(`the key listed as ${claimed} has id ${id}: the key file was altered`)
    }
    keys.set(id, key)
  }
  if (text.trimStart().startsWith("{")) {
    for (const k of JSON.parse(text).keys ?? []) add(k.public_key_pem, k.key_id)
  } else {
    for (const m of text.matchAll(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/gu)) add(m[0])
  }
  return keys
}

/** A response as `curl -si` saves it: { status, headers (lower-case names, repeats joined), body (bytes) }. */
export const parseSavedResponse = (bytes) => {
  let rest = Buffer.from(bytes)
  for (;;) {
    const text = rest.toString("latin1")
    const end = text.search(/\r?\n\r?\n/u)
    if (!text.startsWith("HTTP/") || end === -1) {
      throw new Error("not an HTTP response as `curl -si` saves it (no status line and headers)")
    }
    const gap = /\r?\n\r?\n/u.exec(text.slice(end))[0].length
    const [statusLine, ...lines] = text.slice(0, end).split(/\r?\n/u)
    const status = Number(/^HTTP\/[\d.]+ (\d{3})/u.exec(statusLine)?.[1])
    rest = rest.subarray(end + gap)
    // An informational answer (100 Continue) or a proxy's own answer comes before the real one.
    if (status >= 100 && status < 200) continue
    if (rest.toString("latin1", 0, 5) === "HTTP/" && lines.every((l) => !/^content-length:/iu.test(l))) continue
    const headers = new Map()
    for (const line of lines) {
      const colon = line.indexOf(":")
      if (colon <= 0) continue
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value)
    }
    return { status, headers, body: rest }
  }
}

/** The members of a structured-field dictionary, split at top-level commas: [[label, member text]]. */
const members = (field) => {
  const out = []
  let depth = 0, quoted = false, start = 0
  for (let i = 0; i <= field.length; i++) {
    const c = field[i]
    if (quoted) {
      if (c === "\\") i++
      else if (c === "\"") quoted = false
      continue
    }
    if (c === "\"") quoted = true
    else if (c === "(") depth++
    else if (c === ")") depth--
    else if ((c === "," && depth === 0) || i === field.length) {
      const member = field.slice(start, i).trim()
      const eq = member.indexOf("=")
      if (eq > 0) out.push([member.slice(0, eq), member.slice(eq + 1)])
      start = i + 1
    }
  }
  return out
}

/** A Signature-Input member: its covered identifiers (as serialized), its parameters, and the raw @signature-params value. */
const parseInput = (raw) => {
  const m = /^\(([^)]*)\)(.*)$/u.exec(raw)
  if (!m) return undefined
  const covered = [...m[1].matchAll(/"[^"]*"(?:;[a-z*][a-z0-9_.*-]*(?:=(?:"[^"]*"|[^\s;"]+))?)*/gu)].map((x) => x[0])
  const params = Object.fromEntries([...m[2].matchAll(/;([a-z*][a-z0-9_.*-]*)=("(?:[^"\\]|\\.)*"|-?\d+)/gu)]
    .map(([, k, v]) => [k, v.startsWith("\"") ? v.slice(1, -1).replace(/\\(.)/gu, "$1") : Number(v)]))
  return { covered, params, raw }
}

/** The first signature both fields carry: { label, covered, params, raw, signature (bytes) }. */
const signatureOf = (inputField, signatureField) => {
  const signatures = new Map(members(signatureField ?? ""))
  for (const [label, raw] of members(inputField ?? "")) {
    const sig = /^:([A-Za-z0-9+/=]*):$/u.exec(signatures.get(label) ?? "")
    const input = parseInput(raw)
    if (sig && input) return { label, ...input, signature: Buffer.from(sig[1], "base64") }
  }
  return undefined
}

/**
 * Checks a signature over covered components whose values `valueOf(identifier)` gives (undefined: cannot be
 * had). Returns the failures (empty when it holds) and what was signed.
 */
const checkSignature = (inputField, signatureField, required, valueOf, keys) => {
  const sig = signatureOf(inputField, signatureField)
  if (sig === undefined) {
    return {
      failures: [
        "no signature: the answer has no Signature-Input and Signature (ask with Accept-Signature or ?signed=true)"
      ]
    }
  }
  const missing = required.filter((id) => !sig.covered.includes(id))
  if (missing.length > 0) return { sig, failures: [`the signature does not cover ${missing.join(", ")}`] }
  if (sig.params.alg !== undefined && sig.params.alg !== "ed25519") {
    return { sig, failures: [`algorithm ${sig.params.alg} is not ed25519`] }
  }
  const key = keys.get(sig.params.keyid)
  if (key === undefined) {
    return {
      sig,
      failures: [`key problem: signed with key ${sig.params.keyid}, which is not among the ${keys.size} trusted key(s)`]
    }
  }
  const lines = []
  for (const id of sig.covered) {
    const value = valueOf(id)
    if (value === undefined) return { sig, failures: [`the signature covers ${id}, which this answer does not carry`] }
    lines.push(`${id}: ${value}`)
  }
  lines.push(`"@signature-params": ${sig.raw}`)
  const base = lines.join("\n")
  return verify(null, Buffer.from(base, "utf8"), key, sig.signature)
    ? { sig, base, failures: [] }
    : {
      sig,
      base,
      failures: [
        `the signature does not verify with key ${sig.params.keyid}: what was signed differs (${sig.covered.join(" ")})`
      ]
    }
}

const digestFailure = (field, content) => {
  const digest = contentDigest(content)
  if (field === undefined) return "the answer has no Content-Digest"
  const own = members(field).find(([alg]) => alg === "sha-256")
  if (own === undefined) return `Content-Digest has no sha-256 digest: ${field}`
  return `sha-256=${own[1]}` === digest
    ? undefined
    : `the body is not the one signed: its SHA-256 is ${digest}, Content-Digest says sha-256=${own[1]}`
}

/** A path in the service's one spelling: a percent-escape of an unreserved character is that character. */
const oneSpelling = (path) =>
  path.replace(/%([0-9A-Fa-f]{2})/gu, (escape, hex) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16))
    return /^[A-Za-z0-9._~-]$/u.test(char) ? char : escape
  })

/** Checks a saved HTTP answer to `method target`: { failures, keyId, created, label, nonce }. */
export const verifyAnswer = ({ method = "GET", target, response }, keys) => {
  // The path and query as sent: a full URL is read as its path and query; a path is cut as it is (URL would re-encode it).
  const sent = /^https?:\/\//iu.test(target)
    ? (({ pathname, search }) => pathname + search)(new URL(target))
    : target.split("#")[0]
  const q = sent.indexOf("?")
  const values = {
    "\"@method\";req": method.toUpperCase(),
    "\"@path\";req": oneSpelling((q === -1 ? sent : sent.slice(0, q)) || "/"),
    "\"@query\";req": q === -1 ? "?" : sent.slice(q),
    "\"@status\"": String(response.status)
  }
  const valueOf = (id) => values[id] ?? (/^"[a-z0-9-]+"$/u.test(id) ? response.headers.get(id.slice(1, -1)) : undefined)
  const digest = digestFailure(response.headers.get("content-digest"), response.body)
  const checked = checkSignature(
    response.headers.get("signature-input"),
    response.headers.get("signature"),
    ANSWER_COVERS,
    valueOf,
    keys
  )
  return summary(checked, digest)
}

/** Checks an MCP tool result's `_meta["psx/signature"]` (over its first text content). */
export const verifyToolResult = (result, keys) => {
  const signed = result?._meta?.["psx/signature"]
  if (signed === undefined) {
    return { failures: ["the tool result carries no _meta[\"psx/signature\"] (ask with _meta {\"psx/signed\": true})"] }
  }
  const text = result.content?.[0]?.type === "text" ? result.content[0].text : ""
  const components = signed.components ?? {}
  const valueOf = (id) => id === "\"content-digest\"" ? signed["content-digest"] : components[id.slice(1, -1)]
  const digest = digestFailure(signed["content-digest"], Buffer.from(text, "utf8"))
  const checked = checkSignature(signed["signature-input"], signed.signature, TOOL_COVERS, valueOf, keys)
  const r = summary(checked, digest)
  // structuredContent is not signed itself: it must be the signed text's record.
  if (result.structuredContent !== undefined && !sameJson(result.structuredContent, text)) {
    r.failures.push("structuredContent is not the record of the signed text: it was altered")
  }
  return { ...r, tool: components["psx-tool"], arguments: components["psx-arguments"] }
}

/** JSON with object keys sorted at every depth, for comparing two records. */
const sorted = (v) =>
  Array.isArray(v)
    ? v.map(sorted)
    : v !== null && typeof v === "object"
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])]))
    : v
const sameJson = (value, text) => {
  try {
    return JSON.stringify(sorted(value)) === JSON.stringify(sorted(JSON.parse(text)))
  } catch {
    return false
  }
}

const summary = (checked, digest) => ({
  failures: [...(digest ? [digest] : []), ...checked.failures],
  base: checked.base,
  label: checked.sig?.label,
  keyId: checked.sig?.params.keyid,
  created: checked.sig?.params.created,
  nonce: checked.sig?.params.nonce
})

/** The tool result a saved MCP answer holds: a CallToolResult, a JSON-RPC response, or an event stream's data line. */
export const toolResultIn = (text) => {
  const candidates = text.trimStart().startsWith("{")
    ? [text]
    : text.split(/\r?\n/u).filter((l) => l.startsWith("data:")).map((l) => l.slice(5))
  for (const candidate of candidates) {
    const value = JSON.parse(candidate)
    const result = value.result ?? value
    if (result?._meta?.["psx/signature"] !== undefined || Array.isArray(result?.content)) return result
  }
  return undefined
}

const option = (argv, name) => {
  const at = argv.indexOf(name)
  return at >= 0 ? argv[at + 1] : undefined
}

let showBase = false

const report = (what, r, content = "body") => {
  if (showBase && r.base !== undefined) console.log(`signature base:\n${r.base}\n`)
  for (const f of r.failures) console.log(`FAIL ${f}`)
  if (r.failures.length > 0) return 1
  const when = typeof r.created === "number" ? new Date(r.created * 1000).toISOString() : "?"
  console.log(
    `OK: ${what} verifies: signed by key ${r.keyId} at ${when} (created=${r.created}, label ${r.label}` +
      `${r.nonce === undefined ? "" : `, nonce ${JSON.stringify(r.nonce)}`}), and its ${content} is the one signed`
  )
  return 0
}

const main = async (argv) => {
  const valued = new Set(["--key", "--target", "--method"])
  const file = argv.find((a, i) => !a.startsWith("--") && !(i > 0 && valued.has(argv[i - 1])))
  const keySource = option(argv, "--key")
  showBase = argv.includes("--show-base")
  if (!file || !keySource) {
    console.error(
      "usage: node verify-answer.mjs <saved answer> --key <signing-key.json | keys.pem | URL> [--method GET] --target '<path?query>' [--show-base]"
    )
    return 2
  }
  const keyText = /^https?:\/\//u.test(keySource)
    ? await (await fetch(keySource)).text()
    : readFileSync(keySource, "utf8")
  const keys = publishedKeys(keyText)
  if (keys.size === 0) {
    console.error(`${keySource} holds no trusted public key`)
    return 2
  }
  const saved = readFileSync(file)
  if (!saved.toString("latin1", 0, 5).startsWith("HTTP/")) {
    const result = toolResultIn(saved.toString("utf8"))
    if (result === undefined) {
      console.error(`${file} holds neither an HTTP response nor an MCP tool result`)
      return 2
    }
    const r = verifyToolResult(result, keys)
    return report(`the ${r.tool ?? "?"} result for arguments ${r.arguments ?? "?"}`, r, "text")
  }
  const target = option(argv, "--target")
  if (!target) {
    console.error("--target is needed: the request's path and query as sent (curl -si does not save the request)")
    return 2
  }
  const method = option(argv, "--method") ?? "GET"
  const response = parseSavedResponse(saved)
  const http = report(
    `${method.toUpperCase()} ${target} → ${response.status}`,
    verifyAnswer({ method, target, response }, keys)
  )
  // A POST /mcp answer may also hold a signed tool result: it is checked too.
  let inner
  try {
    inner = toolResultIn(response.body.toString("utf8"))
  } catch {
    inner = undefined
  }
  if (inner?._meta?.["psx/signature"] === undefined) return http
  const r = verifyToolResult(inner, keys)
  return Math.max(
    http,
    report(`the ${r.tool ?? "?"} result inside it, for arguments ${r.arguments ?? "?"},`, r, "text")
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code), (e) => {
    console.error(String(e?.message ?? e))
    process.exitCode = 2
  })
}
