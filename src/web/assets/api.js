// @ts-check
// Shared by every page: the sign-in (an HttpOnly cookie; writes carry its
// CSRF token), requests to the API, DOM building without innerHTML, number
// and time formatting, the header's session line.

/** @typedef {import("./api-types").operations} Operations */
/** @typedef {{ error: string, message: string, symbol?: string }} ErrorRecord */
/**
 * The success body of an operation of the API (its 200 or 201 JSON), from the
 * types generated from the OpenAPI document (`npm run web:types`).
 * @template {keyof Operations} Op
 * @typedef {Operations[Op]["responses"] extends { 200: { content: { "application/json": infer B } } } ? B
 *   : Operations[Op]["responses"] extends { 201: { content: { "application/json": infer C } } } ? C : never} Success
 */
/**
 * A reply: the success body when `ok`, the service's error record otherwise.
 * @template [T=any]
 * @typedef {{ status: number, ok: true, body: T } | { status: number, ok: false, body: ErrorRecord }} Reply
 */
/**
 * An element found by id, typed as the form controls, buttons and tables the pages look up.
 * @typedef {HTMLInputElement & HTMLFormElement & HTMLTableSectionElement} Found
 */

/**
 * This browser's sign-in: an HttpOnly cookie the page never sees (so no token is kept by a script or in any
 * storage), described by GET /web/session with the CSRF token every write sends. Asked once per page.
 * @typedef {{ signed_in: false } | { signed_in: true, kind: "session" | "key", key_id: string, remember: boolean, expires_at: string, csrf_token: string }} SessionState
 */
/** @type {Promise<SessionState> | undefined} */
let sessionState

/** @returns {Promise<SessionState>} */
export const currentSession = () => {
  sessionState ??= fetch("/web/session", { credentials: "same-origin", cache: "no-store", headers: { accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : { signed_in: false }))
    .catch(() => ({ signed_in: false }))
  return sessionState
}

/** Signs this browser in with a session token or API key; `remember` keeps it for 30 days. */
export const signIn = async (/** @type {string} */ token, /** @type {boolean} */ remember) => {
  /** @type {Reply<SessionState>} */
  const reply = await api("POST", "/web/session", { token: null, cookie: true, body: { token, remember } })
  sessionState = reply.ok ? Promise.resolve(reply.body) : undefined
  void renderSession()
  return reply
}

/** Signs out this browser, or every browser signed in to this portfolio. */
export const signOut = async (everywhere = false) => {
  const reply = await api("POST", "/web/session/end", { body: { everywhere } })
  sessionState = Promise.resolve({ signed_in: false })
  void renderSession()
  return reply
}

/**
 * Calls the API. Returns { status, body, ok }; body is the parsed JSON (an
 * error record {error, message} on failure). Without `token`, the request goes with this browser's sign-in cookie
 * (and, for a write, its CSRF token); `token: null` sends no credential, a token sends it as a bearer.
 * Name the operation's reply type with `Success<"group.endpoint">` where it is used.
 * @template [T=any]
 * @param {string} method
 * @param {string} path
 * @param {{ token?: string | null, cookie?: boolean, body?: unknown, text?: string, contentType?: string, accept?: string, idempotencyKey?: string }} [options]
 * @returns {Promise<Reply<T>>}
 */
export const api = async (method, path, options = {}) => {
  /** @type {Record<string, string>} */
  const headers = { accept: options.accept ?? "application/json" }
  const withCookie = options.token === undefined || options.cookie === true
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.token === undefined && method !== "GET") {
    const state = await currentSession()
    if (state.signed_in) headers["x-csrf-token"] = state.csrf_token
  }
  if (options.body !== undefined) headers["content-type"] = "application/json"
  if (options.text !== undefined) headers["content-type"] = options.contentType ?? "text/plain"
  if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey
  let response
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.text !== undefined ? options.text : options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: withCookie ? "same-origin" : "omit",
      cache: "no-store",
      referrerPolicy: "no-referrer"
    })
  } catch (e) {
    return { status: 0, ok: false, body: { error: "NETWORK", message: `the service did not answer (${e instanceof Error ? e.message : String(e)})` } }
  }
  const text = await response.text()
  /** @type {any} */
  let body
  const json = (response.headers.get("content-type") ?? "").includes("json")
  try {
    body = text === "" ? null : json || !response.ok ? JSON.parse(text) : text
  } catch {
    body = { error: "INTERNAL", message: text.slice(0, 200) }
  }
  return response.ok ? { status: response.status, ok: true, body } : { status: response.status, ok: false, body }
}

