// @ts-check
// The market page's dividend calendar: payouts whose book closure is still
// open (GET /v1/calendar/dividends, with whether buying today earns them),
// and, so the calendar is never an empty box, the recent and upcoming book
// closures of every symbol whose payouts are recorded (the coverage the
// calendar states) and of the symbols you hold, from GET /v1/dividends/{s}:
// as a list and as a month grid, your holdings marked.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { apiText } from "./format.js"
import { api, badge, currentSession, dateText, el, fmtPrice, monthText, unknown } from "./api.js"
import { DATES_NOTE } from "./market-sectors.js"
import { num, show, showError, showLoading, sourcesNote, symbolLink, table } from "./ui.js"

/** @typedef {{ symbol: string, kind: string, details?: string, percent?: number, amount_per_share?: number, book_closure_from: string, book_closure_to?: string, last_buy_date?: string, xd_date?: string }} Payout */

/** The symbols the calendar says it records payouts for ("… for 5 symbol(s) only (BOP, LUCK, …)"). @param {string} coverage */
const coveredSymbols = (coverage) => (/\(([A-Z0-9&.\-]+(?:, [A-Z0-9&.\-]+)*)\)/.exec(coverage)?.[1] ?? "").split(", ").filter(Boolean)

const heldSymbols = async () => {
  if (!(await currentSession()).signed_in) return new Set()
  /** @type {Reply<Success<"portfolio.holdings">>} */
  const reply = await api("GET", "/v1/me/holdings")
  return new Set(reply.ok ? reply.body.items.filter((h) => h.quantity > 0).map((h) => h.symbol) : [])
}

/** Every recorded payout of `symbols`, newest book closure first. @param {string[]} symbols @returns {Promise<Payout[]>} */
const payoutsOf = async (symbols) => {
  const replies = await Promise.all(symbols.map((s) => api("GET", `/v1/dividends/${encodeURIComponent(s)}`, { token: null })))
  return replies
    .flatMap((r, i) => (r.ok ? r.body.items.map((/** @type {any} */ p) => ({ ...p, symbol: symbols[i] })) : []))
    .filter((p) => typeof p.book_closure_from === "string")
    .sort((a, b) => b.book_closure_from.localeCompare(a.book_closure_from))
}

/** A date `days` from `iso`. @param {string} iso @param {number} days */
const shift = (iso, days) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** @param {Payout} p @param {Set<string>} held */
const symbolCell = (p, held) => el("span", {}, symbolLink(p.symbol), held.has(p.symbol) ? [" ", badge("you hold", "on")] : "")

/** @param {string} caption @param {Payout[]} items @param {Set<string>} held @param {string} id */
const payoutTable = (caption, items, held, id) =>
  table(
    caption,
    [["Symbol"], ["Payout"], ["Per share (Rs)", "num"], ["Book closure"], ["Last buy date"], ["Trades ex"]],
    items.map((p) => [
      symbolCell(p, held),
      `${p.kind}: ${p.details ?? ""}`,
      num(fmtPrice(p.amount_per_share)),
      `${dateText(p.book_closure_from)}${p.book_closure_to && p.book_closure_to !== p.book_closure_from ? ` to ${dateText(p.book_closure_to)}` : ""}`,
      p.last_buy_date ? el("strong", {}, dateText(p.last_buy_date)) : unknown(),
      p.xd_date ? dateText(p.xd_date) : unknown()
    ]),
    { id, cards: true, visibleCaption: false }
  )

/**
 * A month as a grid of weeks (Monday first), each book closure's first day
 * marked with its symbols; held symbols stand out.
 * @param {string} month YYYY-MM @param {Payout[]} payouts @param {Set<string>} held @param {string} today
 */
const monthGrid = (month, payouts, held, today) => {
  const first = new Date(`${month}-01T00:00:00Z`)
  const days = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
  const lead = (first.getUTCDay() + 6) % 7
  const cells = [...Array.from({ length: lead }, () => el("td", { class: "out" })), ...Array.from({ length: days }, (_, i) => {
    const date = `${month}-${String(i + 1).padStart(2, "0")}`
    const on = payouts.filter((p) => p.book_closure_from === date)
    return el(
      "td",
      { class: `${date === today ? "today" : ""}${on.length ? " has" : ""}`.trim() || undefined },
      el("span", { class: "day" }, String(i + 1)),
      on.map((p) => el("a", { href: `/market/${encodeURIComponent(p.symbol)}`, class: `chip${held.has(p.symbol) ? " held" : ""}`, title: `${p.symbol}: ${p.details ?? p.kind}, book closure from ${dateText(date)}${held.has(p.symbol) ? " (you hold it)" : ""}` }, p.symbol))
    )
  })]
  const weeks = []
  for (let i = 0; i < cells.length; i += 7) weeks.push(el("tr", {}, cells.slice(i, i + 7)))
  return el(
    "table",
    { class: "month-grid", id: "calendar-grid" },
    el("caption", { class: "visually-hidden" }, `Book closures starting in ${monthText(month)}`),
    el("thead", {}, el("tr", {}, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) => el("th", { scope: "col" }, d)))),
    el("tbody", {}, weeks)
  )
}

