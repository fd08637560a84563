/**
 * The tool endpoint's prompts: three research tasks an
 * agent's host can offer its user, each a user message naming the tools and
 * resources to use and the service's rules (delayed figures, unadjusted
 * prices, unknown is not zero). The arguments are checked like a tool's: a
 * malformed ticker is invalid params, never a prompt about nothing.
 */
import { Effect, Layer, Schema } from "effect"
import { McpServer } from "effect/ai"
import { RESOURCES } from "./Resources.ts"

const Ticker = Schema.String.check(Schema.isPattern(/^[A-Za-z][A-Za-z0-9.-]{0,11}$/u)).annotate({
  description: "A PSX ticker, e.g. HUBC"
})
const Holdings = Schema.String.check(
  Schema.isPattern(
    /^\s*[A-Za-z][A-Za-z0-9.-]{0,11}\s*:\s*\d{1,12}\s*(,\s*[A-Za-z][A-Za-z0-9.-]{0,11}\s*:\s*\d{1,12}\s*){0,49}$/u
  )
)
  .annotate({ description: "Up to 50 holdings as SYMBOL:SHARES, comma-separated, e.g. HUBC:500,OGDC:200" })

const RULES =
  "Rules: quotes are delayed, never live; prices are not adjusted for corporate actions (a bonus is a step, " +
  "not a fall); a missing figure is unknown, never zero; cite each figure's source and as_of."

export const PromptsLive = Layer.mergeAll(
  McpServer.prompt({
    name: "research_symbol",
    title: "Research a symbol",
    description: "A sourced research note on one PSX symbol: business, quote, valuation, payouts, filings and peers.",
    parameters: { symbol: Ticker },
    content: ({ symbol }) =>
      Effect.succeed(
        `Research ${symbol.toUpperCase()} on the Pakistan Stock Exchange. Call get_research for it (one call: profile, ` +
          "quote, analytics, technicals, valuation against its sector's medians, dividends, the newest filings and news, " +
          "caveats and sources); if the symbol is not a ticker, call search_symbols first. Write a short note: what the company does, price and " +
          `52-week context, valuation against its sector's medians, payout record, recent filings, and what is unknown. ${RULES}`
      )
  }),
  McpServer.prompt({
    name: "review_portfolio",
    title: "Review my portfolio",
    description:
      "Review a portfolio: with a key, the recorded one (get_holdings, get_performance, get_entitlements); " +
      "without, holdings given as SYMBOL:SHARES. Value, concentration, sectors, return against KSE-100, payouts ahead.",
    parameters: { holdings: Schema.optional(Holdings) },
    content: ({ holdings }) =>
      Effect.succeed(
        holdings === undefined
          ? "Review my recorded PSX portfolio. Call get_holdings (positions, market value, P/L), get_performance (returns " +
            "against KSE-100 by period) and get_entitlements (what recorded payouts owe it). Give its worth, the weights and " +
            `sector mix (resource ${RESOURCES.sectors}), how it did against KSE-100, and what it is owed next. ${RULES}`
          : `Review this PSX portfolio (symbol: shares): ${
            holdings.replace(/\s+/g, "")
          }. For each holding call get_quote ` +
            "(allow_stale: true) and get_company; value it at the delayed price, then give the weights, the sector mix " +
            `(resource ${RESOURCES.sectors}), the trailing dividend income, and the holdings with a book closure in ` +
            `${RESOURCES.dividendCalendar}. Do not compute a figure from an unknown one. ${RULES}`
      )
  }),
  McpServer.prompt({
    name: "plan_book_closures",
    title: "Plan around upcoming book closures",
    description:
      "Which open payouts can still be earned, by when to buy, and what each pays, from the dividend calendar.",
    parameters: {
      symbols: Schema.optional(Schema.String).annotate({
        description: "Comma-separated PSX tickers to focus on, e.g. MEBL,LUCK (optional: all open payouts otherwise)"
      })
    },
    content: ({ symbols }) =>
      Effect.succeed(
        `Read ${RESOURCES.dividendCalendar} (the open payouts). ` +
          (symbols === undefined ? "" : `Focus on ${symbols.toUpperCase()}. `) +
          "List the payouts still earnable with their last_buy_date, book closure and amount, soonest first; for each, " +
          "call get_quote (allow_stale: true) and get_dividends to set the payout against the price and the symbol's " +
          "payout history. Say which payouts buying today no longer earns, and that payouts of symbols outside the " +
          `calendar's coverage are unknown, not absent. ${RULES}`
      )
  })
)
