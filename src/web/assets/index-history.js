// @ts-check
// The board's KSE-100 history: its recorded daily closes from
// GET /v1/indices/{id} (newest first in the answer, drawn oldest first),
// with ranges to choose and the window's change, high and low.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, dateText, el, fmtPct, fmtPrice } from "./api.js"
import { lineChart } from "./charts.js"
import { formatNumber } from "./format.js"
import { fact, facts, show, showError, showLoading } from "./ui.js"

const RANGES = ["1M", "3M", "6M", "YTD", "1Y", "5Y"]

/** @param {number} v */
const points = (v) => fmtPrice(v)

/**
 * @param {HTMLElement} out
 * @param {string} code the index's code, e.g. KSE100
 * @param {string} [range]
 */
export const loadIndexHistory = async (out, code, range = "1Y") => {
  if (!out.querySelector(".chart")) showLoading(out, "Loading the index history…", "chart")
  /** @type {Reply<Success<"board.index">>} */
  const reply = await api("GET", `/v1/indices/${encodeURIComponent(code)}?${new URLSearchParams({ range, limit: "1000" })}`, { token: null })
  if (!reply.ok) return showError(out, reply, () => loadIndexHistory(out, code, range))
  const h = reply.body.history
  if (!h || h.items.length === 0) return show(out, el("p", { class: "hint" }, "No daily close of this index is recorded."))
  const rows = [...h.items].reverse()
  const chart = el("div", { class: "chart", id: "index-chart" })
  const buttons = RANGES.map((r) => {
    const b = el("button", { type: "button", class: "range", "aria-pressed": String(r === range) }, r)
    b.addEventListener("click", () => loadIndexHistory(out, code, r))
    return b
  })
  const first = rows[0]?.date ?? "", last = rows.at(-1)?.date ?? ""
  show(
    out,
    el("h3", { id: "h-index-history" }, `${reply.body.name ?? code}, daily closes`),
    el("div", { class: "ranges", role: "group", "aria-label": "Index history range" }, buttons),
    el("figure", {}, chart, el("figcaption", {}, `${reply.body.name ?? code} at each recorded close, ${dateText(first)} to ${dateText(last)}. A price index: dividends are not included.${h.truncated ? " The oldest closes of the window are left out." : ""}`)),
    facts(
      fact(`Change over ${range}`, el("span", {}, typeof h.change === "number" ? `${h.change > 0 ? "+" : h.change < 0 ? "−" : ""}${fmtPrice(Math.abs(h.change))} points ` : "", fmtPct(h.change_pct))),
      fact("High (close)", typeof h.high === "number" ? points(h.high) : "unknown"),
      fact("Low (close)", typeof h.low === "number" ? points(h.low) : "unknown")
    )
  )
  lineChart(chart, {
    xs: rows.map((r) => r.date),
    series: [{ label: "Close (points)", values: rows.map((r) => r.close), fill: true }],
    format: (v) => formatNumber(v, 0),
    legendFormat: (v) => formatNumber(v, 2),
    label: `${reply.body.name ?? code} from ${dateText(first)} to ${dateText(last)}: last close ${fmtPrice(rows.at(-1)?.close)} points`,
    height: 260
  })
}
