// @ts-check
// Symbol page: the delayed quote and a chart of daily closes drawn by uPlot
// (served from this origin), with the window's own high, low and change;
// then dividends, announcements, financials, technicals and provenance.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { $, api, badge, describeError, el, fmtMoney, fmtPct, fmtQty, fmtSigned, fmtTime, unknown } from "./api.js"
import { lineChart } from "./charts.js"
import { renderAnnouncements, renderDividends, renderFinancials, renderProvenance, renderTechnicals } from "./symbol-sections.js"

const symbol = $("symbol-root").dataset.symbol ?? ""
const path = encodeURIComponent(symbol)
let chart

const fact = (label, value) => [el("dt", {}, label), el("dd", {}, value)]

const renderQuote = (company, quote) => {
  const out = $("quote")
  if (company?.name) /** @type {HTMLElement} */ (document.querySelector("h1")).textContent = `${symbol}: ${company.name}`
  if (!quote) return out.replaceChildren(el("p", {}, "No quote is recorded for this symbol."))
  out.replaceChildren(
    el(
      "p",
      { class: "price" },
      el("span", { class: "big" }, fmtMoney(quote.price)),
      " PKR ",
      fmtSigned(quote.change),
      " (",
      fmtPct(quote.change_pct),
      ") ",
      badge(quote.status ?? "delayed"),
      quote.stale ? [" ", badge("stale", "warn")] : []
    ),
    el(
      "dl",
      { class: "facts" },
      fact("As of", fmtTime(quote.as_of)),
      fact("Basis", quote.basis === "daily_close" ? "the day's closing price" : "a delayed intraday board reading"),
      fact("Previous close", fmtMoney(quote.previous_close)),
      fact("Volume", fmtQty(quote.volume)),
      company?.sector ? fact("Sector", company.sector) : [],
      company?.derived?.week52
        ? fact("52-week range (closes)", el("span", {}, fmtMoney(company.derived.week52.low), " – ", fmtMoney(company.derived.week52.high)))
        : [],
      fact("Source", `${quote.source?.source ?? "unknown"} (as of ${quote.source?.as_of ?? "unknown"})`)
    )
  )
}

const loadQuote = async () => {
  /** @type {Reply<Success<"market.stock">>} */
  const stock = await api("GET", `/v1/stocks/${path}`, { token: null })
  if (!stock.ok) return $("quote").replaceChildren(el("p", { class: "error" }, describeError(stock)))
  if (stock.body.quote) return renderQuote(stock.body, stock.body.quote)
  /** @type {Reply<Success<"market.quote">>} */
  const quote = await api("GET", `/v1/quotes/${path}?allow_stale=true`, { token: null })
  renderQuote(stock.body, quote.ok ? quote.body : undefined)
}

const draw = (rows, label) => {
  chart?.destroy()
  chart = lineChart($("chart"), { xs: rows.map((r) => r.date), series: [{ label: "Close (PKR)", values: rows.map((r) => r.close), fill: true }], label, height: 320 })
}

const loadPrices = async (range) => {
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button.range"))) b.setAttribute("aria-pressed", String(b.dataset.range === range))
  /** @type {Reply<Success<"market.prices">>} */
  const reply = await api("GET", `/v1/prices/${path}?${new URLSearchParams({ range, limit: "1000" })}`, { token: null })
  const caption = $("chart-caption")
  const out = $("window")
  if (!reply.ok) {
    chart?.destroy()
    chart = undefined
    caption.textContent = ""
    return out.replaceChildren(el("p", { class: "error" }, describeError(reply)))
  }
  const p = reply.body
  const rows = [...p.items].filter((r) => !r.flag).reverse()
  if (rows.length === 0) {
    chart?.destroy()
    chart = undefined
    caption.textContent = "No prices recorded in this range."
    return out.replaceChildren()
  }
  const first = rows[0].date
  const last = rows[rows.length - 1].date
  const label = `Daily closing prices of ${symbol}, ${first} to ${last} (${rows.length} trading days)`
  draw(rows, label)
  caption.textContent = `${label}. Not adjusted for dividends or bonus issues${p.restated_by_source ? "; restated by the exchange for a split" : ""}.${
    p.next_cursor ? " Only the newest 1,000 days are drawn." : ""
  }`
  const w = p.window
  out.replaceChildren(
    w
      ? el(
        "dl",
        { class: "facts" },
        fact(`${w.range} change`, el("span", {}, fmtSigned(w.change), " (", fmtPct(w.change_pct), ")")),
        fact("High (close)", fmtMoney(w.high)),
        fact("Low (close)", fmtMoney(w.low)),
        fact("From", el("span", {}, `${w.from}, close `, fmtMoney(w.first_close))),
        fact("To", el("span", {}, `${w.to}, close `, fmtMoney(w.last_close)))
      )
      : el("p", {}, unknown()),
    p.note ? el("p", { class: "hint" }, p.note) : []
  )
}

const loadSections = async () => {
  const [research, stock, announcements] = await Promise.all([
    api("GET", `/v1/stocks/${path}/research`, { token: null }),
    api("GET", `/v1/stocks/${path}`, { token: null }),
    api("GET", `/v1/stocks/${path}/announcements?limit=20`, { token: null })
  ])
  const fail = (id, reply) => $(id).replaceChildren(el("p", { class: "error" }, describeError(reply)))
  if (research.ok) {
    renderDividends($("dividends"), research.body.dividends, symbol)
    renderTechnicals($("technicals"), research.body.technicals)
    renderProvenance($("provenance"), research.body)
  } else for (const id of ["dividends", "technicals", "provenance"]) fail(id, research)
  if (stock.ok) renderFinancials($("financials"), stock.body.financials, symbol)
  else fail("financials", stock)
  if (announcements.ok) renderAnnouncements($("announcements"), announcements.body, symbol)
  else fail("announcements", announcements)
}

for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button.range"))) b.addEventListener("click", () => loadPrices(b.dataset.range))

loadQuote()
loadPrices("1Y")
loadSections()
