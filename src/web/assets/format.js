// @ts-check
// Numbers and dates in one style for the whole site.
//
// Rupees: per-share figures (prices, average costs, a dividend per share) keep
// two decimals; amounts (values, costs, profit, income) drop the paisa when
// they are whole or Rs 1,000 and more, where paisa are noise (the exact
// figure is in the tooltip). Large figures (market caps, rupees traded) are
// compact in lakh and crore. Digit grouping follows a setting kept in this
// browser: international (12,345,678, Intl 'en-PK') or lakh and crore
// (1,23,45,678, Intl 'en-IN'). Dates read "25 May 2026"; instants are shown
// in Karachi time ("25 May 2026, 16:00 PKT") whatever the browser's zone.
// Unknown is a dash with a spoken "unknown", never 0.

const GROUPING_KEY = "psx.grouping"

/** @returns {"intl" | "lakh"} */
export const grouping = () => {
  try {
    return localStorage.getItem(GROUPING_KEY) === "lakh" ? "lakh" : "intl"
  } catch {
    return "intl"
  }
}

/** Kept only when it differs from the default, so a visitor who never chooses stores nothing. @param {"intl" | "lakh"} value */
export const setGrouping = (value) => {
  if (value === "lakh") localStorage.setItem(GROUPING_KEY, "lakh")
  else localStorage.removeItem(GROUPING_KEY)
}

/** @type {Map<string, Intl.NumberFormat>} */
const formats = new Map()
/** @param {number} min @param {number} max */
const nf = (min, max) => {
  const locale = grouping() === "lakh" ? "en-IN" : "en-PK"
  const key = `${locale}/${min}/${max}`
  let f = formats.get(key)
  if (!f) formats.set(key, (f = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max })))
  return f
}

/** A figure with exactly `dp` decimals, grouped by the setting. @param {number} v @param {number} [dp] */
export const formatNumber = (v, dp = 2) => nf(dp, dp).format(v)

/** The dash every absent figure shows. */
export const unknown = () => {
  const span = document.createElement("span")
  span.className = "unknown"
  span.title = "unknown"
  span.append("—")
  const spoken = document.createElement("span")
  spoken.className = "visually-hidden"
  spoken.append(" unknown")
  span.append(spoken)
  return span
}

/** @param {unknown} v @returns {v is number} */
const isNum = (v) => typeof v === "number" && Number.isFinite(v)

/** A span with a tooltip and a class. @param {string} text @param {string} [title] @param {string} [cls] */
const span = (text, title, cls) => {
  const s = document.createElement("span")
  if (cls) s.className = cls
  if (title) s.title = title
  s.append(text)
  return s
}

/** Decimals an amount needs: none when whole or Rs 1,000 and more (paisa are noise there), else two. @param {number} v */
const amountDp = (v) => (Math.abs(v) >= 1_000 || Number.isInteger(Math.round(v * 100) / 100) ? 0 : 2)

/** A per-share figure: two decimals. */
export const fmtPrice = (/** @type {unknown} */ v) => (isNum(v) ? formatNumber(v, 2) : unknown())
/** Kept for the older call sites: a figure with two decimals. */
export const fmtMoney = fmtPrice
/** A rupee amount without paisa noise. */
export const fmtAmount = (/** @type {unknown} */ v) => (isNum(v) ? span(formatNumber(v, amountDp(v)), `Rs ${formatNumber(v, 2)}`) : unknown())
/** An amount with its currency: "Rs 12,345". */
export const fmtRs = (/** @type {unknown} */ v) => (isNum(v) ? span(`Rs ${formatNumber(v, amountDp(v))}`, `Rs ${formatNumber(v, 2)}`) : unknown())
/** A per-share figure with its currency: "Rs 490.20". */
export const fmtRsPrice = (/** @type {unknown} */ v) => (isNum(v) ? `Rs ${formatNumber(v, 2)}` : unknown())
export const fmtQty = (/** @type {unknown} */ v) => (isNum(v) ? nf(0, 4).format(v) : unknown())

/** Large rupee figures in lakh and crore ("381.2 crore"); the full figure in the tooltip. */
export const fmtCompact = (/** @type {unknown} */ v, /** @type {{ rs?: boolean }} */ options = {}) => {
  if (!isNum(v)) return unknown()
  const a = Math.abs(v)
  const [scaled, unit] = a >= 1e7 ? [v / 1e7, " crore"] : a >= 1e5 ? [v / 1e5, " lakh"] : [v, ""]
  const dp = unit === "" ? 0 : Math.abs(scaled) >= 100 ? 0 : Math.abs(scaled) >= 10 ? 1 : 2
  return span(`${options.rs ? "Rs " : ""}${formatNumber(scaled, dp)}${unit}`, `Rs ${formatNumber(v, 0)}`)
}

const sign = (/** @type {number} */ v) => (v > 0 ? "+" : v < 0 ? "−" : "")
const tone = (/** @type {number} */ v) => (v > 0 ? "pos" : v < 0 ? "neg" : "flat")

