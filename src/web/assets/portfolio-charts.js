// @ts-check
// The portfolio's pictures: the value series the page builds itself (value
// at each recorded close, cost and external flows, until the server's daily
// valuation is wired: performance-adapter.js), and allocation by position
// and by sector beside the KSE-100's sector weights. Everything is drawn
// from what the API serves: the ledger, recorded closes, /v1/me/analyze.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, el, fmtShare, unknown } from "./api.js"
import { barChart, shareFormat } from "./charts.js"
import { reversedIds } from "./events.js"
import { fact, facts, num, show, table } from "./ui.js"

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
  if (moves.length === 0) return { dates: [], value: [], cost: [], flows: [], bonusUnknown: false }
  const first = moves[0]?.effective_date ?? ""
  const symbols = [...new Set(moves.map((e) => e.payload.symbol))]
  const closes = new Map(await Promise.all(symbols.map(async (s) => /** @type {const} */ ([s, await closesFrom(s, first)]))))
  const dates = [...new Set([...closes.values()].flatMap((rows) => rows.map((r) => r.date)))].filter((d) => d >= first).sort()
  const qty = new Map(), cost = new Map(), last = new Map(), at = new Map(), lost = new Set()
  const out = { dates, value: /** @type {Array<number | null>} */ ([]), cost: /** @type {number[]} */ ([]), flows: /** @type {number[]} */ ([]), bonusUnknown: false }
  let next = 0
  for (const date of dates) {
    let flow = 0
    for (; next < moves.length && (moves[next]?.effective_date ?? "") <= date; next++) flow += apply(/** @type {import("./events.js").LedgerEvent} */ (moves[next]), qty, cost, lost)
    out.flows.push(round(flow))
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
 * Answers the external cash the event brought in (a buy's cost, less a
 * sale's net proceeds).
 * @param {import("./events.js").LedgerEvent} e @param {Map<string, number>} qty @param {Map<string, number>} cost @param {Set<string>} lost
 */
const apply = (e, qty, cost, lost) => {
  const p = e.payload
  const q = qty.get(p.symbol) ?? 0
  const c = cost.get(p.symbol) ?? 0
  if (e.type === "TradeRecorded" && p.side === "buy") {
    qty.set(p.symbol, q + p.quantity)
    cost.set(p.symbol, c + p.quantity * p.price + (p.fees ?? 0))
    return p.quantity * p.price + (p.fees ?? 0)
  }
  if (e.type === "TradeRecorded") {
    qty.set(p.symbol, q - p.quantity)
    cost.set(p.symbol, q > 0 ? c * (1 - p.quantity / q) : 0)
    return -(p.quantity * p.price - (p.fees ?? 0))
  }
  if (e.type === "BonusRecorded" && typeof p.shares_added === "number") qty.set(p.symbol, q + p.shares_added)
  else if (e.type === "BonusRecorded") lost.add(p.symbol)
  else if (e.type === "SplitRecorded") qty.set(p.symbol, (q * p.numerator) / p.denominator)
  return 0
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
  show(
    out,
    el(
      "div",
      { class: "grid-2" },
      el(
        "div",
        {},
        el("h3", {}, "By position"),
        el("figure", {}, positionChart, el("figcaption", {}, `Share of the portfolio by ${byValue ? "market value at the delayed quote" : "cost (a quote is unknown)"}.`)),
        table("Allocation by position", [["Symbol"], ["Weight", "num"]], positions.map((p) => [p.symbol, num(fmtShare(p.pct))]), { id: "allocation-table" })
      ),
      el(
        "div",
        {},
        el("h3", {}, "By sector, beside the KSE-100"),
        el("figure", {}, sectorChart, el("figcaption", {}, `Portfolio weight by ${analysis?.weight_basis === "cost" ? "cost" : "market value"} and the sector's weight in the KSE-100.`)),
        table(
          "Allocation by sector against the KSE-100",
          [["Sector"], ["Portfolio", "num"], ["KSE-100", "num"]],
          sectors.map((s) => [s.sector, num(fmtShare(s.portfolio_pct)), num(fmtShare(s.kse100_pct))]),
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
  if (positions.length) barChart(positionChart, { categories: positions.map((p) => p.symbol), series: [{ label: "Weight", values: positions.map((p) => p.pct) }], format: shareFormat, categoryLabel: "Symbol", label: `Allocation by position: ${positions.map((p) => `${p.symbol} ${p.pct}%`).join(", ")}`, horizontal: true })
  if (sectors.length) {
    barChart(sectorChart, {
      categories: sectors.map((s) => s.sector),
      series: [{ label: "Portfolio", values: sectors.map((s) => s.portfolio_pct) }, { label: "KSE-100", values: sectors.map((s) => s.kse100_pct ?? null) }],
      format: shareFormat,
      categoryLabel: "Sector",
      label: `Allocation by sector against the KSE-100: ${sectors.map((s) => `${s.sector} ${s.portfolio_pct}% against ${s.kse100_pct ?? "unknown"}%`).join(", ")}`,
      horizontal: true
    })
  }
}
