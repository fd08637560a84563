/**
 * Progress for long work: a line rewritten in place on a terminal, plain log
 * lines elsewhere (CI, files), and a summary at the end.
 */
import { Clock, Effect } from "effect"

export interface StepSummary {
  readonly dataset: string
  readonly read: number
  readonly written: number
  readonly skipped: Readonly<Record<string, number>>
}

export const makeProgress = (label: string, total: number) => {
  const tty = process.stderr.isTTY === true
  let done = 0
  let lastShown = 0
  return {
    advance: (n: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          done += n
          if (tty && (now - lastShown > 100 || done >= total)) {
            lastShown = now
            const pct = total > 0 ? Math.floor((100 * done) / total) : 100
            process.stderr.write(
              `\r${label}: ${done.toLocaleString("en")} / ${total.toLocaleString("en")} (${pct}%)   `
            )
            if (done >= total) process.stderr.write("\n")
          }
        }))
  }
}
