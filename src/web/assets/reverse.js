// @ts-check
// The reversal action on a ledger row: events are never changed, so a
// mistake is undone by a TransactionReversed event that names it and says
// why. The reason is required; the API's own message shows on a rejection.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, badge, describeError, el, randomKey } from "./api.js"

/**
 * The action cell of one event's row.
 * @param {{ event_id: string, type: string }} event
 * @param {string} label what the event is, for the button's accessible name
 * @param {Set<string>} reversed ids of events already reversed
 * @param {() => void} onDone called after a reversal is recorded
 */
export const reverseAction = (event, label, reversed, onDone) => {
  if (event.type === "TransactionReversed") return el("span", { class: "hint" }, "—")
  if (reversed.has(event.event_id)) return badge("reversed", "warn")
  const cell = el("div", { class: "reverse" })
  const open = el("button", { type: "button", class: "secondary small", "aria-expanded": "false", "aria-label": `Reverse ${label}` }, "Reverse…")
  const inputId = `reason-${event.event_id}`
  const reason = /** @type {HTMLInputElement} */ (el("input", { id: inputId, name: "reason", required: true, maxlength: "1000", autocomplete: "off" }))
  const message = el("p", { class: "error", role: "alert" })
  const form = el(
    "form",
    { class: "reverse-form", hidden: true, novalidate: true },
    el("label", { for: inputId }, `Reason for reversing ${label}`),
    reason,
    el("div", { class: "row" }, el("button", { type: "submit", class: "danger" }, "Record the reversal"), el("button", { type: "button", class: "secondary small", "data-cancel": "" }, "Cancel")),
    message
  )
  open.addEventListener("click", () => {
    form.hidden = !form.hidden
    open.setAttribute("aria-expanded", String(!form.hidden))
    if (!form.hidden) reason.focus()
  })
  form.querySelector("[data-cancel]")?.addEventListener("click", () => {
    form.hidden = true
    open.setAttribute("aria-expanded", "false")
    open.focus()
  })
  form.addEventListener("submit", async (e) => {
    e.preventDefault()
    if (reason.value.trim() === "") {
      message.textContent = "Say why this event is reversed: the reason is kept in the ledger."
      return reason.focus()
    }
    /** @type {Reply<Success<"portfolio.transact">>} */
    const reply = await api("POST", "/v1/me/transactions", {
      body: { kind: "reversal", event_id: event.event_id, reason: reason.value.trim() },
      idempotencyKey: randomKey()
    })
    if (reply.status !== 201) {
      message.textContent = `Not reversed. ${describeError(reply)}`
      return
    }
    cell.replaceChildren(el("span", { class: "ok", role: "status" }, "Reversed."))
    onDone()
  })
  cell.append(open, form)
  return cell
}
