/**
 * A wall clock a test can move: like ShiftedClock (wall time starts at an
 * instant and runs on with real time; sleeps and timeouts on the real
 * clock), but `moveTo` sets it to a new instant while the service runs, so
 * one test can read the portal after one session's close and then after the
 * next one's.
 */
import { Clock, Context, Layer } from "effect"
import { wallClock } from "./ShiftedClock.ts"

export class MovableClock
  extends Context.Service<MovableClock, { readonly moveTo: (iso: string) => void }>()("test/MovableClock")
{}

export const MovableClockLayer = (startIso: string) => {
  const live = Clock.Clock.defaultValue()
  let offset = Date.parse(startIso) - live.currentTimeMillisUnsafe()
  const millis = () => live.currentTimeMillisUnsafe() + offset
  const clock = wallClock(millis)
  return Layer.mergeAll(
    Layer.succeed(Clock.Clock, clock),
    Layer.succeed(
      MovableClock,
      MovableClock.of({ moveTo: (iso) => (offset = Date.parse(iso) - live.currentTimeMillisUnsafe()) })
    )
  )
}
