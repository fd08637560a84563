/**
 * Sector figures: stable sector ids (the PSX sector code or a slug of its
 * name, both accepted), and per sector the median change, median P/E,
 * median dividend yield, breadth and constituents. Medians only, never
 * means; a sector with no usable figure gets no median (absent, never 0).
 *
 * Which lines count: the sector's ordinary lines that traded in the
 * window of PeerRule.ts (one rule for peers and every median); the others
 * are counted in `not_trading`.
 */
import { defined } from "../../Objects.ts"
import { median } from "../shared/Stats.ts"
import { type BoardLine, type Breadth, breadth, lineKind } from "./Board.ts"
import { tradedSince } from "./PeerRule.ts"

export interface SectorRef {
  readonly code: string
  readonly name: string
}

/** A security in a sector, with whatever figures are known. */
export interface SectorMember extends BoardLine {
  readonly name: string
  readonly inside_kse100?: boolean
  readonly market_cap?: number
  readonly pe_ttm?: number
  readonly eps?: number
  readonly dividend_yield_pct?: number
  /** The quote's time: the session of price and change. */
  readonly price_as_of?: string
  /** The exchange screener's date and price: market_cap, pe_ttm and dividend_yield_pct are its, as published. */
  readonly published_as_of?: string
  readonly published_price?: number
  /** The line's last recorded trade (PeerRule.ts `lastTrade`). */
  readonly last_trade?: string
}

/** "INV. BANKS / INV. COS. / SECURITIES COS." → "inv-banks-inv-cos-securities-cos". */
export const sectorSlug = (name: string) =>
  name.toLowerCase().replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")

/** The sector an id names: its code ("0807"), its slug ("commercial-banks") or its name, any case. */
export const resolveSector = <S extends SectorRef>(sectors: ReadonlyArray<S>, id: string): S | undefined => {
  const key = id.trim()
  const slug = sectorSlug(key)
  return sectors.find((s) => s.code === key) ??
    (slug === "" ? undefined : sectors.find((s) => sectorSlug(s.name) === slug))
}

export interface SectorValuation {
  readonly median_pe?: number
  /** Lines whose P/E entered the median. */
  readonly pe_peers: number
  /** Loss-makers left out of the median P/E (negative P/E or EPS). */
  readonly loss_makers_excluded: number
  /** Lines with no P/E at all (no figure, or 0 on the screener: unknown). */
  readonly without_pe: number
  readonly median_dividend_yield_pct?: number
  /** Lines whose (positive) yield entered the median. */
  readonly yield_peers: number
  /** Lines with no yield figure (none recorded, or 0 on the screener: unknown). */
  readonly without_yield: number
  /** Ordinary lines left out of peers and medians: no recorded trade in the window (PeerRule.ts). */
  readonly not_trading: number
}

/** Ordinary security lines (not rights, preference, debt or derivative lines). */
export const ordinary = <M extends SectorMember>(members: ReadonlyArray<M>, listed: ReadonlySet<string>) =>
  members.filter((m) => lineKind(m, listed) === "security")

/** The ordinary lines that count as peers: traded in the window starting `windowStart` (PeerRule.ts; none: all). */
export const peerLines = <M extends SectorMember>(
  members: ReadonlyArray<M>,
  listed: ReadonlySet<string>,
  windowStart?: string
) => ordinary(members, listed).filter((m) => tradedSince(m.last_trade, windowStart))

const isLossMaker = (m: SectorMember) => (m.pe_ttm !== undefined && m.pe_ttm < 0) || (m.eps !== undefined && m.eps < 0)

/**
 * Median P/E and median yield over the peer lines given, with peer counts (`not_trading`: lines left out before).
 *
 * Median P/E: only positive P/Es count. Loss-makers (a negative P/E or EPS)
 * are left out and counted in `loss_makers_excluded`; lines with no P/E
 * are counted apart in `without_pe`, among them a 0 P/E on the exchange's
 * screener: it cannot be told from "no figure" (BAFL showed 0 after its
 * split, 7.10 in April), so it is unknown, never a loss. Median yield: the
 * same rule, a 0 yield on the screener is no figure (the pack keeps none):
 * such a line is counted in `without_yield`, never entered as 0. A market
 * cap of 0 is the exchange's blank: absent (Snapshot.ts), never a figure.
 */
