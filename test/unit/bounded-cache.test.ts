/**
 * The one in-memory cache: least recently used out first, within a count of entries and a byte budget; an entry
 * over the whole budget is never kept. Sizes are worked by hand in each step's comment.
 */
import { assert, describe, it } from "@effect/vitest"
import { BoundedCache } from "../../src/cache/BoundedCache.ts"

describe("BoundedCache", () => {
  it("is bounded by bytes: least recently used out first, an oversized entry never kept", () => {
    const cache = new BoundedCache<string, Array<number>>({ maxEntries: 100, maxBytes: 1_000 })
    cache.set("a", [1], 400)
    cache.set("b", [2], 400)
    assert.deepStrictEqual(cache.get("a"), [1], "a is now the most recently used")
    // 800 held + 400 > 1,000: the least recently used (b) goes.
    cache.set("c", [3], 400)
    assert.isUndefined(cache.get("b"), "b was least recently used")
    assert.deepStrictEqual([cache.get("a"), cache.get("c")], [[1], [3]])
    assert.strictEqual(cache.bytes, 800)
    // a grows to 700: 400 (c) + 700 > 1,000, so c (least recently used once a is taken out) goes.
    cache.set("a", [1, 4], 700)
    assert.isUndefined(cache.get("c"), "growing a pushes c out")
    assert.strictEqual(cache.bytes, 700)
    cache.set("huge", [5], 5_000)
    assert.isUndefined(cache.get("huge"))
    assert.deepStrictEqual([cache.bytes, cache.size], [700, 1])
  })

  it("is bounded by entries whatever their size", () => {
    const cache = new BoundedCache<number, string>({ maxEntries: 3, maxBytes: 1_000_000 })
    for (const k of [1, 2, 3]) cache.set(k, `v${k}`, 1)
    cache.get(1)
    // A fourth entry: 2 is the least recently used (1 was read after 3 was set).
    cache.set(4, "v4", 1)
    assert.deepStrictEqual([1, 2, 3, 4].map((k) => cache.get(k)), ["v1", undefined, "v3", "v4"])
    assert.deepStrictEqual([cache.size, cache.bytes], [3, 3])
  })

  it("replacing or deleting an entry gives its bytes back", () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 10, maxBytes: 100 })
    cache.set("x", 1, 60)
    cache.set("x", 2, 30)
    assert.deepStrictEqual([cache.get("x"), cache.bytes], [2, 30])
    cache.delete("x")
    cache.delete("never there")
    assert.deepStrictEqual([cache.size, cache.bytes], [0, 0])
  })
})
