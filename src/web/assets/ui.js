// @ts-check
// Building blocks the market, symbol and portfolio pages share: a captioned
// table in a scrollable region, a list of facts, a symbol link, the sources
// of a figure, and a polite "loading / unknown / error" line.
import { badge, describeError, el, fillRows, fmtTime, unknown } from "./api.js"
import { apiText, plainName, timeText } from "./format.js"
import { sortable } from "./sortable.js"

/**
 * A table in a keyboard-scrollable region. `head` is [label, class?] pairs;
 * rows are arrays of cells as fillRows takes them.
 * @param {string} caption
 * @param {Array<[string, string?]>} head
 * @param {Array<Array<any>>} rows
 * With `sort`, every column with a label sorts on a click of its heading.
 * @param {{ id?: string, visibleCaption?: boolean, sort?: boolean, cards?: boolean }} [options]
 */
export const table = (caption, head, rows, options = {}) => {
  const t = el(
    "table",
    { id: options.id },
    el("caption", { class: options.visibleCaption === false ? "visually-hidden" : undefined }, caption),
    el("thead", {}, el("tr", {}, head.map(([label, cls]) => el("th", { scope: "col", class: cls }, label)))),
    el("tbody")
  )
  fillRows(/** @type {HTMLElement} */ (t.querySelector("tbody")), rows, { labels: head.map(([label]) => label) })
  if (options.sort) sortable(/** @type {HTMLTableElement} */ (t))
  return el("div", { class: `table-wrap${options.cards ? " cards" : ""}`, tabindex: "0", role: "region", "aria-label": caption }, t)
}

/** A number cell, right-aligned. @param {any} cell */
export const num = (cell) => ({ cell, class: "num" })

/** @param {string} label @param {any} value */
export const fact = (label, value) => [el("dt", {}, label), el("dd", {}, value)]

/** @param {Array<any>} facts */
export const facts = (...facts) => el("dl", { class: "facts" }, facts)

/** @param {string} symbol */
export const symbolLink = (symbol) => el("a", { href: `/market/${encodeURIComponent(symbol)}` }, symbol)

/** The value, or "unknown" when it is absent (never 0). @param {any} v */
export const known = (v) => (v === undefined || v === null || v === "" ? unknown() : String(v))

/**
 * Where figures come from: dataset, source, as-of and where it was recorded.
 * @param {Array<{dataset?: string, source?: string, as_of?: string, retrieved_at?: string, recorded_in?: string}> | undefined} sources
 * @param {string} [caption]
 */
export const sourcesNote = (sources, caption = "Sources") => {
  if (!Array.isArray(sources) || sources.length === 0) return el("p", { class: "hint" }, `${caption}: `, unknown(), " (none recorded)")
  return el(
    "details",
    { class: "sources" },
    el("summary", {}, `${caption} (${sources.length})`),
    el(
      "ul",
      {},
      sources.map((s) =>
        el("li", {}, el("strong", {}, s.dataset ? plainName(s.dataset) : "data"), `: ${s.source ? apiText(s.source) : "source unknown"}, as of ${s.as_of ? timeText(s.as_of) : "unknown"}`, s.retrieved_at ? `, retrieved ${timeText(s.retrieved_at)}` : "", s.recorded_in ? el("span", { class: "hint" }, ` · recorded in ${s.recorded_in}`) : "")
      )
    )
  )
}

/** A line saying when a figure is from, with the delayed badge. @param {string | undefined} asOf */
export const asOfLine = (asOf) => el("p", { class: "hint" }, "As of ", fmtTime(asOf), " ", badge("delayed"))

/**
 * What a failed call means for the person reading the page, in plain words
 * (the API's code and message stay available beside it).
 * @param {any} reply
 */
export const humanError = (reply) => {
  const message = typeof reply?.body?.message === "string" ? reply.body.message : ""
  switch (reply?.status) {
    case 0: return "Could not reach the service. Check the connection, then try again."
    case 401: return "Your session token was not accepted: it may have expired or been revoked. Sign in again."
    case 403: return "This token may not do that: it does not hold the grant."
    case 404: return message ? `Not found: ${message}.` : "Not found."
    case 429: return "Too many requests in a short time. Wait a few seconds, then try again."
    case 503: return "The service is still loading its data. Try again in a moment."
    default:
      if (reply?.status >= 500) return "Something went wrong on the service. Try again; if it keeps happening, quote the details below."
      return message ? `${message.charAt(0).toUpperCase()}${message.slice(1)}.` : `The service answered HTTP ${reply?.status}.`
  }
}

