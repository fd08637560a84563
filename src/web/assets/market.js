// @ts-check
// Market page: the board of the latest recorded session (index, breadth,
// movers, sector tone) from /v1/market/board, the sector board, the dividend
// calendar and company search. Absent figures are shown as unknown.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { apiText } from "./format.js"
import { $, api, badge, dateText, el, fmtCompact, fmtDate, fmtPct, fmtPrice, fmtQty, setText, unknown } from "./api.js"
import { barChart, percentFormat } from "./charts.js"
import { loadIndexHistory } from "./index-history.js"
import { loadCalendar } from "./dividend-calendar.js"
import { loadSectors } from "./market-sectors.js"
import { num, show, showError, showLoading, sourcesNote, symbolLink, table } from "./ui.js"

/** How long the page keeps asking for a board that is still loading on the server. */
const BOARD_PATIENCE_MS = 120_000
const BOARD_RETRY_MS = 3_000

/** An index's change in points, coloured. @param {unknown} v */
const signedPoints = (v) =>
  typeof v === "number" ? el("span", { class: v > 0 ? "pos" : v < 0 ? "neg" : "flat" }, `${v > 0 ? "+" : v < 0 ? "−" : ""}${fmtPrice(Math.abs(v))}`) : unknown()

/** @param {any[]} list */
const indices = (list) =>
  table(
    "Index levels",
    [["Index"], ["Level", "num"], ["Change", "num"], ["Change %", "num"], ["As of"]],
    list.map((i) => [
      el("span", {}, i.code ?? i.name, i.name && i.code ? el("span", { class: "hint" }, ` ${i.name}`) : ""),
      num(fmtPrice(i.level)),
      num(signedPoints(i.change)),
      num(fmtPct(i.change_pct)),
      el("span", {}, fmtDate(i.as_of), " ", badge("delayed"))
    ]),
    { cards: true }
  )

/** @param {any} b */
const breadth = (b) =>
  el(
    "div",
    {},
    el(
      "dl",
      { class: "facts breadth" },
      [["advancers", "Advancers"], ["decliners", "Decliners"], ["unchanged", "Unchanged"], ["priced", "Priced that day"], ["not_priced", "Not priced"]].map((
        [k, label]
      ) => [el("dt", {}, label), el("dd", {}, typeof b[k] === "number" ? fmtQty(b[k]) : unknown())])
    ),
    b.basis ? el("p", { class: "hint" }, apiText(b.basis)) : ""
  )

/** @param {string} caption @param {any[] | undefined} list */
const movers = (caption, list) =>
  Array.isArray(list) && list.length > 0
    ? table(
      caption,
      [["Symbol"], ["Price (Rs)", "num"], ["Change", "num"], ["Traded (Rs)", "num"]],
      list.map((m) => [
        m.name ? el("abbr", { title: m.name, class: "plain" }, symbolLink(String(m.symbol))) : symbolLink(String(m.symbol)),
        num(fmtPrice(m.price)),
        num(fmtPct(m.change_pct)),
        num(fmtCompact(m.value_traded))
      ])
    )
    : el("div", {}, el("h4", {}, caption), el("p", {}, "None recorded for this session."))

/** @param {any[]} tone */
const sectorTone = (tone) => {
  const sorted = [...tone].sort((a, b) => (b.median_change_pct ?? -Infinity) - (a.median_change_pct ?? -Infinity))
  const chart = el("div", { class: "chart chart-short", id: "tone-chart" })
  const wrap = el(
    "div",
    {},
    el("figure", {}, chart, el("figcaption", {}, "Median change of each sector's priced lines, strongest first. Sectors with no priced line have no bar.")),
    el("details", { class: "sources" }, el("summary", {}, "The same as a table, with advancers and decliners"), table(
      "Sector tone",
      [["Sector"], ["Advancers", "num"], ["Decliners", "num"], ["Unchanged", "num"], ["Median change", "num"]],
      sorted.map((s) => [
        s.sector,
        num(fmtQty(s.advancers)),
        num(fmtQty(s.decliners)),
        num(fmtQty(s.unchanged)),
        num(fmtPct(s.median_change_pct))
      ])
    ))
  )
  requestAnimationFrame(() =>
    barChart(chart, {
      categories: sorted.map((s) => s.sector),
      series: [{ label: "Median change %", values: sorted.map((s) => (typeof s.median_change_pct === "number" ? s.median_change_pct : null)) }],
      horizontal: true,
      signed: true,
      format: percentFormat,
      categoryLabel: "Sector",
      label: `Median change by sector on the board's session: ${sorted.slice(0, 3).map((s) => `${s.sector} ${s.median_change_pct ?? "unknown"}%`).join(", ")} lead`
    })
  )
  return wrap
}

/** The market's calendar today, asked once: the status line and the board's freshness both read it. */
/** @type {Promise<Reply<Success<"market.status">>>} */
const status = api("GET", "/v1/market/status", { token: null })

/**
 * The board's badges, by the rule the symbol pages follow: quotes are always delayed, and a session older than the
 * exchange's last completed one is also stale. @param {any} board
 */
