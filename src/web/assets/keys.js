// @ts-check
// Keys page: create a key with chosen grants (shown once, with a copy
// button), list keys and sessions, revoke. Managed with the session token.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, badge, currentSession, describeError, el, fillRows, fmtTime, requireSession, setText, unknown, wireCopyButtons } from "./api.js"

wireCopyButtons()

const signedInWith = await currentSession()
const isThisTab = (key) => signedInWith.signed_in && key.id === signedInWith.key_id

const revoke = async (key, button) => {
  button.disabled = true
  /** @type {Reply<Success<"portfolio.revokeKey">>} */
  const reply = await api("DELETE", `/v1/me/keys/${encodeURIComponent(key.id)}`)
  if (!reply.ok) {
    button.disabled = false
    return setText("keys-status", `Could not revoke: ${describeError(reply)}`, "error")
  }
  await load()
  setText("keys-status", `Revoked ${key.label ?? key.prefix}. It answers 401 from now on.`, "ok")
}

const lastUsed = (key) => {
  const at = key.last_used_at ?? key.last_used
  if (typeof at === "string") return fmtTime(at)
  return "last_used_at" in key && key.last_used_at === null ? "never" : unknown()
}

/** Pages of the key list read at most (100 entries each). */
const MAX_PAGES = 20

const load = async () => {
  const keys = []
  let total = 0
  /** @type {string | null} */
  let cursor = null
  for (let page = 0; page < MAX_PAGES && (page === 0 || cursor !== null); page++) {
    /** @type {Reply<Success<"portfolio.listKeys">>} */
    const reply = await api("GET", cursor === null ? "/v1/me/keys" : `/v1/me/keys?cursor=${encodeURIComponent(cursor)}`)
    if (!reply.ok) {
      const hint = reply.status === 403 ? " Keys are managed with the session token, not with an API key." : ""
      return setText("keys-status", `${describeError(reply)}${hint}`, "error")
    }
    keys.push(...reply.body.items)
    total = reply.body.total
    cursor = reply.body.next_cursor
  }
  const shown = keys.length < total ? ` (the oldest ${keys.length} shown)` : ""
  setText("keys-status", `${total} ${total === 1 ? "entry" : "entries"}${shown}.`, "")
  fillRows($("keys-table").querySelector("tbody"), keys.map((key) => {
    const name = key.label ?? key.prefix
    const action = key.revoked_at
      ? ""
      : isThisTab(key)
      ? el("span", { class: "hint" }, "this browser signed in with it")
      : el("button", { type: "button", class: "danger", "aria-label": `Revoke ${name}` }, "Revoke")
    if (action instanceof HTMLButtonElement) action.addEventListener("click", () => revoke(key, action))
    return [
      name,
      key.kind,
      el("code", {}, key.prefix),
      key.grants.length === 0 ? "market data only" : el("span", {}, key.grants.map((g) => el("code", { class: "grant" }, g))),
      fmtTime(key.created_at),
      lastUsed(key),
      key.revoked_at ? badge(`revoked ${fmtTime(key.revoked_at)}`, "off") : badge("active", "on"),
      action
    ]
  }), { labels: ["Name", "Kind", "Prefix", "Grants", "Created", "Last used", "Status", "Action"] })
}

$("key-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  setText("key-error", "")
  const form = /** @type {HTMLFormElement} */ (event.target)
  const grants = Array.from(form.querySelectorAll("input[name=grant]:checked"), (i) => /** @type {HTMLInputElement} */ (i).value)
  const label = $("key-label").value.trim()
  const submit = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"))
  submit.disabled = true
  /** @type {Reply<Success<"portfolio.createKey">>} */
  const reply = await api("POST", "/v1/me/keys", { body: label === "" ? { grants } : { grants, label } })
  submit.disabled = false
  if (!reply.ok) return setText("key-error", describeError(reply))
  $("new-key-value").value = reply.body.key
  $("new-key").hidden = false
  const copyStatus = /** @type {HTMLElement} */ ($("new-key").querySelector(".copy-status"))
  copyStatus.textContent = `Created ${reply.body.label ?? reply.body.prefix} with ${
    reply.body.grants.length === 0 ? "market data only" : reply.body.grants.join(" and ")
  }.`
  $("new-key-value").focus()
  $("new-key-value").select()
  form.reset()
  await load()
})

if (await requireSession()) load()
