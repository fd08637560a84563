// @ts-check
// The entitlements inbox: what the market's recorded payouts say this
// portfolio is owed (GET /v1/me/entitlements), each due one with "Record
// it" (POST …/accept records the dividend or bonus, with its book closure
// and source) and "Dismiss" (POST …/dismiss hides it); recorded ones below,
// with a warning when the recorded event no longer matches; and the setting
// that records them by itself as they fall due (auto-record.js).
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { apiText } from "./format.js"
import { api, badge, dateText, el, fmtAmount, fmtQty, formatNumberText, unknown } from "./api.js"
import { openDividend } from "./tx-form.js"
import { autoRecord } from "./auto-record.js"
import { foldOnPhone, humanError, show, symbolLink, table } from "./ui.js"

/** What the entitlement is, in words. @param {any} e */
const what = (e) =>
  e.kind === "bonus"
    ? `${e.details}: ${typeof e.bonus_shares === "number" ? `${fmtQty(e.bonus_shares)} bonus shares` : "bonus shares"}${e.fractional_entitlement ? ` and ${fmtQty(e.fractional_entitlement)} of a share as cash` : ""}`
    : e.kind === "right"
    ? `${e.details}: right shares offered (subscribing is a buy)`
    : typeof e.cash_per_share === "number"
    ? `${e.details}: Rs ${formatNumberText(e.cash_per_share, 2)} a share on ${fmtQty(e.shares_held)} shares`
    : `${e.details} on ${fmtQty(e.shares_held)} shares (rupees a share not known)`

/** @param {any} e @param {() => void} onChange */
const actions = (e, onChange) => {
  const message = el("p", { class: "error", role: "alert" })
  const act = async (/** @type {"accept" | "dismiss"} */ verb, /** @type {HTMLButtonElement} */ button) => {
    button.disabled = true
    message.textContent = ""
    /** @type {Reply<Success<"portfolio.acceptEntitlement">>} */
    const reply = await api("POST", `/v1/me/entitlements/${encodeURIComponent(e.id)}/${verb}`)
    button.disabled = false
    if (!reply.ok) {
      message.textContent = `Not ${verb === "accept" ? "recorded" : "dismissed"}. ${humanError(reply)}`
      return
    }
    onChange()
  }
  // Without its rupees (the face value is not recorded) the dividend is recorded from the warrant instead.
  const fromWarrant = e.kind === "cash_dividend" && typeof e.gross !== "number"
  const accept = /** @type {HTMLButtonElement} */ (fromWarrant
    ? el("button", { type: "button", class: "small", "aria-label": `Add from your warrant: ${e.symbol} ${e.details}` }, "Add from your warrant")
    : el("button", { type: "button", class: "small", "aria-label": `Record it: ${e.symbol} ${e.details}` }, "Record it"))
  const dismiss = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "secondary small", "aria-label": `Dismiss: ${e.symbol} ${e.details}` }, "Dismiss"))
  accept.addEventListener("click", () => (fromWarrant ? openDividend(e.symbol, { bookClosure: e.book_closure_from, date: e.credit_date }) : act("accept", accept)))
  dismiss.addEventListener("click", () => act("dismiss", dismiss))
  return el("div", { class: "row actions" }, e.kind === "right" ? "" : accept, dismiss, message)
}

/** Why the rupees are not known, in words. @param {any} e */
const amountGap = (e) =>
  typeof e.face_value !== "number"
    ? `${e.symbol}'s face value is not recorded, so the rupees are not known: add them from your warrant`
    : "the rupees a share are not known: add them from your warrant"

/** @param {any} e */
const amounts = (e) => {
  if (e.kind !== "cash_dividend") return ""
  if (typeof e.gross !== "number") return el("span", {}, unknown(), el("span", { class: "hint block" }, amountGap(e)))
  return el(
    "span",
    {},
    `Rs ${fmtAmount(e.gross).textContent} gross`,
    typeof e.net === "number" ? `, Rs ${fmtAmount(e.net).textContent} net` : "",
    typeof e.net !== "number" && e.filer === undefined ? el("span", { class: "hint block" }, "tax unknown: record your filer status") : ""
  )
}

/**
 * @param {HTMLElement} out
 * @param {any} answer GET /v1/me/entitlements
 * @param {() => void} onChange reloads the page's figures after a change
 * @param {Reply<Success<"portfolio.settings">>} settings GET /v1/me/settings
 */
export const renderEntitlements = (out, answer, onChange, settings) => {
  const items = /** @type {any[]} */ (answer.items)
  const due = items.filter((e) => e.state === "due")
  const recorded = items.filter((e) => e.state === "recorded")
  const dismissed = items.filter((e) => e.state === "dismissed").length
  show(
    out,
    el("h3", { id: "h-inbox" }, `Entitlements to record (${due.length})`),
    autoRecord(settings, items, onChange),
    due.length === 0
      ? el("p", { class: "hint", id: "inbox-empty" }, "Nothing to record: every payout your holdings were entitled to is recorded or dismissed.")
      : foldOnPhone(table(
        "Entitlements to record",
        [["Symbol"], ["Entitlement"], ["Book closure"], ["Amount", "num"], ["Action"]],
        due.map((e) => [symbolLink(e.symbol), what(e), el("span", {}, dateText(e.book_closure_from), el("span", { class: "hint block" }, `shares held at ${dateText(e.last_buy_date)}`)), { cell: amounts(e), class: "num" }, actions(e, onChange)]),
        { id: "inbox-table", cards: true, visibleCaption: false }
      ), 1, "payouts to record"),
    recorded.length
      ? el(
        "details",
        { class: "sources" },
        el("summary", {}, `Recorded entitlements (${recorded.length})`),
        table(
          "Recorded entitlements",
          [["Symbol"], ["Entitlement"], ["Book closure"], ["Amount", "num"], ["Matches the event"]],
          recorded.map((e) => [symbolLink(e.symbol), what(e), dateText(e.book_closure_from), { cell: amounts(e), class: "num" }, e.matches === false ? badge(e.mismatch ?? "differs", "warn") : badge("yes", "on")]),
          { id: "recorded-table", cards: true }
        )
      )
      : "",
    dismissed ? el("p", { class: "hint" }, `${dismissed} dismissed entitlement${dismissed === 1 ? " is" : "s are"} hidden.`) : "",
    (answer.notes ?? []).length ? el("details", { class: "sources" }, el("summary", {}, "How entitlements are worked out"), el("ul", {}, answer.notes.map((/** @type {string} */ n) => el("li", {}, apiText(n))))) : ""
  )
}
