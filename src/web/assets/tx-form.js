// @ts-check
// The "Add transaction" dialog of the portfolio page: the fields of the
// chosen kind, ticker suggestions from /v1/search, the trade date echoed as
// "Thursday, 25 May 2026" (a date box shows the browser's own order), and
// for a buy or sell that day's recorded close filled in as the price (the
// user's own fill price replaces it). The API's own message shows on a
// rejection; nothing is recorded then.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, dateText, randomKey, setText } from "./api.js"
import { describeEvent } from "./events.js"
import { formatNumber, karachiToday, longDate } from "./format.js"
import { attachSuggestions } from "./suggest.js"
import { humanError } from "./ui.js"

const FIELDS = /** @type {Record<string, string[]>} */ ({
  buy: ["quantity", "price", "fees"],
  sell: ["quantity", "price", "fees"],
  dividend: ["per_share", "gross_amount", "tax_withheld"],
  tax_status: [],
  bonus: ["percent"],
  split: ["numerator", "denominator"]
})

const kindSelect = $("tx-kind")
const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("tx-dialog"))
/** The price the page filled in, so a change of date or symbol may replace it (never a price the user typed). */
let filledPrice = ""

/** Shows only the fields of the chosen kind. */
const showFields = () => {
  for (const field of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#tx-form .field[data-kinds]"))) {
    const on = (field.dataset.kinds ?? "").split(" ").includes(kindSelect.value)
    field.hidden = !on
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (field.querySelectorAll("input, select"))) input.disabled = !on
    field.querySelector("select")?.querySelector("option")?.replaceChildren(kindSelect.value === "tax_status" ? "Choose…" : "As recorded for the portfolio")
  }
}

/** The trade date in words under its box. */
const echoDate = () => {
  const value = $("tx-trade_date").value
  const hint = $("tx-trade_date-hint")
  hint.dataset.base ??= hint.textContent ?? ""
  hint.textContent = value ? `${longDate(value)}. ${hint.dataset.base}` : hint.dataset.base
}

/** That day's recorded close of the symbol, filled in as the price of a buy or sell. */
const fillClose = async () => {
  const kind = kindSelect.value
  const symbol = $("tx-symbol").value.trim().toUpperCase()
  const date = $("tx-trade_date").value
  const price = $("tx-price")
  const hint = $("tx-price-hint")
  hint.dataset.base ??= hint.textContent ?? ""
  if ((kind !== "buy" && kind !== "sell") || !/^[A-Z0-9&.\-]{1,12}$/.test(symbol) || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return
  if (price.value !== "" && price.value !== filledPrice) return
  const before = price.value
  /** @type {Reply<Success<"market.prices">>} */
  const reply = await api("GET", `/v1/prices/${encodeURIComponent(symbol)}?${new URLSearchParams({ date_from: date, date_to: date, limit: "1" })}`, { token: null })
  // Typed while the close was on its way: the user's price stays.
  if (price.value !== before) return
  const row = reply.ok ? reply.body.items.find((r) => r.date === date && typeof r.close === "number") : undefined
  if (!row || typeof row.close !== "number") {
    hint.textContent = reply.ok ? `No close of ${symbol} is recorded on ${dateText(date)}: type your price.` : hint.dataset.base
    return
  }
  filledPrice = String(row.close)
  price.value = filledPrice
  hint.textContent = `Filled in with ${symbol}'s close on ${dateText(date)}, Rs ${formatNumber(row.close, 2)}; change it to your own fill price.`
}

/** A number the API can judge: empty is left out, anything unreadable is sent as typed so the API names it. @param {string} name */
const numberField = (name) => {
  const raw = $(`tx-${name}`).value.trim().replaceAll(",", "")
  if (raw === "") return undefined
  const n = Number(raw)
  return Number.isFinite(n) ? n : raw
}

/** The request body the form describes. */
const body = () => {
  const kind = kindSelect.value
  /** @type {Record<string, unknown>} */
  const out = kind === "tax_status" ? { kind, trade_date: $("tx-trade_date").value } : { kind, symbol: $("tx-symbol").value.trim().toUpperCase(), trade_date: $("tx-trade_date").value }
  for (const name of FIELDS[kind] ?? []) {
    const v = numberField(name)
    if (v !== undefined) out[name] = v
  }
  if ((kind === "dividend" || kind === "bonus") && $("tx-book_closure_from").value) out.book_closure_from = $("tx-book_closure_from").value
  const filer = $("tx-filer").value
  if ((kind === "dividend" || kind === "tax_status") && filer !== "") out.filer = filer === "filer"
  return out
}

/**
 * Opens the dialog, with a symbol filled in when given and the trade date
 * set to today (the service's Karachi date when the page knows it).
 * @param {string} [symbol] @param {string} [today]
 */
export const openTransaction = (symbol, today = karachiToday()) => {
  if (symbol) $("tx-symbol").value = symbol
  if (!$("tx-trade_date").value) $("tx-trade_date").value = today
  echoDate()
  setText("tx-error", "")
  if (!dialog.open) dialog.showModal()
  $(symbol ? "tx-trade_date" : "tx-kind").focus()
}

/** @param {() => Promise<void>} onRecorded reloads the page's figures */
export const wireTransactionForm = (onRecorded) => {
  kindSelect.addEventListener("change", () => {
    showFields()
    fillClose()
  })
  showFields()
  attachSuggestions($("tx-symbol"), /** @type {HTMLDataListElement} */ (document.getElementById("tx-symbol-list")), { onPick: () => fillClose() })
  $("tx-symbol").addEventListener("change", () => fillClose())
  $("tx-trade_date").addEventListener("change", () => {
    echoDate()
    fillClose()
  })
  $("tx-close").addEventListener("click", () => dialog.close())
  $("tx-form").addEventListener("submit", async (event) => {
    event.preventDefault()
    setText("tx-error", "")
    setText("tx-result", "Recording…", "pending")
    const submit = /** @type {HTMLButtonElement} */ ($("tx-form").querySelector("button[type=submit]"))
    submit.disabled = true
    /** @type {Reply<Success<"portfolio.transact">>} */
    const reply = await api("POST", "/v1/me/transactions", { body: body(), idempotencyKey: randomKey() })
    submit.disabled = false
    if (!reply.ok) {
      setText("tx-result", "", "")
      return setText("tx-error", `Not recorded. ${reply.status === 400 ? `${reply.body?.error}: ${reply.body?.message}` : humanError(reply)}`)
    }
    const d = describeEvent(reply.body.event)
    // A key without portfolio:read gets only the event back: its flags are then the event's own.
    const given = reply.body.flags ?? /** @type {{ flags?: string[] } | undefined} */ (reply.body.event.payload)?.flags ?? []
    const flags = given.length ? ` Flags: ${given.join("; ")}.` : ""
    setText("tx-result", `Recorded: ${d.kind} ${d.symbol ?? ""} ${d.details} on ${dateText(reply.body.event.effective_date)}.${flags}`, "ok")
    for (const name of [...Object.values(FIELDS).flat(), "book_closure_from", "filer"]) $(`tx-${name}`).value = ""
    filledPrice = ""
    await onRecorded()
  })
  // Without a dialog (scripts on, but an old browser), the form stays in place.
  if (typeof dialog.showModal !== "function") dialog.setAttribute("open", "")
}
