/**
 * The rate limiter: token buckets, one per client and kind of route, charged synchronously (the fast path and the
 * guard both call `charge`). The rules it implements (which bucket a request is charged to, the sessions' own
 * bucket, the exempt probes) are written once, in the API's description: `Api.ts`, served at /docs and
 * /openapi.json.
 *
 * Each bucket refills at its rate up to its burst; a request takes one token. At most `maxBuckets` buckets and
 * `maxBuckets` remembered credentials are held (least recently used dropped first); a remembered credential is
 * forgotten after a minute, or when its key is revoked (Keys.revoke).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { LRUCache } from "lru-cache"
import { createHash } from "node:crypto"
import { AppConfig } from "../config/AppConfig.ts"

/** Buckets (and remembered credentials) kept at most; the README states it. */
export const MAX_BUCKETS = 10_000
const REMEMBER_MS = 60_000

/** What a route is, for rate limiting. */
export type RouteKind = "public" | "private" | "session"

export interface Bucket {
  readonly key: string
  readonly limit: "requests" | "sessions"
  /** A second bucket of the same limit the request is charged to as well (a principal's address's). */
  readonly also?: string
}

export interface RateLimiterShape {
  /**
   * Charges a request at `now` to its bucket (`bucketOf`): answers 0 when allowed (a token taken), else the
   * seconds to wait. The one charge of every request, whether the fast path or the guard answers it.
   */
  readonly charge: (kind: RouteKind, authorization: string | undefined, address: string, now: number) => number
  /** Takes a token from `bucket`; answers 0 when allowed, else the seconds to wait. */
  readonly take: (bucket: Bucket) => Effect.Effect<number>
  /** The bucket a request is charged to (the rules: the API's description, Api.ts). */
  readonly bucketOf: (kind: RouteKind, authorization: string | undefined, address: string) => Bucket
  /** Takes `tokens` more from a user's bucket for work beyond one request (an import's rows); it may fall one burst into debt. */
  readonly chargeWork: (userId: string, tokens: number, now: number) => void
  /** Records that `credential` (the bearer secret) authenticated as `principal`, on behalf of key `keyId`. */
  readonly authenticated: (credential: string, principal: string, keyId: string, now: number) => void
  /** Forgets a revoked key: its later requests are charged to their address again. */
  readonly forgetKey: (keyId: string) => void
  /** Buckets held now (for tests and metrics). */
  readonly size: () => number
}

const fingerprint = (credential: string) => createHash("sha256").update(credential).digest("base64url")

const bearerOf = (authorization: string | undefined) => {
  if (authorization === undefined) return undefined
  const m = /^\s*bearer\s+(\S+)\s*$/iu.exec(authorization)
  return m ? m[1] : undefined
}

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()("psx/http/RateLimiter") {
  static readonly make = (perSecond: number, burst: number, maxBuckets = MAX_BUCKETS): RateLimiterShape => {
    const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: maxBuckets })
    const known = new LRUCache<string, { readonly principal: string; readonly keyId: string; readonly at: number }>({
      max: maxBuckets
    })
    const limits = {
      requests: { perSecond, burst },
      sessions: { perSecond: perSecond / 50, burst: Math.max(5, Math.floor(burst / 10)) }
    }
    let lastNow = 0
    /** The bucket under `key`, refilled up to `now` (a new one is full). */
    const refilled = (key: string, limit: Bucket["limit"], now: number) => {
      const { burst, perSecond } = limits[limit]
      let bucket = buckets.get(key)
      if (bucket === undefined) buckets.set(key, bucket = { tokens: burst, at: now })
      // A clock stepped back refills nothing and takes nothing away.
      if (now > bucket.at) {
        bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond)
        bucket.at = now
      }
      return bucket
    }
    const waitOf = (bucket: { tokens: number }, limit: Bucket["limit"]) =>
      bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / limits[limit].perSecond))
    const takeAt = ({ also, key, limit }: Bucket, now: number) => {
      lastNow = now
      const first = refilled(key, limit, now)
      const second = also === undefined ? undefined : refilled(also, limit, now)
      const wait = Math.max(waitOf(first, limit), second === undefined ? 0 : waitOf(second, limit))
      if (wait === 0) {
        first.tokens -= 1
        if (second !== undefined) second.tokens -= 1
      }
      return wait
    }
    /** `takeAt` for a single bucket of the requests limit (a public route's: every fast-path request). */
    const takeOne = (key: string, now: number) => {
      lastNow = now
      const bucket = refilled(key, "requests", now)
      const wait = waitOf(bucket, "requests")
      if (wait === 0) bucket.tokens -= 1
      return wait
    }
    const bucketOf = (kind: RouteKind, authorization: string | undefined, address: string): Bucket => {
      if (kind === "public") return { key: `ip:${address}`, limit: "requests" }
      if (kind === "session") return { key: `session:${address}`, limit: "sessions" }
      const bearer = bearerOf(authorization)
      if (bearer !== undefined) {
        const hit = known.get(fingerprint(bearer))
        if (hit !== undefined && lastNow - hit.at <= REMEMBER_MS) {
          return { key: `principal:${hit.principal}`, limit: "requests", also: `authenticated:${address}` }
        }
      }
      return { key: `private:${address}`, limit: "requests" }
    }
    return {
      charge: (kind, authorization, address, now) =>
        kind === "public"
          ? takeOne(`ip:${address}`, now)
          : takeAt(bucketOf(kind, authorization, address), now),
      take: (bucket) => Effect.map(Clock.currentTimeMillis, (now) => takeAt(bucket, now)),
      bucketOf,
      chargeWork: (userId, tokens, now) => {
        const bucket = refilled(`principal:${userId}`, "requests", now)
        bucket.tokens = Math.max(-limits.requests.burst, bucket.tokens - tokens)
      },
      authenticated: (credential, principal, keyId, now) => {
        known.set(fingerprint(credential), { principal, keyId, at: now })
      },
      forgetKey: (keyId) => {
        for (const [k, v] of [...known.entries()]) if (v.keyId === keyId) known.delete(k)
      },
      size: () => buckets.size
    }
  }

  static readonly layer = Layer.effect(
    RateLimiter,
    Effect.map(AppConfig, (config) => RateLimiter.make(config.rateLimit.perSecond, config.rateLimit.burst))
  )
}
