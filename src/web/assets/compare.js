// @ts-check
// Compare page: 2 to 10 symbols from GET /v1/compare. Two symbols: each
// measure's bands (1 weakest to 5 strongest), the winner or a tie, points
// and the leader. Three or more: each measure's values and its winners.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, badge, describeError, el, fmtCompact, fmtMoney, setText, unknown } from "./api.js"
import { num, sourcesNote, symbolLink, table } from "./ui.js"

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

/** @param {string} measure @param {any} v */
const value = (measure, v) => (typeof v?.value !== "number" ? unknown() : BIG.has(measure) ? fmtCompact(v.value) : fmtMoney(v.value))

/** @param {any} r */
const headToHead = (r) => {
  const h = r.head_to_head
  const [a, b] = /** @type {string[]} */ (r.symbols)
  const cell = (/** @type {any} */ m, /** @type {string} */ s) => {
    const v = m.values.find((/** @type {any} */ x) => x.symbol === s)
    return num(el("span", {}, value(m.measure, v), typeof v?.band === "number" ? el("span", { class: "band" }, ` band ${v.band}/5`) : ""))
  }
  return [
    el("p", { class: "result", id: "compare-leader" }, h.leader ? ["Leader: ", el("strong", {}, h.leader)] : "No leader: the points are level.", " (", h.totals.map((/** @type {any} */ t) => `${t.symbol} ${t.points}`).join(", "), " points)"),
    table(
      `${a} against ${b}`,
      [["Measure"], ["Better"], [a ?? "", "num"], [b ?? "", "num"], ["Bands, weakest to strongest"], ["Outcome"]],
      h.measures.map((/** @type {any} */ m) => [
        MEASURES[m.measure] ?? m.measure,
        m.better,
        cell(m, a ?? ""),
        cell(m, b ?? ""),
        el("span", { class: "hint" }, m.bands),
        m.outcome === "win" ? badge(`${m.winner} wins`, "on") : m.outcome === "tie" ? badge("tie") : badge("unknown")
      ]),
      { id: "compare-table" }
    )
  ]
}

/** @param {any} r */
const perMetric = (r) => {
  const symbols = /** @type {string[]} */ (r.symbols)
  return [
    table(
      `${symbols.join(", ")} compared`,
      [["Measure"], ["Better"], ...symbols.map((s) => /** @type {[string, string]} */ ([s, "num"])), ["Winner"]],
      r.metrics.map((/** @type {any} */ m) => [
        MEASURES[m.measure] ?? m.measure,
        m.better,
        ...symbols.map((s) => {
          const v = m.values.find((/** @type {any} */ x) => x.symbol === s)
          const wins = m.winners.includes(s)
          return { cell: wins ? el("strong", {}, value(m.measure, v), " ★") : value(m.measure, v), class: wins ? "num winner" : "num" }
        }),
        m.winners.length ? m.winners.join(", ") : badge("unknown")
      ]),
      { id: "compare-table" }
    ),
    el("p", { class: "hint" }, "★ marks the best known value. Bands are given for two symbols only.")
  ]
}

/** @param {string} raw */
const compare = async (raw) => {
  const symbols = raw.toUpperCase().split(/[\s,]+/).filter(Boolean)
  setText("compare-error", "")
  $("compare-result").replaceChildren(el("p", { class: "hint" }, "Comparing…"))
  /** @type {Reply<Success<"analytics.compare">>} */
  const reply = await api("GET", `/v1/compare?${new URLSearchParams({ symbols: symbols.join(",") })}`, { token: null })
  if (!reply.ok) {
    $("compare-result").replaceChildren()
    return setText("compare-error", `Not compared. ${describeError(reply)}`)
  }
  const r = reply.body
  $("compare-result").replaceChildren(
    el("h2", {}, r.symbols.map((/** @type {string} */ s, /** @type {number} */ i) => [i ? ", " : "", symbolLink(s)])),
    ...(r.mode === "head_to_head" ? headToHead(r) : perMetric(r)),
    el("p", { class: "hint" }, r.rule),
    sourcesNote(r.sources)
  )
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