export const sectorValuation = (members: ReadonlyArray<SectorMember>, not_trading = 0): SectorValuation => {
  const losses = members.filter(isLossMaker)
  const pes = members.filter((m) => !isLossMaker(m) && m.pe_ttm !== undefined && m.pe_ttm > 0).map((m) => m.pe_ttm!)
  const yields = members.flatMap((
    m
  ) => (m.dividend_yield_pct !== undefined && m.dividend_yield_pct > 0 ? [m.dividend_yield_pct] : []))
  const medianPe = median(pes)
  const medianYield = median(yields)
  return {
    ...defined({ median_pe: medianPe }),
    pe_peers: pes.length,
    loss_makers_excluded: losses.length,
    without_pe: members.length - pes.length - losses.length,
    ...defined({ median_dividend_yield_pct: medianYield }),
    yield_peers: yields.length,
    without_yield: members.length - yields.length,
    not_trading
  }
}

export interface SectorFigures extends SectorValuation {
  readonly code: string
  readonly id: string
  readonly name: string
  /** Median change (%) of the peer lines priced that day; absent when none is. */
  readonly median_change_pct?: number
  readonly change_peers: number
  readonly breadth: Breadth
  /** Every line in the sector, ordinary or not. */
  readonly constituents: number
  readonly ordinary_constituents: number
}

/**
 * One sector's figures from its members (`listed`: every listed symbol, to
 * recognise rights and preference lines; `windowStart`: the peer window of
 * PeerRule.ts, none to count every ordinary line). Breadth is of every
 * ordinary line; medians of the peer lines.
 */
export const sectorFigures = (
  sector: SectorRef,
  members: ReadonlyArray<SectorMember>,
  listed: ReadonlySet<string>,
  windowStart?: string
): SectorFigures => {
  const lines = ordinary(members, listed)
  const peers = peerLines(lines, listed, windowStart)
  const changes = peers.flatMap((
    m
  ) => (m.change_pct !== undefined && m.volume !== undefined && m.volume > 0 ? [m.change_pct] : []))
  const medianChange = median(changes)
  return {
    code: sector.code,
    id: sectorSlug(sector.name),
    name: sector.name,
    ...defined({ median_change_pct: medianChange }),
    change_peers: changes.length,
    ...sectorValuation(peers, lines.length - peers.length),
    breadth: breadth(lines, listed),
    constituents: members.length,
    ordinary_constituents: lines.length
  }
}

/** Every sector's figures, members grouped by `sector_code`; sectors without members are kept (no medians). */
export const sectorBoard = (
  sectors: ReadonlyArray<SectorRef>,
  members: ReadonlyArray<SectorMember>,
  listed: ReadonlySet<string> = new Set(members.map((m) => m.symbol)),
  windowStart?: string
): ReadonlyArray<SectorFigures> => {
  const bySector = new Map<string, Array<SectorMember>>()
  for (const m of members) {
    if (m.sector_code === undefined) continue
    const group = bySector.get(m.sector_code)
    if (group) group.push(m)
    else bySector.set(m.sector_code, [m])
  }
  return sectors.map((s) => sectorFigures(s, bySector.get(s.code) ?? [], listed, windowStart))
}

/** A sector's peers: its peer lines (`peerLines`), largest market cap first (unknown caps last, by symbol). */
export const sectorPeers = <M extends SectorMember>(
  members: ReadonlyArray<M>,
  listed: ReadonlySet<string>,
  windowStart?: string
): ReadonlyArray<M> =>
  [...peerLines(members, listed, windowStart)].sort((a, b) =>
    (b.market_cap ?? -1) - (a.market_cap ?? -1) || a.symbol.localeCompare(b.symbol)
  )

/** Indices: only KSE-100 membership is tracked; other indices carry this note instead of constituents. */
export const TRACKED_INDEX = "KSE100"
export const untrackedIndexNote = (code: string) =>
  `Only KSE-100 membership is tracked by this service; constituents of ${code} are not held. Levels are current only, with no history.`
