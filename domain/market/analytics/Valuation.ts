/**
 * Valuation of one symbol (SPEC 4.2 `/valuation`) and the sector medians it
 * is placed against (SPEC 2.3 "Sector valuation"): trailing P/E, trailing
 * dividend yield and market cap, each with its basis, date and price, or the
 * reason it is absent. A figure this service computes uses the price of its
 * own date (the delayed quote, `valuationPrice`); an exchange figure is
 * carried forward to a newer price (`exchangeFigure`), never back. MEBL: the
 * quote is the close of 2026-05-25 (490.2); its yield is 28.5 / 490.2 =
 * 5.814% as computed, 6.2989% as published on 2026-08-04 (at 573.7).
 */
import { defined } from "../../Objects.ts"
import { round, type Unavailable } from "../shared/Figures.ts"
import { median } from "../shared/Stats.ts"
import type { SectorMedians, ValuationFigures } from "./AnalyticsSchemas.ts"

/** The fundamentals row's fields used here (all may be absent). */
export interface FundamentalsInput {
  readonly market_cap?: number | undefined
  readonly pe_ttm?: number | undefined
  readonly eps?: number | undefined
  readonly dividend_yield_pct?: number | undefined
  readonly shares_outstanding?: number | undefined
  /** The price on the exchange's row, which its P/E, yield and market cap were computed at. */
  readonly price?: number | undefined
  readonly as_of: string
}

export interface PriceInput {
  readonly price: number
  readonly as_of: string
}

/** Trailing yield from recorded payouts (`Dividends.trailing`) at the price of `as_of`, when payout coverage is recorded. */
export interface TrailingYieldInput {
  readonly yield_pct: number
  readonly as_of: string
  readonly price?: number | undefined
}

/** An exchange figure as the exchange published it: its date and the price it was computed at. */
export interface Published {
  readonly value: number
  readonly as_of: string
  readonly price?: number
}

export const AT_TOLERANCE_PCT = 1

type Figure = {
  readonly value: number
  readonly as_of: string
  readonly basis: string
  readonly price?: number
  readonly exchange_as_of?: string
  readonly as_published?: Published
}
type Outcome = Figure | { readonly reason: string; readonly loss_making?: true }

const usable = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v)

/** The price the computed figures rest on: the quote; without one, the exchange row's own price. */
export const valuationPrice = (
  f: FundamentalsInput | undefined,
  quote: PriceInput | undefined
): PriceInput | undefined =>
  quote ?? (f !== undefined && usable(f.price) && f.price > 0 ? { price: f.price, as_of: f.as_of } : undefined)

const rowPrice = (f: FundamentalsInput) => (usable(f.price) && f.price > 0 ? { price: f.price } : {})

/** The exchange's figure as published, when it has one (a P/E or yield of 0 is no figure, and never reaches here). */
const published = (f: FundamentalsInput | undefined, value: number | undefined): { as_published?: Published } =>
  f !== undefined && usable(value) ? { as_published: { value, as_of: f.as_of, ...rowPrice(f) } } : {}

/**
 * An exchange figure of the row's date, at `price`: carried forward by `scale(price / row price)` when the price
 * is newer and the row has its price (the published one beside it, in `as_published`); else as published, at its
 * own date and price (its EPS or payouts may postdate the price). Scales: P/E × price / screener price (its
 * trailing EPS), market cap the same (its share count), yield × screener price / price (its trailing dividends).
 */
const exchangeFigure = (
  f: FundamentalsInput,
  value: number,
  basis: string,
  price: PriceInput | undefined,
  scale: (ratio: number) => number
): Figure =>
  price !== undefined && price.as_of > f.as_of && usable(f.price) && f.price > 0
    ? {
      value: value * scale(price.price / f.price),
      as_of: price.as_of,
      basis,
      price: price.price,
      exchange_as_of: f.as_of,
      ...published(f, value)
    }
    : { value, as_of: f.as_of, basis, ...rowPrice(f) }

/**
 * Trailing P/E: price / trailing EPS when a sourced EPS and a price are known (basis `price_over_trailing_eps`).
 * A sourced EPS ≤ 0 is a loss-maker: no P/E, reason given. Without a sourced EPS, the exchange's screener P/E when
 * positive (basis `exchange_pe_ttm`); a 0 there cannot be told from "no figure" and is never used.
 */
export const trailingPe = (f: FundamentalsInput | undefined, price: PriceInput | undefined): Outcome => {
  const eps = f?.eps
  if (usable(eps)) {
    if (eps <= 0) return { reason: `loss-maker: trailing EPS is ${eps}, so a P/E is not meaningful`, loss_making: true }
    if (price !== undefined) {
      const pe = f?.pe_ttm !== undefined && f.pe_ttm > 0 ? f.pe_ttm : undefined
      return {
        value: price.price / eps,
        as_of: price.as_of,
        basis: "price_over_trailing_eps",
        price: price.price,
        ...published(f, pe)
      }
    }
  }
  if (f !== undefined && usable(f.pe_ttm) && f.pe_ttm > 0) {
    return exchangeFigure(f, f.pe_ttm, "exchange_pe_ttm", price, (r) => r)
  }
  if (usable(eps)) return { reason: "no price to divide the trailing EPS by" }
  return { reason: "no sourced EPS (and no exchange P/E) for this symbol" }
}

/**
 * Trailing dividend yield: the trailing 12-month cash payouts over the price (`Dividends.trailing`, basis
 * `trailing_12m_payouts`) when payouts are recorded, else the exchange's screener yield (`exchange_screener`).
 */
