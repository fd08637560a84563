/**
 * Valuation of one symbol (SPEC 4.2 `/valuation`) and the sector medians it
 * is placed against (SPEC 2.3 "Sector valuation").
 *
 * - Trailing P/E: price / trailing EPS when a sourced EPS and a price are
 *   known (basis `price_over_trailing_eps`, as of the price). A sourced EPS ≤ 0
 *   is a loss-maker: no P/E, reason given. Without a sourced EPS, the
 *   exchange's own screener P/E (TTM; computed by the exchange from its
 *   trailing EPS) is used when positive (basis `exchange_pe_ttm`, as of the
 *   screener). Neither: absent, reason "no sourced EPS". A 0 P/E on the
 *   exchange's screener cannot be told from "no figure" and is never here.
 * - Trailing dividend yield: the trailing 12-month cash payouts over the price
 *   (`Dividends.trailing`, basis `trailing_12m_payouts`) when payouts are
 *   recorded for the symbol, else the exchange's screener yield (basis
 *   `exchange_screener`). Neither: absent.
 * - Market cap: the exchange's figure (basis `exchange`), else shares
 *   outstanding × price (basis `shares_outstanding_x_price`). Neither: absent.
 * - Sector medians: `Stats.median` (medians only, never means) over the
 *   sector's peers (the lines that traded in the peer window, PeerRule.ts;
 *   the others counted in `not_trading`) with a usable figure, the symbol
 *   itself included. A 0 P/E on the exchange's screener is unknown, not a loss.
 *   Loss-makers are excluded from the median P/E and counted; no usable
 *   figure gives no median (never 0).
 * - Position: `at` when within ±1% of the median (AT_TOLERANCE_PCT), else
 *   `below` or `above`.
 *
 * One date per valuation (`valuationPrice`): the figures rest on one price,
 * the newer of the delayed quote and the price on the exchange's own
 * screener row (the price its P/E, yield and market cap were computed at).
 * MEBL: the screener of 2026-08-04 (price 573.7) is newer than the last
 * close of 2026-05-25 (490.2), so its valuation is of 2026-08-04 at 573.7,
 * as the exchange computed it. An exchange figure older than the price is
 * carried forward to it with the exchange's own inputs of its date, shown
 * in `exchange_as_of`: P/E × price / screener price (its trailing EPS),
 * market cap × price / screener price (its share count), yield × screener
 * price / price (its trailing dividends); earnings or payouts announced
 * after `exchange_as_of` are not in them. A figure is never carried back,
 * and one without the screener's price stays at its own `as_of`.
 */
import type { SectorMedians, ValuationFigures } from "./AnalyticsSchemas.ts"
import { round, type Unavailable } from "../shared/Figures.ts"
import { defined } from "../../Objects.ts"
import { median } from "../shared/Stats.ts"

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

/** Trailing yield from recorded payouts (`Dividends.trailing`), when payout coverage is recorded. */
export interface TrailingYieldInput {
  readonly yield_pct: number
  readonly as_of: string
}

export const AT_TOLERANCE_PCT = 1

type Figure = { readonly value: number; readonly as_of: string; readonly basis: string; readonly exchange_as_of?: string }
type Outcome = Figure | { readonly reason: string; readonly loss_making?: true }

const usable = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v)

/** The one price a valuation rests on: the newer of `quote` and the exchange row's own price (a tie goes to the quote). */
export const valuationPrice = (f: FundamentalsInput | undefined, quote: PriceInput | undefined): PriceInput | undefined =>
  f !== undefined && usable(f.price) && f.price > 0 && (quote === undefined || f.as_of > quote.as_of)
    ? { price: f.price, as_of: f.as_of }
    : quote

/**
 * An exchange figure of the row's date, at `price`: as is when the price is not newer than the row; carried
 * forward by `scale(price / row price)` when the row has its price; else as is (its own as_of).
 */
const exchangeFigure = (
  f: FundamentalsInput,
  value: number,
  basis: string,
  price: PriceInput | undefined,
  scale: (ratio: number) => number
): Figure =>
  price !== undefined && price.as_of > f.as_of && usable(f.price) && f.price > 0
    ? { value: value * scale(price.price / f.price), as_of: price.as_of, basis, exchange_as_of: f.as_of }
    : { value, as_of: f.as_of, basis }

/** Trailing P/E by the rules above, or why there is none. */
export const trailingPe = (f: FundamentalsInput | undefined, price: PriceInput | undefined): Outcome => {
  const eps = f?.eps
  if (usable(eps)) {
    if (eps <= 0) return { reason: `loss-maker: trailing EPS is ${eps}, so a P/E is not meaningful`, loss_making: true }
    if (price !== undefined) return { value: price.price / eps, as_of: price.as_of, basis: "price_over_trailing_eps" }
  }
  if (f !== undefined && usable(f.pe_ttm) && f.pe_ttm > 0) return exchangeFigure(f, f.pe_ttm, "exchange_pe_ttm", price, (r) => r)
  if (usable(eps)) return { reason: "no price to divide the trailing EPS by" }
  return { reason: "no sourced EPS (and no exchange P/E) for this symbol" }
}

export const dividendYield = (
  f: FundamentalsInput | undefined,
  trailing: TrailingYieldInput | undefined,
  price?: PriceInput
): Outcome =>
  trailing !== undefined && usable(trailing.yield_pct)
    ? { value: trailing.yield_pct, as_of: trailing.as_of, basis: "trailing_12m_payouts" }
    : f !== undefined && usable(f.dividend_yield_pct)
    ? exchangeFigure(f, f.dividend_yield_pct, "exchange_screener", price, (r) => 1 / r)
    : { reason: "no recorded payouts and no exchange yield figure" }

export const marketCap = (f: FundamentalsInput | undefined, price: PriceInput | undefined): Outcome =>
  f !== undefined && usable(f.market_cap)
    ? exchangeFigure(f, f.market_cap, "exchange", price, (r) => r)
    : f !== undefined && usable(f.shares_outstanding) && price !== undefined
    ? { value: f.shares_outstanding * price.price, as_of: price.as_of, basis: "shares_outstanding_x_price" }
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

/** Medians of a sector's peer figures (the symbol itself among them; `not_trading`: lines left out before, PeerRule.ts). */
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
    if (m !== undefined && median === undefined) unavailable.push({ figure: `${name}.sector_median`, reason: "no peer in the sector has a usable figure" })
    return {
      value: round(o.value, dp),
      as_of: o.as_of,
      basis: o.basis,
      ...(o.exchange_as_of !== undefined ? { exchange_as_of: o.exchange_as_of } : {}),
      ...(median !== undefined ? { sector_median: median, peers: peers!, position: position(o.value, median) } : {})
    }
  }
  return {
    symbol: input.symbol,
    ...defined({ price: input.price?.price, price_as_of: input.price?.as_of }),
    ...defined({
      pe_ttm: place("pe_ttm", trailingPe(input.fundamentals, input.price), m?.pe_ttm, m?.pe_peers, 4),
      dividend_yield_pct: place("dividend_yield_pct", dividendYield(input.fundamentals, input.trailing, input.price), m?.dividend_yield_pct, m?.yield_peers, 4),
      market_cap: place("market_cap", marketCap(input.fundamentals, input.price), m?.market_cap, m?.market_cap_peers, 0)
    }),
    ...defined({ sector_medians: m }),
    unavailable
  }
}
