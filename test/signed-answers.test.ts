/**
 * Signed answers: on request (Accept-Signature or
 * ?signed=true) an answer carries RFC 9421 signatures with an RFC 9530
 * Content-Digest, signed with the deployment key that GET
 * /v1/ledger/signing-key publishes; an MCP tool result carries the same in
 * `_meta`. Every check of a signature here is the offline script's
 * (docs/verify-answer.mjs, spawned on the saved answer as a client would run
 * it); the digests are recomputed here with node:crypto.
 *
 * The signature base itself is checked against RFC 9421's own example
 * (Appendix B.2.6, with the RFC's Ed25519 test key, whose signature is
 * deterministic) and RFC 9530's digest example.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest, HttpRouter, HttpServerResponse } from "effect/http"
import { spawnSync } from "node:child_process"
import { createHash, createPrivateKey, createPublicKey, sign, verify } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { AnswerCache } from "../src/http/AnswerCache.ts"
import { AnswerSigner } from "../src/http/AnswerSigning.ts"
import { GuardLive } from "../src/http/Guard.ts"
import { contentDigest, signatureBase, signatureParams } from "../src/http/MessageSignature.ts"
import { RateLimiter } from "../src/http/RateLimiter.ts"
import { RequestIds } from "../src/http/RequestId.ts"
import { mcpSession } from "./support/McpSession.ts"
import { bodyOf, get, post, TestApp } from "./support/TestApp.ts"

const NOW = "2026-06-15T06:00:00.000Z"
const NOW_S = Date.parse(NOW) / 1000
const SCRIPT = fileURLToPath(new URL("../docs/verify-answer.mjs", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "psx-signed-answers-"))
const SIGNATURE_HEADERS = ["content-digest", "signature-input", "signature"]

interface Saved {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
}

/** A GET answer with its exact body bytes. */
const fetchRaw = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
    return {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(yield* response.arrayBuffer)
    } as Saved
  }).pipe(Effect.orDie)

/** The answer as `curl -si` saves it: status line, header lines, a blank line, the body. */
const curlText = (answer: Saved, status = answer.status, body = answer.body) =>
  Buffer.concat([
    Buffer.from(
      `HTTP/1.1 ${status} X\r\n${Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`,
      "latin1"
    ),
    body
  ])

let saved = 0
/** Runs the offline verifier on a saved file: its exit status and output. */
const verifier = (content: Buffer | string, ...args: Array<string>) => {
  const file = join(dir, `answer-${++saved}.txt`)
  writeFileSync(file, content)
  const run = spawnSync(process.execPath, [SCRIPT, file, "--key", join(dir, "signing-key.json"), ...args], {
    encoding: "utf8",
    env: {}
  })
  return { status: run.status, out: run.stdout + run.stderr }
}

/** The published key saved as a client keeps it; its current key id. */
const publishedKey = Effect.gen(function*() {
  const answer = yield* fetchRaw("/v1/ledger/signing-key")
  writeFileSync(join(dir, "signing-key.json"), answer.body)
  const keys = JSON.parse(answer.body.toString("utf8")).keys as Array<{ key_id: string; current: boolean }>
  return keys.find((k) => k.current)!.key_id
})

/** Asserts the answer is signed with the published key, now, over our components, and its digest is its body's. */
const assertSigned = (answer: Saved, keyId: string, label = "sig1") => {
  // RFC 9530: the digest is SHA-256 over the body bytes as sent, base64 between colons.
  assert.strictEqual(
    answer.headers["content-digest"],
    `sha-256=:${createHash("sha256").update(answer.body).digest("base64")}:`
  )
  const input = answer.headers["signature-input"] ?? ""
  const m = new RegExp(
    `^${label}=\\("@method";req "@path";req "@query";req "@status" "content-digest"\\);created=(\\d+);keyid="${keyId}";alg="ed25519"`
  ).exec(input)
  assert.isNotNull(m, input)
  const created = Number(m![1])
  // Served under the pinned clock, which runs on from NOW: within the test's minutes of it.
  assert.isAtLeast(created, NOW_S)
  assert.isAtMost(created, NOW_S + 600)
  assert.match(
    answer.headers["signature"] ?? "",
    new RegExp(`^${label}=:[A-Za-z0-9+/]{86}==:$`),
    "64 bytes of Ed25519, base64"
  )
}

