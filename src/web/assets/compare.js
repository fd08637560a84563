// @ts-check
// Compare page: 2 to 10 symbols from GET /v1/compare, and their daily closes
// over the same year drawn on one chart, each starting at 100. Market cap is
// shown but never "won": a bigger company is not a better one. Two symbols:
// each measure's bands (1 weakest to 5 strongest) and who is ahead on it;
// three or more: each measure's values with the best known one marked.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, badge, dateText, el, fmtCompact, formatNumberText, setText, unknown } from "./api.js"
import { lineChart } from "./charts.js"
import { show, showError, showLoading, sourcesNote, symbolLink, table } from "./ui.js"

const MEASURES = /** @type {Record<string, string>} */ ({
  performance_20d_pct: "Performance, 20 sessions (%)",
  drawdown_20d_pct: "Below the 20-session high (%)",
  volatility_20d_pct: "Volatility, 20 sessions (% a year)",
  pe_ttm: "P/E (trailing)",
  dividend_yield_pct: "Dividend yield (%)",
  market_cap: "Market cap (Rs)",
  avg_value_traded_30d: "Average traded, 30 sessions (Rs)"
})
const BIG = new Set(["market_cap", "avg_value_traded_30d"])
/** Shown, not scored: size says nothing about which is better. */
const UNSCORED = new Set(["market_cap"])

/** @param {string} measure @param {any} v */
const value = (measure, v) => (typeof v?.value !== "number" ? unknown() : BIG.has(measure) ? fmtCompact(v.value) : formatNumberText(v.value, 2))
/** @param {string} better */
const betterText = (better) => (better === "higher" ? "higher is stronger" : better === "lower" ? "lower is stronger" : better)

/** @param {any} r */
const headToHead = (r) => {
  const h = r.head_to_head
  const [a, b] = /** @type {string[]} */ (r.symbols)
  const scored = h.measures.filter((/** @type {any} */ m) => !UNSCORED.has(m.measure))
  const won = (/** @type {string} */ s) => scored.filter((/** @type {any} */ m) => m.outcome === "win" && m.winner === s).length
  const cell = (/** @type {any} */ m, /** @type {string} */ s) => {
    const v = m.values.find((/** @type {any} */ x) => x.symbol === s)
    return { cell: el("span", {}, value(m.measure, v), typeof v?.band === "number" && !UNSCORED.has(m.measure) ? el("span", { class: "band" }, ` band ${v.band}/5`) : ""), class: "num" }
  }
  return [
    el("p", { class: "result", id: "compare-leader" }, `Measures where each is stronger: ${a} ${won(a ?? "")}, ${b} ${won(b ?? "")} of ${scored.length}. Market cap is shown for scale and not scored.`),
    table(
      `${a} against ${b}`,
      [["Measure"], [a ?? "", "num"], [b ?? "", "num"], ["Stronger"]],
      h.measures.map((/** @type {any} */ m) => [
        el("span", {}, MEASURES[m.measure] ?? m.measure, el("span", { class: "hint block" }, UNSCORED.has(m.measure) ? "not scored" : betterText(m.better))),
        cell(m, a ?? ""),
        cell(m, b ?? ""),
        UNSCORED.has(m.measure) ? el("span", { class: "hint" }, "—") : m.outcome === "win" ? badge(m.winner, "on") : m.outcome === "tie" ? badge("level") : badge("unknown")
      ]),
      { id: "compare-table", cards: true }
    ),
    el("p", { class: "hint" }, "Bands run from 1 (weakest) to 5 (strongest) by fixed thresholds; an unknown value is stronger on nothing.")
  ]
}

/** @param {any} r */
const perMetric = (r) => {
  const symbols = /** @type {string[]} */ (r.symbols)
  return [
    table(
      `${symbols.join(", ")} compared`,
      [["Measure"], ...symbols.map((s) => /** @type {[string, string]} */ ([s, "num"]))],
      r.metrics.map((/** @type {any} */ m) => [
        el("span", {}, MEASURES[m.measure] ?? m.measure, el("span", { class: "hint block" }, UNSCORED.has(m.measure) ? "not scored" : betterText(m.better))),
        ...symbols.map((s) => {
          const v = m.values.find((/** @type {any} */ x) => x.symbol === s)
          const best = !UNSCORED.has(m.measure) && m.winners.includes(s)
          return { cell: best ? el("strong", {}, value(m.measure, v), el("span", { "aria-hidden": "true" }, " ★"), el("span", { class: "visually-hidden" }, " (strongest)")) : value(m.measure, v), class: best ? "num winner" : "num" }
        })
      ]),
      { id: "compare-table" }
    ),
    el("p", { class: "hint" }, "★ marks the strongest known value of each measure; market cap is shown for scale and not scored.")
  ]
}

