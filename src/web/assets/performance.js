// @ts-check
// The portfolio's performance, from the server's daily valuation (GET
// /v1/me/performance through performance-adapter.js): market value against
// cost in rupees, or the time-weighted return beside KSE-100's change in
// percent (a price index: its constituents' dividends are not in it), over
// a period (1M to since inception); rings on the sessions a held symbol's
// close was carried, with each day's valuation told under the chart; then
// the returns by period and what each holding contributed.
/** @typedef {import("./performance-adapter.js").Performance} Performance */
/** @typedef {import("./performance-adapter.js").Period} Period */
import { apiText } from "./format.js"
import { dateText, el, fmtPct, fmtRs, fmtSigned, formatNumberText, unknown } from "./api.js"
import { lineChart, percentFormat, rupeeFormat } from "./charts.js"
import { benchmarkLine, flaggedDays, returnLine, startOf } from "./performance-adapter.js"
import { foldOnPhone, num, show, table } from "./ui.js"

/** @type {Record<Period["period"], string>} */
export const PERIOD_NAMES = { "1M": "1 month", "3M": "3 months", "6M": "6 months", YTD: "Year to date", "1Y": "1 year", since_inception: "Since inception", range: "Chosen range" }
/** @type {Record<Period["period"], string>} */
const RANGE_LABELS = { "1M": "1M", "3M": "3M", "6M": "6M", YTD: "YTD", "1Y": "1Y", since_inception: "All", range: "Range" }

/** What each flag of a day says, in words. @type {Record<string, (symbol: string) => string>} */
const FLAG_WORDS = {
  carried: (s) => `${s} had no close that session: valued at its last recorded close`,
  no_close: (s) => `${s} has no recorded close on or before it: the value is unknown`,
  restated: (s) => `${s} valued at the source's close, which it restated for a split it does not date (no split of ${s} is recorded in this portfolio)`,
  unrestated: (s) => `${s} valued at the source's close divided back by its restatement, before the split this portfolio records`
}
/** @param {string} flag */
const flagText = (flag) => {
  const [kind = "", symbol = ""] = flag.split(":")
  return FLAG_WORDS[kind]?.(symbol) ?? flag
}
/** Flags that make a day's value less sure than a close of its own: marked with a ring. @param {string} flag */
const marked = (flag) => flag.startsWith("carried:") || flag.startsWith("no_close:")

/** @param {number} v */
const rupeesExact = (v) => `Rs ${formatNumberText(v, 2)}`

/** @type {{ destroy: () => void } | undefined} */
let chart

/**
 * @param {HTMLElement} box @param {Performance} perf @param {{ mode: "rupees" | "percent", period: Period }} state
 * @param {HTMLElement} caption @param {HTMLElement} day
 */
const draw = (box, perf, state, caption, day) => {
  chart?.destroy()
  const { period } = state
  const start = period.fromInception ? 0 : startOf(perf, period)
  const xs = perf.dates.slice(start)
  const span = `${dateText(xs[0])} to ${dateText(xs.at(-1))}`
  const markers = xs.flatMap((date, k) => ((perf.flags[start + k] ?? []).some(marked) ? [{ date, kind: /** @type {const} */ ("flag") }] : []))
  const onCursor = (/** @type {number | null} */ k) => tellDay(day, perf, k === null ? null : start + k)
  if (state.mode === "rupees") {
    const value = perf.value.slice(start), cost = perf.cost.slice(start)
    const last = value.at(-1)
    caption.textContent = `Market value of the holdings at each session's recorded close against their cost (average cost, fees included), ${span}. ` +
      "A bonus or split changes the quantity on its date; a dividend counts on its ex day."
    chart = lineChart(box, {
      xs,
      series: [{ label: "Market value", values: value, fill: true }, { label: "Cost", values: cost, dash: true }],
      format: rupeeFormat,
      legendFormat: (v) => `Rs ${formatNumberText(v, 0)}`,
      markers,
      onCursor,
      label: `Portfolio value against cost, ${span}: ${typeof last === "number" ? rupeesExact(last) : "unknown"} at the close of ${dateText(xs.at(-1))}, cost ${rupeesExact(cost.at(-1) ?? 0)}`
    })
    return
  }
  const mine = returnLine(perf, start, period.fromInception)
  const kse = benchmarkLine(perf, start)
  caption.replaceChildren(
    `Time-weighted return of the portfolio (net dividends in, money put in or taken out left out) and KSE-100's change, ${span}: `,
    fmtPct(period.twr), " against ", fmtPct(period.kse100), ". ",
    el("strong", {}, "KSE-100 is a price index"), ": its constituents' dividends are not in it, so the portfolio's line (dividends in) has that advantage."
  )
  chart = lineChart(box, {
    xs,
    series: [{ label: "Portfolio", values: mine }, { label: "KSE-100", values: kse, dash: true }],
    format: percentFormat,
    legendFormat: pctText,
    markers,
    onCursor,
    label: `Portfolio return against KSE-100, ${span}: portfolio ${pctText(mine.at(-1))}, KSE-100 ${pctText(kse.at(-1))}`
  })
}

