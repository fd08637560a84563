/**
 * The exchange's hours: each trading day's phases and sessions (Friday has
 * two), and the market status at an instant (GET /v1/market/status).
 */
import { Clock, Effect } from "effect"
import { addDays, karachiDate, karachiMinutes } from "../../Karachi.ts"
import { defined } from "../../Objects.ts"
import type { MarketStatus, SessionTimes } from "./StatusSchema.ts"
import { settlementDays } from "./TradeRules.ts"
import {
  calendarBasisOf,
  isTradingDay,
  nextTradingDay,
  previousTradingDay,
  tradingDayStatus,
  weekday,
  weekdayNames
} from "./TradingDays.ts"

type PhaseName = "pre_open" | "order_matching" | "trading" | "post_close"
interface Phase {
  readonly session: SessionTimes["session"]
  readonly phase: PhaseName
  /** Minutes past Karachi midnight. */
  readonly start: number
  readonly end: number
}

const hm = (h: number, m: number) => h * 60 + m
const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

/** The regular timetable (PSX-FACTS.md); Ramadan timings are announced by notice each year and are not held. */
export const timingsNote = "Regular PSX timings; Ramadan timings (announced by notice each year) are not held"
const mondayToThursday: ReadonlyArray<Phase> = [
  { session: "regular", phase: "pre_open", start: hm(9, 15), end: hm(9, 30) },
  { session: "regular", phase: "order_matching", start: hm(9, 30), end: hm(9, 32) },
  { session: "regular", phase: "trading", start: hm(9, 32), end: hm(15, 30) },
  { session: "regular", phase: "post_close", start: hm(16, 0), end: hm(16, 15) }
]
const friday: ReadonlyArray<Phase> = [
  { session: "first", phase: "pre_open", start: hm(9, 0), end: hm(9, 15) },
  { session: "first", phase: "trading", start: hm(9, 17), end: hm(12, 0) },
  { session: "second", phase: "pre_open", start: hm(14, 15), end: hm(14, 30) },
  { session: "second", phase: "trading", start: hm(14, 32), end: hm(16, 30) },
  { session: "second", phase: "post_close", start: hm(17, 0), end: hm(17, 15) }
]

const phasesOn = (iso: string): ReadonlyArray<Phase> =>
  !isTradingDay(iso) ? [] : weekday(iso) === 5 ? friday : mondayToThursday

export interface Session {
  readonly name: string
  /** Minutes past Karachi midnight. */
  readonly start: number
  readonly end: number
}

/** A trading day's phases in order (`open` is continuous trading); empty on a day without trading. */
export const sessionsOn = (iso: string): ReadonlyArray<Session> =>
  phasesOn(iso).map((p) => ({ name: p.phase === "trading" ? "open" : p.phase, start: p.start, end: p.end }))

/** A trading day's sessions with their phase times (Friday has two). */
export const sessionTimesOn = (iso: string): ReadonlyArray<SessionTimes> => {
  const out: Array<SessionTimes> = []
  for (const name of ["regular", "first", "second"] as const) {
    const ps = phasesOn(iso).filter((p) => p.session === name)
    const get = (n: PhaseName) => {
      const p = ps.find((x) => x.phase === n)
      return p ? { start: clock(p.start), end: clock(p.end) } : undefined
    }
    const pre = get("pre_open"), trading = get("trading"), matching = get("order_matching"), post = get("post_close")
    if (pre && trading) {
      out.push({
        session: name,
        pre_open: pre,
        ...(matching ? { order_matching: matching } : {}),
        trading,
        ...(post ? { post_close: post } : {})
      })
    }
  }
  return out
}

/** Minutes past midnight at which the day's trading ends. */
export const closeMinutes = (iso: string) => (weekday(iso) === 5 ? hm(16, 30) : hm(15, 30))

type MarketPhase = MarketStatus["phase"]
const stateOf: Record<MarketPhase, MarketStatus["state"]> = {
  non_trading_day: "closed",
  before_open: "closed",
  pre_open: "pre-open",
  order_matching: "pre-open",
  opening: "pre-open",
  trading: "open",
  between_sessions: "closed",
  after_trading: "closed",
  post_close: "post-close",
  after_close: "closed"
}

/** The phase of the market at a minute of a day, and the session it belongs to. */
const phaseAt = (iso: string, minutes: number): { phase: MarketPhase; session?: SessionTimes["session"] } => {
  const phases = phasesOn(iso)
  const first = phases[0], last = phases[phases.length - 1]
  if (!first || !last) return { phase: "non_trading_day" }
  const current = phases.find((p) => minutes >= p.start && minutes < p.end)
  if (current) return { phase: current.phase, session: current.session }
  if (minutes < first.start) return { phase: "before_open" }
  if (minutes >= last.end) return { phase: "after_close" }
  const before = phases.filter((p) => p.end <= minutes).at(-1)!
  const after = phases.find((p) => p.start > minutes)!
  if (before.session !== after.session) return { phase: "between_sessions" }
  return { phase: before.phase === "trading" ? "after_trading" : "opening", session: before.session }
}

/** The next session whose pre-open has not begun at `minutes` on `iso`. */
const nextSession = (iso: string, minutes: number): MarketStatus["next_session"] => {
  let d = iso
  for (let i = 0; i < 400; i++, d = addDays(d, 1)) {
    const starts = phasesOn(d).filter((p) => p.phase === "pre_open" && (d > iso || p.start > minutes))
    const s = starts[0] && sessionTimesOn(d).find((t) => t.session === starts[0]!.session)
    if (s) return { date: d, calendar: calendarBasisOf(d), ...s }
  }
  throw new Error(`no trading session within 400 days of ${iso}`)
}

/**
 * The market calendar status at an instant, without `now` and `time_zone`
 * (see `marketStatusRecord`): state and phase in Asia/Karachi, today's
 * sessions and the next one, why the market is closed, and the calendar the
 * answer rests on.
 */
export const marketStatus = (epochMs: number): Omit<MarketStatus, "now" | "time_zone"> => {
  const date = karachiDate(epochMs)
  const minutes = karachiMinutes(epochMs)
  const day = tradingDayStatus(date)
  const { phase, session } = phaseAt(date, minutes)
  return {
    date,
    weekday: weekdayNames[weekday(date)]!,
    state: stateOf[phase],
    phase,
    ...(session ? { session } : {}),
    is_trading_day: day.trading,
    calendar: day.calendar,
    ...(day.reason ? { closed_reason: day.reason } : {}),
    ...(day.holiday ? { holiday: day.holiday } : {}),
    ...defined({ holiday_provisional: day.holiday_provisional }),
    ...(day.note ? { calendar_note: day.note } : {}),
    today_sessions: sessionTimesOn(date),
    next_session: nextSession(date, minutes),
    next_trading_day: nextTradingDay(date),
    previous_trading_day: previousTradingDay(date),
    holidays_known: day.calendar !== "unverified",
    timings: timingsNote,
    settlement: settlementDays(date) === undefined ? "unknown" : `T+${settlementDays(date)}`,
    quotes: "delayed"
  }
}

/** The whole GET /v1/market/status record at an instant. */
export const marketStatusRecord = (epochMs: number): MarketStatus => ({
  now: new Date(epochMs).toISOString(),
  time_zone: "Asia/Karachi",
  ...marketStatus(epochMs)
})

/** The market status now, from Effect's Clock (tests drive it with TestClock). */
export const currentMarketStatus: Effect.Effect<MarketStatus> = Effect.map(Clock.currentTimeMillis, marketStatusRecord)
