// @ts-check
// Symbol page: the delayed quote and a chart of daily closes drawn by uPlot
// (served from this origin), with the window's own high, low and change;
// for a signed-in tab, your position and trades (marked on the chart); then
// dividends, announcements, financials, technicals and provenance. A symbol
// the service does not know gets one message and suggestions, not a page of
// empty sections.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, badge, dateText, el, fmtPct,  fmtQty, fmtRsPrice, fmtSigned, fmtTime, currentSession, unknown } from "./api.js"
import { lineChart, rupeeFormat } from "./charts.js"
import { apiText, formatNumber } from "./format.js"
import { loadPosition } from "./symbol-position.js"
import { renderAnnouncements, renderDividends, renderFinancials, renderProvenance, renderTechnicals } from "./symbol-sections.js"
import { fact, facts, show, showError, showLoading, symbolLink } from "./ui.js"

const symbol = $("symbol-root").dataset.symbol ?? ""
const path = encodeURIComponent(symbol)
/** @type {{ destroy: () => void } | undefined} */
let chart
/** @type {Array<{ date: string, kind: "buy" | "sell" }>} */
let markers = []
let range = "1Y"

/** @param {any} company @param {any} quote */
const renderQuote = (company, quote) => {
  const out = $("quote")
  if (company?.name) /** @type {HTMLElement} */ (document.querySelector("h1")).textContent = `${symbol}: ${company.name}`
  if (!quote) return show(out, el("p", {}, "No quote is recorded for this symbol."))
  show(
    out,
    el(
      "p",
      { class: "price" },
      el("span", { class: "big" }, fmtRsPrice(quote.price)),
      " ",
      fmtSigned(quote.change, { price: true }),
      " (",
      fmtPct(quote.change_pct),
      ") ",
      badge(quote.status ?? "delayed"),
      quote.stale ? [" ", badge("stale", "warn")] : []
    ),
    facts(
      fact("As of", fmtTime(quote.as_of)),
      fact("Basis", quote.basis === "daily_close" ? "the day's closing price" : "a delayed intraday board reading"),
      fact("Previous close", fmtRsPrice(quote.previous_close)),
      fact("Volume", fmtQty(quote.volume)),
      company?.sector ? fact("Sector", company.sector) : [],
      company?.derived?.week52 ? fact("52-week range (closes)", el("span", {}, fmtRsPrice(company.derived.week52.low), " – ", fmtRsPrice(company.derived.week52.high))) : [],
      fact("Source", `${quote.source?.source ? apiText(quote.source.source) : "unknown"} (as of ${dateText(quote.source?.as_of) || "unknown"})`)
    )
  )
}

/**
 * Whether the service knows the symbol, asked of the search (it finds every
 * listed ticker), so an unknown one costs no failed request; and the tickers
 * that look like it.
 */
const lookUp = async () => {
  /** @type {Reply<Success<"market.search">>} */
  const reply = await api("GET", `/v1/search?${new URLSearchParams({ q: symbol })}`, { token: null })
  if (!reply.ok) return { reply, known: true, hits: [] }
  return { reply, known: reply.body.items.some((h) => h.symbol === symbol && h.match === "exact_ticker"), hits: reply.body.items.slice(0, 8) }
}

/** The symbol is not one the service knows: one message, and tickers that look like it. @param {any} reply @param {any[]} hits */
const renderMissing = async (reply, hits) => {
  $("symbol-found").hidden = true
  const out = $("symbol-missing")
  out.hidden = false
  if (!reply.ok && reply.status !== 404) return showError(out, reply, () => location.reload())
  show(
    out,
    el("p", { class: "notice", id: "symbol-unknown" }, `The service does not know the symbol ${symbol}: it is not listed, or not recorded here.`),
    hits.length
      ? [el("p", {}, "Did you mean:"), el("ul", { class: "hits" }, hits.map((/** @type {any} */ h) => el("li", {}, symbolLink(h.symbol), ` ${h.name}`)))]
      : el("p", {}, "Search for a company with the box at the top of the page, or browse the ", el("a", { href: "/market" }, "market board"), ".")
  )
}

