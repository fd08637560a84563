// @ts-check
// The market page's sector board: every sector's medians, breadth and
// constituents. Unknown medians stay unknown.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api, el, formatNumberText, fmtQty, unknown } from "./api.js"
import { num, show, showError, showLoading, sourcesNote, table } from "./ui.js"

/** A median with the count of lines behind it, or unknown. @param {number | undefined} v @param {number | undefined} peers @param {string} [suffix] */
const median = (v, peers, suffix = "") =>
  typeof v === "number" ? el("span", {}, `${formatNumberText(v, 2)}${suffix}`, el("span", { class: "hint" }, ` (${peers ?? "?"})`)) : unknown()

/** @param {HTMLElement} out */
export const loadSectors = async (out) => {
  showLoading(out, "Loading the sector board…", "table")
  /** @type {Reply<Success<"board.sectorBoard">>} */
  const reply = await api("GET", "/v1/sectors/board", { token: null })
  if (!reply.ok) return showError(out, reply, () => loadSectors(out))
  const items = /** @type {any[]} */ (reply.body.items)
  show(
    out,
    el("p", { class: "hint" }, "Every figure is a median of the sector's lines, never a mean; the number of lines behind it is in brackets. " +
      "Medians count only the lines that traded in the 20 sessions up to the latest recorded session (the others under \"Not trading\"). " +
      "The median P/E leaves out loss-makers; a P/E the exchange shows as 0 is unknown, not a loss."),
    table(
      "Sector board",
      [["Sector"], ["Code"], ["Median change %", "num"], ["Median P/E", "num"], ["Median yield %", "num"], ["Up / down / flat", "num"], ["Constituents", "num"], ["Not trading", "num"]],
      items.map((s) => [
        s.name,
        s.code,
        { cell: median(s.median_change_pct, s.change_peers, "%"), class: "num", sort: s.median_change_pct ?? null },
        { cell: median(s.median_pe, s.pe_peers), class: "num", sort: s.median_pe ?? null },
        { cell: median(s.median_dividend_yield_pct, s.yield_peers, "%"), class: "num", sort: s.median_dividend_yield_pct ?? null },
        { cell: `${fmtQty(s.breadth?.advancers)} / ${fmtQty(s.breadth?.decliners)} / ${fmtQty(s.breadth?.unchanged)}`, class: "num", sort: s.breadth?.advancers ?? null },
        num(fmtQty(s.constituents)),
        num(fmtQty(s.not_trading))
      ]),
      { sort: true }
    ),
    sourcesNote(reply.body.sources)
  )
}

/** What each payout date means (the same words as the symbol page's dividends). */
export const DATES_NOTE = "Ex-date is the first day of the book closure; the last buy date is the last day a buyer is " +
  "entitled; XD is the next trading day, when the stock trades ex and a buyer is no longer entitled."
