/**
 * An import is charged to its user's rate limit by its rows the RateLimiter's `chargeWork`
 * takes tokens beyond the request's own, down to one burst in debt, and the user's next request waits.
 * Pure: the limiter at fixed instants (50 requests a second, bursts of 200, the defaults).
 */
import { assert, describe, it } from "@effect/vitest"
import { RateLimiter } from "../../src/http/RateLimiter.ts"

/** A limiter that knows credential `tok-u1` as user u1 (its requests go to the bucket principal:u1). */
const limiterFor = () => {
  const limiter = RateLimiter.make(50, 200)
  limiter.authenticated("tok-u1", "u1", "k1", 0)
  limiter.authenticated("tok-u2", "u2", "k2", 0)
  return limiter
}
const asUser = (limiter: ReturnType<typeof limiterFor>, user: string, now: number) =>
  limiter.charge("private", `Bearer tok-${user}`, `addr-${user}`, now)

describe("an import is charged by its rows", () => {
  it("a 10,000-row import (200 requests' worth) after its own request leaves the next one waiting 1 s; another user is not charged", () => {
    const limiter = limiterFor()
    assert.strictEqual(asUser(limiter, "u1", 0), 0, "the import's own request: 200 → 199 tokens")
    limiter.chargeWork("u1", 200, 0)
    // 199 − 200 = −1 token: the next request needs 1 − (−1) = 2 tokens of refill at 50 a second: 0.04 s, rounded up to 1 s.
    assert.strictEqual(asUser(limiter, "u1", 0), 1)
    assert.strictEqual(
      asUser(limiter, "u1", 40),
      0,
      "40 ms later 2 tokens have refilled: −1 + 2 = 1, and the request takes it"
    )
    assert.strictEqual(asUser(limiter, "u2", 40), 0)
  })
  it("the debt is at most one burst, however large the charge", () => {
    const limiter = limiterFor()
    limiter.chargeWork("u1", 1_000_000, 0)
    // −200 tokens: 1 − (−200) = 201 tokens at 50 a second = 4.02 s, rounded up to 5 s.
    assert.strictEqual(asUser(limiter, "u1", 0), 5)
  })
})