const draw = (/** @type {any[]} */ rows, /** @type {string} */ label) => {
  chart?.destroy()
  const first = rows[0]?.date ?? ""
  chart = lineChart($("chart"), {
    xs: rows.map((r) => r.date),
    series: [{ label: "Close", values: rows.map((r) => r.close), fill: true }],
    format: (v) => rupeeFormat(v),
    legendFormat: (v) => `Rs ${formatNumber(v, 2)}`,
    label,
    height: 320,
    markers: markers.filter((m) => m.date >= first)
  })
}

/** @param {string} chosen */
const loadPrices = async (chosen) => {
  range = chosen
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button.range"))) b.setAttribute("aria-pressed", String(b.dataset.range === range))
  /** @type {Reply<Success<"market.prices">>} */
  const reply = await api("GET", `/v1/prices/${path}?${new URLSearchParams({ range, limit: "1000" })}`, { token: null })
  const caption = $("chart-caption")
  const out = $("window")
  if (!reply.ok) {
    chart?.destroy()
    chart = undefined
    caption.textContent = ""
    return showError(out, reply, () => loadPrices(range))
  }
  const p = reply.body
  const rows = [...p.items].filter((r) => !r.flag).reverse()
  if (rows.length === 0) {
    chart?.destroy()
    chart = undefined
    caption.textContent = "No prices recorded in this range."
    return show(out)
  }
  const first = rows[0].date
  const last = rows[rows.length - 1].date
  const label = `Daily closing prices of ${symbol}, ${dateText(first)} to ${dateText(last)} (${rows.length} trading days)`
  draw(rows, label)
  caption.textContent = `${label}. Not adjusted for dividends or bonus issues${p.restated_by_source ? "; restated by the exchange for a split" : ""}.${markers.length ? " Triangles mark your buys (up) and sells (down)." : ""}${
    p.next_cursor ? " Only the newest 1,000 days are drawn." : ""
  }`
  const w = p.window
  show(
    out,
    w
      ? facts(
        fact(`${w.range} change`, el("span", {}, fmtSigned(w.change, { price: true, rs: true }), " (", fmtPct(w.change_pct), ")")),
        fact("High (close)", fmtRsPrice(w.high)),
        fact("Low (close)", fmtRsPrice(w.low)),
        fact("From", el("span", {}, `${dateText(w.from)}, close `, fmtRsPrice(w.first_close))),
        fact("To", el("span", {}, `${dateText(w.to)}, close `, fmtRsPrice(w.last_close)))
      )
      : el("p", {}, unknown()),
    p.note ? el("p", { class: "hint" }, apiText(p.note)) : []
  )
}

/** @param {any} stock the symbol's /v1/stocks answer */
const loadSections = async (stock) => {
  const [research, announcements] = await Promise.all([
    api("GET", `/v1/stocks/${path}/research`, { token: null }),
    api("GET", `/v1/stocks/${path}/announcements?limit=20`, { token: null })
  ])
  const fail = (/** @type {string} */ id, /** @type {any} */ reply) => showError($(id), reply, () => location.reload())
  if (research.ok) {
    renderDividends($("dividends"), research.body.dividends, symbol)
    renderTechnicals($("technicals"), research.body.technicals)
    renderProvenance($("provenance"), research.body)
  } else for (const id of ["dividends", "technicals", "provenance"]) fail(id, research)
  renderFinancials($("financials"), stock.financials, symbol)
  if (announcements.ok) renderAnnouncements($("announcements"), announcements.body, symbol)
  else fail("announcements", announcements)
}

const start = async () => {
  const known = await lookUp()
  if (!known.known) return renderMissing(known.reply, known.hits)
  /** @type {Reply<Success<"market.stock">>} */
  const stock = await api("GET", `/v1/stocks/${path}`, { token: null })
  if (!stock.ok) return renderMissing(stock, known.hits)
  if (stock.body.quote) renderQuote(stock.body, stock.body.quote)
  else {
    /** @type {Reply<Success<"market.quote">>} */
    const quote = await api("GET", `/v1/quotes/${path}?allow_stale=true`, { token: null })
    renderQuote(stock.body, quote.ok ? quote.body : undefined)
  }
  if ((await currentSession()).signed_in) {
    $("position-section").hidden = false
    markers = await loadPosition($("position"), symbol, stock.body.quote?.price)
  }
  loadPrices(range)
  loadSections(stock.body)
}

for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button.range"))) b.addEventListener("click", () => loadPrices(b.dataset.range ?? "1Y"))

showLoading($("window"), "Loading prices…")
start()
