// @ts-check
// Dividend income on the portfolio page: every dividend recorded, each with
// its rupees from the server (the warrant's amounts as recorded, or, for a
// dividend declared per share, the amounts GET /v1/me/entitlements computes
// for the payout it records), totals by month (a chart that stays when some
// amount is unknown) and by year, the totals the API serves, yield on cost,
// and the payouts of your holdings whose book closure is still ahead.
import { apiText } from "./format.js"
import { dateText, el, fmtAmount, fmtPrice, fmtRs, fmtShare, formatNumberText, monthText, unknown } from "./api.js"
import { barChart, rupeeFormat } from "./charts.js"
import { reversedIds } from "./events.js"
import { fact, facts, foldOnPhone, show, symbolLink, table } from "./ui.js"

/** @typedef {{ id: string, date: string, symbol: string, perShare?: number, gross?: number, tax?: number, net?: number, source: string }} Received */

/** @param {number} v */
const round = (v) => Math.round(v * 100) / 100

/**
 * Each recorded dividend with the amounts the server gives for it.
 * @param {import("./events.js").LedgerEvent[]} events @param {any[]} entitlements
 * @returns {Received[]}
 */
export const receivedDividends = (events, entitlements) => {
  const reversed = reversedIds(events)
  const byEvent = new Map(entitlements.filter((e) => e.recorded_event_id).map((e) => [e.recorded_event_id, e]))
  return events
    .filter((e) => e.type === "DividendRecorded" && !reversed.has(e.event_id))
    .map((e) => {
      const p = e.payload
      const base = { id: e.event_id, date: e.effective_date, symbol: p.symbol, perShare: typeof p.per_share === "number" ? p.per_share : undefined }
      if (typeof p.gross_amount === "number") {
        const tax = typeof p.tax_withheld === "number" ? p.tax_withheld : undefined
        const net = typeof p.net_amount === "number" ? p.net_amount : tax === undefined ? undefined : round(p.gross_amount - tax)
        return { ...base, gross: p.gross_amount, tax, net, source: "as on the warrant" }
      }
      const ent = byEvent.get(e.event_id)
      if (ent && ent.matches !== false && typeof ent.gross === "number") {
        return { ...base, gross: ent.gross, tax: ent.tax_withheld, net: ent.net, source: `${ent.shares_held} shares × Rs ${fmtPrice(ent.cash_per_share)}` }
      }
      return { ...base, source: "not served per dividend" }
    })
    .sort((a, b) => b.date.localeCompare(a.date))
}

/** Sums by a key; a group with any unknown amount keeps the known sum and says so. @param {Received[]} list @param {(r: Received) => string} key */
const totalsBy = (list, key) => {
  /** @type {Map<string, { gross: number, tax: number, net: number, count: number, unknown: number }>} */
  const groups = new Map()
  for (const r of list) {
    const g = groups.get(key(r)) ?? { gross: 0, tax: 0, net: 0, count: 0, unknown: 0 }
    g.count++
    if (typeof r.gross === "number") g.gross = round(g.gross + r.gross)
    else g.unknown++
    if (typeof r.tax === "number") g.tax = round(g.tax + r.tax)
    if (typeof r.net === "number") g.net = round(g.net + r.net)
    groups.set(key(r), g)
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))
}

/**
 * Every month from the first to the last with a dividend, those without one included (count 0), so the chart's
 * spacing is time's. @param {Array<[string, { gross: number, tax: number, net: number, count: number, unknown: number }]>} months
 */
const withEmptyMonths = (months) => {
  if (months.length === 0) return months
  const byMonth = new Map(months)
  const out = []
  let [y, m] = (months[0]?.[0] ?? "").split("-").map(Number)
  const last = months[months.length - 1]?.[0] ?? ""
  for (let guard = 0; guard < 600 && y !== undefined && m !== undefined; guard++) {
    const key = `${y}-${String(m).padStart(2, "0")}`
    out.push(/** @type {[string, { gross: number, tax: number, net: number, count: number, unknown: number }]} */ ([key, byMonth.get(key) ?? { gross: 0, tax: 0, net: 0, count: 0, unknown: 0 }]))
    if (key >= last) break
    m++
    if (m > 12) [y, m] = [y + 1, 1]
  }
  return out
}

/** @param {{ gross: number, tax: number, net: number, count: number, unknown: number }} g @param {"gross" | "tax" | "net"} k */
const sumCell = (g, k) => ({ cell: g.unknown === g.count ? unknown() : el("span", {}, fmtAmount(g[k]), g.unknown ? el("span", { class: "hint" }, " +?") : ""), class: "num" })

/**
 * Yield on cost over the holdings with recorded payouts: the last twelve
 * months' cash dividend per share times the shares held, over their cost.
 * @param {any[]} holdings @param {Map<string, { dps?: number }>} yields
 */
const yieldOnCost = (holdings, yields) => {
  const covered = holdings.filter((h) => h.quantity > 0 && typeof yields.get(h.symbol)?.dps === "number" && h.cost > 0)
  const income = covered.reduce((a, h) => a + h.quantity * (yields.get(h.symbol)?.dps ?? 0), 0)
  const cost = covered.reduce((a, h) => a + h.cost, 0)
  return { pct: cost > 0 ? (income / cost) * 100 : undefined, covered: covered.length, of: holdings.filter((h) => h.quantity > 0).length, income: round(income) }
}

