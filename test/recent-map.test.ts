/**
 * The rate limiter's map: bounded by a count of entries, keeping the recently used ones, with nothing changed
 * when an entry already in the newer generation is read. Generations worked by hand in the comments (bound 4:
 * two generations of at most 2).
 */
import { assert, describe, it } from "@effect/vitest"
import { RecentMap } from "../src/cache/RecentMap.ts"

const keysOf = (map: RecentMap<string, number>) => [...map.entries()].map(([k]) => k).sort()

describe("RecentMap", () => {
  it("keeps an entry used once per half-bound of new entries, drops one unused for a whole bound", () => {
    const map = new RecentMap<string, number>(4)
    map.set("a", 1) // newer {a}
    map.set("b", 2) // newer full: older {a, b}, newer {}
    map.set("c", 3) // newer {c}
    assert.strictEqual(map.get("a"), 1, "a moves into the newer generation") // older {b}, newer full {c, a} → older {c, a}
    map.set("d", 4) // newer {d}; b (older generation dropped) is gone
    assert.deepStrictEqual(keysOf(map), ["a", "c", "d"])
    assert.isUndefined(map.get("b"))
    map.set("e", 5) // newer full {d, e} → older; {c, a} dropped
    assert.deepStrictEqual(keysOf(map), ["d", "e"])
  })

  it("never holds more than its bound, whatever is added", () => {
    const map = new RecentMap<number, number>(100)
    for (let i = 0; i < 10_000; i++) {
      map.set(i, i)
      assert.isAtMost(map.size, 100)
    }
    assert.strictEqual(map.get(9_999), 9_999, "the newest is kept")
  })

  it("updates and deletes in either generation", () => {
    const map = new RecentMap<string, number>(4)
    map.set("a", 1)
    map.set("b", 2) // older {a, b}
    map.set("a", 10) // a moves to newer with its new value
    assert.strictEqual(map.get("a"), 10)
    map.delete("b")
    map.delete("a")
    assert.strictEqual(map.size, 0)
  })
})
