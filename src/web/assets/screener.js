// @ts-check
// Screener page: the filters as GET /v1/screener query parameters. Every
// match is read (pages of 200, by the API's cursors) so any column sorts
// the whole result, not one page; 50 rows show at a time. The API's
// parameter names never reach the reader: counts of unknowns are labelled
// with the form's own words.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, el, fmtCompact, fmtPct, fmtPrice, formatNumberText, setText, unknown } from "./api.js"
import { show, showError, showLoading, sourcesNote, symbolLink } from "./ui.js"

const SHOWN = 50
const MAX_PAGES = 8

/** @type {any[]} */
let rows = []
let shown = SHOWN
/** @type {{ key: string, dir: 1 | -1 }} */
let order = { key: "symbol", dir: 1 }
/** @type {any} */
let last

/** Columns: heading, the field it shows and sorts by, how a value is shown. */
const COLUMNS = /** @type {Array<{ label: string, key: string, num?: boolean, show: (s: any) => any }>} */ ([
  { label: "Symbol", key: "symbol", show: (s) => el("span", {}, symbolLink(s.symbol), el("span", { class: "hint block" }, s.name)) },
  { label: "Sector", key: "sector", show: (s) => (s.sector ? el("span", { class: "wrap" }, s.sector) : unknown()) },
  { label: "Price (Rs)", key: "price", num: true, show: (s) => fmtPrice(s.price) },
  { label: "Change", key: "change_pct", num: true, show: (s) => fmtPct(s.change_pct) },
  { label: "Yield", key: "dividend_yield_pct", num: true, show: (s) => (typeof s.dividend_yield_pct === "number" ? `${formatNumberText(s.dividend_yield_pct, 2)}%` : unknown()) },
  { label: "P/E", key: "pe_ttm", num: true, show: (s) => (typeof s.pe_ttm === "number" ? formatNumberText(s.pe_ttm, 1) : unknown()) },
  { label: "Mkt cap (Rs)", key: "market_cap", num: true, show: (s) => fmtCompact(s.market_cap) },
  { label: "Traded (Rs)", key: "value_traded", num: true, show: (s) => fmtCompact(s.value_traded) },
  { label: "Off 20-day high", key: "drawdown_20d_pct", num: true, show: (s) => (typeof s.drawdown_20d_pct === "number" ? `${formatNumberText(s.drawdown_20d_pct, 1)}%` : unknown()) }
])

/** The form's own label for a filter parameter. @param {string} name */
const labelOf = (name) => document.querySelector(`label[for="sc-${CSS.escape(name)}"]`)?.textContent?.trim() ?? name.replaceAll("_", " ")

/** The filters the form sets, as query parameters; an empty field is left out. */
const filters = () => {
  const q = new URLSearchParams()
  for (const node of document.querySelectorAll("#screen-form [data-filter]")) {
    const name = /** @type {HTMLElement} */ (node).dataset.filter ?? ""
    if (node instanceof HTMLSelectElement && node.multiple) {
      const chosen = Array.from(node.selectedOptions, (o) => o.value)
      if (chosen.length) q.set(name, chosen.join(","))
    } else if (node instanceof HTMLInputElement && node.type === "checkbox") {
      if (node.checked) q.set(name, "true")
    } else {
      const value = /** @type {HTMLInputElement} */ (node).value.trim().replaceAll(",", "")
      if (value !== "") q.set(name, value)
    }
  }
  return q
}

/** @param {any} a @param {any} b */
const compare = (a, b) => {
  const x = a[order.key], y = b[order.key]
  const ux = x === undefined || x === null, uy = y === undefined || y === null
  if (ux || uy) return ux === uy ? 0 : ux ? 1 : -1
  return order.dir * (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y)))
}

const head = () =>
  el("thead", {}, el("tr", {}, COLUMNS.map((c) => {
    const sorted = c.key === order.key
    const button = el("button", { type: "button", class: "sort" }, c.label)
    button.addEventListener("click", () => {
      order = sorted ? { key: c.key, dir: /** @type {1 | -1} */ (-order.dir) } : { key: c.key, dir: c.num ? -1 : 1 }
      shown = SHOWN
      render()
    })
    return el("th", { scope: "col", class: c.num ? "num" : undefined, "aria-sort": sorted ? (order.dir === 1 ? "ascending" : "descending") : undefined }, button)
  })))

