// @ts-check
// The portfolio's pictures: value over time against cost, allocation by
// position and by sector beside the KSE-100's sector weights, and dividend
// income by month (gross and net). Everything is drawn from what the API
// serves: the user's own ledger events, recorded daily closes, /v1/me/analyze.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, el, fmtMoney, fmtPct, unknown } from "./api.js"
import { barChart, lineChart } from "./charts.js"
import { reversedIds } from "./events.js"
import { fact, facts, num, table } from "./ui.js"

/** Recorded closes of `symbol` from `from` on, oldest first. @param {string} symbol @param {string} from */
const closesFrom = async (symbol, from) => {
  /** @type {Array<{ date: string, close: number }>} */
  const rows = []
  let cursor = null
  for (let page = 0; page < 10; page++) {
    const query = new URLSearchParams({ date_from: from, limit: "1000" })
    if (cursor) query.set("cursor", cursor)
    /** @type {Reply<Success<"market.prices">>} */
    const reply = await api("GET", `/v1/prices/${encodeURIComponent(symbol)}?${query}`, { token: null })
    if (!reply.ok) break
    rows.push(...reply.body.items.filter((/** @type {any} */ r) => !r.flag && typeof r.close === "number"))
    cursor = reply.body.next_cursor
    if (!cursor) break
  }
  return rows.reverse()
}

/**
 * Holdings' value at each recorded close and the cost of what was held
 * (average cost: a sale takes its share of the cost out). A day on which a
 * held symbol has no close yet has no value (unknown), never 0.
 * @param {import("./events.js").LedgerEvent[]} events
 */
export const valueSeries = async (events) => {
  const reversed = reversedIds(events)
  const moves = events
    .filter((e) => !reversed.has(e.event_id) && ["TradeRecorded", "BonusRecorded", "SplitRecorded"].includes(e.type))
    .sort((a, b) => a.effective_date.localeCompare(b.effective_date) || a.version - b.version)
  if (moves.length === 0) return { dates: [], value: [], cost: [] }
  const first = moves[0]?.effective_date ?? ""
  const symbols = [...new Set(moves.map((e) => e.payload.symbol))]
  const closes = new Map(await Promise.all(symbols.map(async (s) => /** @type {const} */ ([s, await closesFrom(s, first)]))))
  const dates = [...new Set([...closes.values()].flatMap((rows) => rows.map((r) => r.date)))].filter((d) => d >= first).sort()
  const qty = new Map(), cost = new Map(), last = new Map(), at = new Map(), lost = new Set()
  const out = { dates, value: /** @type {Array<number | null>} */ ([]), cost: /** @type {number[]} */ ([]), bonusUnknown: false }
  let next = 0
  for (const date of dates) {
    for (; next < moves.length && (moves[next]?.effective_date ?? "") <= date; next++) apply(/** @type {import("./events.js").LedgerEvent} */ (moves[next]), qty, cost, lost)
    for (const [s, rows] of closes) {
      let i = at.get(s) ?? 0
      while (i < rows.length && (rows[i]?.date ?? "") <= date) last.set(s, rows[i++]?.close)
      at.set(s, i)
    }
    let value = 0, known = true
    for (const [s, q] of qty) {
      if (lost.has(s)) known = false
      if (q === 0 || lost.has(s)) continue
      if (!last.has(s)) known = false
      else value += q * last.get(s)
    }
    out.value.push(known ? round(value) : null)
    out.cost.push(round([...cost.values()].reduce((a, b) => a + b, 0)))
  }
  out.bonusUnknown = lost.size > 0
  return out
}

/** @param {number} v */
const round = (v) => Math.round(v * 100) / 100

/**
 * A bonus's shares are computed by the API in its replay and served only in
 * the current holdings, not per event: from a bonus that does not carry them
 * (`lost`), that symbol's quantity, and so the value, is unknown.
 * @param {import("./events.js").LedgerEvent} e @param {Map<string, number>} qty @param {Map<string, number>} cost @param {Set<string>} lost
 */
const apply = (e, qty, cost, lost) => {
  const p = e.payload
  const q = qty.get(p.symbol) ?? 0
  const c = cost.get(p.symbol) ?? 0
  if (e.type === "TradeRecorded" && p.side === "buy") {
    qty.set(p.symbol, q + p.quantity)
    cost.set(p.symbol, c + p.quantity * p.price + (p.fees ?? 0))
  } else if (e.type === "TradeRecorded") {
    qty.set(p.symbol, q - p.quantity)
    cost.set(p.symbol, q > 0 ? c * (1 - p.quantity / q) : 0)
  } else if (e.type === "BonusRecorded" && typeof p.shares_added === "number") qty.set(p.symbol, q + p.shares_added)
  else if (e.type === "BonusRecorded") lost.add(p.symbol)
  else if (e.type === "SplitRecorded") qty.set(p.symbol, (q * p.numerator) / p.denominator)
}

