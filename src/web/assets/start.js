// @ts-check
// Sign-in page: start a portfolio (the token shown once, with a "saved it"
// step) or sign in with a token or key, either optionally remembering this
// device; sign out of this device or of every device.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, currentSession, describeError, fmtTime, setText, signIn, signOut, wireCopyButtons } from "./api.js"

wireCopyButtons()

/** The "This browser" section: until when this browser stays signed in. */
const showBrowser = async () => {
  const state = await currentSession()
  $("browser-session").hidden = !state.signed_in
  if (!state.signed_in) return
  const until = fmtTime(state.expires_at)
  setText("browser-status", state.remember
    ? `Signed in on this device, remembered until ${until}.`
    : `Signed in on this device until the browser closes (at the latest ${until}).`)
}

$("create-session").addEventListener("click", async () => {
  const button = $("create-session")
  button.disabled = true
  setText("create-error", "")
  /** @type {Reply<Success<"account.session">>} */
  const reply = await api("POST", "/v1/me/session", { token: null })
  const signed = reply.ok ? await signIn(reply.body.token, $("new-remember").checked) : reply
  button.disabled = false
  if (!reply.ok || !signed.ok) return setText("create-error", `Could not start a portfolio: ${describeError(signed)}`)
  $("new-token").value = reply.body.token
  $("token-box").hidden = false
  $("saved-ack").checked = false
  $("next-steps").hidden = true
  $("new-session").hidden = false
  await showBrowser()
  const heading = $("h-save")
  heading.tabIndex = -1
  heading.focus()
})

$("saved-ack").addEventListener("change", (event) => {
  const ack = /** @type {HTMLInputElement} */ (event.target)
  $("next-steps").hidden = !ack.checked
  // Once saved, the token leaves the screen (the browser stays signed in by its cookie).
  if (ack.checked) {
    $("new-token").value = ""
    $("token-box").hidden = true
    const copyStatus = /** @type {HTMLElement} */ (document.querySelector("#new-session .copy-status"))
    copyStatus.textContent = "The token is no longer shown on this page; this browser stays signed in."
  }
})

$("resume-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const input = $("resume-token")
  const token = input.value.trim()
  if (token === "") return setText("resume-result", "Paste a token or an API key first.", "error")
  setText("resume-result", "Checking…", "")
  const reply = await signIn(token, $("resume-remember").checked)
  input.value = ""
  if (!reply.ok) return setText("resume-result", `Not accepted: ${reply.status === 401 ? "that token is unknown or was revoked." : describeError(reply)}`, "error")
  setText("resume-result", reply.body.signed_in && reply.body.kind === "key"
    ? "Signed in with an API key. It works for what its grants allow; managing keys needs the portfolio's own token."
    : "Signed in.", "ok")
  await showBrowser()
})

const end = async (/** @type {boolean} */ everywhere) => {
  const reply = await signOut(everywhere)
  setText("end-result", reply.ok
    ? everywhere ? "Signed out of every device. Your token still signs you in again." : "Signed out of this device."
    : `Could not sign out: ${describeError(reply)}`, reply.ok ? "ok" : "error")
  await showBrowser()
}
$("end-here").addEventListener("click", () => end(false))
$("end-everywhere").addEventListener("click", () => end(true))

await showBrowser()