/** The API's own words for a failed call. */
export const describeError = (reply) =>
  reply.body && typeof reply.body === "object" && reply.body.message
    ? `${reply.body.error ?? "ERROR"}: ${reply.body.message}`
    : `the service answered HTTP ${reply.status}`

/** A random Idempotency-Key (works outside secure contexts too). */
export const randomKey = () => {
  if (crypto.randomUUID) return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}

/** Elements whose text is shown as given (code, values a person typed or copies). */
const LITERAL_TAGS = new Set(["code", "pre", "textarea", "option", "kbd", "samp"])

/** el("td", { class: "num" }, "12") — attributes set as attributes, children as text or nodes. */
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue
    if (k === "hidden") node.hidden = true
    else node.setAttribute(k, v === true ? "" : String(v))
  }
  const literal = LITERAL_TAGS.has(tag)
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue
    // One style for dates: an ISO date or instant in text reads "25 May 2026" or "25 May 2026, 15:37 PKT".
    node.append(child instanceof Node ? child : literal ? String(child) : humanDates(String(child)))
  }
  return node
}

/** @param {string} id @returns {Found} */
export const $ = (id) => /** @type {Found} */ (document.getElementById(id))

export const setText = (id, text, kind) => {
  const node = $(id)
  node.textContent = humanDates(text ?? "")
  if (kind !== undefined) node.className = kind
}

import { humanDates } from "./format.js"
export { formatNumber as formatNumberText, dateText, humanDates, parseDay, fmtAmount, fmtCompact, fmtDate, fmtMoney, fmtPct, fmtPrice, fmtQty, fmtRs, fmtRsPrice, fmtShare, fmtSigned, fmtTime, monthText, timeText, unknown } from "./format.js"

export const badge = (text, kind = "") => el("span", { class: `badge ${kind}`.trim() }, text)

/**
 * Fills a table body with rows (arrays of cells: text, nodes or {cell, class, sort}).
 * `sort` is the value the column sorts by (sortable.js); `labels` name each
 * cell for the card layout on a phone (data-label).
 * @param {Element | null} tbody
 * @param {Array<Array<any>>} rows
 * @param {{ append?: boolean, labels?: string[] }} [options]
 */
export const fillRows = (tbody, rows, { append = false, labels = [] } = {}) => {
  if (!tbody) return
  if (!append) tbody.replaceChildren()
  for (const row of rows) {
    tbody.append(
      el("tr", {}, row.map((c, i) => {
        const spec = c && typeof c === "object" && "cell" in c ? c : { cell: c }
        return el(i === 0 && spec.header !== false ? "th" : "td", {
          class: spec.class,
          scope: i === 0 ? "row" : undefined,
          "data-sort": spec.sort === undefined ? undefined : spec.sort === null ? "" : String(spec.sort),
          "data-label": labels[i] || undefined
        }, spec.cell)
      }))
    )
  }
}

/** Copy buttons: <button data-copy="input-id">. */
export const wireCopyButtons = () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.addEventListener("click", async () => {
      const input = $(/** @type {HTMLElement} */ (button).dataset.copy ?? "")
      const status = button.closest(".once")?.querySelector(".copy-status")
      try {
        await navigator.clipboard.writeText(input.value)
        if (status) status.textContent = "Copied to the clipboard."
      } catch {
        input.select()
        if (status) status.textContent = "Could not use the clipboard: the text is selected, press Ctrl+C (or ⌘C)."
      }
    })
  }
}

/** The header's session control: "Sign in" when signed out, "Sign out" when signed in. */
export const renderSession = async () => {
  const status = $("session-status")
  if (!status) return
  const state = await currentSession()
  status.textContent = state.signed_in ? "Signed in on this browser." : "Not signed in."
  $("sign-out").hidden = !state.signed_in
  $("sign-in").hidden = state.signed_in
}

/** On pages that need a sign-in: shows the notice and disables the forms when there is none. */
export const requireSession = async () => {
  const state = await currentSession()
  const notice = $("needs-session")
  if (notice) notice.hidden = state.signed_in
  if (!state.signed_in) {
    for (const table of document.querySelectorAll("main .table-wrap")) /** @type {HTMLElement} */ (table).hidden = true
    for (const control of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("main form button, main form input, main form select, main section > button"))) {
      control.disabled = true
    }
  }
  return state.signed_in
}
