// @ts-check
// The market page's sector board (every sector's medians, breadth and
// constituents) and the dividend calendar (open payouts with their last buy
// date, and what the recorded payouts cover). Unknown medians stay unknown.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, badge, el, fmtQty, unknown } from "./api.js"
import { num, showError, showLoading, sourcesNote, symbolLink, table } from "./ui.js"

const two = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** A median with the count of lines behind it, or unknown. @param {number | undefined} v @param {number | undefined} peers @param {string} [suffix] */
const median = (v, peers, suffix = "") =>
  typeof v === "number" ? el("span", {}, `${two.format(v)}${suffix}`, el("span", { class: "hint" }, ` (${peers ?? "?"})`)) : unknown()

/** @param {HTMLElement} out */
export const loadSectors = async (out) => {
  showLoading(out, "Loading the sector board…")
  /** @type {Reply<Success<"board.sectorBoard">>} */
  const reply = await api("GET", "/v1/sectors/board", { token: null })
  if (!reply.ok) return showError(out, reply)
  const items = /** @type {any[]} */ (reply.body.items)
  out.replaceChildren(
    el("p", { class: "hint" }, "Every figure is a median of the sector's lines, never a mean; the number of lines behind it is in brackets. " +
      "Medians count only the lines that traded in the 20 sessions up to the latest recorded session (the others under \"Not trading\"). " +
      "The median P/E leaves out loss-makers; a P/E the exchange shows as 0 is unknown, not a loss."),
    table(
      "Sector board",
      [["Sector"], ["Code"], ["Median change %", "num"], ["Median P/E", "num"], ["Median yield %", "num"], ["Up / down / flat", "num"], ["Constituents", "num"], ["Not trading", "num"]],
      items.map((s) => [
        s.name,
        s.code,
        num(median(s.median_change_pct, s.change_peers, "%")),
        num(median(s.median_pe, s.pe_peers)),
        num(median(s.median_dividend_yield_pct, s.yield_peers, "%")),
        num(`${fmtQty(s.breadth?.advancers)} / ${fmtQty(s.breadth?.decliners)} / ${fmtQty(s.breadth?.unchanged)}`),
        num(fmtQty(s.constituents)),
        num(fmtQty(s.not_trading))
      ])
    ),
    sourcesNote(reply.body.sources)
  )
}

/** What each payout date means (the same words as the symbol page's dividends). */
export const DATES_NOTE = "Ex-date is the first day of the book closure; the last buy date is the last day a buyer is " +
  "entitled; XD is the next trading day, when the stock trades ex and a buyer is no longer entitled."

/** @param {any} p */
const closure = (p) => `${p.book_closure_from}${p.book_closure_to ? ` to ${p.book_closure_to}` : ""}`

/** @param {any} p */
const earns = (p) =>
  p.buying_today_earns
    ? badge("buying today earns it", "on")
    : p.buying_next_session_earns
    ? badge("next session still earns it", "on")
    : badge("too late to buy", "off")

/** @param {HTMLElement} out */
export const loadCalendar = async (out) => {
  showLoading(out, "Loading the dividend calendar…")
  /** @type {Reply<Success<"board.dividendCalendar">>} */
  const reply = await api("GET", "/v1/calendar/dividends", { token: null })
  if (!reply.ok) return showError(out, reply)
  const cal = reply.body
  const items = /** @type {any[]} */ (cal.items)
  out.replaceChildren(
    el("p", {}, "Today in Karachi: ", el("strong", {}, cal.today), "."),
    el("p", { class: "notice", id: "calendar-coverage" }, el("strong", {}, "Coverage: "), cal.coverage),
    el("p", {}, DATES_NOTE),
    items.length === 0
      ? el("p", { id: "calendar-empty" }, "No recorded payout is open today. Payouts outside the coverage above are unknown, not absent.")
      : table(
        "Open payouts",
        [["Symbol"], ["Payout"], ["Percent", "num"], ["Book closure (ex-date)"], ["Last buy date"], ["XD (trades ex)"], ["Settles"], ["Still earns it?"]],
        items.map((p) => [
          symbolLink(p.symbol),
          `${p.kind}: ${p.details}`,
          num(typeof p.percent === "number" ? `${p.percent}%` : unknown()),
          closure(p),
          el("strong", {}, p.last_buy_date),
          p.xd_date,
          el("span", {}, `${p.settlement_cycle}, on ${p.settles_on}`),
          earns(p)
        ]),
        { id: "calendar-table" }
      ),
    sourcesNote(cal.sources)
  )
}