export const dividendYield = (
  f: FundamentalsInput | undefined,
  trailing: TrailingYieldInput | undefined,
  price?: PriceInput
): Outcome =>
  trailing !== undefined && usable(trailing.yield_pct)
    ? {
      value: trailing.yield_pct,
      as_of: trailing.as_of,
      basis: "trailing_12m_payouts",
      ...(trailing.price !== undefined ? { price: trailing.price } : {}),
      ...published(f, f?.dividend_yield_pct)
    }
    : f !== undefined && usable(f.dividend_yield_pct)
    ? exchangeFigure(f, f.dividend_yield_pct, "exchange_screener", price, (r) => 1 / r)
    : { reason: "no recorded payouts and no exchange yield figure" }

/** Market cap: the exchange's figure (basis `exchange`), else shares outstanding × price (`shares_outstanding_x_price`). */
export const marketCap = (f: FundamentalsInput | undefined, price: PriceInput | undefined): Outcome =>
  f !== undefined && usable(f.market_cap)
    ? exchangeFigure(f, f.market_cap, "exchange", price, (r) => r)
    : f !== undefined && usable(f.shares_outstanding) && price !== undefined
    ? {
      value: f.shares_outstanding * price.price,
      as_of: price.as_of,
      basis: "shares_outstanding_x_price",
      price: price.price
    }
    : { reason: "no market cap or shares outstanding recorded" }

/** One security's figures as they enter the sector medians. */
export interface PeerFigures {
  readonly pe_ttm?: number | undefined
  readonly loss_making?: boolean | undefined
  readonly dividend_yield_pct?: number | undefined
  readonly market_cap?: number | undefined
}

const value = (o: Outcome) => ("value" in o ? o.value : undefined)

/** A security's peer figures, by the same rules as its own valuation. */
export const peerFigures = (
  f: FundamentalsInput | undefined,
  price: PriceInput | undefined,
  trailing?: TrailingYieldInput
): PeerFigures => {
  const pe = trailingPe(f, price)
  return defined({
    pe_ttm: value(pe),
    loss_making: "loss_making" in pe ? true : undefined,
    dividend_yield_pct: value(dividendYield(f, trailing, price)),
    market_cap: value(marketCap(f, price))
  })
}

/**
 * Medians (never means) of a sector's peer figures: the lines that traded in the peer window (PeerRule.ts; the
 * others counted in `not_trading`) with a usable figure, the symbol itself among them. Loss-makers are left out of
 * the median P/E and counted; no usable figure gives no median, never 0.
 */
export const sectorMedians = (
  peers: ReadonlyArray<PeerFigures>,
  sector: { readonly sector?: string | undefined; readonly sector_code?: string | undefined } = {},
  not_trading = 0
): SectorMedians => {
  const pe = peers.filter((p) => !p.loss_making && usable(p.pe_ttm) && p.pe_ttm > 0).map((p) => p.pe_ttm!)
  const yields = peers.filter((p) => usable(p.dividend_yield_pct)).map((p) => p.dividend_yield_pct!)
  const caps = peers.filter((p) => usable(p.market_cap)).map((p) => p.market_cap!)
  return {
    ...defined({ sector: sector.sector, sector_code: sector.sector_code, pe_ttm: median(pe) }),
    pe_peers: pe.length,
    pe_excluded_loss_making: peers.filter((p) => p.loss_making === true).length,
    ...defined({ dividend_yield_pct: median(yields) }),
    yield_peers: yields.length,
    ...defined({ market_cap: median(caps) }),
    market_cap_peers: caps.length,
    not_trading
  }
}

/** below / at / above the median; at = within ±AT_TOLERANCE_PCT of it. */
export const position = (v: number, m: number): "below" | "at" | "above" =>
  Math.abs(v - m) <= (Math.abs(m) * AT_TOLERANCE_PCT) / 100 ? "at" : v < m ? "below" : "above"

/** The valuation record of one symbol against its sector medians. */
export const valuation = (input: {
  readonly symbol: string
  readonly fundamentals?: FundamentalsInput | undefined
  readonly price?: PriceInput | undefined
  readonly trailing?: TrailingYieldInput | undefined
  readonly medians?: SectorMedians | undefined
}): ValuationFigures => {
  const unavailable: Array<Unavailable> = []
  const m = input.medians
  const place = (name: string, o: Outcome, median: number | undefined, peers: number | undefined, dp: number) => {
    if (!("value" in o)) {
      unavailable.push({ figure: name, reason: o.reason })
      return undefined
    }
    if (m !== undefined && median === undefined) {
      unavailable.push({ figure: `${name}.sector_median`, reason: "no peer in the sector has a usable figure" })
    }
    return {
      value: round(o.value, dp),
      as_of: o.as_of,
      basis: o.basis,
      ...defined({ price: o.price, exchange_as_of: o.exchange_as_of }),
      ...(o.as_published !== undefined
        ? { as_published: { ...o.as_published, value: round(o.as_published.value, dp) } }
        : {}),
      ...(median !== undefined ? { sector_median: median, peers: peers!, position: position(o.value, median) } : {})
    }
  }
  return {
    symbol: input.symbol,
    ...defined({ price: input.price?.price, price_as_of: input.price?.as_of }),
    ...defined({
      pe_ttm: place("pe_ttm", trailingPe(input.fundamentals, input.price), m?.pe_ttm, m?.pe_peers, 4),
      dividend_yield_pct: place(
        "dividend_yield_pct",
        dividendYield(input.fundamentals, input.trailing, input.price),
        m?.dividend_yield_pct,
        m?.yield_peers,
        4
      ),
      market_cap: place("market_cap", marketCap(input.fundamentals, input.price), m?.market_cap, m?.market_cap_peers, 0)
    }),
    ...defined({ sector_medians: m }),
    unavailable
  }
}
