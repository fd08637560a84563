// @ts-check
// Ticker suggestions for a text box (the header's search, the transaction
// form's symbol): as the user types, GET /v1/search fills a <datalist> with
// the matching tickers and company names. Choosing one puts the ticker in
// the box; `onPick` hears about it.
import { api, el } from "./api.js"

/** @typedef {{ symbol: string, name: string, sector?: string, match: string }} Hit */

/**
 * @param {HTMLInputElement} input
 * @param {HTMLDataListElement} list
 * @param {{ onPick?: (symbol: string) => void }} [options]
 * @returns {{ hits: () => Hit[], lookUp: (q: string) => Promise<Hit[]> }}
 */
export const attachSuggestions = (input, list, options = {}) => {
  /** @type {Hit[]} */
  let hits = []
  let asked = 0
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  /** @param {string} q @returns {Promise<Hit[]>} */
  const lookUp = async (q) => {
    const mine = ++asked
    const reply = await api("GET", `/v1/search?${new URLSearchParams({ q })}`, { token: null })
    if (!reply.ok) return []
    if (mine === asked) {
      hits = reply.body.items
      list.replaceChildren(...hits.map((h) => el("option", { value: h.symbol, label: `${h.name}${h.sector ? ` · ${h.sector}` : ""}` })))
    }
    return reply.body.items
  }
  input.addEventListener("input", (event) => {
    const q = input.value.trim()
    // A datalist choice arrives as a replacement of the whole text.
    const replaced = !(event instanceof InputEvent) || event.inputType === "insertReplacementText"
    if (replaced && hits.some((h) => h.symbol === q)) return options.onPick?.(q)
    clearTimeout(timer)
    if (q.length === 0) return list.replaceChildren()
    timer = setTimeout(() => lookUp(q), 120)
  })
  return { hits: () => hits, lookUp }
}

/** An exact ticker among the suggestions (or the one hit), for a search box's Enter. @param {string} q @param {Hit[]} hits */
export const exactTicker = (q, hits) => {
  const upper = q.trim().toUpperCase()
  const exact = hits.find((h) => h.symbol === upper)
  return exact ? exact.symbol : undefined
}