layer(TestApp({ withPack: true, now: NOW }), { timeout: 300_000 })("signed answers", (it) => {
  it.effect("?signed=true: the answer verifies offline with the published key, and is the unsigned answer's body", () =>
    Effect.gen(function*() {
      const keyId = yield* publishedKey
      const target = "/v1/companies/OGDC?signed=true"
      const answer = yield* fetchRaw(target)
      assert.strictEqual(answer.status, 200, answer.body.toString())
      assertSigned(answer, keyId)
      const plain = yield* fetchRaw("/v1/companies/OGDC")
      assert.strictEqual(answer.body.toString(), plain.body.toString(), "signing adds headers, nothing else")
      const ok = verifier(curlText(answer), "--target", target)
      assert.strictEqual(ok.status, 0, ok.out)
      assert.include(ok.out, `OK: GET ${target} → 200 verifies: signed by key ${keyId}`)
    }))

  it.effect("a path sent percent-escaped is signed in its one spelling, and the verifier takes it as sent", () =>
    Effect.gen(function*() {
      yield* publishedKey
      // %4F is O: the service routes and signs /v1/companies/OGDC.
      const target = "/v1/companies/%4FGDC?signed=true"
      const answer = yield* fetchRaw(target)
      assert.strictEqual(answer.status, 200)
      for (const sent of [target, "/v1/companies/OGDC?signed=true"]) {
        const ok = verifier(curlText(answer), "--target", sent)
        assert.strictEqual(ok.status, 0, ok.out)
      }
    }))

  it.effect("Accept-Signature: signed under the label asked for, echoing its nonce; the query is covered as sent", () =>
    Effect.gen(function*() {
      const keyId = yield* publishedKey
      const target = "/v1/prices/OGDC?limit=3"
      const answer = yield* fetchRaw(target, { "accept-signature": `mine=("@status");nonce="n-4711"` })
      assert.strictEqual(answer.status, 200)
      assertSigned(answer, keyId, "mine")
      assert.match(answer.headers["signature-input"]!, /;nonce="n-4711"$/)
      const ok = verifier(curlText(answer), "--target", target)
      assert.strictEqual(ok.status, 0, ok.out)
      assert.include(ok.out, `label mine, nonce "n-4711"`)
      // The same answer claimed for another query does not verify: the query is signed.
      const other = verifier(curlText(answer), "--target", "/v1/prices/OGDC?limit=4")
      assert.strictEqual(other.status, 1, other.out)
      assert.include(other.out, "FAIL the signature does not verify")
    }))

  it.effect("a tampered body or status fails, each named", () =>
    Effect.gen(function*() {
      yield* publishedKey
      const target = "/v1/companies/OGDC?signed=true"
      const answer = yield* fetchRaw(target)
      const text = answer.body.toString("utf8")
      const tampered = Buffer.from(text.replace(/"symbol":"OGDC"/u, "\"symbol\":\"OGDX\""), "utf8")
      assert.notStrictEqual(tampered.toString(), text, "the body was changed")
      const body = verifier(curlText(answer, 200, tampered), "--target", target)
      assert.strictEqual(body.status, 1, body.out)
      assert.include(body.out, "FAIL the body is not the one signed")
      const status = verifier(curlText(answer, 404), "--target", target)
      assert.strictEqual(status.status, 1, status.out)
      assert.include(status.out, "FAIL the signature does not verify")
      assert.notInclude(status.out, "body is not", "the body still matches its digest")
    }))

  it.effect("an answer not asked to be signed carries no signature; signed=false is taken out too", () =>
    Effect.gen(function*() {
      for (const [path, headers] of [["/v1/companies/OGDC", {}], ["/v1/companies/OGDC?signed=false", {}]] as const) {
        const answer = yield* fetchRaw(path, headers)
        assert.strictEqual(answer.status, 200, path)
        for (const h of SIGNATURE_HEADERS) assert.isUndefined(answer.headers[h], `${path}: ${h}`)
      }
      const unsigned = verifier(curlText(yield* fetchRaw("/v1/companies/OGDC")), "--target", "/v1/companies/OGDC")
      assert.strictEqual(unsigned.status, 1)
      assert.include(unsigned.out, "FAIL no signature")
    }))

  it.effect("every route takes signed=true, even one whose query refuses unknown fields (the screener)", () =>
    Effect.gen(function*() {
      const keyId = yield* publishedKey
      const unknown = yield* get("/v1/screener?limit=2&bogus=1")
      assert.strictEqual(unknown.status, 400, "the screener's query is strict")
      const target = "/v1/screener?limit=2&signed=true"
      const answer = yield* fetchRaw(target)
      assert.strictEqual(answer.status, 200, answer.body.toString())
      assertSigned(answer, keyId)
      assert.strictEqual(JSON.parse(answer.body.toString()).items.length, 2)
      assert.strictEqual(verifier(curlText(answer), "--target", target).status, 0)
    }))

  it.effect("error answers are signed too: an unknown route (404), a bad query (400), a bad `signed` (400)", () =>
    Effect.gen(function*() {
      const keyId = yield* publishedKey
      const cases = [
        ["/v1/no-such-route?signed=true", 404, "DATA_NOT_FOUND"],
        ["/v1/prices/OGDC?limit=abc&signed=true", 400, "INVALID_REQUEST"],
        ["/v1/companies/OGDC?signed=yes", 400, "INVALID_REQUEST"]
      ] as const
      for (const [target, status, code] of cases) {
        const answer = yield* fetchRaw(target)
        assert.strictEqual(answer.status, status, `${target}: ${answer.body}`)
        assert.strictEqual(JSON.parse(answer.body.toString()).error, code, target)
        assertSigned(answer, keyId)
        const ok = verifier(curlText(answer), "--target", target)
        assert.strictEqual(ok.status, 0, `${target}: ${ok.out}`)
      }
      const bad = yield* fetchRaw("/v1/companies/OGDC?signed=yes")
      assert.include(
        JSON.parse(bad.body.toString()).message,
        "query parameter `signed`: expected true or false, got \"yes\""
      )
    }))

  it.effect("an MCP tool result carries the signature in _meta when the call asks, and it verifies offline", () =>
    Effect.gen(function*() {
      const keyId = yield* publishedKey
      const session = yield* mcpSession
      const callWith = (meta: Record<string, unknown> | undefined, headers: Record<string, string> = {}) =>
        Effect.map(
          post("/mcp", {
            jsonrpc: "2.0",
            id: 7,
            method: "tools/call",
            params: { name: "get_company", arguments: { symbol: "OGDC" }, ...(meta ? { _meta: meta } : {}) }
          }, {
            accept: "application/json, text/event-stream",
            "mcp-session-id": session.init.headers["mcp-session-id"]!,
            "mcp-protocol-version": "2025-06-18",
            ...headers
          }),
          (reply) => (reply.body as any).result
        )
      const plain = yield* callWith(undefined)
      assert.isUndefined(plain._meta?.["psx/signature"], "not asked: not signed")
      for (
        const [meta, headers] of [[{ "psx/signed": { nonce: "agent-1" } }, {}], [undefined, {
          "accept-signature": "sig1=()"
        }]] as const
      ) {
        const result = yield* callWith(meta, headers)
        const signed = result._meta?.["psx/signature"]
        assert.isDefined(signed, JSON.stringify(result))
        // The digest is of the result's text, the record the route answers.
        assert.strictEqual(
          signed["content-digest"],
          `sha-256=:${createHash("sha256").update(result.content[0].text).digest("base64")}:`
        )
        assert.deepStrictEqual(signed.components, {
          "psx-tool": "get_company",
          "psx-arguments": "{\"symbol\":\"OGDC\"}",
          "psx-is-error": "false"
        })
        assert.include(signed["signature-input"], `keyid="${keyId}"`)
        const ok = verifier(JSON.stringify({ jsonrpc: "2.0", id: 7, result }))
        assert.strictEqual(ok.status, 0, ok.out)
        assert.include(ok.out, "OK: the get_company result for arguments {\"symbol\":\"OGDC\"} verifies")
        const forged = structuredClone(result)
        forged.content[0].text = forged.content[0].text.replace("OGDC", "PPL")
        const bad = verifier(JSON.stringify(forged))
        assert.strictEqual(bad.status, 1, bad.out)
        assert.include(bad.out, "FAIL the body is not the one signed")
      }
      assert.strictEqual(bodyOf(yield* get("/v1/companies/OGDC")).symbol, "OGDC")
    }))
})

