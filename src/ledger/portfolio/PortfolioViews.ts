/**
 * The read views of a portfolio that the endpoints answer with: holdings
 * with their sources, the portfolio with totals, cash flows and paged
 * history, and the analysis against the KSE-100 constituents with
 * time-weighted returns. Handlers call one method each and hold no SQL.
 *
 * Owns: the arithmetic of totals and cash flows (reversed trades left out).
 * Does not own: positions (Portfolio), prices, sectors, KSE-100 weights and
 * sources (asked of the market services; no SQL on market tables here).
 */
import { Clock, Context, Effect, Layer } from "effect"
import type { InvalidRequest, SourceUnavailable } from "../../../domain/Errors.ts"
import { karachiDate } from "../../../domain/Karachi.ts"
import { analyse } from "../../../domain/ledger/Analysis.ts"
import type { StoredEvent } from "../../../domain/ledger/Events.ts"
import type { Principal } from "../../../domain/ledger/Grants.ts"
import { performanceOf } from "../../../domain/ledger/Performance.ts"
import type { Analysis, Holding, Holdings, Portfolio as PortfolioView } from "../../../domain/ledger/Schemas.ts"
import { NET_OF_TAX_NOTE } from "../../../domain/ledger/Taxes.ts"
import { Sources } from "../../market/provenance/Provenance.ts"
import { MarketFacts } from "./MarketFacts.ts"
import { Portfolio, streamOf } from "./Portfolio.ts"
import { toEntries } from "./Projection.ts"

const cents = (n: number) => Math.round(n * 100) / 100
const QUOTE_DATASETS = ["prices_eod", "prices_as_traded", "board_allshr"]

/** Money put in and taken out by trades, leaving out reversed trades (one pass, reversals first). */
export const cashFlows = (events: ReadonlyArray<StoredEvent>) => {
  const reversed = new Set(events.flatMap((e) => (e.event.type === "TransactionReversed" ? [e.event.reverses] : [])))
  let invested = 0
  let proceeds = 0
  for (const e of events) {
    const ev = e.event
    if (ev.type !== "TradeRecorded" || reversed.has(e.event_id)) continue
    if (ev.side === "buy") invested += ev.quantity * ev.price + ev.fees
    else proceeds += ev.quantity * ev.price - ev.fees
  }
  return { invested: cents(invested), proceeds: cents(proceeds) }
}

/** Totals of the holdings; the market value only when every open position has a quote (never understated). */
export const totalsOf = (holdings: ReadonlyArray<typeof Holding.Type>) => {
  const open = holdings.filter((h) => h.quantity > 0)
  const sum = (f: (h: typeof Holding.Type) => number) => cents(holdings.reduce((s, h) => s + f(h), 0))
  const openCost = cents(open.reduce((s, h) => s + h.cost, 0))
  const marketValue = sum((h) => h.market_value ?? 0)
  return {
    cost: openCost,
    realized_pnl: sum((h) => h.realized_pnl),
    dividends_net: sum((h) => h.dividends_net),
    ...(open.length > 0 && open.every((h) => h.market_value !== undefined)
      ? { market_value: marketValue, unrealized_pnl: cents(marketValue - openCost) }
      : open.length > 0
      ? { market_value_note: "not every open position has a known quote: the total is left out, not understated" }
      : {})
  }
}

/**
 * Time-weighted returns over the standard periods, the one definition GET /v1/me/performance also answers with
 * (domain/ledger/Performance.ts), as percentages to four places.
 */
const returnsOf = (
  market: typeof MarketFacts.Service,
  symbols: ReadonlyArray<string>,
  events: ReadonlyArray<StoredEvent>
) =>
  Effect.gen(function*() {
    const facts = yield* market.performance(symbols)
    const today = karachiDate(yield* Clock.currentTimeMillis)
    const r = performanceOf({ entries: toEntries(events), closes: facts.closes, index: facts.index, today })
    if ("_tag" in r || r.last_session === undefined) return { end: undefined, periods: [] }
    const periods = r.periods.flatMap((p) =>
      p.twr === undefined || p.period === "range"
        ? []
        : [{
          period: p.period,
          from: p.from,
          to: p.to,
          return_pct: Math.round(p.twr * 1_000_000) / 10_000,
          covers_whole_period: p.covers_whole_period
        }]
    )
    return { end: r.last_session, periods }
  })

/** Dividends received, gross and net of the tax withheld. */
const dividendIncome = (items: ReadonlyArray<typeof Holding.Type>) => ({
  gross: cents(items.reduce((s, h) => s + h.dividends_gross, 0)),
  net: cents(items.reduce((s, h) => s + h.dividends_net, 0)),
  tax_withheld: cents(items.reduce((s, h) => s + h.tax_withheld, 0)),
  tax_note: NET_OF_TAX_NOTE
})

