// Ledger page: the events with their hashes, the server-side verify (chain
// and replay), and the latest signed checkpoint with the public key to check it.
import { $, api, describeError, el, fillRows, fmtTime, requireSession, setText } from "./api.js"
import { renderCheckpoint } from "./checkpoint.js"
import { describeEvent } from "./events.js"

const PAGE = 100
let cursor = null

const hash = (h) => el("code", { class: "hash" }, h)

const loadEvents = async (more = false) => {
  const query = new URLSearchParams({ limit: String(PAGE) })
  if (more && cursor) query.set("cursor", cursor)
  const reply = await api("GET", `/v1/me/ledger?${query}`)
  if (!reply.ok) return setText("events-status", describeError(reply), "error")
  const page = reply.body
  fillRows(
    $("events-table").querySelector("tbody"),
    page.items.map((e) => {
      const d = describeEvent(e)
      return [
        { cell: String(e.version), class: "num" },
        el("span", {}, el("strong", {}, d.kind), d.symbol ? ` ${d.symbol}` : "", el("br"), el("span", { class: "hint" }, d.details)),
        { cell: e.effective_date, class: "nowrap" },
        { cell: fmtTime(e.recorded_at), class: "nowrap" },
        hash(e.prev_hash),
        hash(e.hash)
      ]
    }),
    { append: more }
  )
  let order = ""
  if (page.items.length > 1) {
    order = page.items[0].version > page.items[page.items.length - 1].version ? ", newest first" : ", oldest first"
    $("events-table").querySelector("caption").textContent = `Ledger events${order}`
  }
  cursor = page.next_cursor
  $("events-more").hidden = cursor === null
  setText("events-status", page.total === 0 ? "No events yet." : `${page.total} event${page.total === 1 ? "" : "s"} in stream ${page.stream_id}${order}.`, "")
}

$("verify").addEventListener("click", async () => {
  const out = $("verify-result")
  out.replaceChildren(el("p", {}, "Verifying…"))
  const reply = await api("GET", "/v1/me/ledger/verify")
  if (!reply.ok) return out.replaceChildren(el("p", { class: "error" }, describeError(reply)))
  const v = reply.body
  const good = v.ok && v.projection_matches
  out.replaceChildren(
    el("p", { class: good ? "ok result" : "error result" }, good ? `Verified: ${v.events} events, chain intact, replay matches.` : "Verification failed."),
    el(
      "dl",
      { class: "facts" },
      el("dt", {}, "Events"),
      el("dd", {}, String(v.events)),
      el("dt", {}, "Hash chain"),
      el("dd", {}, v.ok ? "intact" : "broken"),
      el("dt", {}, "Replay matches the stored positions"),
      el("dd", {}, v.projection_matches ? "yes" : "no"),
      v.head_hash ? [el("dt", {}, "Head hash"), el("dd", {}, hash(v.head_hash))] : [],
      v.first_failure
        ? [el("dt", {}, "First failure"), el("dd", {}, `version ${v.first_failure.version} (event ${v.first_failure.event_id}): ${v.first_failure.reason}`)]
        : []
    )
  )
})

$("events-more").addEventListener("click", () => loadEvents(true))

if (requireSession()) {
  loadEvents()
  renderCheckpoint($("checkpoint"))
}
