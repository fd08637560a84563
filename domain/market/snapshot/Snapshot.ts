/**
 * The market read model: one immutable snapshot of everything the market
 * endpoints answer from, built from the store's rows in one pass. Readers
 * hold a reference to a whole snapshot, so a rebuild swapped in while they
 * read never shows them half of one.
 *
 * Per symbol it keeps the security, fundamentals, profile, quote, payouts,
 * corporate actions, announcements, income statement lines, ratios and the
 * price series in columns (`as_traded`, `eod`, and the default series the
 * endpoints serve: `merged`, or `eod` alone for restated symbols). Figures
 * derived once per build (52-week window bounds, per-dataset coverage) sit
 * beside them.
 */
import { runSteps, type Steps } from "../../SlicedWork.ts"
import { lineKind } from "../board/Board.ts"
import { type IndexCloses, indexClosesOf } from "../board/IndexHistory.ts"
import type { PayoutRecord } from "../filings/Dividends.ts"
import { type Restatement, restatementOf } from "../prices/Restated.ts"
import type { PriceSeries } from "./Series.ts"
import { decodeSeries, makeDateInterner, mergeSeries } from "./SeriesCodec.ts"
import {
  type AreaCoverage,
  byDesc,
  byXdDate,
  coverage,
  filingsNewestFirst,
  groupBy,
  newestFirst,
  newestSet,
  seriesCoverage,
  toPayout,
  withoutZeroCap
} from "./SnapshotParts.ts"
import type {
  ActionRow,
  AnnouncementRow,
  DatasetRow,
  DisagreementRow,
  FinancialLineRow,
  FundamentalsRow,
  IndexLevelRow,
  MembershipRow,
  NewsRow,
  PayoutCoverageRow,
  PayoutRow,
  ProfileRow,
  QuoteRow,
  RatioRow,
  SectorRow,
  SecurityRow,
  StoreRows
} from "./StoreRows.ts"

export interface SymbolData {
  readonly security: SecurityRow
  readonly fundamentals: FundamentalsRow | undefined
  readonly profile: ProfileRow | undefined
  readonly quote: QuoteRow | undefined
  readonly payouts: ReadonlyArray<PayoutRecord>
  readonly payoutDatasets: ReadonlyArray<string>
  readonly payoutCoverage: PayoutCoverageRow | undefined
  /** Newest ex-date first, undated last. */
  readonly actions: ReadonlyArray<ActionRow>
  /** Newest first. */
  readonly announcements: ReadonlyArray<AnnouncementRow>
  readonly financialLines: ReadonlyArray<FinancialLineRow>
  /** Newest period first. */
  readonly ratios: ReadonlyArray<RatioRow>
  readonly asTraded: PriceSeries | undefined
  readonly eod: PriceSeries | undefined
  /**
   * The series served by default: as traded merged with eod only when the
   * eod series is verified as traded (`restatement.restated === false`);
   * otherwise eod alone (restated or unknown), or as traded alone.
   */
  readonly prices: PriceSeries | undefined
  readonly disagreement: DisagreementRow | undefined
  /** Whether the eod series is restated by the source: true, false or unknown, with its evidence (Restated.ts). */
  readonly restatement: Restatement
  /** KSE-100 membership at its newest effective date. */
  readonly kse100: MembershipRow | undefined
  /** Provenance per data area (see /v1/ai/sources). */
  readonly areas: ReadonlyMap<string, ReadonlyArray<AreaCoverage>>
}

export interface MarketSnapshot {
  /** The store's market version this snapshot was built from. */
  readonly version: number
  /** When it was built (ms since epoch). */
  readonly builtAt: number
  /** The data pack version the store holds, if any. */
  readonly dataPack: string | undefined
  readonly datasets: ReadonlyMap<string, DatasetRow>
  /** Every listed security, by symbol (ascending). */
  readonly securities: ReadonlyArray<SecurityRow>
  readonly symbols: ReadonlyMap<string, SymbolData>
  readonly sectors: ReadonlyArray<SectorRow>
  /** Equities by sector name, largest market cap first (unknown caps last, then by symbol). */
  readonly sectorMembers: ReadonlyMap<string, ReadonlyArray<string>>
  readonly indexLevels: ReadonlyArray<IndexLevelRow>
  /** Each index's recorded daily closes, by code (IndexHistory.ts reads them). */
  readonly indexCloses: ReadonlyMap<string, IndexCloses>
  /** Constituents per index code at the newest effective date, heaviest first. */
  readonly indexMembers: ReadonlyMap<string, ReadonlyArray<MembershipRow>>
  /** Each index's members at the newest effective date that carries weights (a newer list may give membership only). */
  readonly indexWeights: ReadonlyMap<string, ReadonlyArray<MembershipRow>>
  /** Every announcement, newest first (ties by id, descending). */
  readonly announcements: ReadonlyArray<AnnouncementRow>
  readonly news: ReadonlyArray<NewsRow>
  /** Rows the build could not use, with the reason (never silently dropped). */
  readonly rejected: ReadonlyArray<string>
}