/**
 * Replaces a section's content with what went wrong, in plain words, the
 * API's own code and message under "Details", and a "Try again" button when
 * the caller can retry.
 * @param {HTMLElement} out @param {any} reply @param {() => unknown} [retry]
 */
export const showError = (out, reply, retry) => {
  out.removeAttribute("aria-busy")
  const button = retry ? el("button", { type: "button", class: "secondary small retry" }, "Try again") : ""
  if (button) button.addEventListener("click", () => retry?.())
  const said = humanError(reply)
  // One failure (the service down) says so once: later sections point to the first box instead of repeating it.
  const first = Array.from(document.querySelectorAll(".error-box[data-said]")).find((b) => b instanceof HTMLElement && b.dataset.said === said && !out.contains(b))
  if (first) {
    out.replaceChildren(el("p", { class: "error-note" }, "Not loaded: the same problem as above. ", button))
    return
  }
  out.replaceChildren(
    el(
      "div",
      { class: "error-box", role: "alert", "data-said": said },
      el("p", {}, humanError(reply)),
      el("details", {}, el("summary", {}, "Details"), el("p", { class: "hint" }, describeError(reply))),
      button
    )
  )
}

/**
 * Grey placeholder lines (a chart's or a table's shape) while the content
 * loads, announced once as loading.
 * @param {HTMLElement} out @param {string} [text] @param {"lines" | "chart" | "table"} [kind]
 */
export const showLoading = (out, text = "Loading…", kind = "lines") => {
  out.setAttribute("aria-busy", "true")
  out.replaceChildren(
    el("div", { class: `skeleton skeleton-${kind}`, "aria-hidden": "true" }, Array.from({ length: kind === "table" ? 5 : 3 }, () => el("span"))),
    el("p", { class: "visually-hidden loading-note" }, text)
  )
}

/** Ends a section's loading state. @param {HTMLElement} out @param {...any} content */
export const show = (out, ...content) => {
  out.removeAttribute("aria-busy")
  out.replaceChildren(...content.flat(Infinity).filter((c) => c !== "" && c !== undefined && c !== null))
}

/** A phone-sized screen, where long lists start folded. */
export const PHONE = "(max-width: 40rem)"

/**
 * On a phone, a long table shows its first `keep` rows (a row's detail row goes with it) and a "Show all"
 * button that unfolds the rest, and folds them again; a wider screen shows every row. Rows re-ordered later
 * (a sort) are folded again by their new order. Returns the table's region and, when folded, the button.
 * @param {HTMLElement} wrap a `.table-wrap` holding the table @param {number} keep @param {string} noun what a row is, plural
 */
export const foldOnPhone = (wrap, keep, noun) => {
  const body = wrap.querySelector("tbody")
  const mains = () => Array.from(body?.rows ?? []).filter((r) => !r.classList.contains("detail") && r.dataset.detail === undefined)
  const total = mains().length
  // Folding away a single row saves nothing worth a button.
  if (!body || total <= keep + 1 || !matchMedia(PHONE).matches) return [wrap]
  let open = false
  const button = el("button", { type: "button", class: "secondary small show-all", "aria-expanded": "false" })
  const apply = () => {
    let index = 0
    let folded = false
    for (const row of Array.from(body.rows)) {
      if (!row.classList.contains("detail") && row.dataset.detail === undefined) folded = !open && index++ >= keep
      row.classList.toggle("folded", folded)
    }
    // With nothing kept (a table beside its own chart), the whole table folds away.
    wrap.hidden = keep === 0 && !open
    button.textContent = keep === 0 ? (open ? "Hide the table" : `Show the table (${total} ${noun})`) : open ? `Show the first ${keep} ${noun} only` : `Show all ${total} ${noun}`
    button.setAttribute("aria-expanded", String(open))
  }
  new MutationObserver(apply).observe(body, { childList: true })
  button.addEventListener("click", () => {
    open = !open
    apply()
  })
  apply()
  return [wrap, button]
}