describe("the guard without a key", () => {
  // A signer whose key cannot be had (a sealed row without its passphrase, say): every use is a defect
  // (the guard logs it as an error, which the output shows).
  const app = Layer.mergeAll(HttpRouter.add("GET", "/ok", Effect.succeed(HttpServerResponse.text("ok"))), GuardLive)
    .pipe(
      Layer.provide([
        Layer.succeed(RateLimiter, RateLimiter.make(1000, 1000)),
        RequestIds.layer,
        AnswerCache.layer,
        Layer.succeed(AnswerSigner, AnswerSigner.of({ key: Effect.die(new Error("the deployment key does not open")) }))
      ])
    )

  it.effect("an unsigned answer never asks for the key; a signed one that cannot be signed is 500, never unsigned", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => HttpRouter.toWebHandler(app, { disableLogger: true })),
      ({ handler }) =>
        Effect.gen(function*() {
          const plain = yield* Effect.promise(() => handler(new Request("http://localhost/ok")))
          assert.strictEqual(plain.status, 200)
          assert.strictEqual(yield* Effect.promise(() => plain.text()), "ok")
          const asked = yield* Effect.promise(() => handler(new Request("http://localhost/ok?signed=true")))
          assert.strictEqual(asked.status, 500)
          const body = JSON.parse(yield* Effect.promise(() => asked.text()))
          assert.strictEqual(body.error, "INTERNAL")
          assert.include(
            body.message,
            `the answer could not be signed; quote request id ${asked.headers.get("x-request-id")}`
          )
          assert.isNull(asked.headers.get("signature"))
        }),
      ({ dispose }) => Effect.promise(dispose)
    ))
})

