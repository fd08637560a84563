/**
 * Asia/Karachi time and calendar-day arithmetic, in one place. Karachi is
 * UTC+5 all year (no daylight saving), so its offset is a constant. Dates
 * are "YYYY-MM-DD"; day numbers count days since 1970-01-01.
 */

/** The length of a calendar day in milliseconds. */
export const DAY_MS = 86_400_000
/** Karachi's offset from UTC in milliseconds. */
export const KARACHI_OFFSET_MS = 5 * 3_600_000

/** The day number of a date (the first 10 characters of `iso`). */
export const toDay = (iso: string) => Date.parse(iso.slice(0, 10) + "T00:00:00Z") / DAY_MS
/** The date of a day number. */
export const fromDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)
/** `iso` moved by `n` calendar days. */
export const addDays = (iso: string, n: number) => fromDay(toDay(iso) + n)

/** The Karachi calendar date of an instant (epoch milliseconds). */
export const karachiDate = (epochMs: number) => new Date(epochMs + KARACHI_OFFSET_MS).toISOString().slice(0, 10)
/** The Karachi calendar date of an ISO instant; a bare date is its own. */
export const karachiDateOf = (instantOrDate: string): string =>
  instantOrDate.length === 10 ? instantOrDate : karachiDate(Date.parse(instantOrDate))
/** Minutes past Karachi midnight of an instant. */
export const karachiMinutes = (epochMs: number) => Math.floor(((epochMs + KARACHI_OFFSET_MS) % DAY_MS) / 60_000)

/** The instant (epoch milliseconds) of a Karachi wall-clock time on a date. */
export const karachiInstant = (iso: string, hours = 0, minutes = 0) =>
  toDay(iso) * DAY_MS + (hours * 60 + minutes) * 60_000 - KARACHI_OFFSET_MS
/** The next Karachi midnight after `now`. */
export const nextKarachiMidnight = (now: number) => karachiInstant(karachiDate(now)) + DAY_MS
/** Whole days elapsed from `fromMs` to `toMs`. */
export const wholeDays = (fromMs: number, toMs: number) => Math.floor((toMs - fromMs) / DAY_MS)
