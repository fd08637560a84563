/** Exit codes: 0 after a clean run or a signal-driven graceful shutdown, 1 on failure. */
import { Cause, Exit, type Runtime } from "effect"

export const teardown: Runtime.Teardown = (exit, onExit) => {
  if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return onExit(0)
  return onExit(1)
}
