/**
 * Per-principal token buckets. A request is charged to the principal (the
 * user) its bearer credential authenticated as, once the credential has been
 * seen to authenticate; a missing, made-up or not-yet-checked credential is
 * charged to the client's address. So rotating invented tokens from one
 * address drains that address's bucket, and adds no buckets.
 *
 * Each bucket refills at `perSecond` tokens a second up to `burst`; a request
 * takes one token. Memory is bounded: at most `maxBuckets` buckets and
 * `maxBuckets` remembered credentials (least recently used evicted first);
 * a remembered credential is forgotten after a minute, or when revoked.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { AppConfig } from "../config/AppConfig.ts"

/** Buckets (and remembered credentials) kept at most; the README states it. */
export const MAX_BUCKETS = 10_000
const REMEMBER_MS = 60_000

export interface RateLimiterShape {
  /** Takes a token for `client`; answers 0 when allowed, else the seconds to wait. */
  readonly take: (client: string) => Effect.Effect<number>
  /** The bucket a request is charged to: its authenticated principal, else its address. */
  readonly clientOf: (authorization: string | undefined, address: string) => string
  /** Records that `credential` (the bearer secret) authenticated as `principal`, on behalf of key `keyId`. */
  readonly authenticated: (credential: string, principal: string, keyId: string, now: number) => void
  /** Forgets a revoked key: its later requests are charged to their address again. */
  readonly forgetKey: (keyId: string) => void
  /** Buckets held now (for tests and metrics). */
  readonly size: () => number
}

/** A Map used as an LRU: a get moves the entry to the back; the front is evicted when full. */
const touch = <K, V>(map: Map<K, V>, key: K, value: V, cap: number) => {
  map.delete(key)
  map.set(key, value)
  if (map.size > cap) map.delete(map.keys().next().value!)
}

const fingerprint = (credential: string) => createHash("sha256").update(credential).digest("base64url")

const bearerOf = (authorization: string | undefined) => {
  if (authorization === undefined) return undefined
  const m = /^\s*bearer\s+(\S+)\s*$/iu.exec(authorization)
  return m ? m[1] : undefined
}

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()("psx/http/RateLimiter") {
  static readonly make = (perSecond: number, burst: number, maxBuckets = MAX_BUCKETS): RateLimiterShape => {
    const buckets = new Map<string, { tokens: number; at: number }>()
    const known = new Map<string, { readonly principal: string; readonly keyId: string; readonly at: number }>()
    let lastNow = 0
    return {
      take: (client) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          lastNow = now
          const bucket = buckets.get(client)
          if (bucket === undefined) {
            touch(buckets, client, { tokens: burst - 1, at: now }, maxBuckets)
            return 0
          }
          bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond)
          bucket.at = now
          touch(buckets, client, bucket, maxBuckets)
          if (bucket.tokens >= 1) {
            bucket.tokens -= 1
            return 0
          }
          return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond))
        }),
      clientOf: (authorization, address) => {
        const bearer = bearerOf(authorization)
        if (bearer !== undefined) {
          const hit = known.get(fingerprint(bearer))
          if (hit !== undefined && lastNow - hit.at <= REMEMBER_MS) return `principal:${hit.principal}`
        }
        return `ip:${address}`
      },
      authenticated: (credential, principal, keyId, now) => {
        touch(known, fingerprint(credential), { principal, keyId, at: now }, maxBuckets)
      },
      forgetKey: (keyId) => {
        for (const [k, v] of known) if (v.keyId === keyId) known.delete(k)
      },
      size: () => buckets.size
    }
  }

  static readonly layer = Layer.effect(
    RateLimiter,
    Effect.map(AppConfig, (config) => RateLimiter.make(config.rateLimit.perSecond, config.rateLimit.burst))
  )
}
