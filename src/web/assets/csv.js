// @ts-check
// CSV in and out on the portfolio page. Export: GET
// /v1/me/transactions/export as a download (the token goes in the
// Authorization header, so the file is fetched, then saved). Import: the
// chosen file is first sent with `dry_run=true`, which records nothing and
// answers the events it would record and every refused row by line and
// column; only when the preview has no refused row does "Import" send the
// same text for real (all rows or none).
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, dateText, el, setText } from "./api.js"
import { describeEvent } from "./events.js"
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

/** The preview of a dry run. @param {any} answer @param {string} text @param {() => Promise<void>} onImported */
const preview = (answer, text, onImported) => {
  const out = $("import-preview")
  const events = /** @type {any[]} */ (answer.events)
  const errors = /** @type {any[]} */ (answer.errors)
  const go = el("button", { type: "button", id: "import-confirm" }, `Import ${events.length} transaction${events.length === 1 ? "" : "s"}`)
  go.addEventListener("click", () => commit(text, onImported))
  show(
    out,
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

/** @param {string} text @param {() => Promise<void>} onImported */
const commit = async (text, onImported) => {
  const out = $("import-preview")
  showLoading(out, "Importing…")
  /** @type {Reply<Success<"portfolio.importTransactions">>} */
  const reply = await api("POST", "/v1/me/transactions/import", { text, contentType: "text/csv" })
  if (!reply.ok) return showError(out, reply, () => commit(text, onImported))
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
    showLoading(out, "Checking the file…")
    const text = await file.text()
    /** @type {Reply<Success<"portfolio.importTransactions">>} */
    const reply = await api("POST", "/v1/me/transactions/import?dry_run=true", { text, contentType: "text/csv" })
    if (!reply.ok) {
      if (reply.status === 400) return show(out, el("p", { class: "error", role: "alert" }, `The file was refused: ${reply.body?.message ?? ""}`))
      return showError(out, reply)
    }
    preview(reply.body, text, onImported)
  })
}
