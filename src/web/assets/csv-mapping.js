// @ts-check
// The import's mapping step: how each header of a broker's statement is read
// (from the dry run's `mapping`), a choice per header to read it otherwise,
// and the kept readings of this browser, by the file's header line (local
// storage holds only header names and column names, never a credential).
import { el } from "./api.js"
import { table } from "./ui.js"

/** What a broker's header can be read as. */
const READINGS = [
  ["trade_date", "Trade date"],
  ["kind", "Buy or sell"],
  ["symbol", "Symbol"],
  ["quantity", "Quantity"],
  ["price", "Price (rupees a share)"],
  ["fees", "Fees"],
  ["fees (added)", "A charge added to the fees"],
  ["ignore", "Not read"]
]

const KEY = "psx.import-mappings"

/** The file's header line, as the key its kept mapping is found by. @param {string} text */
const headerLine = (text) => (text.replace(/^\uFEFF/, "").split(/\r?\n/)[0] ?? "").trim()

/** @returns {Record<string, Record<string, string>>} */
const kept = () => {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? "{}")
    return value && typeof value === "object" ? value : {}
  } catch {
    return {}
  }
}

/** The mapping kept for files with this header line, if any. @param {string} text */
export const remembered = (text) => kept()[headerLine(text)]

/** Keeps the mapping for files with this header line (the last 20 kept). @param {string} text @param {Record<string, string>} overrides */
export const remember = (text, overrides) => {
  const all = kept()
  all[headerLine(text)] = overrides
  const entries = Object.entries(all).slice(-20)
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(entries)))
  } catch {
    // Storage full or blocked: the mapping is simply not kept.
  }
}

/**
 * The mapping step: each header with what it is read as, changeable; a change checks the file again with it.
 * @param {{ format: string, columns: Array<{ header: string, reads_as: string }>, ignored: string[], date_order?: string }} mapping
 * @param {{ text: string, dateOrder: string, overrides?: Record<string, string> }} file
 * @param {(next: { text: string, dateOrder: string, overrides?: Record<string, string> }) => unknown} recheck
 */
export const mappingStep = (mapping, file, recheck) => {
  if (mapping.format !== "mapped") return el("p", { class: "hint", id: "import-mapping" }, "The file is in the ledger's own columns: nothing to map.")
  const headers = [...mapping.columns.map((c) => [c.header, c.reads_as]), ...mapping.ignored.map((h) => [h, "ignore"])]
  const rows = headers.map(([header, readsAs], i) => {
    const select = /** @type {HTMLSelectElement} */ (el("select", { id: `map-${i}`, "aria-label": `Read “${header}” as` }, READINGS.map(([value, label]) => el("option", { value, selected: value === readsAs }, label))))
    select.addEventListener("change", () => recheck({ ...file, overrides: { ...(file.overrides ?? {}), [header ?? ""]: select.value } }))
    return [el("code", {}, header), select]
  })
  const order = { dmy: "day first (20/05/2026)", mdy: "month first (5/20/2026)", ymd: "year first (2026-05-20)" }[mapping.date_order ?? ""]
  return el(
    "div",
    { id: "import-mapping" },
    el("h3", {}, "How your file's columns are read"),
    table("How the file's columns are read", [["Header in your file"], ["Read as"]], rows, { id: "import-mapping-table" }),
    el("p", { class: "hint" }, order ? `Dates are read ${order}.` : "", mapping.ignored.length ? ` Columns not read: ${mapping.ignored.join(", ")}.` : ""),
    el("div", { class: "check" }, el("input", { type: "checkbox", id: "import-remember", checked: file.overrides !== undefined }), el("label", { for: "import-remember" }, "Remember this mapping in this browser for files with these columns"))
  )
}

