/**
 * The `adjust=splits|total_return` answers of analytics and compare: the
 * figures of domain/market/analytics/AdjustedFigures.ts on the snapshot a request
 * holds, with the adjustment each rests on. Computed per request (a few
 * milliseconds a symbol), never memoised with the unadjusted figures.
 */
import { Effect } from "effect"
import { DataNotFound } from "../../../domain/Errors.ts"
import { adjustedAnalytics, adjustedScreenFigures } from "../../../domain/market/analytics/AdjustedFigures.ts"
import type { ScreenFigures } from "../../../domain/market/analytics/AnalyticsSchemas.ts"
import {
  type AdjustedSeries,
  adjustmentRecord,
  adjustmentSources,
  type AdjustMode
} from "../../../domain/market/prices/Adjustment.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { sourcesOf } from "../provenance/Provenance.ts"

/** The analytics answer on the adjusted default series; 404 when no row survives the cut (the reason is in the message). */
export const adjustedAnalyticsAnswer = (snapshot: MarketSnapshot, data: SymbolData, mode: AdjustMode) => {
  const symbol = data.security.symbol
  const got = adjustedAnalytics(data, mode)
  if (got?.figures === undefined) {
    const why = got?.adjusted.cut?.reason ?? "no clean price history is recorded"
    return Effect.fail(
      new DataNotFound({ message: `no ${mode} price history of ${symbol} can be given: ${why}`, symbol })
    )
  }
  return Effect.succeed({
    ...got.figures,
    adjustment: adjustmentRecord(mode, got.adjusted),
    sources: sourcesOf(snapshot, [...(data.prices?.datasets ?? []), ...adjustmentSources(got.adjusted)])
  })
}

/** A comparison lookup whose price measures come from each symbol's adjusted series, and what each rested on. */
export const adjustedLookup = (
  snapshot: MarketSnapshot,
  figures: (symbol: string) => ScreenFigures | undefined,
  mode: AdjustMode
) => {
  const used = new Map<string, AdjustedSeries>()
  const lookup = (symbol: string): ScreenFigures | undefined => {
    const f = figures(symbol), data = snapshot.symbols.get(symbol)
    if (f === undefined || data === undefined) return f
    const got = adjustedScreenFigures(f, data, mode)
    if (got.adjusted !== undefined) used.set(f.symbol, got.adjusted)
    return got.figures
  }
  const adjustments = (symbols: ReadonlyArray<string>) =>
    symbols.flatMap((symbol) => {
      const a = used.get(symbol)
      return a === undefined ? [] : [{ symbol, ...adjustmentRecord(mode, a) }]
    })
  const datasets = () => [...used.values()].flatMap(adjustmentSources)
  return { lookup, adjustments, datasets }
}