/** The parts of the analysis that cannot be given, and why. */
const unavailableParts = (hasReturns: boolean, hasHoldings: boolean, costWeights: boolean) => [
  {
    part: "benchmark returns",
    reason:
      "KSE-100's change over the same periods (from its recorded closes since 2010), with money-weighted and total " +
      "returns, is in GET /v1/me/performance"
  },
  ...(!hasReturns && hasHoldings
    ? [{ part: "returns", reason: "a holding has no recorded close in the period, so the return is unknown" }]
    : []),
  ...(costWeights
    ? [{ part: "market-value weights", reason: "not every open position has a known quote; weights use cost" }]
    : [])
]

/** GET /v1/me/analyze: allocation against the KSE-100's sectors, returns and dividend income. */
const analyzeWith = (
  portfolio: typeof Portfolio.Service,
  market: typeof MarketFacts.Service,
  sources: typeof Sources.Service
) =>
  Effect.fn("PortfolioViews.analyze")(function*(p: Principal) {
    const items = yield* portfolio.holdings(p)
    const symbols = items.map((h) => h.symbol)
    const events = yield* portfolio.events(p)
    const { end, periods } = yield* returnsOf(market, symbols, events)
    const { meta, sectors: index } = yield* market.index(symbols)
    const bySymbol = new Map(meta.map((m) => [m.symbol, m]))
    const a = analyse(
      items.filter((h) => h.quantity > 0).map((h) => ({
        symbol: h.symbol,
        sector: bySymbol.get(h.symbol)?.sector_name ?? undefined,
        cost: h.cost,
        market_value: h.market_value,
        in_kse100: bySymbol.get(h.symbol)?.kse100 === true
      })),
      index.map((i) => ({ sector: i.sector, weight_pct: i.weight }))
    )
    return {
      portfolio: streamOf(p.userId),
      benchmark: "KSE-100 constituents" as const,
      ...a,
      dividend_income: dividendIncome(items),
      ...(periods.length > 0 && end
        ? {
          returns: {
            basis:
              "time-weighted, daily chain-linked at recorded closes, dividends (net) included; fees in cost (as GET /v1/me/performance)",
            to: end,
            periods
          }
        }
        : {}),
      unavailable: unavailableParts(periods.length > 0, items.length > 0, a.weight_basis === "cost"),
      sources: yield* sources.of(["index_kse100", "universe"])
    }
  })

export class PortfolioViews extends Context.Service<PortfolioViews, {
  readonly holdings: (p: Principal) => Effect.Effect<typeof Holdings.Type, SourceUnavailable>
  readonly portfolio: (
    p: Principal,
    limit: number,
    cursor: string | undefined
  ) => Effect.Effect<typeof PortfolioView.Type, InvalidRequest | SourceUnavailable>
  readonly analyze: (p: Principal) => Effect.Effect<typeof Analysis.Type, InvalidRequest | SourceUnavailable>
}>()("psx/ledger/PortfolioViews") {
  static readonly layer = Layer.effect(
    PortfolioViews,
    Effect.gen(function*() {
      const portfolio = yield* Portfolio
      const sources = yield* Sources
      const market = yield* MarketFacts

      const quoteSources = (holdings: ReadonlyArray<typeof Holding.Type>) =>
        sources.of(holdings.some((h) => h.quote_as_of) ? QUOTE_DATASETS : [])

      const holdings = Effect.fn("PortfolioViews.holdings")(function*(p: Principal) {
        const items = yield* portfolio.holdings(p)
        return { portfolio: streamOf(p.userId), items, tax_note: NET_OF_TAX_NOTE, sources: yield* quoteSources(items) }
      })

      const view = Effect.fn("PortfolioViews.portfolio")(
        function*(p: Principal, limit: number, cursor: string | undefined) {
          const items = yield* portfolio.holdings(p)
          const page = yield* portfolio.history(p, limit, cursor)
          const events = yield* portfolio.events(p)
          const totals = { ...totalsOf(items), tax_note: NET_OF_TAX_NOTE }
          return {
            portfolio: streamOf(p.userId),
            holdings: items,
            totals,
            cash_flows: {
              ...cashFlows(events),
              dividends_net: totals.dividends_net,
              tax_withheld: cents(items.reduce((s, h) => s + h.tax_withheld, 0))
            },
            transactions: { total: page.total, next_cursor: page.next_cursor, items: page.items },
            sources: yield* quoteSources(items)
          }
        }
      )

      const analyze = analyzeWith(portfolio, market, sources)

      return { holdings, portfolio: view, analyze }
    })
  )
}
