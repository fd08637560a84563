/**
 * The data caveats of the research package (SPEC 4.2 research, 8 "Data
 * limits"): always no balance sheet and unadjusted prices; each bonus or
 * split step inside the analytics or technicals windows named; the 52-week
 * range's basis when close-based; a stale quote; unknown dividend or news
 * coverage; too little history for some figures.
 */
import type { AnalyticsFigures, Caveat, TechnicalsFigures } from "./AnalyticsSchemas.ts"

export const researchCaveats = (input: {
  readonly analytics?: AnalyticsFigures | undefined
  readonly technicals?: TechnicalsFigures | undefined
  readonly quoteStale?: boolean | undefined
  readonly dividendCoverage?: "recorded" | "unknown" | undefined
  readonly newsCoverage?: "recorded" | "unknown" | undefined
}): Array<Caveat> => {
  const out: Array<Caveat> = [
    {
      code: "no_balance_sheet",
      message:
        "No balance sheet is recorded: return on equity, price to book, debt to equity and free cash flow are absent."
    },
    {
      code: "unadjusted_prices",
      message:
        "Prices are as traded, never adjusted for dividends, bonus issues or splits; returns across a step are computed on the step-adjusted basis and the step is listed."
    }
  ]
  const basis = input.analytics?.price_series ?? input.technicals?.price_series
  if (basis !== undefined && basis.restated_by_source !== false) {
    out.push({
      code: basis.restated_by_source === true ? "restated_series" : "restatement_unknown",
      message: basis.restated_by_source === true
        ? `The ${basis.series} series these figures use is restated by the exchange for a split (not as traded): ${
          basis.note ?? ""
        }`
        : `Whether the exchange restated the ${basis.series} series these figures use is not known: ${basis.note ?? ""}`
    })
  }
  const steps = new Map([...(input.analytics?.steps ?? []), ...(input.technicals?.steps ?? [])].map((s) => [s.date, s]))
  for (const s of [...steps.values()].sort((a, b) => (a.date < b.date ? -1 : 1))) {
    out.push({
      code: "step_in_window",
      message:
        `A ${
          s.kind ?? "bonus, split or right"
        } step on ${s.date}: close ${s.close_before} on ${s.previous_date} then ${s.close_after} ` +
        `(${
          s.basis === "detected" ? "a move beyond the exchange's price limit" : "a recorded corporate action"
        }); it is not a price fall.`
    })
  }
  if (input.analytics?.week52?.basis === "close") {
    out.push({
      code: "close_based_52w_range",
      message: "The 52-week range is of daily closes: no intraday high and low are recorded for the whole window."
    })
  }
  if (input.quoteStale === true) {
    out.push({
      code: "quote_stale",
      message: "The quote is older than the freshness rule allows; it is delayed and may be out of date."
    })
  }
  if (input.dividendCoverage !== "recorded") {
    out.push({
      code: "dividend_coverage_unknown",
      message: "No payout history is recorded for this symbol: unknown, not zero."
    })
  }
  if (input.newsCoverage !== "recorded") {
    out.push({ code: "news_coverage_unknown", message: "No news is recorded for this symbol: unknown, not none." })
  }
  const short = [...(input.analytics?.unavailable ?? []), ...(input.technicals?.unavailable ?? [])].filter((u) =>
    u.reason.startsWith("needs ")
  )
  if (short.length > 0) {
    out.push({ code: "short_history", message: `Too little history for: ${short.map((u) => u.figure).join(", ")}.` })
  }
  return out
}
