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
import type { PayoutRecord } from "./Dividends.ts"
import { lineKind } from "./Board.ts"
import { type Restatement, restatementOf } from "./Restated.ts"
import { datasetAt, type PriceSeries } from "./Series.ts"
import { decodeSeries, makeDateInterner, mergeSeries } from "./SeriesCodec.ts"
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
  ProfileRow,
  QuoteRow,
  RatioRow,
  SectorRow,
  SecurityRow,
  StoreRows
} from "./StoreRows.ts"

/** Rows of one area for one symbol, per dataset: how many and which dates. */
export interface AreaCoverage {
  readonly dataset: string
  readonly rows: number
  readonly first?: string
  readonly last?: string
}

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
  /**
   * The exchange's screener showed 0 for this line's P/E (a loss-maker: it
   * shows no negative P/E) or dividend yield (a non-payer) while its market
   * cap is known; the pack keeps no figure for them (see `exchangeZeros`).
   */
  readonly zeroShown: { readonly pe: boolean; readonly dividend_yield: boolean }
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

const groupBy = <A>(rows: ReadonlyArray<A>, key: (a: A) => string) => {
  const out = new Map<string, Array<A>>()
  for (const r of rows) {
    const k = key(r)
    const list = out.get(k)
    if (list) list.push(r)
    else out.set(k, [r])
  }
  return out
}

const byDesc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)

const coverage = <A>(rows: ReadonlyArray<A>, dataset: (a: A) => string, date: (a: A) => string | undefined) => {
  const per = new Map<string, { rows: number; first?: string; last?: string }>()
  for (const r of rows) {
    const d = dataset(r)
    const c = per.get(d) ?? { rows: 0 }
    const day = date(r)
    per.set(d, {
      rows: c.rows + 1,
      ...(day !== undefined
        ? { first: c.first === undefined || day < c.first ? day : c.first, last: c.last === undefined || day > c.last ? day : c.last }
        : c.first !== undefined && c.last !== undefined
        ? { first: c.first, last: c.last }
        : {})
    })
  }
  return [...per].map(([d, c]): AreaCoverage => ({ dataset: d, ...c }))
}

const seriesCoverage = (series: ReadonlyArray<PriceSeries | undefined>): ReadonlyArray<AreaCoverage> => {
  const per = new Map<string, { rows: number; first: string; last: string }>()
  for (const s of series) {
    if (s === undefined) continue
    for (let i = 0; i < s.dates.length; i++) {
      const d = datasetAt(s, i), day = s.dates[i]!
      const c = per.get(d)
      if (c === undefined) per.set(d, { rows: 1, first: day, last: day })
      else {
        c.rows++
        if (day < c.first) c.first = day
        if (day > c.last) c.last = day
      }
    }
  }
  return [...per].map(([dataset, c]) => ({ dataset, ...c }))
}

const toPayout = (r: import("./StoreRows.ts").PayoutRow): PayoutRecord => ({
  symbol: r.symbol,
  details: r.details,
  kind: r.kind,
  ...(r.announced_at !== undefined ? { announcedAt: r.announced_at } : {}),
  ...(r.period_end !== undefined ? { periodEnd: r.period_end } : {}),
  ...(r.period_type !== undefined ? { periodType: r.period_type } : {}),
  ...(r.percent !== undefined ? { percent: r.percent } : {}),
  ...(r.amount_per_share !== undefined ? { amountPerShare: r.amount_per_share } : {}),
  ...(r.sequence !== undefined ? { sequence: r.sequence } : {}),
  ...(r.book_closure_from !== undefined ? { bookClosureFrom: r.book_closure_from } : {}),
  ...(r.book_closure_to !== undefined ? { bookClosureTo: r.book_closure_to } : {})
})

/** A market cap of 0 is the exchange's blank (LPCL, PAKCEM on the 2026-04-08 screener), never a figure: absent. */
const withoutZeroCap = (r: FundamentalsRow): FundamentalsRow => {
  if (r.market_cap === undefined || r.market_cap > 0) return r
  const { market_cap: _, ...rest } = r
  return rest
}