/** A percentage with its sign; coloured up or down unless `plain`. */
export const fmtPct = (/** @type {unknown} */ v, /** @type {{ plain?: boolean, dp?: number }} */ options = {}) => {
  if (!isNum(v)) return unknown()
  const text = `${sign(v)}${formatNumber(Math.abs(v), options.dp ?? 2)}%`
  return options.plain ? text : span(text, undefined, tone(v))
}
/** A share of a whole (no sign, no colour): "12.50%". */
export const fmtShare = (/** @type {unknown} */ v) => (isNum(v) ? `${formatNumber(v, 2)}%` : unknown())

/** A signed rupee amount, coloured: "+1,530" or "−12.50"; `price` keeps two decimals. */
export const fmtSigned = (/** @type {unknown} */ v, /** @type {{ price?: boolean, rs?: boolean }} */ options = {}) => {
  if (!isNum(v)) return unknown()
  const dp = options.price ? 2 : amountDp(v)
  return span(`${sign(v)}${options.rs ? "Rs " : ""}${formatNumber(Math.abs(v), dp)}`, `${sign(v)}Rs ${formatNumber(Math.abs(v), 2)}`, tone(v))
}

/** Month names as the site writes them ("Sep", never "Sept"), whatever the browser's locale data. */
export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const DAY = { format: (/** @type {Date} */ d) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}` }
const MONTH = { format: (/** @type {Date} */ d) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}` }
const WEEKDAY = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })
const KARACHI = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Asia/Karachi",
  day: "numeric",
  month: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23"
})
const KARACHI_DAY = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Karachi", year: "numeric", month: "2-digit", day: "2-digit" })

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** A calendar date as "25 May 2026" (a bare date is never moved across zones); an instant as Karachi time. @param {unknown} d */
export const dateText = (d) => (typeof d === "string" && DATE_ONLY.test(d) ? DAY.format(new Date(`${d}T00:00:00Z`)) : typeof d === "string" ? humanDates(d) : "")

const INSTANT_IN_TEXT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/g
const DATE_IN_TEXT = /\b\d{4}-\d{2}-\d{2}\b/g

/**
 * Text with every ISO instant written as Karachi time and every ISO date as "25 May 2026" (the service's notes and
 * labels name dates the machine way). @param {string} text
 */
export const humanDates = (text) => {
  const dated = /\d{4}-\d{2}-\d{2}/.test(text) ? text.replace(INSTANT_IN_TEXT, (m) => timeText(m)).replace(DATE_IN_TEXT, (m) => dateText(m)) : text
  // Rupees in the service's words ("Rs 8598.96") grouped as every figure is.
  const grouped = dated.replace(RUPEES_IN_TEXT, (_, digits, paisa) => `Rs ${formatNumber(Number(digits + (paisa ?? "")), paisa ? paisa.length - 1 : 0)}`)
  // The service's notes name its tables and datasets; a reader gets their names in words.
  return grouped.includes("_") ? grouped.replace(internalNames(), (m) => DATASET_NAMES[m] ?? m) : grouped
}
/** @type {RegExp | undefined} */
let namesPattern
const internalNames = () => (namesPattern ??= new RegExp(`\\b(${Object.keys(DATASET_NAMES).join("|")})\\b`, "g"))
const RUPEES_IN_TEXT = /\bRs\.? (\d{4,})(\.\d{1,2})?\b/g

const MONTH_INDEX = new Map(MONTHS.map((m, i) => [m.toLowerCase(), i + 1]))

/**
 * A day typed by a person: "25 May 2026", "25 may 26", "25/05/2026" (day first, as in Pakistan) or "2026-05-25";
 * YYYY-MM-DD, or undefined when it names no real day. @param {string} text
 */
