// @ts-check
// Ledger page: the events with their hashes, the server-side verify (chain
// and replay), and the latest signed checkpoint with the public key to check it.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, dateText, el, fillRows, fmtTime, requireSession, setText } from "./api.js"
import { renderCheckpoint } from "./checkpoint.js"
import { allEvents, describeEvent, reversedIds } from "./events.js"
import { ledgerExport } from "./ledger-export.js"
import { reverseAction } from "./reverse.js"
import { humanError, showError } from "./ui.js"

const PAGE = 100
let cursor = null

const hash = (h) => el("code", { class: "hash" }, h)

const loadEvents = async (more = false) => {
  const query = new URLSearchParams({ limit: String(PAGE) })
  if (more && cursor) query.set("cursor", cursor)
  const [reply, all] = await Promise.all([api("GET", `/v1/me/ledger?${query}`), allEvents()])
  if (!reply.ok) return setText("events-status", humanError(reply), "error")
  const reversed = all.ok ? reversedIds(all.events) : new Set()
  const page = reply.body
  fillRows(
    $("events-table").querySelector("tbody"),
    page.items.map((e) => {
      const d = describeEvent(e)
      return [
        { cell: String(e.version), class: "num" },
        el("span", {}, el("strong", {}, d.kind), d.symbol ? ` ${d.symbol}` : "", el("br"), el("span", { class: "hint" }, d.details)),
        { cell: dateText(e.effective_date), class: "nowrap" },
        { cell: fmtTime(e.recorded_at), class: "nowrap" },
        hash(e.prev_hash),
        hash(e.hash),
        reverseAction(e, `version ${e.version}, ${d.kind}${d.symbol ? ` ${d.symbol}` : ""}`, reversed, () => loadEvents())
      ]
    }),
    { append: more, labels: ["Version", "Event", "Effective", "Recorded at", "Previous hash", "Hash", "Action"] }
  )
  let order = ""
  if (page.items.length > 1) {
    order = page.items[0].version > page.items[page.items.length - 1].version ? ", newest first" : ", oldest first"
    const caption = /** @type {HTMLElement} */ ($("events-table").querySelector("caption"))
    caption.textContent = `Ledger events${order}`
  }
  cursor = page.next_cursor
  $("events-more").hidden = cursor === null
  setText("events-status", page.total === 0 ? "No events yet." : `${page.total} event${page.total === 1 ? "" : "s"} in stream ${page.stream_id}${order}.`, "")
}

$("verify").addEventListener("click", async () => {
  const out = $("verify-result")
  out.replaceChildren(el("p", {}, "Verifying…"))
  /** @type {Reply<Success<"portfolio.verify">>} */
  const reply = await api("GET", "/v1/me/ledger/verify")
  if (!reply.ok) return showError(out, reply, () => $("verify").click())
  const v = reply.body
  const good = v.ok && v.projection_matches
  out.replaceChildren(
    el("p", { class: good ? "ok result" : "error result" }, good ? `Verified: ${v.events} events, chain intact, replay matches.` : v.checkpoint_problem && !v.first_failure && v.projection_matches ? "The events verify, but a signed checkpoint cannot vouch for them." : "Verification failed."),
    el(
      "dl",
      { class: "facts" },
      el("dt", {}, "Events"),
      el("dd", {}, String(v.events)),
      el("dt", {}, "Hash chain"),
      el("dd", {}, v.first_failure ? "broken" : "intact"),
      el("dt", {}, "Replay matches the stored positions"),
      el("dd", {}, v.projection_matches ? "yes" : "no"),
      v.head_hash ? [el("dt", {}, "Head hash"), el("dd", {}, hash(v.head_hash))] : [],
      v.first_failure
        ? [el("dt", {}, "First failure"), el("dd", {}, `version ${v.first_failure.version} (event ${v.first_failure.event_id}): ${v.first_failure.reason}`)]
        : [],
      v.checkpoint_problem
        ? [el("dt", {}, "Signed checkpoint"), el("dd", {}, `version ${v.checkpoint_problem.version}, key ${v.checkpoint_problem.key_id}: ${v.checkpoint_problem.reason}`)]
        : []
    )
  )
})

$("events-more").addEventListener("click", () => loadEvents(true))

/**
 * The ledger as NDJSON in the format `ledger export` writes (ledger-export.js): every event, oldest first, then a
 * line {"checkpoint": …} with a signed checkpoint of the head, as a download that docs/verify-ledger.mjs checks.
 */
$("export").addEventListener("click", async () => {
  setText("export-status", "Reading the ledger…", "")
  const result = await ledgerExport((path) => api("GET", path))
  if (!result.ok) return setText("export-status", humanError(result.reply), "error")
  const blob = new Blob([result.text], { type: "application/x-ndjson" })
  const link = el("a", { href: URL.createObjectURL(blob), download: `psx-ledger-${new Date().toISOString().slice(0, 10)}.ndjson`, id: "export-link" }, "Download the file again")
  $("export-status").replaceChildren(
    `${result.events} event${result.events === 1 ? "" : "s"}${result.checkpoint ? ` and the checkpoint at version ${result.checkpoint.version}` : " (no checkpoint: the ledger is empty)"}. `,
    link
  )
  link.click()
})

if (await requireSession()) {
  loadEvents()
  renderCheckpoint($("checkpoint"))
}
