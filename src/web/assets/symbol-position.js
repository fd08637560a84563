// @ts-check
// The symbol page's "your position and trades" panel, for a signed-in tab:
// the holding as the API serves it (GET /v1/me/holdings) and this symbol's
// events from the ledger, newest trade date first. The trades come back as
// markers for the price chart.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, dateText, el, fmtPct, fmtQty, fmtRs, fmtRsPrice, fmtSigned } from "./api.js"
import { allEvents, describeEvent, reversedIds } from "./events.js"
import { fact, facts, show, showError, table } from "./ui.js"

/**
 * @param {HTMLElement} out
 * @param {string} symbol
 * @param {number | undefined} _price the delayed quote (the holding carries its own)
 * @returns {Promise<Array<{ date: string, kind: "buy" | "sell" }>>}
 */
export const loadPosition = async (out, symbol, _price) => {
  /** @type {[Reply<Success<"portfolio.holdings">>, Awaited<ReturnType<typeof allEvents>>]} */
  const [holdings, ledger] = await Promise.all([api("GET", "/v1/me/holdings"), allEvents()])
  if (!holdings.ok) {
    showError(out, holdings, () => loadPosition(out, symbol, _price))
    return []
  }
  if (!ledger.ok) {
    showError(out, ledger.reply, () => loadPosition(out, symbol, _price))
    return []
  }
  const reversed = reversedIds(ledger.events)
  const mine = ledger.events
    .filter((e) => e.payload?.symbol === symbol && e.type !== "TransactionReversed" && !reversed.has(e.event_id))
    .sort((a, b) => b.effective_date.localeCompare(a.effective_date) || b.version - a.version)
  const h = holdings.body.items.find((x) => x.symbol === symbol)
  const add = el("a", { href: `/portfolio?add=${encodeURIComponent(symbol)}`, class: "button-link" }, `Add a ${symbol} transaction`)
  if (!h && mine.length === 0) {
    show(out, el("p", {}, `You have recorded nothing for ${symbol}. `, add))
    return []
  }
  const pnlPct = h && typeof h.unrealized_pnl === "number" && h.cost > 0 ? (h.unrealized_pnl / h.cost) * 100 : undefined
  show(
    out,
    h
      ? facts(
        fact("Shares held", fmtQty(h.quantity)),
        fact("Average cost", fmtRsPrice(h.average_cost)),
        fact("Market value", fmtRs(h.market_value)),
        fact("Unrealised P/L", el("span", {}, fmtSigned(h.unrealized_pnl, { rs: true }), " ", pnlPct === undefined ? "" : ["(", fmtPct(pnlPct), ")"])),
        fact("Realised P/L", fmtSigned(h.realized_pnl, { rs: true })),
        fact("Dividends received (net)", fmtRs(h.dividends_net))
      )
      : el("p", {}, `You hold no ${symbol} now.`),
    table(
      `Your ${symbol} events, newest first`,
      [["Date"], ["Event"], ["Details"]],
      mine.map((e) => {
        const d = describeEvent(e)
        return [{ cell: dateText(e.effective_date), class: "nowrap", sort: e.effective_date }, d.kind, d.details]
      }),
      { id: "position-events", cards: true }
    ),
    el("p", {}, add, " · ", el("a", { href: "/portfolio" }, "Your whole portfolio"))
  )
  return mine
    .filter((e) => e.type === "TradeRecorded")
    .map((e) => ({ date: e.effective_date, kind: /** @type {"buy" | "sell"} */ (e.payload.side === "sell" ? "sell" : "buy") }))
}
