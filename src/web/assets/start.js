// @ts-check
// Start page: create an anonymous session (token shown once, with a "saved
// it" step) or resume one with a token or key; forget the token.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, clearToken, describeError, getToken, setText, setToken, wireCopyButtons } from "./api.js"

wireCopyButtons()

$("create-session").addEventListener("click", async () => {
  const button = $("create-session")
  button.disabled = true
  setText("create-error", "")
  /** @type {Reply<Success<"account.session">>} */
  const reply = await api("POST", "/v1/me/session", { token: null })
  button.disabled = false
  if (!reply.ok) return setText("create-error", describeError(reply))
  setToken(reply.body.token)
  $("new-token").value = reply.body.token
  $("token-box").hidden = false
  $("saved-ack").checked = false
  $("next-steps").hidden = true
  $("new-session").hidden = false
  const heading = $("h-save")
  heading.tabIndex = -1
  heading.focus()
})

$("saved-ack").addEventListener("change", (event) => {
  const ack = /** @type {HTMLInputElement} */ (event.target)
  $("next-steps").hidden = !ack.checked
  // Once saved, the token leaves the screen (this tab still holds it).
  if (ack.checked) {
    $("new-token").value = ""
    $("token-box").hidden = true
    const copyStatus = /** @type {HTMLElement} */ (document.querySelector("#new-session .copy-status"))
    copyStatus.textContent = "The token is no longer shown on this page; this tab still holds it."
  }
})

$("resume-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const input = $("resume-token")
  const token = input.value.trim()
  if (token === "") return setText("resume-result", "Paste a session token or an API key first.", "error")
  setText("resume-result", "Checking…", "")
  // Listing keys is the cheapest call that proves a credential: 200 for a
  // session, 403 for a valid key that may not manage keys, 401 otherwise.
  /** @type {Reply<Success<"portfolio.listKeys">>} */
  const reply = await api("GET", "/v1/me/keys", { token })
  input.value = ""
  if (reply.status === 200 || reply.status === 403) {
    setToken(token)
    setText(
      "resume-result",
      reply.status === 200
        ? "Resumed. The token is held in this tab until you close it."
        : "Resumed with an API key. It works for what its grants allow; managing keys needs the session token.",
      "ok"
    )
  } else {
    setText("resume-result", `Not accepted: ${describeError(reply)}`, "error")
  }
})

$("forget").addEventListener("click", () => {
  clearToken()
  setText("resume-result", "Forgotten: this tab no longer holds a token.", "ok")
})

if (getToken()) setText("resume-result", "This tab already holds a token. Creating or resuming another replaces it here.")
