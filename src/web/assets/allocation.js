// @ts-check
// The portfolio's allocation by position and by sector beside the KSE-100's
// sector weights, drawn from what the API serves (/v1/me/portfolio,
// /v1/me/analyze). The value over time is performance.js's.
import { el, fmtShare, unknown } from "./api.js"
import { barChart, shareFormat } from "./charts.js"
import { fact, facts, foldOnPhone, num, show, table } from "./ui.js"

/** @param {number} v */
const round = (v) => Math.round(v * 100) / 100

/** @param {HTMLElement} out @param {any} portfolio /v1/me/portfolio @param {any} analysis /v1/me/analyze */
export const renderAllocation = (out, portfolio, analysis) => {
  const held = /** @type {any[]} */ (portfolio.holdings).filter((h) => h.quantity > 0)
  const byValue = held.every((h) => typeof h.market_value === "number")
  const weight = (/** @type {any} */ h) => (byValue ? h.market_value : h.cost)
  const total = held.reduce((a, h) => a + weight(h), 0)
  const positions = held.map((h) => ({ symbol: h.symbol, pct: total > 0 ? round((weight(h) / total) * 100) : null }))
  const sectors = /** @type {any[]} */ (analysis?.sectors ?? [])
  const positionChart = el("div", { class: "chart chart-short", id: "allocation-chart" })
  const sectorChart = el("div", { class: "chart chart-short", id: "sector-chart" })
  show(
    out,
    el(
      "div",
      { class: "grid-2" },
      el(
        "div",
        {},
        el("h3", {}, "By position"),
        el("figure", {}, positionChart, el("figcaption", {}, `Share of the portfolio by ${byValue ? "market value at the delayed quote" : "cost (a quote is unknown)"}.`)),
        foldOnPhone(table("Allocation by position", [["Symbol"], ["Weight", "num"]], positions.map((p) => [p.symbol, num(fmtShare(p.pct))]), { id: "allocation-table" }), 0, "positions")
      ),
      el(
        "div",
        {},
        el("h3", {}, "By sector, beside the KSE-100"),
        el("figure", {}, sectorChart, el("figcaption", {}, `Portfolio weight by ${analysis?.weight_basis === "cost" ? "cost" : "market value"} and the sector's weight in the KSE-100.`)),
        foldOnPhone(table(
          "Allocation by sector against the KSE-100",
          [["Sector"], ["Portfolio", "num"], ["KSE-100", "num"]],
          sectors.map((s) => [s.sector, num(fmtShare(s.portfolio_pct)), num(fmtShare(s.kse100_pct))]),
          { id: "sector-table" }
        ), 0, "sectors"),
        analysis
          ? facts(
            fact("Holdings inside the KSE-100", `${analysis.overlap.symbols_in_kse100} of ${analysis.overlap.symbols}`),
            fact("Largest position", analysis.concentration.largest_symbol ? `${analysis.concentration.largest_symbol}, ${analysis.concentration.largest_pct}%` : unknown())
          )
          : ""
      )
    )
  )
  if (positions.length) barChart(positionChart, { categories: positions.map((p) => p.symbol), series: [{ label: "Weight", values: positions.map((p) => p.pct) }], format: shareFormat, categoryLabel: "Symbol", label: `Allocation by position: ${positions.map((p) => `${p.symbol} ${p.pct}%`).join(", ")}`, horizontal: true })
  if (sectors.length) {
    barChart(sectorChart, {
      categories: sectors.map((s) => s.sector),
      series: [{ label: "Portfolio", values: sectors.map((s) => s.portfolio_pct) }, { label: "KSE-100", values: sectors.map((s) => s.kse100_pct ?? null) }],
      format: shareFormat,
      categoryLabel: "Sector",
      label: `Allocation by sector against the KSE-100: ${sectors.map((s) => `${s.sector} ${s.portfolio_pct}% against ${s.kse100_pct ?? "unknown"}%`).join(", ")}`,
      horizontal: true
    })
  }
}
