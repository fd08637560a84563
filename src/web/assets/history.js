// @ts-check
// The portfolio's transaction history: every ledger event, by trade date
// (newest first; events of one day in the order recorded, newest first),
// filtered by symbol and kind, 50 at a time, each with its reversal action.
import { $, dateText, el, fillRows, fmtTime, setText } from "./api.js"
import { describeEvent } from "./events.js"
import { reverseAction } from "./reverse.js"
import { editable, openEdit } from "./tx-form.js"

/** Rows shown at a time: fewer on a phone, where each is a card. */
const PAGE = matchMedia("(max-width: 40rem)").matches ? 3 : 50
/** @type {import("./events.js").LedgerEvent[]} */
let events = []
/** @type {Set<string>} */
let reversed = new Set()
let shown = PAGE
/** @type {() => void} */
let reload = () => {}

/** @param {string} id @param {string[]} values @param {string} all */
const options = (id, values, all) => {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById(id))
  const chosen = select.value
  select.replaceChildren(el("option", { value: "" }, all), ...values.map((v) => el("option", { value: v }, v)))
  select.value = values.includes(chosen) ? chosen : ""
}

/** "Edit…": corrects the event in one step (a reversal with its reason and the corrected entry). @param {import("./events.js").LedgerEvent} e @param {string} label */
const editButton = (e, label) => {
  if (!editable(e) || reversed.has(e.event_id)) return ""
  const button = el("button", { type: "button", class: "secondary small", "aria-label": `Edit ${label}` }, "Edit…")
  button.addEventListener("click", () => openEdit(e))
  return button
}

const render = () => {
  const symbol = $("history-symbol").value
  const kind = $("history-kind").value
  const matching = events.filter((e) => {
    const d = describeEvent(e)
    return (symbol === "" || d.symbol === symbol) && (kind === "" || d.kind === kind)
  })
  const page = matching.slice(0, shown)
  fillRows(
    $("history-table").querySelector("tbody"),
    page.map((e) => {
      const d = describeEvent(e)
      const label = `${d.kind}${d.symbol ? ` ${d.symbol}` : ""} of ${dateText(e.effective_date)}`
      return [{ cell: dateText(e.effective_date), class: "nowrap" }, d.kind, d.symbol ?? "", d.details, { cell: fmtTime(e.recorded_at), class: "nowrap" }, el("div", { class: "row actions" }, editButton(e, label), reverseAction(e, label, reversed, reload))]
    }),
    { labels: ["Trade date", "Event", "Symbol", "Details", "Recorded at", "Action"] }
  )
  $("history-more").hidden = matching.length <= shown
  const filtered = symbol !== "" || kind !== ""
  setText(
    "history-status",
    events.length === 0 ? "Nothing recorded yet." : `${matching.length} of ${events.length} recorded${filtered ? " match the filters" : ""}; showing ${page.length}.`,
    ""
  )
}

/**
 * @param {import("./events.js").LedgerEvent[]} all every event, any order
 * @param {Set<string>} reversedIds
 * @param {() => void} onChange reloads the page after a reversal
 */
export const renderHistory = (all, reversedIds, onChange) => {
  events = [...all].sort((a, b) => b.effective_date.localeCompare(a.effective_date) || b.version - a.version)
  reversed = reversedIds
  reload = onChange
  shown = PAGE
  options("history-symbol", [...new Set(events.map((e) => describeEvent(e).symbol).filter((s) => typeof s === "string"))].sort(), "All symbols")
  options("history-kind", [...new Set(events.map((e) => describeEvent(e).kind))].sort(), "All kinds")
  render()
}

export const wireHistory = () => {
  for (const id of ["history-symbol", "history-kind"]) {
    $(id).addEventListener("change", () => {
      shown = PAGE
      render()
    })
  }
  $("history-more").addEventListener("click", () => {
    shown += PAGE
    render()
  })
}
