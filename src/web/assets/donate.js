// @ts-check
// Donations page: records a pending donation (POST /v1/donations; no payment
// is taken) and shows the record the service kept, or the API's message.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, badge, describeError, el, fmtRs, fmtTime, randomKey, setText } from "./api.js"
import { fact, facts } from "./ui.js"

$("donate-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const raw = /** @type {HTMLInputElement} */ ($("donate-amount")).value.trim().replaceAll(",", "")
  const note = /** @type {HTMLInputElement} */ ($("donate-note")).value.trim()
  const amount = Number(raw)
  setText("donate-error", "")
  $("donate-result").replaceChildren()
  const body = { amount: raw !== "" && Number.isFinite(amount) ? amount : raw, currency: "PKR", ...(note ? { note } : {}) }
  /** @type {Reply<Success<"account.donate">>} */
  const reply = await api("POST", "/v1/donations", { body, token: null, idempotencyKey: randomKey() })
  if (!reply.ok) return setText("donate-error", `Not recorded. ${describeError(reply)}`)
  const d = reply.body
  $("donate-result").replaceChildren(
    el("p", { class: "ok result" }, "Recorded as pending. No payment was taken."),
    facts(
      fact("Amount", el("span", {}, fmtRs(d.amount), ` (${d.currency})`)),
      fact("Status", badge(d.status, "warn")),
      fact("Reference", el("code", {}, d.id)),
      fact("Recorded at", fmtTime(d.created_at)),
      fact("Ledger event", el("code", { class: "hash" }, d.event_id)),
      d.note ? fact("Note", d.note) : []
    )
  )
})