/** @param {number | null | undefined} v */
const pctText = (v) => (typeof v === "number" ? `${v > 0 ? "+" : v < 0 ? "−" : ""}${formatNumberText(Math.abs(v), 2)}%` : "unknown")

/**
 * How the day under the pointer was valued; with the pointer away, how to
 * ask. Hidden when every session was valued at its own closes.
 * @param {HTMLElement} out @param {Performance} perf @param {number | null} i
 */
const tellDay = (out, perf, i) => {
  out.hidden = !perf.flags.some((f) => f.length)
  const flags = i === null ? [] : perf.flags[i] ?? []
  out.textContent = i === null
    ? "Point at a day on the chart to see how it was valued."
    : `${dateText(perf.dates[i])}: ${flags.length ? flags.map(flagText).join("; ") : "every held symbol at its own close that session"}.`
}

/** @param {string[]} dates */
const when = (dates) =>
  dates.length <= 4 ? `on ${dates.map(dateText).join(", ")}` : `on ${dates.length} sessions, ${dateText(dates[0])} to ${dateText(dates.at(-1))}`

/** The sessions whose valuation carries a flag, in words. @param {Performance} perf */
const flagList = (perf) => {
  const groups = flaggedDays(perf)
  if (groups.length === 0) return ""
  return el(
    "details",
    { id: "value-flags", class: "sources" },
    el("summary", {}, `Sessions not valued at their own closes (${groups.length})`),
    el("p", { class: "hint" }, groups.some((g) => marked(`${g.kind}:`)) ? "Rings on the line mark sessions valued with a carried close. " : "", "Not every session's value comes from that session's own closes:"),
    el("ul", { class: "hint" }, groups.map((g) => el("li", {}, `${FLAG_WORDS[g.kind]?.(g.symbol) ?? `${g.kind} ${g.symbol}`}, ${when(g.dates)}.`)))
  )
}

/**
 * The returns by period, from the server: a period longer than the
 * portfolio's life runs from the first trade, as since inception does, so
 * it is named under the table instead of repeating that row.
 * @param {Performance} perf
 */
const periodsTable = (perf) => {
  const rows = perf.periods.filter((p) => p.coversWholePeriod || p.period === "since_inception" || p.period === "range")
  const younger = perf.periods.filter((p) => !rows.includes(p)).map((p) => PERIOD_NAMES[p.period].toLowerCase())
  return [
    ...foldOnPhone(table(
      "Returns by period",
      [["Period"], ["Dates"], ["Time-weighted", "num"], ["Money-weighted (XIRR, a year)", "num"], ["Total return", "num"], ["KSE-100", "num"], ["Difference", "num"]],
      rows.map((p) => [
        PERIOD_NAMES[p.period],
        el("span", {}, `${dateText(p.from)} to ${dateText(p.to)}`, p.note ? el("span", { class: "hint block" }, apiText(p.note)) : ""),
        num(fmtPct(p.twr)),
        num(fmtPct(p.xirr)),
        num(fmtPct(p.totalReturn)),
        num(fmtPct(p.kse100)),
        num(fmtPct(p.difference))
      ]),
      { id: "returns-table", cards: true }
    ), 1, "periods"),
    younger.length ? el("p", { class: "hint" }, `The portfolio is younger than ${younger.join(", ")}: those run from the first trade, as since inception does.`) : ""
  ]
}