const render = () => {
  const sorted = [...rows].sort(compare)
  const page = sorted.slice(0, shown)
  const column = COLUMNS.find((c) => c.key === order.key)
  const unknownBy = Object.entries(last?.unknown_by_filter ?? {}).map(([k, n]) => `${labelOf(k)}: ${n}`).join("; ")
  setText(
    "screen-status",
    `${formatNumberText(rows.length, 0)} ${rows.length === 1 ? "security matches" : "securities match"}` +
      (rows.length ? `; showing ${formatNumberText(page.length, 0)}, by ${column?.label ?? order.key} (${order.dir === 1 ? "lowest first" : "highest first"})` : "") +
      (last?.left_out_unknown ? `. Left out because a filtered figure is unknown: ${last.left_out_unknown} (${unknownBy}).` : "."),
    ""
  )
  const tbody = el("tbody", {}, page.map((s) => el("tr", {}, COLUMNS.map((c, i) => el(i === 0 ? "th" : "td", { scope: i === 0 ? "row" : undefined, class: c.num ? "num" : undefined, "data-label": c.label }, c.show(s))))))
  show(
    $("screen-results"),
    rows.length === 0
      ? el("p", {}, "No security matches these filters.")
      : el("p", { class: "hint phone-only" }, "Swipe the table sideways for more columns; tap a heading to sort."),
    rows.length === 0
      ? ""
      : el("div", { class: "table-wrap sticky-first", tabindex: "0", role: "region", "aria-label": "Securities matching the filters" }, el("table", { id: "screen-table" }, el("caption", { class: "visually-hidden" }, "Securities matching the filters"), head(), tbody)),
    sourcesNote(last?.sources)
  )
  $("screen-more").hidden = shown >= rows.length
}

/** Reads every page of matches for the query. @param {URLSearchParams} query */
const run = async (query) => {
  setText("screen-error", "")
  setText("screen-status", "Screening…", "")
  showLoading($("screen-results"), "Screening…", "table")
  /** @type {any[]} */
  const all = []
  /** @type {string | null} */
  let cursor = null
  for (let i = 0; i < MAX_PAGES; i++) {
    const q = new URLSearchParams(query)
    q.set("limit", "200")
    if (cursor) q.set("cursor", cursor)
    /** @type {Reply<Success<"analytics.screen">>} */
    const reply = await api("GET", `/v1/screener?${q}`, { token: null })
    if (!reply.ok) {
      setText("screen-status", "", "")
      if (reply.status === 400) return setText("screen-error", `Not screened. ${reply.body?.message ?? ""}`)
      return showError($("screen-results"), reply, () => run(query))
    }
    if (i === 0) last = reply.body
    all.push(...reply.body.items)
    cursor = reply.body.next_cursor ?? null
    if (!cursor) break
  }
  rows = all
  shown = SHOWN
  render()
  if (window.innerWidth < 800 && [...query.keys()].length) /** @type {HTMLDetailsElement} */ (document.getElementById("filters-box")).open = false
}

$("screen-form").addEventListener("submit", (event) => {
  event.preventDefault()
  const query = filters()
  history.replaceState(null, "", `/screener${[...query.keys()].length ? `?${query}` : ""}`)
  run(query)
})
$("screen-form").addEventListener("reset", () => setTimeout(() => $("screen-form").requestSubmit()))
$("screen-more").addEventListener("click", () => {
  shown += SHOWN
  render()
})

/** Fills the sector list, restores filters from the address (a shared screen link), and screens. */
const start = async () => {
  /** @type {Reply<Success<"board.sectors">>} */
  const reply = await api("GET", "/v1/sectors", { token: null })
  if (reply.ok) $("sc-sectors").replaceChildren(...reply.body.items.map((/** @type {any} */ s) => el("option", { value: s.code }, s.name)))
  const given = new URLSearchParams(location.search)
  for (const [name, value] of given) {
    const node = document.querySelector(`#screen-form [data-filter="${CSS.escape(name)}"]`)
    if (node instanceof HTMLSelectElement && node.multiple) for (const o of node.options) o.selected = value.split(",").includes(o.value)
    else if (node instanceof HTMLInputElement && node.type === "checkbox") node.checked = value === "true"
    else if (node) /** @type {HTMLInputElement} */ (node).value = value
  }
  if (window.innerWidth < 800) /** @type {HTMLDetailsElement} */ (document.getElementById("filters-box")).open = false
  run(filters())
}
start()