/**
 * Which figures the screener showed as 0 for a line it priced with a known
 * market cap: the pack drops a 0 P/E or yield (it reads as "no figure"), but
 * on such a line a 0 P/E is a loss-maker and a 0 yield a non-payer.
 */
const exchangeZeros = (f: FundamentalsRow | undefined) => {
  const live = f !== undefined && f.dataset === "screener" && f.market_cap !== undefined && f.market_cap > 0
  return { pe: live && f.pe_ttm === undefined && f.eps === undefined, dividend_yield: live && f.dividend_yield_pct === undefined }
}

/** Builds the snapshot from the store's rows. Pure; `builtAt` is passed in. */
/** The members at the newest effective date among `members`, heaviest first. */
const newestSet = (members: ReadonlyArray<MembershipRow>) => {
  const newest = members.reduce((d, m) => (m.effective_date > d ? m.effective_date : d), "")
  return members
    .filter((m) => m.effective_date === newest)
    .sort((a, b) => (b.weight_pct ?? -Infinity) - (a.weight_pct ?? -Infinity) || (a.symbol < b.symbol ? -1 : 1))
}

export const buildSnapshot = (rows: StoreRows, builtAt: number): MarketSnapshot => {
  const rejected: Array<string> = []
  const dateOf = makeDateInterner()
  const series = new Map<string, { as_traded?: PriceSeries; eod?: PriceSeries }>()
  for (const row of rows.series) {
    const decoded = decodeSeries(row, dateOf)
    if (typeof decoded === "string") {
      rejected.push(decoded)
      continue
    }
    series.set(row.symbol, { ...series.get(row.symbol), [row.series]: decoded })
  }
  const fundamentals = new Map(rows.fundamentals.map((r) => [r.symbol, withoutZeroCap(r)]))
  const profiles = new Map(rows.profiles.map((r) => [r.symbol, r]))
  const quotes = new Map(rows.quotes.map((r) => [r.symbol, r]))
  const coverageRows = new Map(rows.payoutCoverage.map((r) => [r.symbol, r]))
  const disagreements = new Map(rows.disagreements.map((r) => [r.symbol, r]))
  const payouts = groupBy(rows.payouts, (r) => r.symbol)
  const actions = groupBy(rows.actions, (r) => r.symbol)
  const lines = groupBy(rows.financialLines, (r) => r.symbol)
  const ratios = groupBy(rows.ratios, (r) => r.symbol)
  const announcements = [...rows.announcements].sort((a, b) => byDesc(a.published_at, b.published_at) || byDesc(a.id, b.id))
  const annBySymbol = groupBy(announcements, (r) => r.symbol)

  const indexMembers = new Map<string, ReadonlyArray<MembershipRow>>()
  const indexWeights = new Map<string, ReadonlyArray<MembershipRow>>()
  for (const [code, members] of groupBy(rows.membership, (r) => r.index_code)) {
    indexMembers.set(code, newestSet(members))
    indexWeights.set(code, newestSet(members.filter((m) => m.weight_pct !== undefined)))
  }
  const kse100 = new Map((indexMembers.get("KSE100") ?? []).map((m) => [m.symbol, m]))

  const securities = [...rows.securities].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
  const symbols = new Map<string, SymbolData>()
  for (const security of securities) {
    const s = security.symbol
    const own = series.get(s) ?? {}
    const disagreement = disagreements.get(s)
    const restatement = restatementOf(own.as_traded, own.eod, disagreement)
    const prices = own.as_traded !== undefined && own.eod !== undefined
      ? restatement.restated === false ? mergeSeries(own.as_traded, own.eod) : own.eod
      : own.as_traded ?? own.eod
    const myPayouts = payouts.get(s) ?? []
    const myActions = [...(actions.get(s) ?? [])].sort((a, b) =>
      a.ex_date === b.ex_date ? (a.id < b.id ? -1 : 1) : a.ex_date === undefined ? 1 : b.ex_date === undefined ? -1 : byDesc(a.ex_date, b.ex_date)
    )
    const myAnn = annBySymbol.get(s) ?? []
    const myLines = lines.get(s) ?? []
    const quote = quotes.get(s)
    const fund = fundamentals.get(s)
    const profile = profiles.get(s)
    const member = kse100.get(s)
    const areas = new Map<string, ReadonlyArray<AreaCoverage>>([
      ["universe", [{ dataset: security.dataset, rows: 1 }]],
      ["quote", quote ? [{ dataset: quote.dataset, rows: 1, first: quote.as_of.slice(0, 10), last: quote.as_of.slice(0, 10) }] : []],
      ["prices", seriesCoverage([own.as_traded, own.eod])],
      ["fundamentals", fund ? [{ dataset: fund.dataset, rows: 1 }] : []],
      ["profile", profile ? [{ dataset: profile.dataset, rows: 1 }] : []],
      ["financials", coverage(myLines, (r) => r.dataset, () => undefined)],
      ["dividends", coverage(myPayouts, (r) => r.dataset, (r) => r.book_closure_from)],
      ["corporate_actions", coverage(myActions, (r) => r.dataset, (r) => r.ex_date)],
      ["announcements", coverage(myAnn, (r) => r.dataset, (r) => r.published_at.slice(0, 10))],
      ["index_membership", member ? [{ dataset: member.dataset, rows: 1, first: member.effective_date, last: member.effective_date }] : []],
      ["news", []]
    ])
    symbols.set(s, {
      security,
      fundamentals: fund,
      profile,
      quote,
      payouts: myPayouts.map(toPayout),
      payoutDatasets: [...new Set(myPayouts.map((p) => p.dataset))],
      payoutCoverage: coverageRows.get(s),
      actions: myActions,
      announcements: myAnn,
      financialLines: myLines,
      ratios: [...(ratios.get(s) ?? [])].sort((a, b) => byDesc(a.period, b.period)),
      asTraded: own.as_traded,
      eod: own.eod,
      prices,
      disagreement,
      restatement,
      kse100: member,
      zeroShown: exchangeZeros(fund),
      areas
    })
  }

  const sectorMembers = new Map<string, ReadonlyArray<string>>()
  // Peers are ordinary lines: rights (JVDCR1), preference, debt and derivative lines are not a company's peers.
  const listed: ReadonlySet<string> = new Set(securities.map((s) => s.symbol))
  const ordinaryEquity = securities.filter((s) =>
    s.security_type === "equity" && s.delisted_on === undefined && s.sector_name &&
    lineKind({ symbol: s.symbol, name: s.name, security_type: s.security_type, ...(s.sector_code ? { sector_code: s.sector_code } : {}) }, listed) === "security"
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

  return {
    version: rows.version,
    builtAt,
    dataPack: rows.dataPack,
    datasets: new Map(rows.datasets.map((d) => [d.id, d])),
    securities,
    symbols,
    sectors: [...rows.sectors].sort((a, b) => (a.code < b.code ? -1 : 1)),
    sectorMembers,
    indexLevels: [...rows.indexLevels].sort((a, b) => (a.code < b.code ? -1 : 1)),
    indexMembers,
    indexWeights,
    announcements,
    news: [...rows.news].sort((a, b) => byDesc(a.published_at, b.published_at) || byDesc(a.id, b.id)),
    rejected
  }
}

/** The snapshot of an empty store. */
export const emptySnapshot = (builtAt: number): MarketSnapshot =>
  buildSnapshot({
    version: 0,
    dataPack: undefined,
    datasets: [],
    sectors: [],
    securities: [],
    membership: [],
    indexLevels: [],
    disagreements: [],
    quotes: [],
    fundamentals: [],
    profiles: [],
    financialLines: [],
    ratios: [],
    payouts: [],
    payoutCoverage: [],
    actions: [],
    announcements: [],
    news: [],
    series: []
  }, builtAt)
