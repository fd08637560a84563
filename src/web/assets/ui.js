// @ts-check
// Building blocks the market, symbol and portfolio pages share: a captioned
// table in a scrollable region, a list of facts, a symbol link, the sources
// of a figure, and a polite "loading / unknown / error" line.
import { badge, describeError, el, fillRows, fmtTime, unknown } from "./api.js"

/**
 * A table in a keyboard-scrollable region. `head` is [label, class?] pairs;
 * rows are arrays of cells as fillRows takes them.
 * @param {string} caption
 * @param {Array<[string, string?]>} head
 * @param {Array<Array<any>>} rows
 * @param {{ id?: string, visibleCaption?: boolean }} [options]
 */
export const table = (caption, head, rows, options = {}) => {
  const t = el(
    "table",
    { id: options.id },
    el("caption", { class: options.visibleCaption === false ? "visually-hidden" : undefined }, caption),
    el("thead", {}, el("tr", {}, head.map(([label, cls]) => el("th", { scope: "col", class: cls }, label)))),
    el("tbody")
  )
  fillRows(/** @type {HTMLElement} */ (t.querySelector("tbody")), rows)
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption }, t)
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
        el("li", {}, el("strong", {}, s.dataset ?? "data"), `: ${s.source ?? "source unknown"}, as of ${s.as_of ?? "unknown"}`, s.retrieved_at ? `, retrieved ${s.retrieved_at}` : "", s.recorded_in ? el("span", { class: "hint" }, ` · recorded in ${s.recorded_in}`) : "")
      )
    )
  )
}

/** A line saying when a figure is from, with the delayed badge. @param {string | undefined} asOf */
export const asOfLine = (asOf) => el("p", { class: "hint" }, "As of ", fmtTime(asOf), " ", badge("delayed"))

/** Replaces a section's content with an error in the API's own words. @param {HTMLElement} out @param {any} reply */
export const showError = (out, reply) => out.replaceChildren(el("p", { class: "error" }, describeError(reply)))

/** @param {HTMLElement} out @param {string} text */
export const showLoading = (out, text = "Loading…") => out.replaceChildren(el("p", { class: "hint" }, text))
