/**
 * The PSX calendar in Asia/Karachi (UTC+5, no daylight saving): trading
 * days, sessions, the settlement cycle in force, the last date to buy and
 * still be entitled to a payout, price limits, and the freshness rule for
 * delayed quotes. Rules are data with effective dates (the exchange changes
 * them), collected in ../shared/PSX-FACTS.md from exchange notices.
 */

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

const DAY = 86_400_000
export const KARACHI_OFFSET_MS = 5 * 3_600_000

export const toDay = (iso: string) => Date.parse(iso.slice(0, 10) + "T00:00:00Z") / DAY
export const fromDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)
export const addDays = (iso: string, n: number) => fromDay(toDay(iso) + n)
/** 0 = Sunday … 6 = Saturday. */
export const weekday = (iso: string) => new Date(toDay(iso) * DAY).getUTCDay()
/** The Karachi calendar date of an instant. */
export const karachiDate = (epochMs: number) => new Date(epochMs + KARACHI_OFFSET_MS).toISOString().slice(0, 10)
/** Minutes past Karachi midnight of an instant. */
export const karachiMinutes = (epochMs: number) => Math.floor(((epochMs + KARACHI_OFFSET_MS) % DAY) / 60_000)

export const holidayOn = (iso: string): Holiday | undefined => holidayByDate.get(iso)
export const isWeekend = (iso: string) => weekday(iso) === 0 || weekday(iso) === 6
/** Monday to Friday and not an exchange holiday (holidays known for `holidayYears` only). */
export const isTradingDay = (iso: string) => !isWeekend(iso) && !holidayByDate.has(iso)

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

export interface Session {
  readonly name: string
  /** Minutes past Karachi midnight. */
  readonly start: number
  readonly end: number
}

const hm = (h: number, m: number) => h * 60 + m

/** Regular sessions (Ramadan timings are announced by notice each year and are not held here). */
export const sessionsOn = (iso: string): ReadonlyArray<Session> =>
  !isTradingDay(iso)
    ? []
    : weekday(iso) === 5
    ? [
      { name: "pre_open", start: hm(9, 0), end: hm(9, 15) },
      { name: "open", start: hm(9, 17), end: hm(12, 0) },
      { name: "pre_open", start: hm(14, 15), end: hm(14, 30) },
      { name: "open", start: hm(14, 32), end: hm(16, 30) },
      { name: "post_close", start: hm(17, 0), end: hm(17, 15) }
    ]
    : [
      { name: "pre_open", start: hm(9, 15), end: hm(9, 30) },
      { name: "order_matching", start: hm(9, 30), end: hm(9, 32) },
      { name: "open", start: hm(9, 32), end: hm(15, 30) },
      { name: "post_close", start: hm(16, 0), end: hm(16, 15) }
    ]

/** Minutes past midnight at which the day's trading ends. */
export const closeMinutes = (iso: string) => (weekday(iso) === 5 ? hm(16, 30) : hm(15, 30))

export interface MarketStatus {
  readonly date: string
  readonly state: "pre_open" | "order_matching" | "open" | "break" | "post_close" | "closed"
  readonly is_trading_day: boolean
  readonly holiday?: string
  readonly holiday_provisional?: boolean
  readonly next_trading_day: string
  readonly previous_trading_day: string
  readonly holidays_known: boolean
}

export const marketStatus = (epochMs: number): MarketStatus => {
  const date = karachiDate(epochMs)
  const minutes = karachiMinutes(epochMs)
  const sessions = sessionsOn(date)
  const current = sessions.find((s) => minutes >= s.start && minutes < s.end)
  const first = sessions[0]
  const last = sessions[sessions.length - 1]
  const state: MarketStatus["state"] = current
    ? (current.name as MarketStatus["state"])
    : first && last && minutes > first.start && minutes < last.end
    ? "break"
    : "closed"
  const h = holidayOn(date)
  return {
    date,
    state,
    is_trading_day: isTradingDay(date),
    ...(h ? { holiday: h.name, holiday_provisional: h.provisional } : {}),
    next_trading_day: nextTradingDay(date),
    previous_trading_day: previousTradingDay(date),
    holidays_known: holidayYears.has(Number(date.slice(0, 4)))
  }
}

