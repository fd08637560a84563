// @ts-check
// The tax-year statement page: a picker of Pakistan's tax years (1 July to
// 30 June, named by the year it ends) from the portfolio's first event to
// the current one, the last complete year first (the one a return is filed
// for); the statement (tax-statement.js) for the year chosen, kept in the
// address (?tax_year=2026) so it can be linked and printed.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, el, requireSession } from "./api.js"
import { allEvents } from "./events.js"
import { karachiToday } from "./format.js"
import { renderStatement } from "./tax-statement.js"
import { showError, showLoading } from "./ui.js"

/** The tax year a date falls in: 2025-07-01 to 2026-06-30 is 2026. @param {string} iso */
const taxYearOf = (iso) => Number(iso.slice(0, 4)) + (Number(iso.slice(5, 7)) >= 7 ? 1 : 0)

const select = /** @type {HTMLSelectElement} */ (/** @type {unknown} */ ($("tax-year")))

/** @param {number} year */
const load = async (year) => {
  showLoading($("tax-statement"), `Loading tax year ${year}…`, "table")
  /** @type {Reply<Success<"portfolio.taxStatement">>} */
  const reply = await api("GET", `/v1/me/tax-statement?tax_year=${year}`)
  if (!reply.ok) return showError($("tax-statement"), reply, () => load(year))
  renderStatement($("tax-statement"), reply.body)
}

/** @param {number} year */
const choose = (year) => {
  const url = new URL(location.href)
  url.searchParams.set("tax_year", String(year))
  history.replaceState(null, "", url)
  load(year)
}

/** The years from the first event's to the current one, newest first, with the one to show. */
const years = async () => {
  const current = taxYearOf(karachiToday())
  const ledger = await allEvents()
  if (!ledger.ok) return { ok: /** @type {const} */ (false), reply: ledger.reply }
  const first = ledger.events.reduce((min, e) => (e.effective_date < min ? e.effective_date : min), karachiToday())
  const list = Array.from({ length: current - taxYearOf(first) + 1 }, (_, i) => current - i)
  const asked = Number(new URLSearchParams(location.search).get("tax_year"))
  const chosen = list.includes(asked) ? asked : list.includes(current - 1) ? current - 1 : current
  return { ok: /** @type {const} */ (true), list, chosen, current }
}

const start = async () => {
  const found = await years()
  if (!found.ok) return showError($("tax-statement"), found.reply, start)
  select.replaceChildren(...found.list.map((y) => el("option", { value: String(y) }, `${y} (1 Jul ${y - 1} to 30 Jun ${y})${y === found.current ? ", in progress" : ""}`)))
  select.value = String(found.chosen)
  load(found.chosen)
}

select.addEventListener("change", () => choose(Number(select.value)))
$("tax-form").addEventListener("submit", (event) => {
  event.preventDefault()
  choose(Number(select.value))
})
$("tax-print").addEventListener("click", () => window.print())

if (await requireSession()) start()
else {
  $("tax-statement").removeAttribute("aria-busy")
  $("tax-statement").replaceChildren()
}
