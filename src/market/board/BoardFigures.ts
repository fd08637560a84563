/**
 * The market board's figures, derived from one read-model snapshot in one
 * pass (`boardFigures`): the latest recorded session, one board line per
 * listed security, breadth, movers, sector tone, every sector's figures and
 * the index levels. Pure; the `MarketBoard` service memoises it per
 * snapshot, so no request walks the universe again.
 *
 * A security's day figures (price, previous close, change, volume) come from
 * its delayed quote only when that quote is of the session; a security with
 * an older quote is on the board without them (not priced that day), never
 * with yesterday's price. Valuation figures (market cap, P/E, yield) are the
 * fundamentals as recorded, with their own as-of in the sources. Sector
 * medians count the lines that traded in the peer window (PeerRule.ts).
 */
import {
  type Breadth,
  breadth,
  type ExMarker,
  type Movers,
  movers,
  type SectorTone,
  sectorTone
} from "../../../domain/market/board/Board.ts"
import type { IndexLevelSummary } from "../../../domain/market/board/BoardSchemas.ts"
import { lastTrade, latestSession, snapshotPeerWindow } from "../../../domain/market/board/PeerRule.ts"
import { type SectorFigures, sectorFigures, type SectorMember } from "../../../domain/market/board/Sectors.ts"
import { karachiDate, xdDate } from "../../../domain/market/calendar/Calendar.ts"
import { repairExDate } from "../../../domain/market/filings/Dividends.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import type { IndexLevelRow, QuoteRow, SecurityRow } from "../../../domain/market/snapshot/StoreRows.ts"
import { defined } from "../../../domain/Objects.ts"

/** Movers per list (gainers, losers, most active). */
export const MOVERS_PER_LIST = 10

const markerOfAction: Readonly<Record<string, ExMarker>> = { ex_dividend: "XD", ex_bonus: "XB", ex_right: "XR" }
const markerOfPayout: Readonly<Record<string, ExMarker>> = { cash: "XD", bonus: "XB", right: "XR" }

export interface BoardFigures {
  /** The latest recorded session (Karachi date of the newest quote); undefined without quotes. */
  readonly date: string | undefined
  /** Which quotes the day figures are (for `DayBreadth.basis`). */
  readonly basis: string
  /** One line per listed security, by symbol. */
  readonly lines: ReadonlyArray<SectorMember>
  /** Every listed symbol (to recognise rights and preference lines by their base symbol). */
  readonly listed: ReadonlySet<string>
  readonly breadth: Breadth
  readonly movers: Movers
  readonly tone: ReadonlyArray<SectorTone>
  /** Every recorded sector's figures, by code. */
  readonly sectors: ReadonlyArray<SectorFigures>
  /** The first session of the peer window (PeerRule.ts); undefined without quotes. */
  readonly peerWindowStart: string | undefined
  /** Every line of a sector, by sector code, largest market cap first (unknown caps last, then by symbol). */
  readonly members: ReadonlyMap<string, ReadonlyArray<SectorMember>>
  /** Datasets the day figures, the ex-markers and the valuation figures were read from. */
  readonly quoteDatasets: ReadonlyArray<string>
  readonly markerDatasets: ReadonlyArray<string>
  readonly fundamentalsDatasets: ReadonlyArray<string>
  readonly indices: ReadonlyArray<typeof IndexLevelSummary.Type>
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places

/** An index's current level with its change from the previous recorded level. */
export const indexSummary = (l: IndexLevelRow): typeof IndexLevelSummary.Type => ({
  code: l.code,
  name: l.name,
  level: l.level,
  as_of: l.as_of,
  ...(l.previous !== undefined
    ? {
      previous: l.previous,
      change: round(l.level - l.previous, 2),
      change_pct: round((l.level / l.previous - 1) * 100, 4)
    }
    : {})
})

/** The session's ex-markers of a security: recorded markers of that date, and payouts whose ex-day (after the last buy date) it is. */
const markersOn = (data: SymbolData, date: string, datasets: Set<string>): ReadonlyArray<ExMarker> => {
  const out = new Set<ExMarker>()
  for (const a of data.actions) {
    const m = markerOfAction[a.kind]
    if (m !== undefined && a.xd_date === date) {
      out.add(m)
      datasets.add(a.dataset)
    }
  }
  for (const p of data.payouts) {
    if (p.bookClosureFrom === undefined) continue
    const from = repairExDate(p.bookClosureFrom, p.announcedAt).ex_date
    if (xdDate(from) !== date) continue
    out.add(markerOfPayout[p.kind]!)
    for (const d of data.payoutDatasets) datasets.add(d)
  }
  return [...out]
}

const byCapThenSymbol = (a: SectorMember, b: SectorMember) =>
  (b.market_cap ?? -1) - (a.market_cap ?? -1) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)