/** The grid with its previous and next buttons. @param {Payout[]} payouts @param {Set<string>} held @param {string} today @param {string} start */
const browsableGrid = (payouts, held, today, start) => {
  const wrap = el("div", { class: "calendar-browse" })
  const draw = (/** @type {string} */ month) => {
    const [y, m] = month.split("-").map(Number)
    const step = (/** @type {number} */ d) => new Date(Date.UTC(y ?? 2000, (m ?? 1) - 1 + d, 1)).toISOString().slice(0, 7)
    const prev = el("button", { type: "button", class: "secondary small" }, `← ${monthText(step(-1))}`)
    const next = el("button", { type: "button", class: "secondary small" }, `${monthText(step(1))} →`)
    prev.addEventListener("click", () => draw(step(-1)))
    next.addEventListener("click", () => draw(step(1)))
    wrap.replaceChildren(el("div", { class: "row grid-nav" }, prev, el("strong", { "aria-live": "polite" }, monthText(month)), next), el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": `Calendar of ${monthText(month)}` }, monthGrid(month, payouts, held, today)))
  }
  draw(start)
  return wrap
}

/** @param {HTMLElement} out */
export const loadCalendar = async (out) => {
  showLoading(out, "Loading the dividend calendar…", "table")
  /** @type {Reply<Success<"board.dividendCalendar">>} */
  const reply = await api("GET", "/v1/calendar/dividends", { token: null })
  if (!reply.ok) return showError(out, reply, () => loadCalendar(out))
  const cal = reply.body
  const held = await heldSymbols()
  const symbols = [...new Set([...coveredSymbols(cal.coverage), ...held])].sort()
  const payouts = await payoutsOf(symbols)
  const today = cal.today
  const upcoming = payouts.filter((p) => (p.book_closure_to ?? p.book_closure_from) >= today).reverse()
  const recent = payouts.filter((p) => (p.book_closure_to ?? p.book_closure_from) < today && p.book_closure_from >= shift(today, -365))
  const focus = (upcoming[0] ?? recent[0])?.book_closure_from.slice(0, 7) ?? today.slice(0, 7)
  show(
    out,
    el("p", {}, "Today in Karachi: ", el("strong", {}, dateText(today)), "."),
    el("p", { class: "notice", id: "calendar-coverage" }, el("strong", {}, "Coverage: "), apiText(cal.coverage)),
    cal.items.length === 0
      ? el("p", { id: "calendar-empty" }, "No recorded payout has its book closure open today.")
      : openTable(cal.items, held),
    el("h3", {}, "Upcoming book closures"),
    upcoming.length ? payoutTable("Upcoming book closures", upcoming, held, "calendar-upcoming") : el("p", { class: "hint" }, "None recorded ahead of today."),
    el("h3", {}, "Recent book closures (last 12 months)"),
    recent.length ? payoutTable("Recent book closures", recent, held, "calendar-recent") : el("p", { class: "hint" }, "None recorded in the last 12 months."),
    el("h3", {}, "Month by month"),
    browsableGrid(payouts, held, today, focus),
    el("p", { class: "hint" }, DATES_NOTE),
    sourcesNote(cal.sources)
  )
}

/** Payouts open today, with whether buying today still earns them. @param {any[]} items @param {Set<string>} held */
const openTable = (items, held) =>
  table(
    "Open payouts",
    [["Symbol"], ["Payout"], ["Percent", "num"], ["Book closure"], ["Last buy date"], ["Trades ex"], ["Settles"], ["Still earns it?"]],
    items.map((p) => [
      symbolCell(p, held),
      `${p.kind}: ${p.details}`,
      num(typeof p.percent === "number" ? `${p.percent}%` : unknown()),
      `${dateText(p.book_closure_from)}${p.book_closure_to ? ` to ${dateText(p.book_closure_to)}` : ""}`,
      el("strong", {}, dateText(p.last_buy_date)),
      dateText(p.xd_date),
      `${p.settlement_cycle}, on ${dateText(p.settles_on)}`,
      p.buying_today_earns ? badge("buying today earns it", "on") : p.buying_next_session_earns ? badge("next session still earns it", "on") : badge("too late to buy", "off")
    ]),
    { id: "calendar-table", cards: true }
  )
