// @ts-check
// The holdings table of the portfolio page: one row a position, sortable by
// any column, with its day change (the quantity times the delayed quote's
// change from the previous close), unrealised profit and loss in rupees and
// percent of cost, and its weight; the other figures (cost, realised,
// dividends, tax, fractions, the quote's time, yield on cost) in a row that
// opens under it. On a phone each position is a card.
import { apiText } from "./format.js"
import { badge, el, fmtAmount, fmtPct, fmtPrice, fmtQty, fmtRs,  fmtShare, fmtSigned, fmtTime, unknown } from "./api.js"
import { sortable } from "./sortable.js"
import { fact, facts, foldOnPhone } from "./ui.js"

/** @typedef {{ change?: number, change_pct?: number, as_of?: string }} Quote */
/** @typedef {{ dps?: number }} Yield trailing twelve months' cash dividend per share, from the recorded payouts */

const HEAD = /** @type {Array<[string, string?]>} */ ([
  ["Symbol"],
  ["Shares", "num"],
  ["Avg cost (Rs)", "num"],
  ["Price (Rs)", "num"],
  ["Day change (Rs)", "num"],
  ["Market value (Rs)", "num"],
  ["Unrealised P/L (Rs)", "num"],
  ["Return with dividends", "num"],
  ["Weight", "num"]
])

/** @param {number | undefined} a @param {number | undefined} b */
const ratioPct = (a, b) => (typeof a === "number" && typeof b === "number" && b > 0 ? (a / b) * 100 : undefined)

/**
 * A position's return with its dividends: unrealised P/L plus the net dividends it paid, over its cost (unknown
 * when either is). @param {any} h
 */
const totalReturn = (h) =>
  typeof h.unrealized_pnl === "number" && typeof h.dividends_net === "number" ? ratioPct(h.unrealized_pnl + h.dividends_net, h.cost) : undefined

/** @param {any} h @param {Quote | undefined} q */
const dayChange = (h, q) => (typeof q?.change === "number" && h.quantity > 0 ? Math.round(h.quantity * q.change * 100) / 100 : undefined)

/** The labels a phone's card shows, short enough for one line in a third of its width. */
const SHORT = /** @type {Record<string, string>} */ ({ "Price (Rs)": "Price", "Day change (Rs)": "Day change", "Market value (Rs)": "Value (Rs)", "Unrealised P/L (Rs)": "P/L (Rs)", "Return with dividends": "Total return" })

/** @param {string} label @param {any} value @param {number | null | undefined} sort @param {string} [cls] */
const cell = (label, value, sort, cls = "num") => el("td", { class: cls, "data-label": label, "data-short": SHORT[label], "data-sort": sort === undefined || sort === null ? "" : String(sort) }, value)

/** A figure the phone's compact card leaves out, shown in the second row there instead. @param {string} label @param {any} value */
const phoneFact = (label, value) => [el("dt", { class: "phone-only" }, label), el("dd", { class: "phone-only" }, value)]

/**
 * The figures a position's second row holds.
 * @param {any} h @param {Quote | undefined} q @param {Yield | undefined} y @param {number | undefined} weight
 */
const details = (h, q, y, weight) =>
  facts(
    phoneFact("Average cost", el("span", {}, "Rs ", fmtPrice(h.average_cost))),
    phoneFact("Weight", fmtShare(weight)),
    fact("Cost", fmtRs(h.cost)),
    fact("Realised P/L", fmtSigned(h.realized_pnl, { rs: true })),
    fact("Dividends received", el("span", {}, fmtRs(h.dividends_gross), " gross, ", fmtRs(h.dividends_net), " net")),
    fact("Dividend tax withheld", fmtRs(h.tax_withheld)),
    fact("Fractions of a share (cash due)", typeof h.fractional_entitlements === "number" && h.fractional_entitlements > 0 ? fmtQty(h.fractional_entitlements) : "none"),
    fact("Yield on cost", typeof y?.dps === "number" && typeof h.average_cost === "number" && h.average_cost > 0
      ? el("span", {}, fmtShare(ratioPct(y.dps, h.average_cost)), el("span", { class: "hint" }, ` (Rs ${fmtPrice(y.dps)} a share paid in the last 12 months ÷ your average cost)`))
      : el("span", {}, unknown(), el("span", { class: "hint" }, " (the service records no payouts of it) "),
        el("button", { type: "button", class: "secondary small", "data-add-dividend": h.symbol, "aria-label": `Add a ${h.symbol} dividend from your warrant` }, "Add from your warrant"))),
    fact("Return with dividends", el("span", {}, fmtPct(totalReturn(h)), el("span", { class: "hint" }, " (unrealised ", fmtPct(ratioPct(h.unrealized_pnl, h.cost)), " plus ", fmtRs(h.dividends_net), " of net dividends, over the cost)"))),
    fact("Quote", typeof h.quote_as_of === "string" ? el("span", {}, fmtTime(h.quote_as_of), " ", badge("delayed"), h.quote_stale ? [" ", badge("stale", "warn")] : []) : unknown()),
    fact("Day change", typeof q?.change_pct === "number" ? el("span", {}, fmtPct(q.change_pct), ` on ${fmtTime(q.as_of)}`) : unknown())
  )

