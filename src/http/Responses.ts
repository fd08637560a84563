/**
 * What the fast path (FastPath.ts) and the guard (Guard.ts) both write, written once: the error record and
 * the rate-limit refusal, the caching headers of a kept answer, the revalidation check, and the access line.
 */
import { Cause, Clock, Effect, Logger, LogLevel, References } from "effect"
import { type ErrorCode, statusOf } from "../../domain/Errors.ts"
import { AccessLine } from "../observability/AccessLine.ts"
import type { CachedAnswer } from "./AnswerCache.ts"

export const JSON_TYPE = "application/json"

/** An answer as node:http writes it. */
export interface Written {
  readonly status: number
  readonly body: Buffer
  readonly headers: Readonly<Record<string, string>>
}

/** The error record `{error, message}` every refusal carries (`symbol` where a feature names one). */
export const errorRecord = (
  code: ErrorCode,
  message: string,
  headers: Readonly<Record<string, string>> = {}
): Written => ({
  status: statusOf[code],
  body: Buffer.from(JSON.stringify({ error: code, message }), "utf8"),
  headers
})

/** The refusal of a request over its rate limit (RateLimiter.ts): 429 with Retry-After. */
export const rateLimited = (wait: number): Written =>
  errorRecord("RATE_LIMITED", `rate limit exceeded; retry after ${wait} s`, { "retry-after": String(wait) })

/**
 * The longest a cache in front may keep an answer whose own validity has no end on the calendar: a new
 * snapshot of the read model (live data) can replace it at any time.
 */
export const MAX_AGE_SECONDS = 60

const STALE = "public, max-age=0, must-revalidate"
/** Each value, made once (it is written on every kept answer). */
const PUBLIC = Array.from({ length: MAX_AGE_SECONDS + 1 }, (_, seconds) => `public, max-age=${seconds}`)

/**
 * `Cache-Control` of a kept answer at `now`: public, for the whole seconds left until its validity instant
 * (at most MAX_AGE_SECONDS); an answer that says its data is stale, 0 and must-revalidate.
 */
export const cacheControl = (answer: Pick<CachedAnswer, "stale" | "validUntil">, now: number) => {
  if (answer.stale) return STALE
  return PUBLIC[Math.max(0, Math.min(MAX_AGE_SECONDS, Math.floor((answer.validUntil - now) / 1000)))]!
}

/** Headers of an answer that belongs to one user: no cache may keep it, and no browser may sniff its type. */
export const PRIVATE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "private, no-store",
  "x-content-type-options": "nosniff"
}

/**
 * Whether `If-None-Match` names `etag` (RFC 9110 §13.1.2: `*`, or a list compared weakly, so `W/"x"` names `"x"`).
 */
export const notModified = (ifNoneMatch: string | undefined, etag: string) => {
  if (ifNoneMatch === undefined) return false
  if (ifNoneMatch === etag) return true
  for (const part of ifNoneMatch.split(",")) {
    const tag = part.trim()
    if (tag === "*" || tag === etag || (tag.startsWith("W/") && tag.slice(2) === etag)) return true
  }
  return false
}

/** Writes one access line: the request's id, method, path (as it may be logged), status and milliseconds. */
export type AccessLog = (requestId: string, method: string, logged: string, status: number, start: number) => void

/**
 * The access log: one AccessLine entry per request, at Info, handed to the loggers in force where it is made,
 * on the fiber that made it. A plain function, so the fast path (outside any fiber) and the guard write the
 * same entry the same way.
 */
export const makeAccessLog: Effect.Effect<AccessLog> = Effect.gen(function*() {
  const logs = LogLevel.isGreaterThanOrEqualTo("Info", yield* References.MinimumLogLevel)
  const loggers = [...(yield* Logger.CurrentLoggers)]
  const clock = yield* Clock.Clock
  const fiber = yield* Effect.withFiber((fiber) => Effect.succeed(fiber))
  return (requestId, method, logged, status, start) => {
    if (!logs) return
    const now = clock.currentTimeMillisUnsafe()
    const message = [new AccessLine(requestId, method, logged, status, now - start)]
    const date = new Date(now)
    for (const logger of loggers) logger.log({ message, logLevel: "Info", cause: Cause.empty, fiber, date })
  }
})
