/**
 * The per-symbol figures derived from one read-model snapshot — analytics,
 * technicals, screen figures, sector medians and valuation — computed once
 * and kept with that snapshot, so no request scans a price history.
 *
 * - Per snapshot, per symbol, on first use: `analytics` (with the symbol's
 *   latest quote and corporate actions) and `technicals`.
 * - Per snapshot and Karachi day (trailing dividend yields count back 12
 *   months from the day): every listed security's screen figures (ascending
 *   by symbol), each equity sector's medians (`Valuation.sectorMedians` over
 *   the lines that count as peers, PeerRule.ts, on the same P/E, yield and
 *   market-cap rules as the symbol's own valuation, so like is compared with
 *   like), and the inputs of each valuation.
 *
 * `makeFigureMemo` holds them in WeakMaps keyed by the objects they were
 * computed from: a snapshot swapped out is dropped with its figures.
 */
import { analytics as analyticsOf, type LatestQuote } from "../../../domain/market/analytics/Analytics.ts"
import type {
  AnalyticsFigures,
  ScreenFigures,
  SectorMedians,
  TechnicalsFigures
} from "../../../domain/market/analytics/AnalyticsSchemas.ts"
import { type ScreenTable, screenTable } from "../../../domain/market/analytics/Screener.ts"
import { exDividendOn, screenFigures } from "../../../domain/market/analytics/ScreenerFigures.ts"
import { technicals as technicalsOf } from "../../../domain/market/analytics/Technicals.ts"
import {
  dividendYield,
  type FundamentalsInput,
  marketCap,
  peerFigures,
  type PriceInput,
  sectorMedians,
  trailingPe,
  type TrailingYieldInput,
  valuationPrice
} from "../../../domain/market/analytics/Valuation.ts"
import { isTradingPeer } from "../../../domain/market/board/PeerRule.ts"
import { seriesBasis } from "../../../domain/market/prices/Restated.ts"
import { round } from "../../../domain/market/shared/Figures.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { defined } from "../../../domain/Objects.ts"
import { runSteps, type Steps } from "../../../domain/SlicedWork.ts"
import { dividendsOf } from "../filings/Filings.ts"

export interface SymbolFigures {
  readonly analytics: AnalyticsFigures | undefined
  readonly technicals: TechnicalsFigures | undefined
}

/** What a symbol's valuation is computed from (the same inputs its screen figures used). */
export interface ValuationInputs {
  readonly fundamentals: FundamentalsInput | undefined
  readonly price: PriceInput | undefined
  readonly trailing: TrailingYieldInput | undefined
  readonly medians: SectorMedians | undefined
  /** Datasets the inputs came from. */
  readonly datasets: ReadonlyArray<string>
  /** Datasets the symbol's screen row came from (its price may be another than the valuation's). */
  readonly rowDatasets: ReadonlyArray<string>
}

export interface DayFigures {
  readonly day: string
  /** Every listed security's screen figures, ascending by symbol. */
  readonly rows: ReadonlyArray<ScreenFigures>
  readonly bySymbol: ReadonlyMap<string, ScreenFigures>
  /** The rows in columns, as the screener filters them. */
  readonly table: ScreenTable
  readonly valuation: ReadonlyMap<string, ValuationInputs>
  /** Datasets any screen figure was read from. */
  readonly datasets: ReadonlyArray<string>
}

const latestQuote = (data: SymbolData): LatestQuote | undefined => {
  const q = data.quote
  return q === undefined ? undefined : {
    price: q.price,
    as_of: q.as_of,
    ...defined({ previous_close: q.previous_close, change_pct: q.change_pct, volume: q.volume })
  }
}

/** The fundamentals row as the valuation rules read it; as-of is the row's, else its dataset's. */
const fundamentalsInput = (snapshot: MarketSnapshot, data: SymbolData) => {
  const f = data.fundamentals
  const asOf = f?.as_of ?? (f !== undefined ? snapshot.datasets.get(f.dataset)?.as_of : undefined)
  if (f === undefined || asOf === undefined) return undefined
  return {
    as_of: asOf,
    ...defined({
      market_cap: f.market_cap,
      pe_ttm: f.pe_ttm,
      eps: f.eps,
      dividend_yield_pct: f.dividend_yield_pct,
      shares_outstanding: f.shares_outstanding,
      price: f.price,
      free_float_shares: f.free_float_shares,
      volume_30d_avg: f.volume_30d_avg
    })
  }
}

