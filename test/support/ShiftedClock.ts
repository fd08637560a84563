/**
 * Clocks for tests of the running service: the wall time is set by the test
 * while sleeps, timeouts and schedules run on the real clock (a frozen
 * TestClock would stall the server's own timers). The service then judges
 * freshness, staleness and "today" as of that instant, in any year the suite
 * runs.
 */
import { Clock, Effect, Layer } from "effect"

/** The live clock with its wall time read from `millis`. */
export const wallClock = (millis: () => number): Clock.Clock => {
  const live = Clock.Clock.defaultValue()
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

/** Wall time starts at `startIso` and moves with real time. */
export const shiftedClock = (startIso: string): Clock.Clock => {
  const live = Clock.Clock.defaultValue()
  const offset = Date.parse(startIso) - live.currentTimeMillisUnsafe()
  return wallClock(() => live.currentTimeMillisUnsafe() + offset)
}

/** Provides the shifted clock to everything built under it. */
export const ShiftedClockLayer = (startIso: string) => Layer.succeed(Clock.Clock, shiftedClock(startIso))

/**
 * Wall time stopped at `iso`: every timestamp the service writes or derives is that instant, so recorded
 * answers are the same bytes on every run. For the byte-equality sample (test/answers.test.ts) only; the
 * suites of behaviour use the shifted clock.
 */
export const FrozenClockLayer = (iso: string) => Layer.succeed(Clock.Clock, wallClock(() => Date.parse(iso)))
