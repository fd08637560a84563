// @ts-check
// Portfolio page, the signed-in home: headline cards, the performance chart,
// holdings, the entitlements inbox and income, allocation, the history by
// trade date, CSV in and out, and the "Add transaction" dialog. Each part
// loads on its own and shows its own error with a "Try again".
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, el, fmtPct, fmtRs, fmtSigned, requireSession, setText } from "./api.js"
import { wireCsv } from "./csv.js"
import { renderEntitlements } from "./entitlements.js"
import { allEvents, reversedIds } from "./events.js"
import { renderHistory, wireHistory } from "./history.js"
import { renderHoldings } from "./holdings.js"
import { renderIncome } from "./income.js"
import { fromBrowser } from "./performance-adapter.js"
import { renderPerformance } from "./performance.js"
import { karachiToday } from "./format.js"
import { renderAllocation, valueSeries } from "./portfolio-charts.js"
import { openTransaction, wireTransactionForm } from "./tx-form.js"
import { showError } from "./ui.js"

let today = karachiToday()

/** Each held symbol's delayed quote (for the day change). @param {string[]} symbols */
const quotesFor = async (symbols) => {
  const replies = await Promise.all(symbols.map((s) => api("GET", `/v1/quotes/${encodeURIComponent(s)}?allow_stale=true`, { token: null })))
  return new Map(replies.flatMap((r, i) => (r.ok ? [[symbols[i] ?? "", r.body]] : [])))
}

/** Each held symbol's recorded payouts: the last 12 months' cash per share, and those still ahead. @param {string[]} symbols @param {string} today */
const payoutsFor = async (symbols, today) => {
  const replies = await Promise.all(symbols.map((s) => api("GET", `/v1/dividends/${encodeURIComponent(s)}`, { token: null })))
  const yields = new Map()
  /** @type {any[]} */
  const upcoming = []
  replies.forEach((r, i) => {
    if (!r.ok || r.body.coverage !== "recorded") return
    yields.set(symbols[i], { dps: typeof r.body.ttm_dividend_per_share === "number" ? r.body.ttm_dividend_per_share : undefined })
    upcoming.push(...r.body.items.filter((/** @type {any} */ p) => (p.book_closure_to ?? p.book_closure_from ?? "") >= today).map((/** @type {any} */ p) => ({ ...p, symbol: symbols[i] })))
  })
  upcoming.sort((a, b) => a.book_closure_from.localeCompare(b.book_closure_from))
  return { yields, upcoming }
}

/** @param {string} label @param {any} value @param {any} [sub] */
const card = (label, value, sub) => el("div", { class: "card" }, el("p", { class: "card-label" }, label), el("p", { class: "card-value" }, value), sub ? el("p", { class: "card-sub" }, sub) : "")

/** The headline figures. @param {any} portfolio @param {number | undefined} dayTotal @param {any} analysis */
const renderCards = (portfolio, dayTotal, analysis) => {
  const t = portfolio.totals
  const gain = [t.unrealized_pnl, t.realized_pnl, t.dividends_net].every((v) => typeof v === "number") ? t.unrealized_pnl + t.realized_pnl + t.dividends_net : undefined
  const before = typeof t.market_value === "number" && typeof dayTotal === "number" ? t.market_value - dayTotal : undefined
  const since = (analysis?.returns?.periods ?? []).find((/** @type {any} */ p) => p.period === "since_inception")
  $("cards").removeAttribute("aria-busy")
  $("cards").replaceChildren(
    card("Market value", fmtRs(t.market_value), el("span", {}, "cost ", fmtRs(t.cost))),
    card("Day change", fmtSigned(dayTotal, { rs: true }), before ? fmtPct((/** @type {number} */ (dayTotal) / before) * 100) : "last session"),
    card("Total gain", fmtSigned(gain, { rs: true }), el("span", {}, "unrealised, realised and ", fmtRs(t.dividends_net), " net dividends")),
    card("Time-weighted return", fmtPct(since?.return_pct), since ? "since the first holding" : "no return yet")
  )
}

