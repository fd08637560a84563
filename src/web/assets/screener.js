// @ts-check
// Screener page: the spec's filters as a form, sent as GET /v1/screener
// query parameters, with paging by the API's cursors (a stack of the ones
// seen, for "Previous page"). The API's own message shows on a rejection.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, describeError, el, fmtCompact, fmtMoney, fmtPct, setText, unknown } from "./api.js"
import { num, sourcesNote, symbolLink, table } from "./ui.js"

/** @type {Array<string | null>} cursors of the pages shown so far; the last is the current page's */
let pages = [null]
let query = new URLSearchParams()

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
  q.set("limit", $("sc-limit").value)
  return q
}

/** @param {any} page */
const render = (page) => {
  const unknownBy = Object.entries(page.unknown_by_filter ?? {}).map(([k, n]) => `${k} ${n}`).join(", ")
  const start = (pages.length - 1) * Number(query.get("limit"))
  setText(
    "screen-status",
    `${page.total} match${page.total === 1 ? "" : "es"}` +
      (page.items.length ? `; showing ${start + 1} to ${start + page.items.length}, ${page.order ?? "by symbol"}` : "") +
      `. Left out because a filtered figure is unknown: ${page.left_out_unknown ?? 0}${unknownBy ? ` (${unknownBy})` : ""}.`,
    ""
  )
  $("screen-results").replaceChildren(
    page.items.length === 0
      ? el("p", {}, "No security matches these filters.")
      : table(
        "Securities matching the filters",
        [["Symbol"], ["Name"], ["Sector"], ["Price", "num"], ["Change %", "num"], ["Yield %", "num"], ["P/E", "num"], ["Market cap", "num"], ["Traded (Rs)", "num"], ["Below 20-day high %", "num"]],
        page.items.map((/** @type {any} */ s) => [
          symbolLink(s.symbol),
          s.name,
          s.sector ?? unknown(),
          num(fmtMoney(s.price)),
          num(fmtPct(s.change_pct)),
          num(fmtMoney(s.dividend_yield_pct)),
          num(fmtMoney(s.pe_ttm)),
          num(fmtCompact(s.market_cap)),
          num(fmtCompact(s.value_traded)),
          num(fmtMoney(s.drawdown_20d_pct))
        ]),
        { id: "screen-table" }
      ),
    sourcesNote(page.sources)
  )
  $("screen-prev").hidden = pages.length <= 1
  $("screen-next").hidden = !page.next_cursor
  $("screen-next").dataset.cursor = page.next_cursor ?? ""
}

const run = async () => {
  const q = new URLSearchParams(query)
  const cursor = pages[pages.length - 1]
  if (cursor) q.set("cursor", cursor)
  setText("screen-error", "")
  setText("screen-status", "Screening…", "")
  /** @type {Reply<Success<"analytics.screen">>} */
  const reply = await api("GET", `/v1/screener?${q}`, { token: null })
  if (!reply.ok) {
    setText("screen-status", "", "")
    return setText("screen-error", `Not screened. ${describeError(reply)}`)
  }
  render(reply.body)
}

$("screen-form").addEventListener("submit", (event) => {
  event.preventDefault()
  query = filters()
  pages = [null]
  history.replaceState(null, "", `/screener?${query}`)
  run()
})
$("screen-next").addEventListener("click", () => {
  pages.push($("screen-next").dataset.cursor || null)
  run().then(() => $("h-results").scrollIntoView())
})
$("screen-prev").addEventListener("click", () => {
  pages.pop()
  run().then(() => $("h-results").scrollIntoView())
})

/** Fills the sector list, then restores filters from the address (a shared screen link). */
const start = async () => {
  /** @type {Reply<Success<"board.sectors">>} */
  const reply = await api("GET", "/v1/sectors", { token: null })
  if (reply.ok) {
    $("sc-sectors").replaceChildren(...reply.body.items.map((/** @type {any} */ s) => el("option", { value: s.code }, s.name)))
  }
  const given = new URLSearchParams(location.search)
  if ([...given.keys()].length === 0) return
  for (const [name, value] of given) {
    const node = document.querySelector(`#screen-form [data-filter="${CSS.escape(name)}"]`)
    if (node instanceof HTMLSelectElement && node.multiple) for (const o of node.options) o.selected = value.split(",").includes(o.value)
    else if (node instanceof HTMLInputElement && node.type === "checkbox") node.checked = value === "true"
    else if (node) /** @type {HTMLInputElement} */ (node).value = value
  }
  if (given.get("limit")) $("sc-limit").value = given.get("limit") ?? "50"
  query = filters()
  run()
}
start()