/**
 * Items of work between two pauses of a build. The runner (src/market/readmodel/Cooperative.ts) decides by
 * the clock when to let requests in; a pause every few items keeps any one stretch short (a symbol's data
 * takes up to about a millisecond).
 */
const SLICE = 4

/** The price series of every symbol, decoded; a row that cannot be decoded goes to `rejected`. */
export function* decodeSeriesSteps(rows: StoreRows["series"], rejected: Array<string>): Steps<Map<string, OwnSeries>> {
  const dateOf = makeDateInterner()
  const series = new Map<string, OwnSeries>()
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    const decoded = decodeSeries(row, dateOf)
    if (typeof decoded === "string") rejected.push(decoded)
    else series.set(row.symbol, { ...series.get(row.symbol), [row.series]: decoded })
    if (i % SLICE === SLICE - 1) yield
  }
  return series
}
export const decodeAllSeries = (rows: StoreRows["series"], rejected: Array<string>) =>
  runSteps(decodeSeriesSteps(rows, rejected))
type OwnSeries = { as_traded?: PriceSeries; eod?: PriceSeries }

/** Each index's members, and its members with weights, at their newest effective dates. */
const indexSets = (membership: StoreRows["membership"]) => {
  const indexMembers = new Map<string, ReadonlyArray<MembershipRow>>()
  const indexWeights = new Map<string, ReadonlyArray<MembershipRow>>()
  for (const [code, members] of groupBy(membership, (r) => r.index_code)) {
    indexMembers.set(code, newestSet(members))
    indexWeights.set(code, newestSet(members.filter((m) => m.weight_pct !== undefined)))
  }
  return { indexMembers, indexWeights }
}

/** The store's per-symbol rows, looked up by symbol. */
export const rowsBySymbol = (
  rows: StoreRows,
  series: ReadonlyMap<string, OwnSeries>,
  announcements: ReadonlyArray<AnnouncementRow>,
  kse100: ReadonlyArray<MembershipRow>
) => ({
  series,
  fundamentals: new Map(rows.fundamentals.map((r) => [r.symbol, withoutZeroCap(r)])),
  profiles: new Map(rows.profiles.map((r) => [r.symbol, r])),
  quotes: new Map(rows.quotes.map((r) => [r.symbol, r])),
  coverageRows: new Map(rows.payoutCoverage.map((r) => [r.symbol, r])),
  disagreements: new Map(rows.disagreements.map((r) => [r.symbol, r])),
  payouts: groupBy(rows.payouts, (r) => r.symbol),
  actions: groupBy(rows.actions, (r) => r.symbol),
  lines: groupBy(rows.financialLines, (r) => r.symbol),
  ratios: groupBy(rows.ratios, (r) => r.symbol),
  announcements: groupBy(announcements, (r) => r.symbol),
  kse100: new Map(kse100.map((m) => [m.symbol, m])),
  withheldEod: new Set(rows.withheldEod ?? [])
})
export type RowsBySymbol = ReturnType<typeof rowsBySymbol>

/** The series served by default (see `SymbolData.prices`). */
const servedSeries = (own: OwnSeries, restatement: Restatement) =>
  own.as_traded !== undefined && own.eod !== undefined
    ? restatement.restated === false ? mergeSeries(own.as_traded, own.eod) : own.eod
    : own.as_traded ?? own.eod

/** Provenance per data area of one symbol (see /v1/ai/sources). */
const areasOf = (
  security: SecurityRow,
  own: OwnSeries,
  payoutRows: ReadonlyArray<PayoutRow>,
  d: Omit<SymbolData, "areas">
) =>
  new Map<string, ReadonlyArray<AreaCoverage>>([
    ["universe", [{ dataset: security.dataset, rows: 1 }]],
    [
      "quote",
      d.quote
        ? [{ dataset: d.quote.dataset, rows: 1, first: d.quote.as_of.slice(0, 10), last: d.quote.as_of.slice(0, 10) }]
        : []
    ],
    ["prices", seriesCoverage([own.as_traded, own.eod])],
    ["fundamentals", d.fundamentals ? [{ dataset: d.fundamentals.dataset, rows: 1 }] : []],
    ["profile", d.profile ? [{ dataset: d.profile.dataset, rows: 1 }] : []],
    ["financials", coverage(d.financialLines, (r) => r.dataset, () => undefined)],
    ["dividends", coverage(payoutRows, (r) => r.dataset, (r) => r.book_closure_from)],
    ["corporate_actions", coverage(d.actions, (r) => r.dataset, (r) => r.xd_date)],
    ["announcements", coverage(d.announcements, (r) => r.dataset, (r) => r.published_on)],
    [
      "index_membership",
      d.kse100
        ? [{ dataset: d.kse100.dataset, rows: 1, first: d.kse100.effective_date, last: d.kse100.effective_date }]
        : []
    ],
    ["news", []]
  ])

/** The verdict on an eod series left out at an instant (StoreRows `withheldEod`): said, never guessed. */
const withheldRestatement: Restatement = {
  restated: "unknown",
  points: 0,
  agreeing: 0,
  basis: "restated by the source (split-adjusted), and the date of its restatement is not recorded: at this instant, " +
    "before the series' retrieval, it is left out and only the as-traded series is served"
}