export const parseDay = (text) => {
  const t = text.trim()
  let y, m, d
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t)
  const words = /^(\d{1,2})[\s-]+([A-Za-z]{3,9})[\s,-]+(\d{2}|\d{4})$/.exec(t)
  const slashes = /^(\d{1,2})[/.](\d{1,2})[/.](\d{2}|\d{4})$/.exec(t)
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
  else if (words) [d, m, y] = [Number(words[1]), MONTH_INDEX.get(words[2].slice(0, 3).toLowerCase()), Number(words[3])]
  else if (slashes) [d, m, y] = [Number(slashes[1]), Number(slashes[2]), Number(slashes[3])]
  if (y === undefined || m === undefined || d === undefined) return undefined
  if (y < 100) y += 2000
  const date = new Date(Date.UTC(y, m - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined
  return date.toISOString().slice(0, 10)
}
/** @param {unknown} d */
export const fmtDate = (d) => (typeof d === "string" && DATE_ONLY.test(d) ? dateText(d) : typeof d === "string" ? fmtTime(d) : unknown())
/** "Thursday, 25 May 2026". @param {string} d */
export const longDate = (d) => (DATE_ONLY.test(d) ? WEEKDAY.format(new Date(`${d}T00:00:00Z`)) : "")
/** "May 2026" from "2026-05". @param {string} m */
export const monthText = (m) => (/^\d{4}-\d{2}$/.test(m) ? MONTH.format(new Date(`${m}-01T00:00:00Z`)) : m)

/** An instant as Karachi time: "25 May 2026, 16:00 PKT"; a bare date as "25 May 2026". @param {unknown} iso */
export const timeText = (iso) => {
  if (typeof iso !== "string") return ""
  if (DATE_ONLY.test(iso)) return dateText(iso)
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const parts = Object.fromEntries(KARACHI.formatToParts(d).map((p) => [p.type, p.value]))
  return `${Number(parts.day)} ${MONTHS[Number(parts.month) - 1]} ${parts.year}, ${parts.hour}:${parts.minute} PKT`
}
/** @param {unknown} iso */
export const fmtTime = (iso) => (typeof iso === "string" ? timeText(iso) : unknown())

/** Today's date in Karachi, YYYY-MM-DD. */
export const karachiToday = () => KARACHI_DAY.format(new Date())

const DATASET_NAMES = /** @type {Record<string, string>} */ ({
  prices_eod: "end-of-day prices",
  daily_prices: "daily prices",
  not_priced: "not priced",
  prices_as_traded: "prices as traded",
  portal_eod: "the exchange's end-of-day prices",
  portal_market_watch: "the exchange's market watch",
  portal_sectors: "the exchange's sector list",
  payouts: "recorded payouts",
  universe: "listed companies",
  screener: "screener figures",
  sectors: "sectors",
  index_levels: "index levels",
  index_kse100: "KSE-100 constituents",
  index_history_kse100: "KSE-100 history",
  company_pages: "company pages",
  financials_sales: "financial statements",
  board_allshr: "the market board",
  market_summary: "market summary",
  price_disagreements: "price disagreements between sources",
  announcements: "announcements",
  news: "news",
  news_headlines: "news headlines"
})

/**
 * A dataset or rule id in words ("prices_eod" → "end-of-day prices", "wht-dividend-2019-07" → "the dividend
 * withholding rule of Jul 2019"); an id it does not know, with its underscores as spaces. @param {unknown} id
 */
export const plainName = (id) => {
  if (typeof id !== "string") return ""
  const rule = /^(wht|cgt)-([a-z-]+)-(\d{4})-(\d{2})$/.exec(id)
  if (rule) return `the ${rule[1] === "wht" ? `${rule[2]} withholding` : `capital gains tax (${rule[2]})`} rule of ${MONTHS[Number(rule[4]) - 1]} ${rule[3]}`
  const base = id.replace(/_\d{4}(_\d{2}){0,2}$/, "").replace(/_\d{8}$/, "")
  return DATASET_NAMES[base] ?? base.replaceAll("_", " ")
}

/** The exchange portal's and this service's routes, as an answer's prose names them, in words. */
const ROUTE_WORDS = /** @type {Array<[RegExp, string]>} */ ([
  [/(?:GET )?\/v1\/me\/tax-statement\b/g, "the tax-year statement"],
  [/(?:GET|POST) \/timeseries\/eod\/KSE100\b/g, "KSE-100 history"],
  [/(?:GET|POST) \/timeseries\/eod\/\{SYMBOL\}/g, "daily prices"],
  [/(?:GET|POST) \/company\/payouts\b/g, "company payouts"],
  [/(?:GET|POST) \/company\/\{SYMBOL\}/g, "company pages"],
  [/(?:GET|POST) \/payouts\b/g, "payouts calendar"],
  [/(?:GET|POST) \/sector-summary\/sectorwise\b/g, "sector summary"],
  [/(?:GET|POST) \/indices\/([A-Z0-9]+)\b/g, "$1 index page"],
  [/(?:GET|POST) \/historical\b/g, "historical prices"],
  [/\/download\/mkt_summary\/[^\s,;)]+/g, "market summary files"]
])

/**
 * An answer's note or source as a reader reads it: a route it names in words ("GET /timeseries/eod/{SYMBOL}" →
 * "daily prices"), a field it names without underscores ("closing_positions" → "closing positions"). Figures,
 * dates and the rest stay as they are. @param {unknown} text
 */
export const apiText = (text) => {
  let out = typeof text === "string" ? text : ""
  for (const [pattern, words] of ROUTE_WORDS) out = out.replace(pattern, words)
  out = out.replace(/\b(?:GET|POST) (\/[^\s,;()]+)/g, (_, /** @type {string} */ path) =>
    path.split("/").filter((s) => s !== "" && !/[{}\d]/.test(s) && s !== s.toUpperCase()).join(" ").replace(/[-_]/g, " ") || "a page")
  return out.replace(/\b[a-z]{2,}(?:_[a-z]{2,})+\b/g, (name) => (name.startsWith("psx_") ? name : name.replaceAll("_", " ")))
}