const computeSymbol = (data: SymbolData): SymbolFigures => {
  const s = data.prices
  if (s === undefined) return { analytics: undefined, technicals: undefined }
  const actions = data.actions.map((a) => ({ kind: a.kind, ...defined({ xd_date: a.xd_date, ratio: a.ratio }) }))
  const price_series = seriesBasis(s.series, data.restatement)
  const analytics = analyticsOf(s, { quote: latestQuote(data), actions })
  const technicals = technicalsOf(s, actions)
  return {
    analytics: analytics === undefined ? undefined : labelled(analytics, price_series),
    technicals: technicals === undefined ? undefined : { ...technicals, price_series }
  }
}

/**
 * Analytics with the series they rest on. On a series the source restated
 * (prices divided by the split factor, volumes not), close × volume mixes
 * two bases before the split: value traded is then withheld and said so.
 */
const labelled = (a: AnalyticsFigures, price_series: ReturnType<typeof seriesBasis>): AnalyticsFigures => {
  if (price_series.restated_by_source !== true || a.liquidity_30d === undefined) return { ...a, price_series }
  const { value_traded: _v, avg_value_traded: _a, ...liquidity } = a.liquidity_30d
  return {
    ...a,
    price_series,
    liquidity_30d: liquidity,
    unavailable: [...a.unavailable, {
      figure: "liquidity_30d.value_traded",
      reason:
        "the series is restated by its source for a split (closes divided, volumes not): close × volume would mix two bases"
    }]
  }
}

/** One security's screen row, the inputs of its valuation and the datasets they came from. */
const screenRowOf = (
  snapshot: MarketSnapshot,
  security: MarketSnapshot["securities"][number],
  day: string,
  symbolFigures: (data: SymbolData) => SymbolFigures
) => {
  const data = snapshot.symbols.get(security.symbol)!
  const { analytics, technicals } = symbolFigures(data)
  const quote = latestQuote(data)
  const fundamentals = fundamentalsInput(snapshot, data)
  const div = dividendsOf(snapshot, data, day)
  const trailing = div.ttm_dividend_yield_pct !== undefined && quote !== undefined
    ? { yield_pct: div.ttm_dividend_yield_pct, as_of: quote.as_of, price: quote.price }
    : undefined
  const exDay = quote !== undefined ? quote.as_of.slice(0, 10) : analytics?.as_of
  const row = screenFigures({
    symbol: security.symbol,
    name: security.name,
    sector: security.sector_name,
    sector_code: security.sector_code,
    security_type: security.security_type,
    inside_kse100: data.kse100 !== undefined,
    series: data.prices,
    quote,
    fundamentals,
    trailing,
    ex_dividend: exDay === undefined ? null : exDividendOn(exDay, data.actions, data.payoutCoverage?.coverage),
    analytics,
    technicals
  })
  const priceDatasets = quote !== undefined ? [data.quote!.dataset] : data.prices?.datasets ?? []
  const used = [
    ...priceDatasets,
    ...(fundamentals !== undefined ? [data.fundamentals!.dataset] : []),
    ...(trailing !== undefined ? data.payoutDatasets : []),
    ...(data.kse100 !== undefined ? [data.kse100.dataset] : [])
  ]
  const rowPrice = row.price !== undefined && row.price_as_of !== undefined
    ? { price: row.price, as_of: row.price_as_of }
    : undefined
  const inputs = valuationInputsOf(fundamentals, rowPrice, trailing, used, priceDatasets)
  return { row: valuedRow(row, inputs), used: [...used, ...(data.prices?.datasets ?? [])], inputs }
}

/**
 * The row's P/E, yield and market cap as its valuation has them (Valuation.ts), each with the date of the price it
 * rests on: a figure computed here is at the row's price; an exchange figure newer than it keeps its own date.
 */
const valuedRow = (row: ScreenFigures, inputs: Omit<ValuationInputs, "medians">): ScreenFigures => {
  const { dividend_yield_pct: _y, pe_ttm: _p, market_cap: _c, ...rest } = row
  const { fundamentals: f, price, trailing } = inputs
  const at = (
    o: ReturnType<typeof trailingPe>
  ) => ("value" in o ? { value: round(o.value), as_of: o.as_of, basis: o.basis } : undefined)
  const pe = at(trailingPe(f, price)), dy = at(dividendYield(f, trailing, price)), cap = at(marketCap(f, price))
  return {
    ...rest,
    ...defined({
      dividend_yield_pct: dy?.value,
      dividend_yield_basis: dy?.basis,
      dividend_yield_as_of: dy?.as_of,
      pe_ttm: pe?.value,
      pe_ttm_as_of: pe?.as_of,
      market_cap: cap?.value,
      market_cap_as_of: cap?.as_of
    })
  }
}

