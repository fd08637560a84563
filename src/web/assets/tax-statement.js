// @ts-check
// The tax-year statement drawn (GET /v1/me/tax-statement): the figures a
// return asks for first, then each sale with its gain and holding period,
// each dividend gross, withheld and net, the bonus shares at zero cost,
// donations and the positions at the year's end, every table with its
// totals. Rupees with their paisa: a statement is copied into a return.
/** @typedef {import("./api.js").Success<"portfolio.taxStatement">} Statement */
import { badge, dateText, el, fillRows, fmtPrice, fmtQty, fmtSigned, formatNumberText, unknown } from "./api.js"
import { show, symbolLink, table } from "./ui.js"
import { apiText, plainName } from "./format.js"

/** Rupees to the paisa ("5,315.80"); absent is unknown. @param {unknown} v */
const exact = (v) => fmtPrice(v)
/** Rupees a share as the ledger keeps an average cost (up to four decimals). @param {unknown} v */
const perShare = (v) => fmtQty(v)
/** A figure with "Rs". @param {unknown} v */
const rs = (v) => (typeof v === "number" ? el("span", {}, "Rs ", exact(v)) : unknown())
/** @param {any} cell */
const num = (cell) => ({ cell, class: "num" })

/** A table (a card a row on a phone) with its totals in a footer row. @param {string} caption @param {Array<[string, string?]>} head @param {any[][]} rows @param {any[]} total @param {string} id */
const tableWithTotal = (caption, head, rows, total, id) => {
  const wrap = table(caption, head, rows, { id, cards: true })
  const tfoot = el("tfoot")
  wrap.querySelector("table")?.append(tfoot)
  fillRows(tfoot, [total], { labels: head.map(([label]) => label) })
  return wrap
}

/** @param {string} text */
const none = (text) => el("p", { class: "hint" }, text)

/** @param {number} min @param {number} max */
const days = (min, max) => (min === max ? `${fmtQty(min)} days` : `${fmtQty(min)} to ${fmtQty(max)} days`)

/** @param {Statement["sales"][number]} s */
const saleRow = (s) => [
  symbolLink(s.symbol),
  el("span", {}, dateText(s.trade_date), el("span", { class: "hint block" }, `settled ${dateText(s.settlement_date)}`)),
  num(fmtQty(s.quantity)),
  num(exact(s.price)),
  num(exact(s.proceeds)),
  num(el("span", {}, exact(s.cost), el("span", { class: "hint block" }, `${perShare(s.average_cost)} a share`))),
  num(fmtSigned(s.gain, { price: true })),
  el("span", {}, days(s.holding_days_min, s.holding_days_max),
    el("span", { class: "hint block" }, s.lots.map((l) => `${fmtQty(l.quantity)} ${l.how === "bonus" ? "bonus shares credited" : "bought"} ${dateText(l.acquired)}`).join("; "))),
  s.capital_gains_tax
    ? el("span", {}, rs(s.capital_gains_tax.amount), el("span", { class: "hint block" }, `${s.capital_gains_tax.rate_pct}% (${plainName(s.capital_gains_tax.rule)})`))
    : el("span", { class: "hint" }, s.tax_note ? apiText(s.tax_note) : "none computed")
]

/** @param {Statement} st */
const sales = (st) => {
  const t = st.totals.sales
  if (st.sales.length === 0) return none("No sales in this tax year.")
  return tableWithTotal(
    "Sales, by trade date",
    [["Symbol"], ["Sold"], ["Shares", "num"], ["Price", "num"], ["Proceeds", "num"], ["Cost", "num"], ["Gain", "num"], ["Held"], ["Capital gains tax"]],
    st.sales.map(saleRow),
    [`Total, ${fmtQty(t.count)} sale${t.count === 1 ? "" : "s"}`, "", "", "", num(exact(t.proceeds)), num(exact(t.cost)), num(fmtSigned(t.net_gain, { price: true })), "",
      st.totals.capital_gains_tax ? rs(st.totals.capital_gains_tax.tax_at_rate) : ""],
    "tax-sales"
  )
}

/** @param {Statement["dividends"][number]} d */
const basis = (d) =>
  d.tax_basis === "warrant" ? "as the warrant shows"
  : d.tax_basis === "rule" ? `${d.tax_rate_pct ?? "?"}%${d.filer === undefined ? "" : d.filer ? ", filer" : ", non-filer"} (${d.tax_rule ? plainName(d.tax_rule) : "by rule"})`
  : "no tax recorded"

/** @param {Statement} st */
const dividends = (st) => {
  const t = st.totals.dividends
  if (st.dividends.length === 0) return none("No dividends in this tax year.")
  return tableWithTotal(
    "Dividends, by credit date (end of book closure)",
    [["Symbol"], ["Paid"], ["Book closure"], ["Shares", "num"], ["Per share", "num"], ["Gross", "num"], ["Tax withheld", "num"], ["Net", "num"], ["Tax"]],
    st.dividends.map((d) => [
      symbolLink(d.symbol),
      dateText(d.credit_date),
      d.book_closure_from ? el("span", {}, dateText(d.book_closure_from), d.entitlement_date ? el("span", { class: "hint block" }, `shares held at ${dateText(d.entitlement_date)}`) : "") : unknown(),
      num(fmtQty(d.shares)),
      num(exact(d.per_share)),
      num(exact(d.gross)),
      num(exact(d.tax_withheld)),
      num(exact(d.net)),
      basis(d)
    ]),
    [`Total, ${fmtQty(t.count)} payout${t.count === 1 ? "" : "s"}`, "", "", "", "", num(exact(t.gross)), num(exact(t.tax_withheld)), num(exact(t.net)), ""],
    "tax-dividends"
  )
}

