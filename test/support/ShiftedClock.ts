/**
 * A clock for tests of the running service: wall time starts at a fixed
 * instant and moves with real time, while sleeps, timeouts and schedules
 * run on the real clock (a frozen TestClock would stall the server's own
 * timers). The service then judges freshness, staleness and "today" as of
 * that instant, in any year the suite runs.
 */
import { Clock, Effect, Layer } from "effect"

export const shiftedClock = (startIso: string): Clock.Clock => {
  const live = Clock.Clock.defaultValue()
  const offset = Date.parse(startIso) - live.currentTimeMillisUnsafe()
  const millis = () => live.currentTimeMillisUnsafe() + offset
  return {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => live.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: live.monotonicTimeNanos,
    sleep: (duration) => live.sleep(duration)
  }
}

/** Provides the shifted clock to everything built under it. */
export const ShiftedClockLayer = (startIso: string) => Layer.succeed(Clock.Clock, shiftedClock(startIso))