/** One position's row and its closed detail row. @param {any} h @param {Quote | undefined} q @param {Yield | undefined} y @param {number | undefined} total */
const rows = (h, q, y, total) => {
  const id = `holding-${h.symbol}`
  const toggle = el("button", { type: "button", class: "expand", "aria-expanded": "false", "aria-controls": id, "aria-label": `More about ${h.symbol}` }, "▸")
  const weight = ratioPct(h.market_value, total)
  const detail = el("tr", { id, class: "detail", "data-detail": "", hidden: true }, el("td", { colspan: String(HEAD.length) }, details(h, q, y, weight)))
  toggle.addEventListener("click", () => {
    detail.hidden = !detail.hidden
    toggle.setAttribute("aria-expanded", String(!detail.hidden))
    toggle.textContent = detail.hidden ? "▸" : "▾"
  })
  const day = dayChange(h, q)
  const pnlPct = ratioPct(h.unrealized_pnl, h.cost)
  const withDividends = totalReturn(h)
  const row = el(
    "tr",
    {},
    el("th", { scope: "row", "data-sort": h.symbol }, toggle, " ", el("a", { href: `/market/${encodeURIComponent(h.symbol)}` }, h.symbol)),
    cell("Shares", fmtQty(h.quantity), h.quantity),
    cell("Avg cost (Rs)", fmtPrice(h.average_cost), h.average_cost),
    cell("Price (Rs)", fmtPrice(h.market_price), h.market_price),
    cell("Day change (Rs)", el("span", {}, fmtSigned(day), typeof q?.change_pct === "number" ? el("span", { class: "block small" }, fmtPct(q.change_pct)) : ""), day),
    cell("Market value (Rs)", fmtAmount(h.market_value), h.market_value),
    cell("Unrealised P/L (Rs)", el("span", {}, fmtSigned(h.unrealized_pnl), el("span", { class: "block small" }, fmtPct(pnlPct))), h.unrealized_pnl),
    cell("Return with dividends", fmtPct(withDividends), withDividends),
    cell("Weight", fmtShare(weight), weight)
  )
  return [row, detail]
}

/**
 * On a phone the headings are hidden behind the cards: a list picks the
 * column to sort by (the same as a heading's button, which it presses).
 * @param {HTMLTableElement} table
 */
const phoneSort = (table) => {
  const select = /** @type {HTMLSelectElement} */ (el("select", { id: "holdings-sort" }, el("option", { value: "" }, "as listed"), HEAD.map(([label], i) => el("option", { value: String(i) }, label))))
  select.addEventListener("change", () => {
    const button = table.tHead?.rows[0]?.cells[Number(select.value)]?.querySelector("button")
    if (select.value !== "") button?.click()
  })
  return el("div", { class: "field phone-only" }, el("label", { for: "holdings-sort" }, "Sort by"), select)
}

/**
 * @param {HTMLElement} out
 * @param {any} portfolio GET /v1/me/portfolio
 * @param {Map<string, Quote>} quotes
 * @param {Map<string, Yield>} yields
 */
export const renderHoldings = (out, portfolio, quotes, yields) => {
  const held = /** @type {any[]} */ (portfolio.holdings).filter((h) => h.quantity > 0 || h.realized_pnl || h.dividends_net)
  const t = portfolio.totals
  const total = typeof t.market_value === "number" ? t.market_value : undefined
  const days = held.map((h) => dayChange(h, quotes.get(h.symbol)))
  const dayTotal = days.every((d) => typeof d === "number") ? Math.round(days.reduce((a, d) => a + (d ?? 0), 0) * 100) / 100 : undefined
  const table = el(
    "table",
    { id: "holdings-table" },
    el("caption", { class: "visually-hidden" }, "Positions held"),
    el("thead", {}, el("tr", {}, HEAD.map(([label, cls]) => el("th", { scope: "col", class: cls }, label)))),
    el("tbody", {}, held.flatMap((h) => rows(h, quotes.get(h.symbol), yields.get(h.symbol), total))),
    held.length
      ? el(
        "tfoot",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "row" }, "Total"),
          cell("Shares", "", null),
          cell("Cost (Rs)", el("span", { class: "hint" }, "cost ", fmtAmount(t.cost)), null),
          cell("Price (Rs)", "", null),
          cell("Day change (Rs)", fmtSigned(dayTotal), null),
          cell("Market value (Rs)", fmtAmount(t.market_value), null),
          cell("Unrealised P/L (Rs)", el("span", {}, fmtSigned(t.unrealized_pnl), el("span", { class: "block small" }, fmtPct(ratioPct(t.unrealized_pnl, t.cost)))), null),
          cell("Return with dividends", "", null),
          cell("Weight", total ? "100%" : unknown(), null)
        )
      )
      : ""
  )
  sortable(/** @type {HTMLTableElement} */ (table))
  out.removeAttribute("aria-busy")
  out.replaceChildren(
    held.length ? phoneSort(/** @type {HTMLTableElement} */ (table)) : "",
    ...(held.length === 0
      ? [el("p", {}, "No holdings yet. Use “Add transaction” to record a buy.")]
      : foldOnPhone(el("div", { class: "table-wrap cards holdings", tabindex: "0", role: "region", "aria-label": "Positions held" }, table), 4, "holdings")),
    t.market_value_note ? el("p", { class: "hint" }, apiText(t.market_value_note)) : ""
  )
  return { dayTotal }
}