/**
 * Each symbol's closes over the last year, rebased to 100 on the first day
 * they all have a close; a day one of them did not trade is a gap in its line.
 * @param {HTMLElement} out @param {string[]} symbols
 */
const normalisedChart = async (out, symbols) => {
  showLoading(out, "Loading the prices…", "chart")
  const replies = await Promise.all(symbols.map((s) => api("GET", `/v1/prices/${encodeURIComponent(s)}?range=1Y&limit=400`, { token: null })))
  const failed = replies.find((r) => !r.ok)
  if (failed) return showError(out, failed, () => normalisedChart(out, symbols))
  const series = replies.map((r) => new Map(r.body.items.filter((/** @type {any} */ p) => !p.flag && typeof p.close === "number").map((/** @type {any} */ p) => [p.date, p.close])))
  const dates = [...new Set(series.flatMap((m) => [...m.keys()]))].sort()
  const start = dates.find((d) => series.every((m) => m.has(d)))
  if (!start) return show(out, el("p", { class: "hint" }, "These symbols share no trading day in the last year, so their prices cannot be drawn from the same start."))
  const xs = dates.filter((d) => d >= start)
  const chart = el("div", { class: "chart", id: "compare-chart" })
  const lines = symbols.map((s, i) => ({ label: s, values: xs.map((d) => (series[i]?.has(d) ? Math.round((10_000 * (series[i]?.get(d) ?? 0)) / (series[i]?.get(start) ?? 1)) / 100 : null)) }))
  show(out, el("figure", {}, chart, el("figcaption", {}, `Daily closes rebased to 100 on ${dateText(start)}, the first day all ${symbols.length} traded, to ${dateText(xs.at(-1))}. Not adjusted for dividends, bonus issues or splits.`)))
  lineChart(chart, {
    xs,
    series: lines,
    format: (v) => formatNumberText(v, 0),
    legendFormat: (v) => formatNumberText(v, 1),
    label: `Prices rebased to 100 from ${dateText(start)}: ${lines.map((l) => `${l.label} ${l.values.at(-1) ?? "unknown"}`).join(", ")}`
  })
}

/** @param {string} raw */
const compare = async (raw) => {
  const symbols = raw.toUpperCase().split(/[\s,]+/).filter(Boolean)
  setText("compare-error", "")
  showLoading($("compare-result"), "Comparing…", "table")
  /** @type {Reply<Success<"analytics.compare">>} */
  const reply = await api("GET", `/v1/compare?${new URLSearchParams({ symbols: symbols.join(",") })}`, { token: null })
  if (!reply.ok) {
    if (reply.status >= 400 && reply.status < 500 && reply.status !== 429) {
      show($("compare-result"))
      return setText("compare-error", `Not compared. ${reply.body?.message ?? ""}`)
    }
    return showError($("compare-result"), reply, () => compare(raw))
  }
  const r = reply.body
  const chart = el("div", { id: "compare-prices" })
  show(
    $("compare-result"),
    el("h2", {}, r.symbols.map((/** @type {string} */ s, /** @type {number} */ i) => [i ? ", " : "", symbolLink(s)])),
    el("h3", {}, "Prices over the last year, from 100"),
    chart,
    el("h3", {}, "Measures"),
    ...(r.mode === "head_to_head" ? headToHead(r) : perMetric(r)),
    el("p", { class: "hint" }, r.rule),
    sourcesNote(r.sources)
  )
  normalisedChart(chart, r.symbols)
}

$("compare-form").addEventListener("submit", (event) => {
  event.preventDefault()
  const raw = /** @type {HTMLInputElement} */ ($("compare-symbols")).value
  history.replaceState(null, "", `/compare?${new URLSearchParams({ symbols: raw })}`)
  compare(raw)
})

const given = new URLSearchParams(location.search).get("symbols")
if (given) {
  /** @type {HTMLInputElement} */ ($("compare-symbols")).value = given
  compare(given)
}
