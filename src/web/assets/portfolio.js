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
import { dayChange, fromServer } from "./performance-adapter.js"
import { renderPerformance } from "./performance.js"
import { dateText, karachiToday } from "./format.js"
import { renderAllocation } from "./allocation.js"
import { openDividend, openTransaction, wireTransactionForm } from "./tx-form.js"
import { showError, showLoading } from "./ui.js"

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

/**
 * The headline figures: value, day change, total return with dividends,
 * TWR and XIRR since the first trade, from the server's daily valuation;
 * without it (it failed), value and day change at the delayed quotes.
 * @param {any} portfolio /v1/me/portfolio @param {number | undefined} dayTotal the holdings' day change at the quotes
 * @param {import("./performance-adapter.js").Performance | undefined} perf
 */
const renderCards = (portfolio, dayTotal, perf) => {
  const t = portfolio.totals
  const since = perf?.periods.find((p) => p.period === "since_inception")
  const day = perf ? dayChange(perf) : undefined
  const last = perf?.value.at(-1)
  const before = typeof t.market_value === "number" && typeof dayTotal === "number" ? t.market_value - dayTotal : undefined
  const first = since ? `since the first trade, ${dateText(since.from)}` : "no return yet"
  $("cards").removeAttribute("aria-busy")
  $("cards").replaceChildren(
    perf && typeof last === "number"
      ? card("Market value", fmtRs(last), el("span", {}, "at the close of ", dateText(perf.dates.at(-1)), "; cost ", fmtRs(perf.cost.at(-1))))
      : card("Market value", fmtRs(t.market_value), el("span", {}, "at the delayed quotes; cost ", fmtRs(t.cost))),
    day
      ? card("Day change", fmtSigned(day.rupees, { rs: true }), el("span", {}, fmtPct(day.pct), ` on ${dateText(day.date)}, against ${dateText(day.previous)}`))
      : card("Day change", fmtSigned(dayTotal, { rs: true }), before ? fmtPct((/** @type {number} */ (dayTotal) / before) * 100) : "last session"),
    card("Total return", fmtPct(since?.totalReturn), since ? el("span", {}, fmtSigned(since.gain, { rs: true }), " with ", fmtRs(since.dividends), " net dividends, ", first) : first),
    card("Time-weighted return", fmtPct(since?.twr), since ? el("span", {}, "KSE-100 ", fmtPct(since.kse100), " (a price index), ", first) : first),
    card("Money-weighted (XIRR)", fmtPct(since?.xirr), since ? el("span", {}, "a year; ", fmtPct(since.mwr), " over the whole time") : first)
  )
}

/**
 * Draws the server's daily valuation (the chart, the returns by period) and
 * answers it for the cards; on a failure, the section's error with "Try
 * again", whose answer goes to `retried`.
 * @param {Reply<Success<"portfolio.performance">>} reply @param {(perf: import("./performance-adapter.js").Performance) => void} retried
 */
const showPerformance = (reply, retried) => {
  if (!reply.ok) {
    showError($("value"), reply, async () => {
      showLoading($("value"), "Loading the performance…", "chart")
      const perf = showPerformance(await api("GET", "/v1/me/performance?days=daily"), retried)
      if (perf) retried(perf)
    })
    return undefined
  }
  const perf = fromServer(reply.body)
  renderPerformance($("value"), perf)
  return perf
}

const load = async () => {
  const performance = api("GET", "/v1/me/performance?days=daily")
  const [reply, ledger, analysis, entitlements, settings] = await Promise.all([
    api("GET", "/v1/me/portfolio?limit=1"),
    allEvents(),
    api("GET", "/v1/me/analyze"),
    api("GET", "/v1/me/entitlements?limit=200"),
    api("GET", "/v1/me/settings")
  ])
  // The history needs only the ledger: it shows whenever the ledger could be read.
  if (ledger.ok) renderHistory(ledger.events, reversedIds(ledger.events), load)
  else setText("history-status", "The history could not be loaded: see the message above.", "error")
  if (!reply.ok || !ledger.ok) {
    const failed = reply.ok ? /** @type {any} */ (ledger).reply : reply
    // One box says what went wrong; the other sections point to it (ui.js showError).
    for (const id of ["cards", "value", "holdings", "entitlements", "income", "allocation"]) showError($(id), failed, load)
    return setText("holdings-status", "")
  }
  const portfolio = reply.body
  const symbols = portfolio.holdings.filter((h) => h.quantity > 0).map((h) => h.symbol)
  // Today as the service's clock has it (Karachi), else this browser's.
  today = entitlements.ok && typeof entitlements.body.as_of === "string" ? entitlements.body.as_of : karachiToday()
  const [quotes, payouts] = await Promise.all([quotesFor(symbols), payoutsFor(symbols, today)])
  const { dayTotal } = renderHoldings($("holdings"), portfolio, quotes, payouts.yields)
  setText("holdings-status", symbols.length ? `${symbols.length} position${symbols.length === 1 ? "" : "s"}.` : "", "")
  renderCards(portfolio, dayTotal, showPerformance(await performance, (perf) => renderCards(portfolio, dayTotal, perf)))
  if (entitlements.ok) renderEntitlements($("entitlements"), entitlements.body, load, settings)
  else showError($("entitlements"), entitlements, load)
  renderIncome($("income"), { events: ledger.events, entitlements: entitlements.ok ? entitlements.body.items : [], portfolio, analysis: analysis.ok ? analysis.body : undefined, yields: payouts.yields, upcoming: payouts.upcoming })
  renderAllocation($("allocation"), portfolio, analysis.ok ? analysis.body : undefined)
}

wireTransactionForm(load)
wireHistory()
wireCsv(load)
$("add-tx").addEventListener("click", () => openTransaction(undefined, today))
// "Add from your warrant" on a holding whose payouts the service does not record.
document.addEventListener("click", (event) => {
  const button = /** @type {HTMLElement | null} */ (event.target instanceof Element ? event.target.closest("[data-add-dividend]") : null)
  if (button?.dataset.addDividend) openDividend(button.dataset.addDividend)
})

if (await requireSession()) {
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
