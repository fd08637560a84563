/**
 * Waiting on a condition with a deadline, instead of sleeping a fixed time:
 * the check is re-run every `every` until it holds, and the test fails with
 * `what` when it has not held by `within`. Runs on the clock in scope (tests
 * that wait on a running server use the live clock).
 */
import { type Duration, Effect, Schedule } from "effect"

export interface WaitOptions {
  /** The deadline (default 30 seconds). */
  readonly within?: Duration.Input
  /** Time between two checks (default 25 ms). */
  readonly every?: Duration.Input
}

/** Re-runs `check` until it yields true; dies naming `what` at the deadline. */
export const waitUntil = <E, R>(what: string, check: Effect.Effect<boolean, E, R>, options: WaitOptions = {}) =>
  check.pipe(
    Effect.orDie,
    Effect.repeat({ until: (ok: boolean) => ok, schedule: Schedule.spaced(options.every ?? "25 millis") }),
    Effect.timeoutOrElse({
      duration: options.within ?? "30 seconds",
      orElse: () => Effect.die(new Error(`timed out waiting until ${what}`))
    }),
    Effect.asVoid
  )

/** Re-runs `step` until it yields a value that `done` accepts; returns that value, dies naming `what` at the deadline. */
export const pollUntil = <A, E, R>(
  what: string,
  step: Effect.Effect<A, E, R>,
  done: (a: A) => boolean,
  options: WaitOptions = {}
) =>
  step.pipe(
    Effect.orDie,
    Effect.repeat({ until: done, schedule: Schedule.spaced(options.every ?? "25 millis") }),
    Effect.timeoutOrElse({
      duration: options.within ?? "30 seconds",
      orElse: () => Effect.die(new Error(`timed out waiting until ${what}`))
    })
  )
