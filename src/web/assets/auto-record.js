// @ts-check
// The entitlements inbox's setting (GET and PUT /v1/me/settings): record
// each payout by itself as it falls due, from the day it is turned on; the
// older ones stay in the inbox. Shows what turning it on recorded at once
// and what it cannot record.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, dateText, el } from "./api.js"
import { humanError } from "./ui.js"

/** What the last change said, shown again after the inbox reloads with what it recorded. */
let told = ""

/** @param {Success<"portfolio.settings">} s */
const stateText = (s) =>
  s.auto_record_entitlements
    ? `On since ${dateText(s.auto_record_since)}: payouts falling due from then are recorded as ordinary events naming their source.`
    : "Off: each payout waits in the list above for you to record or dismiss."

/**
 * @param {Success<"portfolio.putSettings">} s @param {Map<string, string>} names entitlement id → "MEBL 80%(ii) (D)"
 */
const outcome = (s, names) => {
  const recorded = s.recorded_now ?? [], skipped = s.skipped ?? []
  return [
    recorded.length ? `Recorded now: ${recorded.map((r) => names.get(r.id) ?? r.id).join(", ")}.` : "",
    skipped.length ? `Not recorded automatically: ${skipped.map((k) => `${names.get(k.id) ?? k.id} (${k.reason})`).join("; ")}.` : ""
  ].filter(Boolean).join(" ")
}

/**
 * The setting's checkbox, its plain explanation and its state.
 * @param {Reply<Success<"portfolio.settings">>} reply GET /v1/me/settings
 * @param {any[]} items the entitlements, to name those it recorded or skipped
 * @param {() => void} onChange reloads the page's figures when it recorded something
 */
export const autoRecord = (reply, items, onChange) => {
  if (!reply.ok) return el("p", { class: "hint", id: "auto-record" }, `The automatic recording setting could not be read. ${humanError(reply)}`)
  const names = new Map(items.map((e) => [String(e.id), `${e.symbol} ${e.details}`]))
  const box = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "auto-record-toggle", "aria-describedby": "auto-record-hint auto-record-status" }))
  box.checked = reply.body.auto_record_entitlements
  const status = el("p", { id: "auto-record-status", class: "hint", role: "status", "aria-live": "polite" }, stateText(reply.body), told ? ` ${told}` : "")
  told = ""
  box.addEventListener("change", async () => {
    box.disabled = true
    /** @type {Reply<Success<"portfolio.putSettings">>} */
    const put = await api("PUT", "/v1/me/settings", { body: { auto_record_entitlements: box.checked } })
    box.disabled = false
    if (!put.ok) {
      box.checked = !box.checked
      status.className = "error"
      status.textContent = `Not changed. ${humanError(put)}`
      return
    }
    status.className = "hint"
    status.textContent = `${stateText(put.body)} ${outcome(put.body, names)}`.trim()
    if ((put.body.recorded_now ?? []).length) {
      told = outcome(put.body, names)
      onChange()
    }
  })
  return el(
    "div",
    { class: "auto-record", id: "auto-record" },
    el("div", { class: "check" }, box, el("label", { for: "auto-record-toggle" }, "Record payouts automatically as they fall due")),
    status,
    el("details", { class: "sources" }, el("summary", {}, "What it records, and what it leaves to you"), el("p", { class: "hint", id: "auto-record-hint" },
      "When this is on, each cash dividend and bonus your holdings are entitled to is recorded by itself on its credit date (the end of the book closure), ",
      "from the day you turn it on. ",
      "Those that fell due before then stay in this list for you to record or dismiss. Rights, dismissed payouts and ",
      "dividends whose face value or your filer status is unknown are never recorded automatically. Turning it off stops it; what was recorded stays ",
      "in your history, where a reversal undoes it."))
  )
}