/** @param {HTMLElement} out @param {Awaited<ReturnType<typeof valueSeries>>} series @param {any} analysis */
export const renderValue = (out, series, analysis) => {
  const chart = el("div", { class: "chart", id: "value-chart" })
  const returns = analysis?.returns
  out.replaceChildren(
    series.dates.length === 0
      ? el("p", {}, "Nothing held yet: record a buy to see its value over time.")
      : el("figure", {}, chart, el("figcaption", {}, `Market value of the holdings at each recorded daily close against their cost (average cost, fees included), ${series.dates[0]} to ${series.dates.at(-1)}. Closes are not adjusted; a bonus or split changes the quantity on its date.${series.bonusUnknown ? " The API serves a bonus's shares only in the current holdings, not per event, so the value from such a bonus on is unknown (a gap), never a guess." : ""}`)),
    returns
      ? table(
        "Time-weighted return",
        [["Period"], ["From"], ["To"], ["Return", "num"], ["Covers the whole period"]],
        returns.periods.map((/** @type {any} */ p) => [p.period.replace("_", " "), p.from, p.to, num(fmtPct(p.return_pct)), p.covers_whole_period ? "yes" : "no: the portfolio started later"])
      )
      : el("p", {}, "Time-weighted return: ", unknown()),
    returns ? el("p", { class: "hint" }, `Return basis: ${returns.basis}.`) : ""
  )
  if (series.dates.length) {
    lineChart(chart, {
      xs: series.dates,
      series: [{ label: "Value (Rs)", values: series.value, fill: true }, { label: "Cost (Rs)", values: series.cost }],
      label: `Portfolio value against cost from ${series.dates[0]} to ${series.dates.at(-1)}: last value ${series.value.at(-1) ?? "unknown"}, cost ${series.cost.at(-1)} rupees`
    })
  }
}

/** @param {HTMLElement} out @param {any} portfolio /v1/me/portfolio @param {any} analysis /v1/me/analyze */
export const renderAllocation = (out, portfolio, analysis) => {
  const held = /** @type {any[]} */ (portfolio.holdings).filter((h) => h.quantity > 0)
  const byValue = held.every((h) => typeof h.market_value === "number")
  const weight = (/** @type {any} */ h) => (byValue ? h.market_value : h.cost)
  const total = held.reduce((a, h) => a + weight(h), 0)
  const positions = held.map((h) => ({ symbol: h.symbol, pct: total > 0 ? round((weight(h) / total) * 100) : null }))
  const sectors = /** @type {any[]} */ (analysis?.sectors ?? [])
  const positionChart = el("div", { class: "chart chart-short", id: "allocation-chart" })
  const sectorChart = el("div", { class: "chart chart-short", id: "sector-chart" })
  out.replaceChildren(
    el(
      "div",
      { class: "grid-2" },
      el(
        "div",
        {},
        el("h3", {}, "By position"),
        el("figure", {}, positionChart, el("figcaption", {}, `Share of the portfolio by ${byValue ? "market value at the delayed quote" : "cost (a quote is unknown)"}.`)),
        table("Allocation by position", [["Symbol"], ["Weight", "num"]], positions.map((p) => [p.symbol, num(fmtPct(p.pct).toString().replace("+", ""))]), { id: "allocation-table" })
      ),
      el(
        "div",
        {},
        el("h3", {}, "By sector, beside the KSE-100"),
        el("figure", {}, sectorChart, el("figcaption", {}, `Portfolio weight by ${analysis?.weight_basis === "cost" ? "cost" : "market value"} and the sector's weight in the KSE-100.`)),
        table(
          "Allocation by sector against the KSE-100",
          [["Sector"], ["Portfolio", "num"], ["KSE-100", "num"]],
          sectors.map((s) => [s.sector, num(`${s.portfolio_pct}%`), num(typeof s.kse100_pct === "number" ? `${s.kse100_pct}%` : unknown())]),
          { id: "sector-table" }
        ),
        analysis
          ? facts(
            fact("Holdings inside the KSE-100", `${analysis.overlap.symbols_in_kse100} of ${analysis.overlap.symbols}`),
            fact("Largest position", analysis.concentration.largest_symbol ? `${analysis.concentration.largest_symbol}, ${analysis.concentration.largest_pct}%` : unknown())
          )
          : ""
      )
    )
  )
  if (positions.length) barChart(positionChart, { categories: positions.map((p) => p.symbol), series: [{ label: "Weight %", values: positions.map((p) => p.pct) }], label: `Allocation by position: ${positions.map((p) => `${p.symbol} ${p.pct}%`).join(", ")}`, horizontal: true })
  if (sectors.length) {
    barChart(sectorChart, {
      categories: sectors.map((s) => s.sector),
      series: [{ label: "Portfolio %", values: sectors.map((s) => s.portfolio_pct) }, { label: "KSE-100 %", values: sectors.map((s) => s.kse100_pct ?? null) }],
      label: `Allocation by sector against the KSE-100: ${sectors.map((s) => `${s.sector} ${s.portfolio_pct}% against ${s.kse100_pct ?? "unknown"}%`).join(", ")}`,
      horizontal: true
    })
  }
}