/** One security's line on the board: its quote only when it is of the session `ofDay`. */
const boardLine = (
  security: SecurityRow,
  data: SymbolData,
  ofDay: QuoteRow | undefined,
  markers: ReadonlyArray<ExMarker>,
  fundamentalsAsOf: string | undefined
): SectorMember => {
  const f = data.fundamentals
  const published = f !== undefined && [f.market_cap, f.pe_ttm, f.dividend_yield_pct].some((v) => v !== undefined)
  return {
    symbol: security.symbol,
    name: security.name,
    ...defined({ sector_code: security.sector_code }),
    security_type: security.security_type,
    inside_kse100: data.kse100 !== undefined,
    ...(ofDay
      ? {
        price: ofDay.price,
        price_as_of: ofDay.as_of,
        ...defined({
          previous_close: ofDay.previous_close,
          change: ofDay.change,
          change_pct: ofDay.change_pct,
          volume: ofDay.volume
        })
      }
      : {}),
    ...(markers.length > 0 ? { ex_markers: markers } : {}),
    ...defined({
      market_cap: f?.market_cap,
      pe_ttm: f?.pe_ttm,
      eps: f?.eps,
      dividend_yield_pct: f?.dividend_yield_pct
    }),
    ...(published ? defined({ published_as_of: f.as_of ?? fundamentalsAsOf, published_price: f.price }) : {}),
    ...defined({ last_trade: lastTrade(data) })
  }
}

/** Lines by sector code, largest market cap first. */
const sectorGroups = (lines: ReadonlyArray<SectorMember>) => {
  const members = new Map<string, Array<SectorMember>>()
  for (const line of lines) {
    if (line.sector_code === undefined) continue
    const group = members.get(line.sector_code)
    if (group) group.push(line)
    else members.set(line.sector_code, [line])
  }
  for (const group of members.values()) group.sort(byCapThenSymbol)
  return members
}

/** What the breadth of session `date` rests on. */
const sessionBasis = (
  date: string | undefined,
  quoteBases: ReadonlySet<string>,
  quoteDatasets: ReadonlySet<string>
) => {
  const bases = [...quoteBases].map((b) => (b === "daily_close" ? "daily closes" : "delayed intraday board readings"))
    .join(" and ")
  return date === undefined
    ? "no quote is recorded"
    : `Every listed security except debt, by its delayed quote of ${date} (${bases}; ${
      [...quoteDatasets].join(", ")
    }): ` +
      "advancers, decliners and unchanged by the sign of the change from the previous close; not_priced: no trade " +
      `that day, no previous close, or no quote of ${date}`
}

/** Derives the board, sector and index figures of a snapshot. */
export const boardFigures = (snapshot: MarketSnapshot): BoardFigures => {
  const date = latestSession(snapshot)
  const quoteDatasets = new Set<string>()
  const quoteBases = new Set<string>()
  const markerDatasets = new Set<string>()
  const fundamentalsDatasets = new Set<string>()
  const lines: Array<SectorMember> = []
  for (const security of snapshot.securities) {
    const data = snapshot.symbols.get(security.symbol)!
    const q = data.quote
    const ofDay = q !== undefined && date !== undefined && karachiDate(Date.parse(q.as_of)) === date ? q : undefined
    if (ofDay) {
      quoteDatasets.add(ofDay.dataset)
      quoteBases.add(ofDay.basis)
    }
    if (data.fundamentals !== undefined) fundamentalsDatasets.add(data.fundamentals.dataset)
    const fAsOf = data.fundamentals !== undefined ? snapshot.datasets.get(data.fundamentals.dataset)?.as_of : undefined
    lines.push(boardLine(security, data, ofDay, ofDay ? markersOn(data, date!, markerDatasets) : [], fAsOf))
  }
  const listed: ReadonlySet<string> = new Set(snapshot.securities.map((s) => s.symbol))
  const members = sectorGroups(lines)
  const peerWindowStart = snapshotPeerWindow(snapshot)
  return {
    date,
    basis: sessionBasis(date, quoteBases, quoteDatasets),
    lines,
    listed,
    breadth: breadth(lines, listed),
    movers: movers(lines, MOVERS_PER_LIST, listed),
    tone: sectorTone(lines, new Map(snapshot.sectors.map((s) => [s.code, s.name])), listed),
    sectors: snapshot.sectors.map((s) => sectorFigures(s, members.get(s.code) ?? [], listed, peerWindowStart)),
    peerWindowStart,
    members,
    quoteDatasets: [...quoteDatasets],
    markerDatasets: [...markerDatasets],
    fundamentalsDatasets: [...fundamentalsDatasets],
    indices: snapshot.indexLevels.map(indexSummary)
  }
}
