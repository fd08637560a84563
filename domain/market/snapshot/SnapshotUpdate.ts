/**
 * A snapshot updated for a few symbols: the rows of the symbols a write
 * touched (and the small whole tables: datasets, sectors, index levels,
 * news) are folded into the previous snapshot; every other symbol keeps its
 * `SymbolData` object as it was. The result equals what `buildSnapshot`
 * makes from the whole store (test/readmodel-update.test.ts checks it),
 * except that rows rejected earlier stay listed until the next whole build.
 *
 * `planUpdate` says when an update is possible: the change log reaches back
 * to the snapshot, few symbols moved, and nothing moved that other symbols'
 * figures depend on (index membership, or a whole symbol table).
 */
import {
  bySymbol,
  decodeAllSeries,
  type MarketSnapshot,
  rowsBySymbol,
  sectorPeers,
  type SymbolData,
  symbolData,
  wholeTables
} from "./Snapshot.ts"
import { filingsNewestFirst } from "./SnapshotParts.ts"
import type { FundamentalsRow, StoreRows } from "./StoreRows.ts"

/** More symbols than this in one update: rebuild whole (as after an import). */
export const UPDATE_SYMBOLS_LIMIT = 64

/** Tables whose rows are always reloaded whole by an update (small, or not per symbol). */
const WHOLE_TABLES: ReadonlySet<string> = new Set([
  "datasets",
  "sectors",
  "index_levels",
  "index_closes",
  "service_meta",
  "news_items"
])

export interface ChangeLog {
  readonly reachable: boolean
  readonly touched: ReadonlyArray<{ readonly tbl: string; readonly symbol: string | null }>
}

/** The symbols to update, or "whole" when only a whole build will do. */
export const planUpdate = (log: ChangeLog): ReadonlyArray<string> | "whole" => {
  if (!log.reachable) return "whole"
  const symbols = new Set<string>()
  for (const { tbl, symbol } of log.touched) {
    if (WHOLE_TABLES.has(tbl)) continue
    if (tbl === "index_membership" || symbol === null) return "whole"
    symbols.add(symbol)
    if (symbols.size > UPDATE_SYMBOLS_LIMIT) return "whole"
  }
  return [...symbols].sort()
}

/**
 * The previous snapshot with `symbols` rebuilt from `rows` (their rows only,
 * plus the whole small tables). A symbol without a security row is gone.
 */
export const updateSnapshot = (
  prev: MarketSnapshot,
  rows: StoreRows,
  symbols: ReadonlyArray<string>,
  builtAt: number
): MarketSnapshot => {
  const changed = new Set(symbols)
  const rejected = [...prev.rejected]
  const series = decodeAllSeries(rows.series, rejected)
  const theirAnnouncements = [...rows.announcements].sort(filingsNewestFirst)
  const by = rowsBySymbol(rows, series, theirAnnouncements, prev.indexMembers.get("KSE100") ?? [])
  const securities = [...prev.securities.filter((s) => !changed.has(s.symbol)), ...rows.securities].sort(bySymbol)
  const data = new Map<string, SymbolData>()
  const fundamentals = new Map<string, FundamentalsRow>()
  for (const security of securities) {
    const d = changed.has(security.symbol) ? symbolData(security, by) : prev.symbols.get(security.symbol)!
    data.set(security.symbol, d)
    if (d.fundamentals !== undefined) fundamentals.set(security.symbol, d.fundamentals)
  }
  return {
    ...wholeTables(rows, builtAt),
    securities,
    symbols: data,
    sectorMembers: sectorPeers(securities, fundamentals),
    indexMembers: prev.indexMembers,
    indexWeights: prev.indexWeights,
    announcements: [...prev.announcements.filter((a) => !changed.has(a.symbol)), ...theirAnnouncements].sort(
      filingsNewestFirst
    ),
    rejected
  }
}
