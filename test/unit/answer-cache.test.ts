/**
 * The answer cache (src/http/AnswerCache.ts), without a server: answers are cached under their URL within
 * byte budgets, the open share (free queries, unlisted symbols) apart from the bounded one, so a flood of open
 * answers never pushes a listed symbol's answer out; an answer is served only while it is true (from the instant
 * it was made to its validity instant) and its state (the policy's `home`) is current. Sizes are worked in the comments.
 */
import { assert, describe, it } from "@effect/vitest"
import { AnswerCache, type CacheNote, etagOf } from "../../src/http/AnswerCache.ts"

const noteOf = (share: CacheNote["share"], current = () => true, validUntil = 2_000): CacheNote => ({
  share,
  madeAt: 1_000,
  validUntil,
  stale: false,
  current,
  headers: undefined
})

const response = (bytes: number) => ({
  status: 200,
  body: Buffer.alloc(bytes, 120),
  contentType: "application/json",
  headers: {}
})

describe("answer cache", () => {
  it("a flood of open answers evicts open answers only; the bounded ones stay", () => {
    // Each entry costs its body, twice its URL's length and 512: a 1,000-byte body under a 10-character URL, 1,532.
    const cache = AnswerCache.make({ bounded: 4_000, open: 4_000 })
    cache.keep("/v1/a/HUBC", "/v1/a/HUBC", noteOf("bounded"), response(1_000))
    // Open: 4,000 holds two of 1,532 (3,064); a third pushes the oldest out.
    for (const url of ["/v1/a/NOP1", "/v1/a/NOP2", "/v1/a/NOP3"]) cache.keep(url, url, noteOf("open"), response(1_000))
    assert.isDefined(cache.lookup("/v1/a/HUBC", 1_500), "the bounded answer stays")
    assert.isUndefined(cache.lookup("/v1/a/NOP1", 1_500), "the oldest open answer went")
    assert.isDefined(cache.lookup("/v1/a/NOP3", 1_500))
    assert.strictEqual(cache.bytes(), 3 * 1_532)
  })

  it("an answer is served from the instant it was made until its validity instant, while its state is current", () => {
    const cache = AnswerCache.make({ bounded: 100_000, open: 100_000 })
    let current = true
    const cached = cache.keep("/v1/x", "/v1/x", noteOf("bounded", () => current), response(10))
    // Made at 1,000, true until 2,000 (exclusive).
    assert.strictEqual(cached.etag, etagOf(Buffer.alloc(10, 120)))
    assert.strictEqual(cache.lookup("/v1/x", 1_000), cached)
    assert.strictEqual(cache.lookup("/v1/x", 1_999), cached)
    assert.isUndefined(cache.lookup("/v1/x", 2_000), "at its validity instant")
    cache.keep("/v1/x", "/v1/x", noteOf("bounded", () => current), response(10))
    assert.isUndefined(cache.lookup("/v1/x", 999), "before it was made (a clock stepped back)")
    cache.keep("/v1/x", "/v1/x", noteOf("bounded", () => current), response(10))
    current = false
    assert.isUndefined(cache.lookup("/v1/x", 1_500), "its state replaced")
    assert.strictEqual(cache.bytes(), 0, "what is no longer true is dropped")
  })

  it("the ETag is a strong digest of the bytes: SHA-256 in base64url, its first 22 characters (132 bits), quoted", () => {
    // SHA-256 of no bytes is e3b0c442 98fc1c14 9afbf4c8 996fb924 27ae41e4 …, in base64url
    // 47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU: its first 22 characters are 47DEQpj8HBSa-_TImW-5JC.
    assert.strictEqual(etagOf(new Uint8Array(0)), "\"47DEQpj8HBSa-_TImW-5JC\"")
  })
})