/** Each holding's part of the total return since inception. @param {Period | undefined} since */
const contributions = (since) => {
  if (!since || since.contributions.length === 0) return ""
  const rows = [...since.contributions].sort((a, b) => (b.contribution ?? -Infinity) - (a.contribution ?? -Infinity))
  return el(
    "details",
    { class: "sources" },
    el("summary", {}, "What each holding added since inception"),
    el("p", { class: "hint" }, "Each holding's gain (value, sales and net dividends less what was put in) over the portfolio's capital: together they make the total return."),
    table("Contribution to the total return since inception", [["Symbol"], ["Gain", "num"], ["Net dividends", "num"], ["Contribution", "num"]],
      rows.map((c) => [c.symbol, num(fmtSigned(c.gain, { rs: true })), num(fmtRs(c.dividends)), num(fmtPct(c.contribution))]), { id: "contributions-table", cards: true })
  )
}

/** A labelled group of toggle buttons; `onPick` hears the chosen one's value. @template T @param {string} label @param {Array<[T, string]>} choices @param {T} chosen @param {(v: T) => void} onPick */
const toggles = (label, choices, chosen, onPick) => {
  const id = `toggles-${label.toLowerCase().replace(/\W+/g, "-")}`
  const buttons = choices.map(([value, text]) => {
    const b = el("button", { type: "button", class: "range", "aria-pressed": String(value === chosen) }, text)
    b.addEventListener("click", () => {
      for (const other of buttons) other.setAttribute("aria-pressed", String(other === b))
      onPick(value)
    })
    return b
  })
  return el("div", { class: "ranges", role: "group", "aria-labelledby": id }, el("span", { class: "group-label", id }, label), buttons)
}

/** What the returns' names mean. */
const TERMS = "Time-weighted: the holdings' own growth, whatever was put in or taken out. Money-weighted (XIRR): the yearly rate your money earned, so over a few weeks it magnifies. Total return: the gain, net dividends included, over the money put in. Difference: time-weighted less KSE-100."

/** @param {HTMLElement} out @param {Performance} perf */
export const renderPerformance = (out, perf) => {
  chart?.destroy()
  chart = undefined
  if (perf.dates.length === 0) return show(out, el("p", {}, "Nothing held yet: add a buy to see its value over time."))
  const since = perf.periods.find((p) => p.period === "since_inception")
  const ranges = perf.periods.filter((p) => p.period !== "range" && (p.coversWholePeriod || p === since))
  const state = { mode: /** @type {"rupees" | "percent"} */ ("rupees"), period: since ?? /** @type {Period} */ (ranges.at(-1)) }
  const box = el("div", { class: "chart", id: "value-chart" })
  const caption = el("figcaption", { id: "value-caption" })
  const day = el("p", { class: "hint", id: "value-day" })
  const redraw = () => draw(box, perf, state, caption, day)
  show(
    out,
    el(
      "div",
      { class: "row chart-controls" },
      toggles("Show", /** @type {Array<["rupees" | "percent", string]>} */ ([["rupees", "Value (Rs)"], ["percent", "Return vs KSE-100 (%)"]]), state.mode, (m) => ((state.mode = m), redraw())),
      ranges.length > 1 ? toggles("Period", ranges.map((p) => [p, RANGE_LABELS[p.period]]), state.period, (p) => ((state.period = p), redraw())) : ""
    ),
    el("figure", {}, box, caption),
    day,
    flagList(perf),
    perf.periods.length ? periodsTable(perf) : el("p", { class: "hint" }, "Returns by period: ", unknown()),
    contributions(since),
    el("details", { class: "sources" }, el("summary", {}, "How these figures are worked out"), el("p", {}, TERMS), el("p", {}, apiText(perf.basis)), el("p", {}, apiText(perf.benchmarkNote)))
  )
  tellDay(day, perf, null)
  if (state.period) redraw()
}
