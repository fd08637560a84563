/**
 * Which dates the exchange trades on (Asia/Karachi), and on what knowledge:
 * the published holiday list, the closures derived from the recordings
 * (RecordedCalendar.ts), or none (`unverified`: weekdays assumed open).
 */
import { addDays, toDay } from "../../Karachi.ts"
import { recordedCalendar } from "./RecordedCalendar.ts"
import type { CalendarBasis, TradingDayStatus } from "./StatusSchema.ts"

export interface Holiday {
  readonly date: string
  readonly name: string
  /** Moon-dependent: the date is confirmed by a later notice. */
  readonly provisional: boolean
}

/** PSX notice of 20 Jan 2026. */
export const holidays2026: ReadonlyArray<Holiday> = [
  { date: "2026-02-05", name: "Kashmir Day", provisional: false },
  { date: "2026-03-20", name: "Juma-tul-Wida", provisional: true },
  { date: "2026-03-21", name: "Eid-ul-Fitr", provisional: true },
  { date: "2026-03-22", name: "Eid-ul-Fitr", provisional: true },
  { date: "2026-03-23", name: "Eid-ul-Fitr; Pakistan Day", provisional: true },
  { date: "2026-05-01", name: "Labour Day", provisional: false },
  { date: "2026-05-27", name: "Eid-ul-Azha", provisional: true },
  { date: "2026-05-28", name: "Eid-ul-Azha; Youm-e-Takbeer", provisional: true },
  { date: "2026-05-29", name: "Eid-ul-Azha", provisional: true },
  { date: "2026-06-24", name: "Ashura", provisional: true },
  { date: "2026-06-25", name: "Ashura", provisional: true },
  { date: "2026-08-14", name: "Independence Day", provisional: false },
  { date: "2026-08-25", name: "Eid Milad-un-Nabi", provisional: true },
  { date: "2026-11-09", name: "Iqbal Day", provisional: false },
  { date: "2026-12-25", name: "Quaid Day", provisional: false }
]

const holidayByDate = new Map(holidays2026.map((h) => [h.date, h]))
/** Years whose exchange holiday list the service holds. */
export const holidayYears: ReadonlySet<number> = new Set([2026])

/**
 * Public holidays on a fixed calendar date. A closure derived from the
 * recordings on one of these dates carries the holiday's name; closures on
 * other dates (moon-dependent holidays, one-off closures) stay unnamed.
 */
export const fixedDateHolidays: ReadonlyArray<{ readonly monthDay: string; readonly name: string }> = [
  { monthDay: "02-05", name: "Kashmir Day" },
  { monthDay: "03-23", name: "Pakistan Day" },
  { monthDay: "05-01", name: "Labour Day" },
  { monthDay: "05-28", name: "Youm-e-Takbeer" },
  { monthDay: "08-14", name: "Independence Day" },
  { monthDay: "11-09", name: "Iqbal Day" },
  { monthDay: "12-25", name: "Quaid Day" }
]
const fixedByMonthDay = new Map(fixedDateHolidays.map((h) => [h.monthDay, h.name]))
const recordedClosures: ReadonlySet<string> = new Set(recordedCalendar.closures)
const recordedWeekendSessions: ReadonlySet<string> = new Set(recordedCalendar.weekend_sessions)

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (iso: string) => (((toDay(iso) + 4) % 7) + 7) % 7 // 1970-01-01 was a Thursday
/** English weekday names, indexed by `weekday`. */
export const weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

export const isWeekend = (iso: string) => {
  const w = weekday(iso)
  return w === 0 || w === 6
}

/** Which calendar answers for a date: a published list, the recordings, or none. */
export const calendarBasisOf = (iso: string): CalendarBasis =>
  holidayYears.has(Number(iso.slice(0, 4)))
    ? "published"
    : iso >= recordedCalendar.first && iso <= recordedCalendar.last
    ? "recorded"
    : "unverified"

/**
 * Whether the exchange trades on a date and on what knowledge: the
 * published list for its year; else the closures derived from the
 * recordings (a recorded closure on a fixed-date public holiday carries the
 * holiday's name); else `calendar: "unverified"`, weekdays assumed open.
 */
export const tradingDayStatus = (iso: string): TradingDayStatus => {
  const date = iso.slice(0, 10)
  const calendar = calendarBasisOf(date)
  if (calendar === "recorded" && recordedWeekendSessions.has(date)) return { date, trading: true, calendar }
  if (isWeekend(date)) return { date, trading: false, calendar, reason: "weekend" }
  if (calendar === "published") {
    const h = holidayByDate.get(date)
    return h
      ? { date, trading: false, calendar, reason: "holiday", holiday: h.name, holiday_provisional: h.provisional }
      : { date, trading: true, calendar }
  }
  if (calendar === "recorded") {
    if (!recordedClosures.has(date)) return { date, trading: true, calendar }
    const name = fixedByMonthDay.get(date.slice(5))
    return name
      ? {
        date,
        trading: false,
        calendar,
        reason: "holiday",
        holiday: name,
        note: "No trade recorded in any symbol; named by its fixed date"
      }
      : {
        date,
        trading: false,
        calendar,
        reason: "closure",
        note: "No trade recorded in any symbol; the reason is not recorded"
      }
  }
  return {
    date,
    trading: true,
    calendar,
    note: "No published or recorded calendar covers this date: weekdays are assumed open"
  }
}

/** The named holiday on a date, from the published list or a named recorded closure. */
export const holidayOn = (iso: string): Holiday | undefined => {
  const s = tradingDayStatus(iso)
  return s.holiday === undefined
    ? undefined
    : { date: s.date, name: s.holiday, provisional: s.holiday_provisional ?? false }
}
/** Monday to Friday and not a holiday or recorded closure (see `tradingDayStatus` for the basis). */
export const isTradingDay = (iso: string) => tradingDayStatus(iso).trading

export const nextTradingDay = (iso: string) => {
  let d = addDays(iso, 1)
  while (!isTradingDay(d)) d = addDays(d, 1)
  return d
}
export const previousTradingDay = (iso: string) => {
  let d = addDays(iso, -1)
  while (!isTradingDay(d)) d = addDays(d, -1)
  return d
}

/** The least certain basis among the dates from `from` to `to` inclusive. */
export const weakestBasis = (from: string, to: string): CalendarBasis => {
  let basis: CalendarBasis = "published"
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const b = calendarBasisOf(d)
    if (b === "unverified") return b
    if (b === "recorded") basis = b
  }
  return basis
}
