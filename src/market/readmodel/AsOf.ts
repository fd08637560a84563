/**
 * Point-in-time reads: the two clocks of the market reads and the snapshot a
 * request reads when it names one. `as_of` (the market clock): what the
 * market knew then, each figure from when its recording proves it public
 * (MarketClock.ts). `recorded_as_of` (the recorded clock): what this
 * deployment had stored by then. Each is an ISO 8601 instant or a date (the
 * end of that Karachi day). The read model hands `AsOfRead`'s snapshot to the
 * services instead of the live one while it is set (AsOfMiddleware.ts).
 */
import { Clock, Context, Effect, Schema } from "effect"
import { dataThroughHeader } from "../../../domain/market/snapshot/DataThrough.ts"
import type { MarketSnapshot } from "../../../domain/market/snapshot/Snapshot.ts"

const AS_OF_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/
const KARACHI_OFFSET_MS = 5 * 3_600_000
const DAY_MS = 86_400_000

const INSTANT_TEXT =
  "An ISO 8601 instant with its offset (2026-05-22T13:00:00Z), or a date meaning the end of that Karachi day; a future " +
  "instant, or both clocks at once, is 400. While the instant loads the answer is 503 with Retry-After (loads are charged " +
  "per key, else per address). X-As-Of-Clock, X-As-Of and X-As-Of-Known name the clock, the instant and the state answered."

export const AS_OF_DESCRIPTION =
  "Answer as the market knew it then (the market clock): each figure from when its recording proves it public (a close " +
  "from its session's close, a snapshot from its retrieval, a filing, payout or news item from its publication, a " +
  "restated series only from its retrieval, marked `unknown` before). " + INSTANT_TEXT

export const RECORDED_AS_OF_DESCRIPTION =
  "Answer as this deployment had stored it then (the recorded clock, for audit and replay): only rows retrieved by " +
  "then. " + INSTANT_TEXT

/** Which clock a point-in-time read answers by. */
export type AsOfClock = "market" | "recorded"

/** The query parameter of each clock. */
export const CLOCK_PARAMS: ReadonlyArray<readonly [AsOfClock, string]> = [["market", "as_of"], [
  "recorded",
  "recorded_as_of"
]]

/** The `as_of` query parameter (a string of the accepted shapes; its instant is `asOfInstant`). */
export const AsOfParam = Schema.String.check(Schema.isPattern(AS_OF_PATTERN)).annotate({
  description: AS_OF_DESCRIPTION
})
const RecordedAsOfParam = Schema.String.check(Schema.isPattern(AS_OF_PATTERN)).annotate({
  description: RECORDED_AS_OF_DESCRIPTION
})

/** The query fields every point-in-time market read declares. */
export const asOfQuery = { as_of: Schema.optional(AsOfParam), recorded_as_of: Schema.optional(RecordedAsOfParam) }

/** The clock and `as_of` text a request names (undefined: neither; "both": it named the two). */
export const clockOf = (get: (name: string) => string | null | undefined) => {
  const named = CLOCK_PARAMS.flatMap(([clock, name]) => {
    const raw = get(name)
    return raw === null || raw === undefined ? [] : [{ clock, raw }]
  })
  return named.length > 1 ? "both" as const : named[0]
}

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
  /** The clock that answers. */
  readonly clock: AsOfClock
  /** The instant asked for (ms). */
  readonly at: number
  /** The newest instant at or before `at` at which what was known changed (ISO). */
  readonly reflects: string
}

/** Set for a request that gave `as_of`; the read model answers its snapshot instead of the live one. */
export const AsOfRead = Context.Reference<AsOfView | undefined>("psx/market/AsOfRead", {
  defaultValue: () => undefined
})

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
 * The one way a point-in-time read is run: by the HttpApi middleware (AsOfMiddleware.ts) and for the cached
 * answers (SnapshotAnswers.ts).
 */
export const readAsOf = (view: AsOfView) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.clockWith((clock) =>
    effect.pipe(
      Effect.provideService(AsOfRead, view),
      Effect.provideService(Clock.Clock, stoppedAt(clock, clockInstant(view.at)))
    )
  )

/**
 * The instant the services' clock reads for `at`: a Karachi midnight (a date's `as_of`: the end of that day) reads
 * as the day's last millisecond, so the day asked for is "today" (the market's status, trailing windows); the
 * figures are those known by `at` itself.
 */
export const clockInstant = (at: number) => ((at + KARACHI_OFFSET_MS) % DAY_MS === 0 ? at - 1 : at)

/** The header of every market answer: the last day of each dataset its snapshot holds (X-Data-Through). */
export const dataThroughHeaders = (snapshot: MarketSnapshot): Readonly<Record<string, string>> => ({
  "x-data-through": dataThroughHeader(snapshot)
})

/**
 * The headers of a point-in-time answer: the clock, the instant asked for, the state it reflects, and the last day
 * of each dataset known then.
 */
export const asOfHeaders = (view: AsOfView): Readonly<Record<string, string>> => ({
  "x-as-of-clock": view.clock,
  "x-as-of": new Date(view.at).toISOString(),
  "x-as-of-known": view.reflects,
  ...dataThroughHeaders(view.snapshot)
})
