/**
 * Reading the portal's numbers and dates. Every reader answers `undefined`
 * for what it cannot read (a blank, "-", "N/A", garbage): unknown is never
 * turned into 0. Quirks covered: "Rs." prefixes, thousands separators,
 * negatives in parentheses, trailing "%", "892.2M"-style abbreviations, and
 * the letter O typed for a zero in old rows.
 */
import { karachiDate, karachiInstant } from "../Karachi.ts"

const scale: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 }

/** A finite number from portal text, or undefined. */
export const parseNumber = (raw: string | undefined | null): number | undefined => {
  if (raw === undefined || raw === null) return undefined
  let s = raw.replace(/\u00a0/g, " ").trim()
  if (s === "" || /^(-|--|n\/?a|nil|—)$/i.test(s)) return undefined
  s = s.replace(/^rs\.?\s*/i, "").replace(/^pkr\s*/i, "").trim()
  let negative = false
  if (/^\(.*\)$/.test(s)) {
    negative = true
    s = s.slice(1, -1).trim()
  }
  s = s.replace(/%$/, "").replace(/,/g, "").trim()
  // Old rows: the letter O typed for a zero ("1O.5", "2OO"), only among digits.
  if (/^-?[\dOo.]+$/.test(s) && /\d/.test(s)) s = s.replace(/[Oo]/g, "0")
  let factor = 1
  const last = s.slice(-1).toUpperCase()
  if (scale[last] !== undefined && /^-?[\d.]+$/.test(s.slice(0, -1))) {
    factor = scale[last]
    s = s.slice(0, -1)
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return undefined
  const n = Number(s) * factor
  if (!Number.isFinite(n)) return undefined
  return negative ? -n : n
}

/**
 * A price, a share count or a market cap. The portal and the recordings write 0
 * where they have no figure (no open on a day without a trade, no free float
 * on record); no security is priced at, or floats, 0 shares, so 0 is unknown.
 */
export const positive = (n: number | undefined): number | undefined => (n !== undefined && n > 0 ? n : undefined)

/**
 * A figure the portal writes as 0 when it has none, where a real 0 cannot be
 * told from it (a P/E, a dividend yield, a change over a year, a 30-day
 * average volume): 0 is unknown. A day's volume or change of 0 is a fact and
 * is not read through this.
 */
export const nonZero = (n: number | undefined): number | undefined => (n === 0 ? undefined : n)

const months: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12
}

const pad = (n: number) => String(n).padStart(2, "0")
const iso = (y: number, m: number, d: number): string | undefined => {
  const t = Date.UTC(y, m - 1, d)
  const back = new Date(t)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return undefined
  return `${y}-${pad(m)}-${pad(d)}`
}

/** The Asia/Karachi calendar date of an epoch in seconds. */
export const karachiDateOfEpoch = (epochSeconds: number): string => karachiDate(epochSeconds * 1000)

/**
 * A calendar date (YYYY-MM-DD) from "Jan 3, 2025", "August 6, 2026 3:37 PM",
 * "19/08/2026" (day first, as the portal writes), "2026-05-25" or
 * "2021-02-08 11:00:00" (a UTC timestamp: its Karachi date).
 */
export const parseDate = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined
  const s = raw.trim()
  let m = /^([A-Za-z]{3,9})\.?\s+(\d{1,2}),\s*(\d{4})/.exec(s)
  if (m) {
    const month = months[m[1]!.toLowerCase().slice(0, m[1]!.length > 4 ? 3 : m[1]!.length)] ??
      months[m[1]!.toLowerCase().slice(0, 3)]
    return month ? iso(Number(m[3]), month, Number(m[2])) : undefined
  }
  // Old rows type the letter O for a zero ("3O/O6/2OO5").
  m = /^([\dO]{1,2})\/([\dO]{1,2})\/([\dO]{4})$/.exec(
    s.replace(/O/g, (o, i: number) => (/[\d\/O]/.test(s[i - 1] ?? "") || /[\d\/]/.test(s[i + 1] ?? "") ? "0" : o))
  )
  if (m) return iso(Number(m[3]), Number(m[2]), Number(m[1]))
  m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?Z?)?$/.exec(s)
  if (m) {
    if (m[4] === undefined) return iso(Number(m[1]), Number(m[2]), Number(m[3]))
    const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0))
    return Number.isFinite(t) ? karachiDateOfEpoch(t / 1000) : undefined
  }
  return undefined
}

/**
 * An instant (ISO, UTC) from "August 6, 2026 3:37 PM" or "Sep 29, 2026" + "3:28 PM", read as Karachi time.
 * A date with no time of day is no instant: undefined (a date-only source time stays a date, never an
 * invented midnight; read the day with `parseDate`).
 */
export const parseKarachiDateTime = (date: string | undefined, time?: string): string | undefined => {
  if (date === undefined) return undefined
  const day = parseDate(date)
  if (day === undefined) return undefined
  const clock = /(\d{1,2}):(\d{2})\s*([AP]M)/i.exec(time ?? date)
  if (!clock) return undefined
  const h = Number(clock[1]) % 12 + (clock[3]!.toUpperCase() === "PM" ? 12 : 0)
  return new Date(karachiInstant(day, h, Number(clock[2]))).toISOString()
}

/** "19/08/2026  - 20/08/2026 " → both dates; either may be missing. */
export const parseRange = (raw: string | undefined): { from?: string; to?: string } => {
  if (raw === undefined) return {}
  const [a, b] = raw.trim().replace(/\s*-$/, " - ").split(/\s+-\s+|\s*-\s*(?=[\dO]{1,2}\/)/)
  const from = parseDate(a)
  const to = parseDate(b)
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) }
}
