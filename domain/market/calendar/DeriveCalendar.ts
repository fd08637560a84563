/**
 * Derives the exchange's past closures from recorded daily prices: within
 * the recorded range, a weekday on which no recorded symbol traded (no row
 * with a volume above 0) was a closure; a weekend day on which one traded
 * was a special session. Pure: the caller reads the recordings.
 *
 * A recording gap that hits every recorded symbol on the same day cannot be
 * told from a closure; the derived list is checked against the published
 * 2026 list where the two overlap.
 */
import { addDays, isWeekend } from "./Calendar.ts"

export interface DerivedCalendar {
  readonly first: string
  readonly last: string
  /** Weekdays in [first, last] with no trade in any recorded symbol. */
  readonly closures: ReadonlyArray<string>
  /** Saturdays and Sundays with a recorded trade. */
  readonly weekend_sessions: ReadonlyArray<string>
}

/** `traded`: every date on which at least one recorded symbol traded. */
export const deriveClosures = (traded: ReadonlySet<string>): DerivedCalendar | undefined => {
  const dates = [...traded].sort()
  const first = dates[0]
  const last = dates[dates.length - 1]
  if (first === undefined || last === undefined) return undefined
  const closures: Array<string> = []
  const weekend: Array<string> = []
  for (let d = first; d <= last; d = addDays(d, 1)) {
    if (isWeekend(d)) {
      if (traded.has(d)) weekend.push(d)
    } else if (!traded.has(d)) closures.push(d)
  }
  return { first, last, closures, weekend_sessions: weekend }
}
