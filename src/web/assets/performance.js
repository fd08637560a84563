// @ts-check
// The portfolio's performance chart: market value against cost in rupees,
// or the time-weighted return in percent beside KSE-100's change over the
// same days (a price index: its dividends are not in it); then the period
// returns. It draws the one shape performance-adapter.js makes, whether the
// figures come from the server's daily valuation or from this page.
/** @typedef {import("./performance-adapter.js").Performance} Performance */
import { api, dateText, el, fmtPct, unknown } from "./api.js"
import { lineChart, percentFormat, rupeeFormat } from "./charts.js"
import { cumulativeReturn, rebasedBenchmark } from "./performance-adapter.js"
import { show, table } from "./ui.js"

/** @type {{ destroy: () => void } | undefined} */
let chart

/** KSE-100's closes from `from` on (at most 1,000). @param {string} from */
const kse100From = async (from) => {
  const reply = await api("GET", `/v1/indices/KSE100?${new URLSearchParams({ date_from: from, limit: "1000" })}`, { token: null })
  return reply.ok && reply.body.history ? /** @type {Array<{ date: string, close: number }>} */ (reply.body.history.items) : []
}

/** @param {HTMLElement} box @param {Performance} perf @param {"rupees" | "percent"} mode @param {HTMLElement} caption */
const draw = async (box, perf, mode, caption) => {
  chart?.destroy()
  const first = perf.dates[0] ?? "", last = perf.dates.at(-1) ?? ""
  const span = `${dateText(first)} to ${dateText(last)}`
  if (mode === "rupees") {
    caption.textContent = `Market value of the holdings at each recorded daily close against their cost (average cost, fees included), ${span}. Closes are not adjusted; a bonus or split changes the quantity on its date.`
    chart = lineChart(box, {
      xs: perf.dates,
      series: [{ label: "Market value", values: perf.value, fill: true }, { label: "Cost", values: perf.cost, dash: true }],
      format: rupeeFormat,
      label: `Portfolio value against cost from ${span}: last value ${perf.value.at(-1) ?? "unknown"}, cost ${perf.cost.at(-1) ?? "unknown"} rupees`
    })
    return
  }
  const mine = cumulativeReturn(perf)
  const kse = rebasedBenchmark(perf.dates, await kse100From(first))
  caption.textContent = `Time-weighted return of the portfolio (buys and sells taken out, net dividends in) and KSE-100's change, both from ${span}. KSE-100 is a price index: its constituents' dividends are not in it.`
  chart = lineChart(box, {
    xs: perf.dates,
    series: [{ label: "Portfolio", values: mine }, { label: "KSE-100", values: kse, dash: true }],
    format: percentFormat,
    label: `Portfolio return against KSE-100 from ${span}: portfolio ${mine.at(-1) ?? "unknown"}%, KSE-100 ${kse.at(-1) ?? "unknown"}%`
  })
}

/** The period returns, with only the columns some period has. @param {Performance} perf */
const periodsTable = (perf) => {
  const has = (/** @type {keyof import("./performance-adapter.js").Period} */ k) => perf.periods.some((p) => p[k] !== undefined)
  const cols = /** @type {Array<[string, (p: any) => any]>} */ ([
    ["Time-weighted", (p) => fmtPct(p.twr)],
    ...(has("xirr") ? /** @type {Array<[string, (p: any) => any]>} */ ([["Money-weighted (XIRR)", (p) => fmtPct(p.xirr)]]) : []),
    ...(has("totalReturn") ? /** @type {Array<[string, (p: any) => any]>} */ ([["Total return", (p) => fmtPct(p.totalReturn)]]) : []),
    ...(has("benchmark") ? /** @type {Array<[string, (p: any) => any]>} */ ([["KSE-100", (p) => fmtPct(p.benchmark)]]) : []),
    ...(has("difference") ? /** @type {Array<[string, (p: any) => any]>} */ ([["Difference", (p) => fmtPct(p.difference)]]) : [])
  ])
  return table(
    "Returns by period",
    [["Period"], ["Dates"], ...cols.map(([label]) => /** @type {[string, string]} */ ([label, "num"]))],
    perf.periods.map((p) => [
      p.period,
      el("span", {}, p.from && p.to ? `${dateText(p.from)} to ${dateText(p.to)}` : unknown(), p.coversWholePeriod === false ? el("span", { class: "hint block" }, "the portfolio started later") : ""),
      ...cols.map(([, show]) => ({ cell: show(p), class: "num" }))
    ]),
    { id: "returns-table" }
  )
}

/** @param {HTMLElement} out @param {Performance} perf */
export const renderPerformance = (out, perf) => {
  chart?.destroy()
  chart = undefined
  if (perf.dates.length === 0) return show(out, el("p", {}, "Nothing held yet: add a buy to see its value over time."))
  const box = el("div", { class: "chart", id: "value-chart" })
  const caption = el("figcaption", { id: "value-caption" })
  const modes = /** @type {Array<["rupees" | "percent", string]>} */ ([["rupees", "Value (Rs)"], ["percent", "Return vs KSE-100 (%)"]])
  const buttons = modes.map(([mode, label]) => {
    const b = el("button", { type: "button", class: "range", "aria-pressed": String(mode === "rupees"), "data-mode": mode }, label)
    b.addEventListener("click", () => {
      for (const other of buttons) other.setAttribute("aria-pressed", String(other === b))
      draw(box, perf, mode, caption)
    })
    return b
  })
  show(
    out,
    el("div", { class: "ranges", role: "group", "aria-label": "Chart shows" }, buttons),
    el("figure", {}, box, caption),
    perf.periods.length ? periodsTable(perf) : el("p", { class: "hint" }, "Returns by period: ", unknown()),
    perf.notes.map((note) => el("p", { class: "hint" }, note)),
    perf.flags.some((f) => f.length) ? el("p", { class: "hint" }, `${perf.flags.filter((f) => f.length).length} day(s) carry a held symbol's last close forward (no close that day).`) : ""
  )
  draw(box, perf, "rupees", caption)
}
