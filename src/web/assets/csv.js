// @ts-check
// CSV in and out on the portfolio page. Export: GET
// /v1/me/transactions/export as a download (the token goes in the
// sign-in cookie goes with the request, so the file is fetched, then saved).
// Import: the chosen file is first sent with `dry_run=true`, which records
// nothing and answers how its columns were read (the mapping step, where a
// header's reading can be changed and kept for this browser), the events it
// would record and every refused row by line and column; a file whose dates
// could be either order asks which. Only when the preview has no refused row
// does "Import" send the same text for real (all rows or none).
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, dateText, el, setText } from "./api.js"
import { describeEvent } from "./events.js"
import { mappingStep, remember, remembered } from "./csv-mapping.js"
import { humanError, show, showError, showLoading, table } from "./ui.js"

/** @param {string} text @param {string} name */
const save = (text, name) => {
  const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/csv" })), download: name, id: "export-csv-link" }, "Download it again")
  $("export-csv-status").replaceChildren(" Saved. ", link)
  link.click()
}

const exportCsv = async () => {
  setText("export-csv-status", " Reading…", "")
  const reply = await api("GET", "/v1/me/transactions/export", { accept: "text/csv" })
  if (!reply.ok) return setText("export-csv-status", ` ${humanError(reply)}`, "error")
  save(String(reply.body ?? ""), `psx-transactions-${new Date().toISOString().slice(0, 10)}.csv`)
}

/**
 * The file being imported, with how to read it: the date order chosen ("" lets the file decide) and the headers
 * the person mapped themselves.
 * @typedef {{ text: string, dateOrder: string, overrides?: Record<string, string> }} ImportFile
 */

/** @param {ImportFile} file @param {boolean} dryRun */
const importQuery = (file, dryRun) => {
  const q = new URLSearchParams()
  if (dryRun) q.set("dry_run", "true")
  if (file.dateOrder) q.set("date_order", file.dateOrder)
  if (file.overrides && Object.keys(file.overrides).length) q.set("mapping", JSON.stringify(file.overrides))
  return q
}

/** A dry run of the file: the mapping step and the preview, or what is wrong with the file. @param {ImportFile} file @param {() => Promise<void>} onImported */
const check = async (file, onImported) => {
  const out = $("import-preview")
  showLoading(out, "Checking the file…")
  /** @type {Reply<Success<"portfolio.importTransactions">>} */
  const reply = await api("POST", `/v1/me/transactions/import?${importQuery(file, true)}`, { text: file.text, contentType: "text/csv" })
  if (reply.ok) return preview(reply.body, file, onImported)
  if (reply.status !== 400) return showError(out, reply, () => check(file, onImported))
  const message = String(reply.body?.message ?? "")
  // Dates like 03/04/2026 that could be either order: the person says which.
  if (/date_order|day first|month first|ambiguous/i.test(message)) {
    $("import-date-order-field").hidden = false
    $("import-date-order").focus()
    return show(out, el("p", { class: "error", role: "alert", id: "import-date-question" }, "Every date in the file could be read either way (03/04/2026 is 3 Apr or 4 Mar). Choose the order your broker writes dates in, then check the file again."))
  }
  show(out, el("p", { class: "error", role: "alert" }, `The file was refused: ${humanError(reply)}`))
}

/** The preview of a dry run. @param {any} answer @param {ImportFile} file @param {() => Promise<void>} onImported */
const preview = (answer, file, onImported) => {
  const out = $("import-preview")
  const events = /** @type {any[]} */ (answer.events)
  const errors = /** @type {any[]} */ (answer.errors)
  const go = el("button", { type: "button", id: "import-confirm" }, `Import ${events.length} transaction${events.length === 1 ? "" : "s"}`)
  go.addEventListener("click", () => commit(file, onImported))
  show(
    out,
    answer.mapping ? mappingStep(answer.mapping, file, (next) => check(next, onImported)) : "",
    el("p", { class: errors.length ? "error" : "ok", id: "import-summary" }, `${answer.rows} row${answer.rows === 1 ? "" : "s"} read: ${events.length} would be recorded, ${answer.skipped} already recorded (skipped), ${errors.length} refused.`),
    errors.length
      ? [table("Refused rows", [["Line", "num"], ["Column"], ["Why"]], errors.map((e) => [{ cell: String(e.line), class: "num" }, e.column, e.message]), { id: "import-errors" }), el("p", {}, "Nothing is recorded while any row is refused: correct the file and check it again.")]
      : "",
    events.length
      ? table(
        "Transactions the file would record",
        [["Line", "num"], ["Date"], ["Event"], ["Symbol"], ["Details"]],
        events.map((e) => {
          const d = describeEvent({ type: e.type, payload: e.payload })
          return [{ cell: String(e.line), class: "num" }, dateText(e.payload?.trade_date ?? ""), d.kind, d.symbol ?? "", d.details]
        }),
        { id: "import-events", cards: true }
      )
      : "",
    !errors.length && events.length ? go : ""
  )
}

/** @param {ImportFile} file @param {() => Promise<void>} onImported */
const commit = async (file, onImported) => {
  const out = $("import-preview")
  showLoading(out, "Importing…")
  if (file.overrides !== undefined && $("import-remember").checked) remember(file.text, file.overrides)
  /** @type {Reply<Success<"portfolio.importTransactions">>} */
  const reply = await api("POST", `/v1/me/transactions/import?${importQuery(file, false)}`, { text: file.text, contentType: "text/csv" })
  if (!reply.ok) return showError(out, reply, () => commit(file, onImported))
  show(out, el("p", { class: "ok", id: "import-done" }, `Imported: ${reply.body.recorded} recorded, ${reply.body.skipped} already recorded.`))
  $("import-form").reset()
  await onImported()
}

/** @param {() => Promise<void>} onImported reloads the page's figures */
export const wireCsv = (onImported) => {
  $("export-csv").addEventListener("click", exportCsv)
  $("import-form").addEventListener("submit", async (event) => {
    event.preventDefault()
    const file = /** @type {HTMLInputElement} */ ($("import-file")).files?.[0]
    const out = $("import-preview")
    if (!file) return show(out, el("p", { class: "error" }, "Choose a CSV file first."))
    const text = await file.text()
    await check({ text, dateOrder: $("import-date-order").value, overrides: remembered(text) }, onImported)
  })
}