/** Settlement cycle in force for a trade date: T+2 until 6 Feb 2026, T+1 from 9 Feb 2026. */
export const settlementDays = (tradeDate: string) => (tradeDate >= "2026-02-09" ? 1 : 2)

export const settlementDate = (tradeDate: string) => {
  let d = tradeDate
  for (let i = settlementDays(tradeDate); i > 0; i--) d = nextTradingDay(d)
  return d
}

/**
 * The last trading day on which a buyer is still entitled to a payout whose
 * book closure starts on `bookClosureStart`: the trade must settle before
 * the closure starts (on or before the working day before it).
 */
export const lastBuyDate = (bookClosureStart: string) => {
  let d = previousTradingDay(bookClosureStart)
  while (settlementDate(d) >= bookClosureStart) d = previousTradingDay(d)
  return d
}

export interface PriceLimitRule {
  readonly effective: string
  readonly percent: number
  readonly minimumRupees: number
  readonly note: string
}

/** Single-stock limits. Between 27 May and 21 Jul 2024 the limit rose in steps not held here. */
export const priceLimitRules: ReadonlyArray<PriceLimitRule> = [
  { effective: "2024-07-22", percent: 10, minimumRupees: 1, note: "±10% of previous close or Rs 1, whichever is higher" },
  { effective: "0000-01-01", percent: 7.5, minimumRupees: 1, note: "±7.5% of previous close or Rs 1, whichever is higher" }
]

/** Circuit-breaker bounds for a day, from the previous close; undefined where the rule in force is not known. */
export const circuitBounds = (previousClose: number, date: string) => {
  if (date >= "2024-05-27" && date < "2024-07-22") return undefined
  const rule = priceLimitRules.find((r) => date >= r.effective)
  if (rule === undefined || !(previousClose > 0)) return undefined
  const band = Math.max((previousClose * rule.percent) / 100, rule.minimumRupees)
  const round = (n: number) => Math.round(n * 100) / 100
  return { lower: round(Math.max(previousClose - band, 0.01)), upper: round(previousClose + band), rule: rule.note }
}

/**
 * Whether a delayed quote as of `asOfMs` is still current at `nowMs`: during
 * trading it may lag at most `maxDelayMinutes`; outside trading it must be
 * from the last trading day's close or later.
 */
export const quoteIsFresh = (asOfMs: number, nowMs: number, maxDelayMinutes = 30) => {
  const cutoff = freshnessCutoff(nowMs, maxDelayMinutes)
  return asOfMs >= cutoff
}

/** The last trading day whose closing time has passed at `nowMs` (Karachi). */
export const lastCompletedSession = (nowMs: number): string => {
  const today = karachiDate(nowMs)
  return isTradingDay(today) && karachiMinutes(nowMs) >= closeMinutes(today) ? today : previousTradingDay(today)
}

let memo: { minute: number; delay: number; cutoff: number } | undefined

/**
 * The oldest as-of instant still current at `nowMs`: during trading, now
 * less the allowed delay; otherwise the start (Karachi midnight) of the last
 * trading day that has opened. Memoised per minute: it is on the quote path.
 */
export const freshnessCutoff = (nowMs: number, maxDelayMinutes = 30): number => {
  const minute = Math.floor(nowMs / 60_000)
  const status = memo?.minute === minute && memo.delay === maxDelayMinutes ? undefined : marketStatus(nowMs)
  if (status === undefined) return memo!.cutoff
  let cutoff: number
  if (status.state === "open" || status.state === "order_matching" || status.state === "break") {
    cutoff = minute * 60_000 - maxDelayMinutes * 60_000
  } else {
    const today = karachiDate(nowMs)
    const beforeOpen = status.is_trading_day && karachiMinutes(nowMs) < (sessionsOn(today)[0]?.start ?? 0)
    const lastSession = status.is_trading_day && !beforeOpen ? today : previousTradingDay(today)
    cutoff = toDay(lastSession) * DAY - KARACHI_OFFSET_MS
  }
  memo = { minute, delay: maxDelayMinutes, cutoff }
  return cutoff
}
