/**
 * An import is charged to its user's rate limit by its rows (issue 51 item 2): the RateLimiter's `charge`
 * takes tokens beyond the request's own, down to one burst in debt, and the user's next request waits.
 * Pure: the limiter at fixed instants (50 requests a second, bursts of 200, the defaults).
 */
import { assert, describe, it } from "@effect/vitest"
import { type Bucket, RateLimiter } from "../src/http/RateLimiter.ts"

const user: Bucket = { key: "principal:u1", limit: "requests" }

describe("an import is charged by its rows", () => {
  it("a 10,000-row import (200 requests' worth) after its own request leaves the next one waiting 1 s; another user is not charged", () => {
    const limiter = RateLimiter.make(50, 200)
    assert.strictEqual(limiter.takeAt(user, 0), 0, "the import's own request: 200 → 199 tokens")
    limiter.charge("u1", 200, 0)
    // 199 − 200 = −1 token: the next request needs 1 − (−1) = 2 tokens of refill at 50 a second: 0.04 s, rounded up to 1 s.
    assert.strictEqual(limiter.takeAt(user, 0), 1)
    assert.strictEqual(limiter.takeAt(user, 40), 0, "40 ms later 2 tokens have refilled: −1 + 2 = 1, and the request takes it")
    assert.strictEqual(limiter.takeAt({ key: "principal:u2", limit: "requests" }, 40), 0)
  })
  it("the debt is at most one burst, however large the charge", () => {
    const limiter = RateLimiter.make(50, 200)
    limiter.charge("u1", 1_000_000, 0)
    // −200 tokens: 1 − (−200) = 201 tokens at 50 a second = 4.02 s, rounded up to 5 s.
    assert.strictEqual(limiter.takeAt(user, 0), 5)
  })
})