/** Everything the snapshot keeps for one security. */
export const symbolData = (security: SecurityRow, by: RowsBySymbol): SymbolData => {
  const s = security.symbol
  const own = by.series.get(s) ?? {}
  const disagreement = by.disagreements.get(s)
  const restatement = by.withheldEod.has(s) ? withheldRestatement : restatementOf(own.as_traded, own.eod, disagreement)
  const payoutRows = by.payouts.get(s) ?? []
  const fundamentals = by.fundamentals.get(s)
  const data: Omit<SymbolData, "areas"> = {
    security,
    fundamentals,
    profile: by.profiles.get(s),
    quote: by.quotes.get(s),
    payouts: payoutRows.map(toPayout),
    payoutDatasets: [...new Set(payoutRows.map((p) => p.dataset))],
    payoutCoverage: by.coverageRows.get(s),
    actions: [...(by.actions.get(s) ?? [])].sort(byXdDate),
    announcements: by.announcements.get(s) ?? [],
    financialLines: by.lines.get(s) ?? [],
    ratios: [...(by.ratios.get(s) ?? [])].sort((a, b) => byDesc(a.period, b.period)),
    asTraded: own.as_traded,
    eod: own.eod,
    prices: servedSeries(own, restatement),
    disagreement,
    restatement,
    kse100: by.kse100.get(s)
  }
  return { ...data, areas: areasOf(security, own, payoutRows, data) }
}

/** Ordinary equities by sector name, largest market cap first (unknown caps last, then by symbol). */
export const sectorPeers = (securities: ReadonlyArray<SecurityRow>, fundamentals: RowsBySymbol["fundamentals"]) => {
  const sectorMembers = new Map<string, ReadonlyArray<string>>()
  // Peers are ordinary lines: rights (JVDCR1), preference, debt and derivative lines are not a company's peers.
  const listed: ReadonlySet<string> = new Set(securities.map((s) => s.symbol))
  const ordinaryEquity = securities.filter((s) =>
    s.security_type === "equity" && s.delisted_on === undefined && s.sector_name &&
    lineKind({
        symbol: s.symbol,
        name: s.name,
        security_type: s.security_type,
        ...(s.sector_code ? { sector_code: s.sector_code } : {})
      }, listed) === "security"
  )
  for (const [name, members] of groupBy(ordinaryEquity, (s) => s.sector_name!)) {
    sectorMembers.set(
      name,
      members
        .map((m) => ({ symbol: m.symbol, cap: fundamentals.get(m.symbol)?.market_cap }))
        .sort((a, b) => (b.cap ?? -Infinity) - (a.cap ?? -Infinity) || (a.symbol < b.symbol ? -1 : 1))
        .map((m) => m.symbol)
    )
  }
  return sectorMembers
}

export const bySymbol = (a: { readonly symbol: string }, b: { readonly symbol: string }) =>
  a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0

/** The parts of a snapshot read whole from small tables (and the news), whatever else is rebuilt. */
export const wholeTables = (rows: StoreRows, builtAt: number) => ({
  version: rows.version,
  builtAt,
  dataPack: rows.dataPack,
  datasets: new Map(rows.datasets.map((d) => [d.id, d])),
  sectors: [...rows.sectors].sort((a, b) => (a.code < b.code ? -1 : 1)),
  indexLevels: [...rows.indexLevels].sort((a, b) => (a.code < b.code ? -1 : 1)),
  indexCloses: indexClosesOf(rows.indexCloses),
  news: [...rows.news].sort(newestFirst)
})

/** Builds the snapshot from the store's rows, in steps (see `Steps`). Pure; `builtAt` is passed in. */
export function* snapshotSteps(rows: StoreRows, builtAt: number): Steps<MarketSnapshot> {
  const rejected: Array<string> = []
  const series = yield* decodeSeriesSteps(rows.series, rejected)
  const announcements = [...rows.announcements].sort(filingsNewestFirst)
  yield
  const { indexMembers, indexWeights } = indexSets(rows.membership)
  const by = rowsBySymbol(rows, series, announcements, indexMembers.get("KSE100") ?? [])
  yield
  const securities = [...rows.securities].sort(bySymbol)
  const symbols = new Map<string, SymbolData>()
  for (const security of securities) {
    symbols.set(security.symbol, symbolData(security, by))
    if (symbols.size % SLICE === 0) yield
  }
  yield
  const whole = wholeTables(rows, builtAt)
  yield
  const sectorMembers = sectorPeers(securities, by.fundamentals)
  yield
  return {
    ...whole,
    securities,
    symbols,
    sectorMembers,
    indexMembers,
    indexWeights,
    announcements,
    rejected
  }
}

/** Builds the snapshot from the store's rows at once. Pure; `builtAt` is passed in. */
export const buildSnapshot = (rows: StoreRows, builtAt: number): MarketSnapshot =>
  runSteps(snapshotSteps(rows, builtAt))
