// @ts-check
// Every page: the header's session control and search (a ticker goes
// straight to its page, anything else to the market page's search), and the
// footer's digit-grouping setting.
import { $, renderSession, signOut } from "./api.js"
import { grouping, setGrouping } from "./format.js"
import { attachSuggestions, exactTicker } from "./suggest.js"

const wireSearch = () => {
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("site-search"))
  const list = /** @type {HTMLDataListElement | null} */ (document.getElementById("site-search-list"))
  if (!input || !list) return
  const go = (/** @type {string} */ symbol) => location.assign(`/market/${encodeURIComponent(symbol)}`)
  const suggestions = attachSuggestions(input, list, { onPick: go })
  // Enter on a ticker opens its page (asking the search when its suggestions have not come yet); anything else searches.
  input.form?.addEventListener("submit", async (event) => {
    const q = input.value.trim()
    if (q === "") return event.preventDefault()
    event.preventDefault()
    const symbol = exactTicker(q, suggestions.hits()) ?? exactTicker(q, await suggestions.lookUp(q))
    if (symbol) go(symbol)
    else location.assign(`/market?${new URLSearchParams({ q })}`)
  })
}

const wireGrouping = () => {
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("grouping"))
  if (!select) return
  select.value = grouping()
  select.addEventListener("change", () => {
    setGrouping(select.value === "lakh" ? "lakh" : "intl")
    location.reload()
  })
}

void renderSession()
$("sign-out")?.addEventListener("click", async () => {
  await signOut(false)
  location.assign("/start")
})
wireSearch()
wireGrouping()