/** @param {Statement} st */
const bonuses = (st) => {
  if (st.bonuses.length === 0) return none("No bonus shares in this tax year.")
  return tableWithTotal(
    "Bonus shares, at zero cost",
    [["Symbol"], ["Credited"], ["Bonus"], ["Shares received", "num"], ["Cost", "num"], ["Average cost", "num"], ["Shares after", "num"]],
    st.bonuses.map((b) => [
      symbolLink(b.symbol),
      el("span", {}, dateText(b.credit_date), b.book_closure_from ? el("span", { class: "hint block" }, `book closure ${dateText(b.book_closure_from)}`) : ""),
      `${fmtQty(b.percent)}%`,
      num(el("span", {}, fmtQty(b.shares_received), b.fractional_entitlement > 0 ? el("span", { class: "hint block" }, `and ${fmtQty(b.fractional_entitlement)} of a share owed as cash`) : "")),
      num(rs(b.cost)),
      num(el("span", {}, perShare(b.average_cost_before), " → ", perShare(b.average_cost_after))),
      num(fmtQty(b.quantity_after))
    ]),
    [`Total, ${fmtQty(st.totals.bonuses.count)} bonus issue${st.totals.bonuses.count === 1 ? "" : "s"}`, "", "", num(fmtQty(st.totals.bonuses.shares_received)), num(rs(0)), "", ""],
    "tax-bonuses"
  )
}

/** @param {Statement} st */
const donations = (st) => {
  if (st.donations.length === 0) return none("No donations recorded in this portfolio's ledger in this tax year.")
  return tableWithTotal(
    "Donations",
    [["Date"], ["Amount", "num"], ["Status"], ["Note"]],
    st.donations.map((d) => [dateText(d.date), num(rs(d.amount)), badge(d.status, d.status === "pending" ? "warn" : ""), d.note ?? ""]),
    [`Total, ${fmtQty(st.totals.donations.count)}`, num(rs(st.totals.donations.amount)), "", ""],
    "tax-donations"
  )
}

/** @param {Statement} st */
const positions = (st) => {
  if (st.closing_positions.length === 0) return none("No positions held at the end of the period.")
  return tableWithTotal(
    `Positions held on ${dateText(st.complete ? st.period.to : st.as_of)}, at cost`,
    [["Symbol"], ["Shares", "num"], ["Cost", "num"], ["Average cost", "num"]],
    st.closing_positions.map((p) => [symbolLink(p.symbol), num(fmtQty(p.quantity)), num(exact(p.cost)), num(perShare(p.average_cost))]),
    ["Total", "", num(exact(st.closing_positions.reduce((a, p) => a + Math.round(p.cost * 100), 0) / 100)), ""],
    "tax-positions"
  )
}

/** What a return asks for: each figure with what the statement holds of it. A bonus's figure is shares, as its note says. @param {Statement} st */
const needs = (st) =>
  table(
    "What a return asks for",
    [["Item"], ["Figure", "num"], ["What this statement holds"]],
    st.return_needs.map((n) => [n.item, num(/^Shares, not rupees/.test(n.note) ? `${fmtQty(n.amount)} shares` : rs(n.amount)), apiText(n.note)]),
    { id: "tax-needs", cards: true }
  )

/** @param {HTMLElement} out @param {Statement} st */
export const renderStatement = (out, st) => {
  const cgt = st.totals.capital_gains_tax
  show(
    out,
    el("h2", { id: "h-year" }, `Tax year ${st.tax_year}: ${dateText(st.period.from)} to ${dateText(st.period.to)}`),
    el("p", {}, st.complete ? badge("year ended", "on") : badge("in progress", "warn"), " ",
      st.complete ? `Figures as recorded on ${dateText(st.as_of)}.` : `The year runs to ${dateText(st.period.to)}: figures so far, to ${dateText(st.as_of)}.`,
      el("span", { class: "hint block" }, `Portfolio ${st.portfolio}. Cost method: ${st.cost_method}.`)),
    el("h3", { id: "h-needs" }, "For your return"),
    needs(st),
    cgt ? el("p", { class: "hint", id: "tax-cgt-note" }, `Capital gains tax at ${cgt.rate_pct}% (${plainName(cgt.rule)}) on Rs ${formatNumberText(cgt.taxable_gain, 2)} taxable (covered gains Rs ${formatNumberText(cgt.gains_covered, 2)} less losses set off): Rs ${formatNumberText(cgt.tax_at_rate, 2)}. ${apiText(cgt.note)}`) : "",
    el("h3", {}, "Sales"),
    sales(st),
    el("h3", {}, "Dividends"),
    dividends(st),
    el("h3", {}, "Bonus shares"),
    bonuses(st),
    el("h3", {}, "Donations"),
    donations(st),
    el("h3", {}, "Positions at the end of the period"),
    positions(st),
    el("h3", {}, "How it is worked out"),
    el("ul", { class: "notes" }, el("li", {}, apiText(st.cost_method_note)), st.notes.map((n) => el("li", {}, apiText(n))))
  )
}
