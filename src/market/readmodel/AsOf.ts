/**
 * Point-in-time reads: the `as_of` query parameter of the market reads, and
 * the snapshot a request reads when it gave one.
 *
 * `as_of` is an ISO 8601 instant (`2026-05-22T13:00:00Z`, an offset allowed)
 * or a date (`2026-05-22`), which means the end of that Karachi day (the next
 * day's 00:00 Asia/Karachi): what the service had retrieved by then. The read
 * model hands `AsOfRead`'s snapshot to the services instead of the live one
 * while it is set (AsOfMiddleware.ts sets it for the request).
 */
import { Clock, Context, Effect, Schema } from "effect"
import type { MarketSnapshot } from "../../../domain/market/snapshot/Snapshot.ts"

const AS_OF_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/
const KARACHI_OFFSET_MS = 5 * 3_600_000
const DAY_MS = 86_400_000

export const AS_OF_DESCRIPTION = "Answer as of this instant: only what the service had retrieved by then (a figure later corrected " +
  "shows its earlier value, a payout announced later is absent, a symbol listed later is unknown, index membership is the one " +
  "known then), and freshness judged at that instant. An ISO 8601 instant with its offset (2026-05-22T13:00:00Z), or a date " +
  "(2026-05-22), meaning the end of that Karachi day. A future instant, or one before the earliest retrieval the service holds, " +
  "is 400 INVALID_REQUEST. The market as known at an instant is loaded from the store by the first request about it, one " +
  "instant at a time: a request about another instant meanwhile is 429 RATE_LIMITED with Retry-After. The answer's X-As-Of header names the instant it reflects; its answers are kept for that instant only, never mixed with the live ones."

/** The `as_of` query parameter (a string of the accepted shapes; its instant is `asOfInstant`). */
export const AsOfParam = Schema.String.check(Schema.isPattern(AS_OF_PATTERN)).annotate({ description: AS_OF_DESCRIPTION })

/** The query field every point-in-time market read declares. */
export const asOfQuery = { as_of: Schema.optional(AsOfParam) }

/** The instant (ms) an `as_of` value names, or undefined when it is not one. */
export const asOfInstant = (value: string): number | undefined => {
  if (!AS_OF_PATTERN.test(value)) return undefined
  const date = value.slice(0, 10)
  const day = Date.parse(`${date}T00:00:00Z`)
  // A day that is not in the calendar (2026-02-30) is refused, not rolled over into the next month.
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== date) return undefined
  if (value.length === 10) return day + DAY_MS - KARACHI_OFFSET_MS
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : at
}

/** The snapshot a point-in-time request reads, and the instants it is as of and reflects. */
export interface AsOfView {
  readonly snapshot: MarketSnapshot
  /** The instant asked for (ms). */
  readonly at: number
  /** The newest instant at or before `at` at which what was known changed (ISO). */
  readonly reflects: string
}

/** Set for a request that gave `as_of`; the read model answers its snapshot instead of the live one. */
export const AsOfRead = Context.Reference<AsOfView | undefined>("psx/market/AsOfRead", { defaultValue: () => undefined })

/** A clock stopped at `at` for what the services read; sleeping is left to `clock`. */
const stoppedAt = (clock: Clock.Clock, at: number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => at,
  currentTimeMillis: Effect.succeed(at),
  currentTimeNanosUnsafe: () => BigInt(at) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(at) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => clock.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: clock.monotonicTimeNanos,
  sleep: (duration) => clock.sleep(duration)
})

/**
 * Runs a read as of the view's instant: the read model hands it the view's snapshot, and the clock the
 * services read is stopped at the instant (freshness, the market's phase and trailing windows are judged then).
 * The one way a point-in-time read is run: by the HttpApi middleware (AsOfMiddleware.ts) and for the kept
 * answers (SnapshotAnswers.ts).
 */
export const readAsOf = (view: AsOfView) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.clockWith((clock) =>
    effect.pipe(Effect.provideService(AsOfRead, view), Effect.provideService(Clock.Clock, stoppedAt(clock, view.at)))
  )

/** The headers of a point-in-time answer: the instant asked for, and the newest retrieval it reflects. */
export const asOfHeaders = (view: AsOfView): Readonly<Record<string, string>> => ({
  "x-as-of": new Date(view.at).toISOString(),
  "x-as-of-known": view.reflects
})
