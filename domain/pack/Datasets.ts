/**
 * The stored form of each dataset in the pack, by id: the JSON the pack
 * builder writes from the parsers' rows, decoded on import rather than cast.
 * Absent figures are absent keys (never null or 0), as the parsers give them.
 */
import { Schema } from "effect"
import { EncodedSeries } from "./Pack.ts"
import { Disagreements } from "./Restatements.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const Num = Schema.Finite

export const Sector = Schema.Struct({ code: Schema.String, name: Schema.String })

export const ListedSymbol = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sectorName: opt(Schema.String),
  sectorCode: opt(Schema.String),
  isEtf: Schema.Boolean,
  isDebt: Schema.Boolean
})

export const ScreenerRow = Schema.Struct({
  symbol: Schema.String,
  name: opt(Schema.String),
  sectorCode: opt(Schema.String),
  listedIn: Schema.Array(Schema.String),
  marketCap: opt(Num),
  price: opt(Num),
  changePct: opt(Num),
  changeYearPct: opt(Num),
  peTtm: opt(Num),
  dividendYieldPct: opt(Num),
  freeFloatShares: opt(Num),
  volume30dAvg: opt(Num)
})

export const IndexConstituent = Schema.Struct({
  symbol: Schema.String,
  name: opt(Schema.String),
  ldcp: opt(Num),
  current: opt(Num),
  change: opt(Num),
  changePct: opt(Num),
  weightPct: opt(Num),
  indexPoints: opt(Num),
  volume: opt(Num),
  freeFloatShares: opt(Num),
  marketCap: opt(Num)
})

export const SummaryRow = Schema.Struct({
  symbol: Schema.String,
  sectorCode: Schema.String,
  name: Schema.String,
  date: Schema.String,
  open: opt(Num),
  high: opt(Num),
  low: opt(Num),
  close: Num,
  volume: opt(Num),
  prevClose: opt(Num),
  exMarkers: Schema.Array(Schema.Literals(["XD", "XB", "XR"]))
})

export const IndexLevel = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  date: Schema.String,
  level: Num,
  previous: opt(Num),
  previousDate: opt(Schema.String)
})

const StatementLine = Schema.Struct({
  period: Schema.String,
  periodType: Schema.Literals(["annual", "quarterly"]),
  fiscalYear: opt(Schema.Int),
  quarter: opt(Schema.Int),
  line: Schema.String,
  value: Num,
  units: Schema.Literals(["thousands", "rupees"])
})

export const CompanyPage = Schema.Struct({
  name: opt(Schema.String),
  sectorName: opt(Schema.String),
  asOfText: opt(Schema.String),
  price: opt(Num),
  change: opt(Num),
  changePct: opt(Num),
  open: opt(Num),
  high: opt(Num),
  low: opt(Num),
  volume: opt(Num),
  circuitLow: opt(Num),
  circuitHigh: opt(Num),
  week52Low: opt(Num),
  week52High: opt(Num),
  description: opt(Schema.String),
  fiscalYearEnd: opt(Schema.String),
  marketCapThousands: opt(Num),
  shares: opt(Num),
  freeFloatShares: opt(Num),
  freeFloatPct: opt(Num),
  statements: Schema.Array(StatementLine),
  ratios: Schema.Array(Schema.Struct({ period: Schema.String, name: Schema.String, value: Num })),
  unreadable: Schema.Int
})

const PayoutPart = Schema.Struct({
  kind: Schema.Literals(["cash", "bonus", "right"]),
  percent: opt(Num),
  amountPerShare: opt(Num),
  sequence: opt(Schema.Literals(["final", "interim-1", "interim-2", "interim-3", "interim-4"]))
})

export const PayoutRow = Schema.Struct({
  symbol: Schema.String,
  sectorName: opt(Schema.String),
  announcedAt: opt(Schema.String),
  periodEnd: opt(Schema.String),
  periodType: opt(Schema.Literals(["YR", "HYR", "IQ", "IIQ", "IIIQ"])),
  details: Schema.String,
  parts: Schema.Array(PayoutPart),
  bookClosureFrom: opt(Schema.String),
  bookClosureTo: opt(Schema.String),
  /** Which portal request the row came from. */
  source: opt(Schema.String)
})

export const Announcement = Schema.Struct({
  id: Schema.String,
  symbol: Schema.String,
  companyName: opt(Schema.String),
  /** The exchange's Karachi date of the filing. */
  publishedOn: Schema.String,
  /** Only when the recording gives a time of day. */
  publishedAt: opt(Schema.String),
  title: Schema.String,
  documentUrl: opt(Schema.String),
  imageUrl: opt(Schema.String),
  revoked: Schema.Boolean
})

const SeriesBySymbol = Schema.Record(Schema.String, EncodedSeries)

/** One line of an income statement with its symbol (a statement export rather than a whole page). */
export const SymbolStatementLine = Schema.Struct({ symbol: Schema.String, ...StatementLine.fields })

const NewsSource = Schema.Struct({
  publisher: Schema.String,
  url: Schema.String,
  title: Schema.String,
  publishedAt: Schema.String
})

/** A news event: one story, first published at `publishedAt`, with every source that carried it. */
export const NewsEvent = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  publishedAt: Schema.String,
  symbols: Schema.Array(Schema.String),
  /** The recording's own search keywords (not tags); absent when none. */
  sourceKeywords: Schema.optionalKey(Schema.Array(Schema.String)),
  sources: Schema.NonEmptyArray(NewsSource)
})

/** Every dataset the importer reads, by its manifest id. */
export const PackDatasets = {
  sectors: Schema.Array(Sector),
  universe: Schema.Array(ListedSymbol),
  universe_2026_08_04: Schema.Array(ListedSymbol),
  screener: Schema.Array(ScreenerRow),
  index_kse100: Schema.Array(IndexConstituent),
  board_allshr: Schema.Array(IndexConstituent),
  index_levels: Schema.Array(IndexLevel),
  index_history_kse100: SeriesBySymbol,
  prices_eod: SeriesBySymbol,
  prices_as_traded: SeriesBySymbol,
  prices_historical_engro: SeriesBySymbol,
  market_summary_20210121: Schema.Array(SummaryRow),
  price_disagreements: Disagreements,
  company_pages: Schema.Record(Schema.String, CompanyPage),
  payouts: Schema.Array(PayoutRow),
  announcements: Schema.Array(Announcement),
  announcements_company_pages: Schema.Array(Announcement),
  company_pages_2025_09: Schema.Record(Schema.String, CompanyPage),
  payouts_company_pages_2025_09: Schema.Array(PayoutRow),
  announcements_company_pages_2025_09: Schema.Array(Announcement),
  announcements_filings_inventory: Schema.Array(Announcement),
  financials_sales: Schema.Array(SymbolStatementLine),
  screener_2026_08_04: Schema.Array(ScreenerRow),
  news: Schema.Array(NewsEvent),
  news_headlines: Schema.Array(NewsEvent)
}

export type PackDatasetId = keyof typeof PackDatasets
export type PackDataset<K extends PackDatasetId> = (typeof PackDatasets)[K]["Type"]
