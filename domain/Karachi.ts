/**
 * Asia/Karachi time and calendar-day arithmetic, in one place. Karachi is
 * UTC+5 all year (no daylight saving), so its offset is a constant. Dates
 * are "YYYY-MM-DD"; day numbers count days since 1970-01-01.
 */

/** The length of a calendar day in milliseconds. */
export const DAY_MS = 86_400_000
/** Karachi's offset from UTC in milliseconds. */
export const KARACHI_OFFSET_MS = 5 * 3_600_000

/** The value of the ASCII digits of `s` from `start` to `end`, or NaN when one is not a digit. */
const digits = (s: string, start: number, end: number) => {
  let n = 0
  for (let i = start; i < end; i++) {
    const d = s.charCodeAt(i) - 48
    if (d < 0 || d > 9) return NaN
    n = n * 10 + d
  }
  return n
}

/**
 * The day number of a date (the first 10 characters of `iso`), by the
 * proleptic Gregorian calendar's arithmetic (no Date object: the trading-day
 * rules call this for every day they step over), giving what Date.parse
 * gives: a day past the month's end rolls into the next (2026-02-30 is
 * 2026-03-02). Another shape than "YYYY-MM-DD" with a month of 1-12 and a
 * day of 1-31 is left to Date.parse (NaN, or a "YYYY-MM" month's first day).
 */
export const toDay = (iso: string) => {
  const y0 = iso.charCodeAt(4) === 45 && iso.charCodeAt(7) === 45 ? digits(iso, 0, 4) : NaN
  const m = digits(iso, 5, 7)
  const d = iso.length >= 10 ? digits(iso, 8, 10) : NaN
  if (!(y0 >= 0 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return Date.parse(iso.slice(0, 10) + "T00:00:00Z") / DAY_MS
  // Days from 0000-03-01 in 400-year eras (each 146,097 days), then back to 1970-01-01.
  const y = m <= 2 ? y0 - 1 : y0
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`)

/** The date of a day number ("YYYY-MM-DD"; outside years 0-9999, what Date gives). */
export const fromDay = (day: number) => {
  if (!Number.isInteger(day) || day < -719_528 || day > 2_932_896) {
    return new Date(day * DAY_MS).toISOString().slice(0, 10)
  }
  const z = day + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const d = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  const y = yearOfEra + era * 400 + (m <= 2 ? 1 : 0)
  return `${String(y).padStart(4, "0")}-${pad2(m)}-${pad2(d)}`
}
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
