/**
 * Where news was recorded: the Karachi days on which some recorded or live
 * news item was published, joined into windows across gaps of up to
 * MAX_QUIET_DAYS days (the feeds were read every few hours, and a weekend or
 * holiday without a story is not a gap in the reading; the recordings' real
 * gaps are weeks: 4 Feb-15 Jun and 25 Jun-13 Jul 2026). A news answer for
 * days outside every window is coverage "unknown" (nothing was read then), not
 * "no news".
 */
import { addDays, karachiDateOf } from "../Karachi.ts"

export const MAX_QUIET_DAYS = 3

export interface Window {
  readonly from: string
  readonly to: string
}

/** Instants or days → windows of days with no gap over MAX_QUIET_DAYS, oldest first. */
export const recordedWindows = (instants: Iterable<string>): ReadonlyArray<Window> => {
  const days = [...new Set([...instants].map(karachiDateOf))].sort()
  const out: Array<Window> = []
  for (const day of days) {
    const last = out[out.length - 1]
    if (last !== undefined && addDays(last.to, MAX_QUIET_DAYS + 1) >= day) {
      out[out.length - 1] = { from: last.from, to: day }
    } else out.push({ from: day, to: day })
  }
  return out
}

/** Whether some window meets the days `from..to` (either end open). */
export const overlaps = (windows: ReadonlyArray<Window>, from: string | undefined, to: string | undefined) =>
  windows.some((w) => (from === undefined || w.to >= from) && (to === undefined || w.from <= to))

/** The windows as a reader's list: "2026-01-31 to 2026-02-03, 2026-06-16 to 2026-06-24". */
export const windowsText = (windows: ReadonlyArray<Window>) =>
  windows.map((w) => (w.from === w.to ? w.from : `${w.from} to ${w.to}`)).join(", ")
