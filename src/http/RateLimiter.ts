/**
 * Per-client token buckets. A client is its bearer credential when it sends
 * one, else its address. Each bucket refills at `perSecond` tokens a second up
 * to `burst`; a request takes one token. Idle buckets are swept so memory
 * stays bounded by the number of recently active clients.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.ts"

export interface RateLimiterShape {
  /** Takes a token for `client`; answers 0 when allowed, else the seconds to wait. */
  readonly take: (client: string) => Effect.Effect<number>
}

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()("psx/http/RateLimiter") {
  static readonly make = (perSecond: number, burst: number): RateLimiterShape => {
    const buckets = new Map<string, { tokens: number; at: number }>()
    let lastSweep = 0
    const sweep = (now: number) => {
      // A bucket idle long enough to be full again carries no state worth keeping.
      const fullAfter = (burst / perSecond) * 1000
      for (const [key, bucket] of buckets) if (now - bucket.at > fullAfter) buckets.delete(key)
      lastSweep = now
    }
    return {
      take: (client) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          if (now - lastSweep > 60_000) sweep(now)
          const bucket = buckets.get(client)
          if (bucket === undefined) {
            buckets.set(client, { tokens: burst - 1, at: now })
            return 0
          }
          bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond)
          bucket.at = now
          if (bucket.tokens >= 1) {
            bucket.tokens -= 1
            return 0
          }
          return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond))
        })
    }
  }

  static readonly layer = Layer.effect(
    RateLimiter,
    Effect.map(AppConfig, (config) => RateLimiter.make(config.rateLimit.perSecond, config.rateLimit.burst))
  )
}