const freshness = async (board) => {
  const s = await status
  const stale = s.ok && typeof board.date === "string" && board.date < s.body.previous_trading_day
  return [badge(board.quotes ?? "delayed"), stale ? [" ", badge("stale", "warn"), el("span", { class: "hint" }, ` the exchange has traded since; this is the last session recorded here`)] : []]
}

/** @param {any} board */
const renderBoard = async (board) => {
  const m = board.movers ?? {}
  const history = el("div", { id: "index-history" })
  const badges = await freshness(board)
  show(
    $("board"),
    el("p", {}, "Session of ", el("strong", {}, fmtDate(board.date)), " ", badges),
    el("h3", {}, "Index"),
    Array.isArray(board.indices) && board.indices.length ? indices(board.indices) : el("p", {}, "No index level is recorded: ", unknown()),
    history,
    el("h3", {}, "Breadth"),
    board.breadth ? breadth(board.breadth) : el("p", {}, unknown()),
    el("h3", {}, "Movers"),
    el("div", { class: "movers" }, movers("Top gainers", m.gainers), movers("Top losers", m.losers), movers("Most active", m.most_active)),
    m.rules ? el("details", { class: "sources" }, el("summary", {}, "Which lines the movers leave out"), el("p", { class: "hint" }, m.rules)) : "",
    el("h3", {}, "Sector tone"),
    Array.isArray(board.sector_tone) && board.sector_tone.length ? sectorTone(board.sector_tone) : el("p", {}, unknown()),
    sourcesNote(board.sources)
  )
  const kse = (board.indices ?? []).find((/** @type {any} */ i) => /KSE-?100/i.test(`${i.code}`))
  if (kse) loadIndexHistory(history, kse.code)
}

/**
 * Asks for the board. A 404 DATA_NOT_FOUND means the server holds no session
 * yet (its import or read model is still loading): the page says so and asks
 * again every few seconds for a while, instead of giving up.
 */
const loadBoard = async (startedAt = Date.now()) => {
  const out = $("board")
  if (out.querySelector(".notice") === null) showLoading(out, "Loading the board…", "table")
  /** @type {Reply<Success<"board.marketBoard">>} */
  const reply = await api("GET", "/v1/market/board", { token: null })
  if (reply.ok) return renderBoard(reply.body)
  if (reply.status === 404 && reply.body?.error === "DATA_NOT_FOUND") {
    /** @type {Reply<Success<"ready">>} */
    const ready = await api("GET", "/ready", { token: null })
    const importing = ready.ok && ready.body?.data_pack === "importing"
    const patient = Date.now() - startedAt < BOARD_PATIENCE_MS
    show(
      out,
      el(
        "p",
        { class: "notice" },
        importing ? "This server is still importing its market data. " : "No market session is loaded on this server yet. ",
        patient ? "The board will appear here by itself when it is loaded." : "Reload the page to try again."
      )
    )
    if (patient) setTimeout(() => loadBoard(startedAt), BOARD_RETRY_MS)
    return
  }
  showError(out, reply, () => loadBoard())
}

/** @param {string} q */
const search = async (q) => {
  const out = $("search-results")
  out.replaceChildren()
  if (q.trim() === "") return setText("search-count", "")
  setText("search-count", "Searching…", "")
  /** @type {Reply<Success<"market.search">>} */
  const reply = await api("GET", `/v1/search?${new URLSearchParams({ q })}`, { token: null })
  if (!reply.ok) {
    setText("search-count", "")
    return showError(out, reply, () => search(q))
  }
  const items = reply.body.items
  setText("search-count", `${reply.body.total} match${reply.body.total === 1 ? "" : "es"} for “${q}”.`, "")
  out.replaceChildren(
    el("ul", { class: "hits" }, items.map((/** @type {any} */ h) => el("li", {}, symbolLink(h.symbol), ` ${h.name}`, h.sector ? el("span", { class: "hint" }, ` · ${h.sector}`) : "")))
  )
}

$("search-form").addEventListener("submit", (event) => {
  event.preventDefault()
  const q = /** @type {HTMLInputElement} */ ($("search-q")).value
  history.replaceState(null, "", q ? `/market?${new URLSearchParams({ q })}` : "/market")
  search(q)
})

const loadStatus = async () => {
  const reply = await status
  if (!reply.ok) return
  const s = reply.body
  const parts = [`The market is ${s.state} (${dateText(s.date)}, Karachi time).`]
  if (s.next_trading_day) parts.push(`Next trading day ${dateText(s.next_trading_day)}.`)
  parts.push(`Quotes are ${s.quotes ?? "delayed"}.`)
  $("market-status").textContent = parts.join(" ")
}

const initial = new URLSearchParams(location.search).get("q")
if (initial) {
  /** @type {HTMLInputElement} */ ($("search-q")).value = initial
  search(initial)
}
loadStatus()
loadBoard()
loadSectors($("sectors"))
loadCalendar($("calendar"))
