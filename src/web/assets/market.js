// Market page: company search and the market board (indices, breadth,
// movers) from the delayed feed. Absent figures are shown as unknown.
import { $, api, badge, describeError, el, fillRows, fmtMoney, fmtPct, fmtQty, fmtSigned, fmtTime, setText, unknown } from "./api.js"

const pick = (obj, names) => {
  for (const n of names) if (obj?.[n] !== undefined && obj[n] !== null) return obj[n]
  return undefined
}
const symbolLink = (symbol) => el("a", { href: `/market/${encodeURIComponent(symbol)}` }, symbol)

const table = (caption, head, rows) => {
  const t = el(
    "table",
    {},
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, head.map(([label, cls]) => el("th", { scope: "col", class: cls }, label)))),
    el("tbody")
  )
  fillRows(t.querySelector("tbody"), rows)
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption }, t)
}

const indices = (list) =>
  table(
    "Indices",
    [["Index"], ["Level", "num"], ["Change", "num"], ["Change %", "num"], ["As of"]],
    list.map((i) => [
      String(pick(i, ["name", "index", "symbol", "code"]) ?? "index"),
      { cell: fmtMoney(pick(i, ["value", "level", "current", "close", "last"])), class: "num" },
      { cell: fmtSigned(pick(i, ["change"])), class: "num" },
      { cell: fmtPct(pick(i, ["change_pct", "percent_change"])), class: "num" },
      el("span", {}, fmtTime(pick(i, ["as_of", "at", "time"])), " ", badge("delayed"))
    ])
  )

const breadth = (b) =>
  el(
    "dl",
    { class: "facts breadth" },
    ["advancers", "decliners", "unchanged"].map((k) => [el("dt", {}, k[0].toUpperCase() + k.slice(1)), el("dd", {}, typeof b[k] === "number" ? fmtQty(b[k]) : unknown())]),
    b.as_of ? [el("dt", {}, "As of"), el("dd", {}, fmtTime(b.as_of))] : []
  )

const movers = (caption, list) =>
  table(
    caption,
    [["Symbol"], ["Price", "num"], ["Change %", "num"], ["Volume", "num"], ["Value traded (Rs)", "num"]],
    (list ?? []).map((m) => [
      symbolLink(String(pick(m, ["symbol", "ticker"]))),
      { cell: fmtMoney(pick(m, ["price", "close", "last", "current"])), class: "num" },
      { cell: fmtPct(pick(m, ["change_pct", "percent_change"])), class: "num" },
      { cell: fmtQty(pick(m, ["volume"])), class: "num" },
      { cell: fmtMoney(pick(m, ["value_traded", "traded_value", "turnover", "value"])), class: "num" }
    ])
  )

const loadBoard = async () => {
  const out = $("board")
  out.replaceChildren(el("p", {}, "Loading the board…"))
  const reply = await api("GET", "/v1/market/board", { token: null })
  if (reply.status === 404) return out.replaceChildren(el("p", { class: "notice" }, "The market board is not available on this server yet. Search for a company below."))
  if (!reply.ok) return out.replaceChildren(el("p", { class: "error" }, describeError(reply)))
  const board = reply.body
  const m = board.movers ?? {}
  out.replaceChildren(
    ...(board.as_of ? [el("p", {}, "Board as of ", fmtTime(board.as_of), " ", badge("delayed"))] : []),
    el("h3", {}, "Indices"),
    Array.isArray(board.indices) && board.indices.length ? indices(board.indices) : el("p", {}, "No index levels recorded."),
    el("h3", {}, "Breadth"),
    board.breadth ? breadth(board.breadth) : el("p", {}, unknown()),
    el("h3", {}, "Movers"),
    el("div", { class: "movers" }, movers("Top gainers", m.gainers), movers("Top losers", m.losers), movers("Most active", m.active))
  )
}

const search = async (q) => {
  const out = $("search-results")
  out.replaceChildren()
  if (q.trim() === "") return setText("search-count", "")
  setText("search-count", "Searching…", "")
  const reply = await api("GET", `/v1/search?${new URLSearchParams({ q })}`, { token: null })
  if (!reply.ok) return setText("search-count", describeError(reply), "error")
  const items = reply.body.items
  setText("search-count", `${reply.body.total} match${reply.body.total === 1 ? "" : "es"} for “${q}”.`, "")
  out.replaceChildren(
    el("ul", { class: "hits" }, items.map((h) => el("li", {}, symbolLink(h.symbol), ` ${h.name}`, h.sector ? el("span", { class: "hint" }, ` · ${h.sector}`) : "")))
  )
}

$("search-form").addEventListener("submit", (event) => {
  event.preventDefault()
  const q = $("search-q").value
  history.replaceState(null, "", q ? `/market?${new URLSearchParams({ q })}` : "/market")
  search(q)
})

const initial = new URLSearchParams(location.search).get("q")
if (initial) {
  $("search-q").value = initial
  search(initial)
}
loadBoard()

const loadStatus = async () => {
  const reply = await api("GET", "/v1/market/status", { token: null })
  if (!reply.ok) return
  const s = reply.body
  const parts = [`The market is ${s.state} (${s.date}, ${s.time_zone}).`]
  if (s.next_trading_day) parts.push(`Next trading day ${s.next_trading_day}.`)
  parts.push(`Quotes are ${s.quotes ?? "delayed"}.`)
  $("market-status").textContent = parts.join(" ")
}
loadStatus()
