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
import { refusalInWords } from "./tx-refusal.js"
import { formatNumber, karachiToday, longDate, parseDay } from "./format.js"
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
/** The event being corrected by "Edit" (reversed with a reason, then the entry recorded), or none. @type {import("./events.js").LedgerEvent | undefined} */
let editing
/** The form holds an entry the page filled in (a dividend from a warrant, an edit), not one being typed. */
let prefilled = false
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

/** A date box's day as YYYY-MM-DD; what was typed when it names no day (the API then says what is wrong). @param {string} id */
const dayOf = (id) => parseDay($(id).value) ?? $(id).value.trim()
/** Puts a YYYY-MM-DD day in a date box as people read it. @param {string} id @param {string} day */
const setDay = (id, day) => {
  $(id).value = day === "" ? "" : dateText(day)
}

/** The trade date in words under its box. */
const echoDate = () => {
  const value = parseDay($("tx-trade_date").value) ?? ""
  const hint = $("tx-trade_date-hint")
  hint.dataset.base ??= hint.textContent ?? ""
  hint.textContent = value ? `${longDate(value)}. ${hint.dataset.base}` : hint.dataset.base
}

/** That day's recorded close of the symbol, filled in as the price of a buy or sell. */
const fillClose = async () => {
  const kind = kindSelect.value
  const symbol = $("tx-symbol").value.trim().toUpperCase()
  const date = dayOf("tx-trade_date")
  const price = $("tx-price")
  const hint = $("tx-price-hint")
  hint.dataset.base ??= hint.textContent ?? ""
  if ((kind !== "buy" && kind !== "sell") || !/^[A-Z0-9&.\-]{1,12}$/.test(symbol) || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return
  if (price.value !== "" && price.value !== filledPrice) return
  // The price filled in for another day or symbol goes, so it is never taken for this one's.
  if (price.value === filledPrice && filledPrice !== "") {
    price.value = ""
    filledPrice = ""
    hint.textContent = hint.dataset.base
  }
  const before = price.value
  /** @type {Reply<Success<"market.prices">>} */
  const reply = await api("GET", `/v1/prices/${encodeURIComponent(symbol)}?${new URLSearchParams({ date_from: date, date_to: date, limit: "1" })}`, { token: null })
  // Typed while the close was on its way: the user's price stays.
  if (price.value !== before) return
  const row = reply.ok ? reply.body.items.find((r) => r.date === date && typeof r.close === "number") : undefined
  if (!row || typeof row.close !== "number") {
    const closed = new Date(`${date}T00:00:00Z`).getUTCDay() % 6 === 0
    hint.textContent = reply.ok
      ? closed ? `${longDate(date)} is a weekend: the exchange does not trade. Type your price, or pick a trading day.` : `No close of ${symbol} is recorded on ${dateText(date)}: type your price.`
      : hint.dataset.base ?? ""
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
  const out = kind === "tax_status" ? { kind, trade_date: dayOf("tx-trade_date") } : { kind, symbol: $("tx-symbol").value.trim().toUpperCase(), trade_date: dayOf("tx-trade_date") }
  for (const name of FIELDS[kind] ?? []) {
    const v = numberField(name)
    if (v !== undefined) out[name] = v
  }
  if ((kind === "dividend" || kind === "bonus") && $("tx-book_closure_from").value) out.book_closure_from = dayOf("tx-book_closure_from")
  const filer = $("tx-filer").value
  if ((kind === "dividend" || kind === "tax_status") && filer !== "") out.filer = filer === "filer"
  return out
}

/** Switches the dialog between adding and correcting an event. @param {import("./events.js").LedgerEvent | undefined} event */
const setEditing = (event) => {
  editing = event
  $("tx-edit").hidden = event === undefined
  $("h-record").textContent = event === undefined ? "Add a transaction" : "Edit a transaction"
  const submit = /** @type {HTMLButtonElement} */ ($("tx-form").querySelector("button[type=submit]"))
  submit.textContent = event === undefined ? "Record" : "Record the correction"
  if (event === undefined) return
  const d = describeEvent(event)
  setText("tx-edit-what", `Correcting: ${d.kind} ${d.symbol ?? ""} of ${dateText(event.effective_date)}, ${d.details}.`)
  $("tx-reason").value = ""
}

const KIND_OF = /** @type {Record<string, (p: any) => string>} */ ({
  TradeRecorded: (p) => (p.side === "sell" ? "sell" : "buy"),
  DividendRecorded: () => "dividend",
  BonusRecorded: () => "bonus",
  SplitRecorded: () => "split",
  TaxStatusRecorded: () => "tax_status"
})

/** Whether "Edit" can correct this kind of event. @param {import("./events.js").LedgerEvent} event */
export const editable = (event) => event.type in KIND_OF

/**
 * Opens the dialog filled with an event's own figures, to correct it in one step: the original is reversed with the
 * reason given and the corrected entry recorded. @param {import("./events.js").LedgerEvent} event
 */
export const openEdit = (event) => {
  const p = event.payload ?? {}
  kindSelect.value = (KIND_OF[event.type] ?? (() => "buy"))(p)
  showFields()
  setEditing(event)
  prefilled = true
  $("tx-symbol").value = typeof p.symbol === "string" ? p.symbol : ""
  setDay("tx-trade_date", typeof p.trade_date === "string" ? p.trade_date : event.effective_date)
  for (const name of [...Object.values(FIELDS).flat()]) $(`tx-${name}`).value = typeof p[name] === "number" ? String(p[name]) : ""
  setDay("tx-book_closure_from", typeof p.book_closure_from === "string" ? p.book_closure_from : "")
  $("tx-filer").value = typeof p.filer === "boolean" ? (p.filer ? "filer" : "non-filer") : ""
  filledPrice = ""
  echoDate()
  setText("tx-error", "")
  setText("tx-result", "", "")
  if (!dialog.open) dialog.showModal()
  $("tx-reason").focus()
}

/**
 * Opens the dialog for a dividend as the warrant states it: the symbol, and with an entitlement its book closure
 * and the date it is credited on.
 * @param {string} symbol @param {{ bookClosure?: string, date?: string }} [at]
 */
export const openDividend = (symbol, at = {}) => {
  setEditing(undefined)
  prefilled = true
  kindSelect.value = "dividend"
  showFields()
  $("tx-symbol").value = symbol
  setDay("tx-trade_date", at.date ?? karachiToday())
  setDay("tx-book_closure_from", at.bookClosure ?? "")
  echoDate()
  setText("tx-error", "")
  setText("tx-result", "", "")
  if (!dialog.open) dialog.showModal()
  $("tx-gross_amount").focus()
}

/**
 * Opens the dialog, with a symbol filled in when given and the trade date
 * set to today (the service's Karachi date when the page knows it).
 * @param {string} [symbol] @param {string} [today]
 */
export const openTransaction = (symbol, today = karachiToday()) => {
  setEditing(undefined)
  // After a dividend from a warrant or an edit, the form starts afresh rather than keep that entry's figures.
  if (prefilled) {
    prefilled = false
    kindSelect.value = "buy"
    showFields()
    for (const name of [...Object.values(FIELDS).flat(), "book_closure_from", "filer", "trade_date", "symbol"]) $(`tx-${name}`).value = ""
    filledPrice = ""
  }
  if (symbol) $("tx-symbol").value = symbol
  if (!$("tx-trade_date").value) setDay("tx-trade_date", today)
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
  // While typing, a day once complete is echoed and priced; on leaving the box it is written as "25 May 2026".
  let lastDay = ""
  const dateTyped = (/** @type {boolean} */ leaving) => {
    const day = parseDay($("tx-trade_date").value)
    if (day && leaving) setDay("tx-trade_date", day)
    if ((day ?? "") === lastDay) return
    lastDay = day ?? ""
    echoDate()
    fillClose()
  }
  $("tx-trade_date").addEventListener("input", () => dateTyped(false))
  $("tx-trade_date").addEventListener("change", () => dateTyped(true))
  $("tx-close").addEventListener("click", () => dialog.close())
  $("tx-form").addEventListener("submit", async (event) => {
    event.preventDefault()
    setText("tx-error", "")
    setText("tx-result", "Recording…", "pending")
    const submit = /** @type {HTMLButtonElement} */ ($("tx-form").querySelector("button[type=submit]"))
    submit.disabled = true
    const correcting = editing !== undefined
    if (editing !== undefined) {
      const reason = $("tx-reason").value.trim()
      if (reason === "") {
        submit.disabled = false
        setText("tx-result", "", "")
        $("tx-reason").focus()
        return setText("tx-error", "Say why the entry is corrected: the reason is kept in the ledger with the reversal.")
      }
      const reversal = await api("POST", "/v1/me/transactions", { body: { kind: "reversal", event_id: editing.event_id, reason }, idempotencyKey: randomKey() })
      if (!reversal.ok) {
        submit.disabled = false
        setText("tx-result", "", "")
        return setText("tx-error", `Nothing changed: the original could not be reversed. ${humanError(reversal)}`)
      }
      setEditing(undefined)
      setText("tx-edit-what", "")
    }
    /** @type {Reply<Success<"portfolio.transact">>} */
    const reply = await api("POST", "/v1/me/transactions", { body: body(), idempotencyKey: randomKey() })
    submit.disabled = false
    if (!reply.ok) {
      setText("tx-result", "", "")
      const why = await refusalInWords(reply, body())
      if (correcting) await onRecorded()
      return setText("tx-error", correcting ? `The original was reversed, but the corrected entry was not recorded. ${why} Fix it and press Record.` : `Not recorded. ${why}`)
    }
    const d = describeEvent(reply.body.event)
    // A key without portfolio:read gets only the event back: its flags are then the event's own.
    const given = reply.body.flags ?? /** @type {{ flags?: string[] } | undefined} */ (reply.body.event.payload)?.flags ?? []
    const flags = given.length ? ` Flags: ${given.join("; ")}.` : ""
    setText("tx-result", `Recorded: ${d.kind} ${d.symbol ?? ""} ${d.details} on ${dateText(reply.body.event.effective_date)}.${flags}`, "ok")
    for (const name of [...Object.values(FIELDS).flat(), "book_closure_from", "filer"]) $(`tx-${name}`).value = ""
    filledPrice = ""
    const priceHint = $("tx-price-hint")
    if (priceHint.dataset.base !== undefined) priceHint.textContent = priceHint.dataset.base
    await onRecorded()
  })
  // Without a dialog (scripts on, but an old browser), the form stays in place.
  if (typeof dialog.showModal !== "function") dialog.setAttribute("open", "")
}