/**
 * The return cards from the performance figures, when they carry more than
 * /v1/me/analyze: since inception's money-weighted return (XIRR) and total
 * return with dividends, beside the time-weighted one.
 * @param {import("./performance-adapter.js").Performance} perf
 */
const returnCards = (perf) => {
  const since = perf.periods.find((p) => /since.inception|^all$|^max$/i.test(p.period)) ?? perf.periods.at(-1)
  if (!since || (since.xirr === undefined && since.totalReturn === undefined)) return
  const cards = $("cards")
  cards.querySelector(".card:last-child")?.remove()
  cards.append(
    card("Time-weighted return", fmtPct(since.twr), since.benchmark === undefined ? "since the first holding" : el("span", {}, "KSE-100 ", fmtPct(since.benchmark))),
    card("Money-weighted (XIRR)", fmtPct(since.xirr), "a year, since the first holding"),
    card("Total return", fmtPct(since.totalReturn), "with dividends, since the first holding")
  )
}

/**
 * The slow part: the value series needs every held symbol's closes. (Issue 38's GET /v1/me/performance serves it
 * from the server: `fromServer(reply.body)` in place of `fromBrowser(…)` is all the wiring it needs.)
 * @param {any[]} events @param {any} analysis
 */
const loadPerformance = async (events, analysis) => {
  try {
    const perf = fromBrowser(await valueSeries(events), analysis)
    renderPerformance($("value"), perf)
    returnCards(perf)
  } catch (e) {
    showError($("value"), { status: 0, body: { error: "NETWORK", message: String(e) } }, () => loadPerformance(events, analysis))
  }
}

const load = async () => {
  const [reply, ledger, analysis, entitlements] = await Promise.all([
    api("GET", "/v1/me/portfolio?limit=1"),
    allEvents(),
    api("GET", "/v1/me/analyze"),
    api("GET", "/v1/me/entitlements?limit=200")
  ])
  if (!reply.ok || !ledger.ok) {
    const failed = reply.ok ? /** @type {any} */ (ledger).reply : reply
    for (const id of ["cards", "holdings", "value", "income", "allocation"]) showError($(id), failed, load)
    return setText("holdings-status", "")
  }
  const portfolio = reply.body
  const symbols = portfolio.holdings.filter((h) => h.quantity > 0).map((h) => h.symbol)
  // Today as the service's clock has it (Karachi), else this browser's.
  today = entitlements.ok && typeof entitlements.body.as_of === "string" ? entitlements.body.as_of : karachiToday()
  const [quotes, payouts] = await Promise.all([quotesFor(symbols), payoutsFor(symbols, today)])
  const { dayTotal } = renderHoldings($("holdings"), portfolio, quotes, payouts.yields)
  setText("holdings-status", symbols.length ? `${symbols.length} position${symbols.length === 1 ? "" : "s"}.` : "", "")
  renderCards(portfolio, dayTotal, analysis.ok ? analysis.body : undefined)
  if (entitlements.ok) renderEntitlements($("entitlements"), entitlements.body, load)
  else showError($("entitlements"), entitlements, load)
  renderIncome($("income"), { events: ledger.events, entitlements: entitlements.ok ? entitlements.body.items : [], portfolio, analysis: analysis.ok ? analysis.body : undefined, yields: payouts.yields, upcoming: payouts.upcoming })
  renderAllocation($("allocation"), portfolio, analysis.ok ? analysis.body : undefined)
  renderHistory(ledger.events, reversedIds(ledger.events), load)
  await loadPerformance(ledger.events, analysis.ok ? analysis.body : undefined)
}

wireTransactionForm(load)
wireHistory()
wireCsv(load)
$("add-tx").addEventListener("click", () => openTransaction(undefined, today))

if (requireSession()) {
  load()
  const add = new URLSearchParams(location.search).get("add")
  if (add !== null) openTransaction(add.toUpperCase(), today)
} else {
  for (const id of ["cards", "holdings", "value", "income", "allocation", "entitlements"]) {
    $(id).removeAttribute("aria-busy")
    $(id).replaceChildren()
  }
  $("page-actions").hidden = true
}