describe("the signature base (RFC 9421 §2.5) and the digest (RFC 9530)", () => {
  // RFC 9421 Appendix B.1.4: the Ed25519 test key; B.2.6: a request signed with it.
  const TEST_KEY =
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n"

  it("builds B.2.6's base line by line, and the RFC's key signs it to the RFC's signature", () => {
    const params =
      "(\"date\" \"@method\" \"@path\" \"@authority\" \"content-type\" \"content-length\");created=1618884473;keyid=\"test-key-ed25519\""
    const base = signatureBase([
      ["\"date\"", "Tue, 20 Apr 2021 02:07:55 GMT"],
      ["\"@method\"", "POST"],
      ["\"@path\"", "/foo"],
      ["\"@authority\"", "example.com"],
      ["\"content-type\"", "application/json"],
      ["\"content-length\"", "18"]
    ], params)
    // The base as B.2.6 prints it (its one wrapped line joined): LF between lines, none at the end.
    const expected = "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n" +
      "\"@method\": POST\n" +
      "\"@path\": /foo\n" +
      "\"@authority\": example.com\n" +
      "\"content-type\": application/json\n" +
      "\"content-length\": 18\n" +
      "\"@signature-params\": (\"date\" \"@method\" \"@path\" \"@authority\" \"content-type\" \"content-length\");created=1618884473;keyid=\"test-key-ed25519\""
    assert.strictEqual(base, expected)
    const signature = sign(null, Buffer.from(base), createPrivateKey(TEST_KEY)).toString("base64")
    assert.strictEqual(
      signature,
      "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw=="
    )
    const publicKey = createPublicKey(
      "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\n-----END PUBLIC KEY-----\n"
    )
    assert.isTrue(verify(null, Buffer.from(base), publicKey, Buffer.from(signature, "base64")))
  })

  it("serializes an answer's parameters and base as Signature-Input carries them", () => {
    const ids = ["\"@method\";req", "\"@path\";req", "\"@query\";req", "\"@status\"", "\"content-digest\""]
    const params = signatureParams(ids, {
      created: 1781503200,
      keyid: "0123456789abcdef",
      alg: "ed25519",
      nonce: "n\"1"
    })
    assert.strictEqual(
      params,
      "(\"@method\";req \"@path\";req \"@query\";req \"@status\" \"content-digest\");created=1781503200;keyid=\"0123456789abcdef\";alg=\"ed25519\";nonce=\"n\\\"1\""
    )
    const base = signatureBase([
      ["\"@method\";req", "GET"],
      ["\"@path\";req", "/v1/quotes/OGDC"],
      ["\"@query\";req", "?signed=true"],
      ["\"@status\"", "200"],
      ["\"content-digest\"", "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"]
    ], params)
    assert.strictEqual(
      base,
      [
        "\"@method\";req: GET",
        "\"@path\";req: /v1/quotes/OGDC",
        "\"@query\";req: ?signed=true",
        "\"@status\": 200",
        "\"content-digest\": sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:",
        `"@signature-params": ${params}`
      ].join("\n")
    )
  })

  it("the Content-Digest of RFC 9530's example content", () => {
    // RFC 9530 §2: the content {"hello": "world"} has sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:
    assert.strictEqual(
      contentDigest(Buffer.from("{\"hello\": \"world\"}")),
      "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"
    )
  })
})