/**
 * A valuation's inputs at its price (Valuation.ts `valuationPrice`): the screen row's; without one, the exchange
 * row's own, and then no trailing yield is computed (its 12 months would not end on that price's date).
 */
const valuationInputsOf = (
  fundamentals: ValuationInputs["fundamentals"],
  rowPrice: PriceInput | undefined,
  trailing: TrailingYieldInput | undefined,
  used: ReadonlyArray<string>,
  priceDatasets: ReadonlyArray<string>
): Omit<ValuationInputs, "medians"> => {
  const price = valuationPrice(fundamentals, rowPrice)
  const rowDatasets = [...new Set(used)]
  if (price === rowPrice) return { fundamentals, price, trailing, datasets: rowDatasets, rowDatasets }
  return {
    fundamentals,
    price,
    trailing: undefined,
    datasets: rowDatasets.filter((d) => !priceDatasets.includes(d)),
    rowDatasets
  }
}

/** Each equity sector's medians over its trading peers (PeerRule.ts), on the same inputs as each member's own valuation. */
const sectorMediansOf = (snapshot: MarketSnapshot, inputs: ReadonlyMap<string, Omit<ValuationInputs, "medians">>) => {
  const medians = new Map<string, SectorMedians>()
  for (const [sector, members] of snapshot.sectorMembers) {
    const code = snapshot.symbols.get(members[0]!)?.security.sector_code
    const trading = members.filter((m) => isTradingPeer(snapshot, snapshot.symbols.get(m)))
    const peers = trading.map((m) => {
      const i = inputs.get(m)
      return peerFigures(i?.fundamentals, i?.price, i?.trailing)
    })
    medians.set(sector, sectorMedians(peers, defined({ sector, sector_code: code }), members.length - trading.length))
  }
  return medians
}

function* daySteps(
  snapshot: MarketSnapshot,
  day: string,
  symbolFigures: (data: SymbolData) => SymbolFigures
): Steps<DayFigures> {
  const rows: Array<ScreenFigures> = []
  const inputs = new Map<string, Omit<ValuationInputs, "medians">>()
  const datasets = new Set<string>(["universe"])
  for (const security of snapshot.securities) {
    const one = screenRowOf(snapshot, security, day, symbolFigures)
    // A delisted symbol keeps its figures (valuation, analytics) but leaves the screen of listed securities.
    if (security.delisted_on === undefined) rows.push(one.row)
    for (const d of one.used) datasets.add(d)
    inputs.set(security.symbol, one.inputs)
    // A pause after each security (its figures take up to a few ms); the runner decides by the clock when to yield.
    yield
  }
  const medians = sectorMediansOf(snapshot, inputs)
  const valuation = new Map<string, ValuationInputs>()
  for (const [symbol, i] of inputs) {
    const sector = snapshot.symbols.get(symbol)!.security.sector_name
    valuation.set(symbol, { ...i, medians: sector !== undefined ? medians.get(sector) : undefined })
  }
  return {
    day,
    rows,
    bySymbol: new Map(rows.map((r) => [r.symbol, r])),
    table: screenTable(rows),
    valuation,
    datasets: [...datasets]
  }
}

/**
 * A memo of figures, held as long as what they were computed from: a
 * symbol's by its `SymbolData` object (a snapshot updated for a few symbols
 * keeps the others' objects, and so their figures), the day's by snapshot.
 */
export const makeFigureMemo = () => {
  const symbols = new WeakMap<SymbolData, SymbolFigures>()
  const days = new WeakMap<MarketSnapshot, DayFigures>()
  const symbol = (_snapshot: MarketSnapshot, data: SymbolData): SymbolFigures => {
    let f = symbols.get(data)
    if (f === undefined) {
      f = computeSymbol(data)
      symbols.set(data, f)
    }
    return f
  }
  /** The day's figures, in steps (domain/SlicedWork.ts): each security's a slice at a time. */
  function* dayFigureSteps(snapshot: MarketSnapshot, date: string): Steps<DayFigures> {
    const known = days.get(snapshot)
    if (known !== undefined && known.day === date) return known
    const d = yield* daySteps(snapshot, date, (data) => symbol(snapshot, data))
    days.set(snapshot, d)
    return d
  }
  const day = (snapshot: MarketSnapshot, date: string): DayFigures => runSteps(dayFigureSteps(snapshot, date))
  return { symbol, day, daySteps: dayFigureSteps }
}
export type FigureMemo = ReturnType<typeof makeFigureMemo>