/** A month's sum of one served field, or null (unknown) when a dividend of the month does not carry it. */
const monthSum = (/** @type {any[]} */ payloads, /** @type {string} */ field) =>
  payloads.every((p) => typeof p[field] === "number") ? round(payloads.reduce((a, p) => a + p[field], 0)) : null

/**
 * Dividend income: the totals the API serves (/v1/me/analyze, else the sum
 * of the holdings' figures), and by month only the amounts a stored event
 * carries (the warrant's gross and tax; an older event's net). A dividend
 * declared per share has its rupees computed in the API's replay and served
 * only as totals, so its month shows unknown, never 0.
 * @param {HTMLElement} out @param {import("./events.js").LedgerEvent[]} events @param {any} portfolio @param {any} analysis
 */
export const renderIncome = (out, events, portfolio, analysis) => {
  const reversed = reversedIds(events)
  /** @type {Map<string, any[]>} */
  const byMonth = new Map()
  for (const e of events) {
    if (e.type !== "DividendRecorded" || reversed.has(e.event_id)) continue
    const month = e.effective_date.slice(0, 7)
    byMonth.set(month, [...(byMonth.get(month) ?? []), e.payload])
  }
  const rows = [...byMonth.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([m, ps]) => ({ m, gross: monthSum(ps, "gross_amount"), tax: monthSum(ps, "tax_withheld"), net: monthSum(ps, "net_amount") }))
  const split = rows.length > 0 && rows.every((r) => r.gross !== null)
  const totals = incomeTotals(portfolio, analysis)
  const chart = el("div", { class: "chart chart-short", id: "income-chart" })
  out.replaceChildren(
    rows.length === 0
      ? el("p", { id: "income-empty" }, "No dividend is recorded yet. Record one with the form below (kind: Dividend).")
      : facts(fact("Received, gross", fmtMoney(totals.gross)), fact("Tax withheld", fmtMoney(totals.tax)), fact("Received, net", fmtMoney(totals.net))),
    rows.length === 0 ? "" : el("p", { class: "hint", id: "income-basis" }, `Totals as the API computes them from the position entitled at each book closure${analysis?.dividend_income?.tax_note ? `; ${analysis.dividend_income.tax_note}` : "."}`),
    split ? el("figure", {}, chart, el("figcaption", {}, "Dividends by month of payment, gross, from the amounts recorded on each dividend.")) : "",
    rows.length === 0 || split ? "" : el("p", { id: "income-split-unknown" }, "Income by month is unavailable for dividends declared per share: the API computes their rupees from the position entitled and serves only the totals above."),
    rows.length === 0 ? "" : table("Dividend income by month", [["Month"], ["Gross (Rs)", "num"], ["Tax withheld (Rs)", "num"], ["Net (Rs)", "num"]], rows.map((r) => [r.m, num(fmtMoney(r.gross)), num(fmtMoney(r.tax)), num(fmtMoney(r.net))]), { id: "income-table" })
  )
  if (split) {
    barChart(chart, {
      categories: rows.map((r) => r.m),
      series: [{ label: "Gross (Rs)", values: rows.map((r) => r.gross) }],
      label: `Dividend income by month, gross: ${rows.map((r) => `${r.m} ${r.gross}`).join("; ")}`
    })
  }
}

/** The API's dividend totals: /v1/me/analyze, else the plain sums of the holdings' served figures (unknown if any is absent). */
const incomeTotals = (/** @type {any} */ portfolio, /** @type {any} */ analysis) => {
  const d = analysis?.dividend_income
  if (d) return { gross: d.gross, tax: d.tax_withheld, net: d.net }
  const held = /** @type {any[]} */ (portfolio?.holdings ?? [])
  const sum = (/** @type {string} */ f) => (held.every((h) => typeof h[f] === "number") ? round(held.reduce((a, h) => a + h[f], 0)) : null)
  return { gross: sum("dividends_gross"), tax: portfolio?.cash_flows?.tax_withheld ?? sum("tax_withheld"), net: portfolio?.totals?.dividends_net ?? sum("dividends_net") }
}