/**
 * @param {HTMLElement} out
 * @param {{ events: import("./events.js").LedgerEvent[], entitlements: any[], portfolio: any, analysis: any, yields: Map<string, { dps?: number }>, upcoming: any[] }} data
 */
export const renderIncome = (out, data) => {
  const list = receivedDividends(data.events, data.entitlements)
  const months = withEmptyMonths(totalsBy(list, (r) => r.date.slice(0, 7)))
  const years = totalsBy(list, (r) => r.date.slice(0, 4))
  const d = data.analysis?.dividend_income
  const yoc = yieldOnCost(data.portfolio.holdings, data.yields)
  const chart = el("div", { class: "chart chart-short", id: "income-chart" })
  show(
    out,
    facts(
      fact("Received, gross", fmtRs(d?.gross)),
      fact("Tax withheld", fmtRs(d?.tax_withheld)),
      fact("Received, net", fmtRs(d?.net ?? data.portfolio.totals?.dividends_net)),
      fact(`Yield on cost, ${yoc.covered} of ${yoc.of} holdings`, yoc.pct === undefined
        ? el("span", {}, unknown(), el("span", { class: "hint block" }, "no holding has recorded payouts"))
        : el("span", {}, fmtShare(yoc.pct), el("span", { class: "hint block", id: "yield-coverage" }, `${yoc.covered === yoc.of ? "every holding" : `only ${yoc.covered} of your ${yoc.of} holdings: the others' payouts are not recorded, so this is not the portfolio's yield`}; Rs ${formatNumberText(yoc.income, 0)} a year at the last 12 months' payouts`)))
    ),
    d?.tax_note ? el("details", { class: "sources" }, el("summary", {}, "How the totals are worked out"), el("p", { class: "hint", id: "income-basis" }, `Totals as the API computes them from the position entitled at each book closure. ${apiText(d.tax_note)}`)) : "",
    el("h3", {}, "Upcoming payouts of your holdings"),
    data.upcoming.length
      ? table("Upcoming payouts of your holdings", [["Symbol"], ["Payout"], ["Per share (Rs)", "num"], ["Book closure"], ["Last buy date"]], data.upcoming.map((p) => [symbolLink(p.symbol), p.details ?? p.kind, { cell: fmtPrice(p.amount_per_share), class: "num" }, dateText(p.book_closure_from), dateText(p.last_buy_date)]), { id: "income-upcoming", cards: true, visibleCaption: false })
      : el("p", { class: "hint" }, "No recorded payout of a holding has its book closure ahead. Payouts are recorded for a few symbols only; others are unknown, not absent."),
    list.length === 0
      ? el("p", { id: "income-empty" }, "No dividend is recorded yet. Accept an entitlement above, or add one with “Add transaction” (kind: Dividend).")
      : [
        el("h3", {}, "By month"),
        el("figure", {}, chart, el("figcaption", {}, "Dividends by month of payment, net of tax where it is known.")),
        foldOnPhone(table("Dividend income by month", [["Month"], ["Gross (Rs)", "num"], ["Tax withheld (Rs)", "num"], ["Net (Rs)", "num"]], months.filter(([, g]) => g.count > 0).map(([m, g]) => [monthText(m), sumCell(g, "gross"), sumCell(g, "tax"), sumCell(g, "net")]), { id: "income-table", cards: true, visibleCaption: false }), 0, "months"),
        el("h3", {}, "By year"),
        table("Dividend income by year", [["Year"], ["Dividends", "num"], ["Gross (Rs)", "num"], ["Tax withheld (Rs)", "num"], ["Net (Rs)", "num"]], years.map(([y, g]) => [y, { cell: String(g.count), class: "num" }, sumCell(g, "gross"), sumCell(g, "tax"), sumCell(g, "net")]), { id: "income-years", cards: true, visibleCaption: false }),
        months.some(([, g]) => g.unknown) ? el("p", { class: "hint", id: "income-partly-unknown" }, "+? marks a total missing a dividend whose rupees the server does not serve per dividend (declared per share for a payout it does not record); the totals at the top include it.") : "",
        el("details", { class: "sources", id: "income-each" }, el("summary", {}, `Each dividend (${list.length})`), table("Dividends received", [["Date"], ["Symbol"], ["Per share (Rs)", "num"], ["Gross (Rs)", "num"], ["Tax (Rs)", "num"], ["Net (Rs)", "num"], ["Amounts"]], list.map((r) => [
          { cell: dateText(r.date), sort: r.date, class: "nowrap" }, symbolLink(r.symbol), { cell: fmtPrice(r.perShare), class: "num" }, { cell: fmtAmount(r.gross), class: "num" }, { cell: fmtAmount(r.tax), class: "num" }, { cell: fmtAmount(r.net), class: "num" }, el("span", { class: "hint" }, r.source)
        ]), { id: "income-events", sort: true, cards: true, visibleCaption: false }))
      ]
  )
  if (months.length) {
    barChart(chart, {
      categories: months.map(([m]) => monthText(m)),
      // A month without a dividend is an empty slot; one whose every amount is unknown has no bar either.
      series: [{ label: "Net", values: months.map(([, g]) => (g.count === 0 || g.unknown === g.count ? null : g.net)) }],
      format: rupeeFormat,
      categoryLabel: "Month",
      label: `Dividend income by month, net: ${months.map(([m, g]) => `${monthText(m)} ${g.count === 0 ? "none" : g.unknown === g.count ? "unknown" : g.net}`).join("; ")}`
    })
  }
}
