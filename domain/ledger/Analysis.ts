/**
 * Portfolio analysis against the KSE-100 constituents: sector weights
 * beside the index's, overlap with the index, concentration, dividend
 * income. Weights use market value when every open position has a quote,
 * else cost (and say so). Pure.
 */

export interface AnalysedPosition {
  readonly symbol: string
  readonly sector?: string | undefined
  readonly cost: number
  readonly market_value?: number | undefined
  readonly in_kse100: boolean
}

export interface IndexSectorWeight {
  readonly sector: string
  readonly weight_pct: number
}

const r2 = (n: number) => Math.round(n * 100) / 100

export const analyse = (positions: ReadonlyArray<AnalysedPosition>, index: ReadonlyArray<IndexSectorWeight>) => {
  const open = positions.filter((p) => p.cost > 0 || (p.market_value ?? 0) > 0)
  const byValue = open.length > 0 && open.every((p) => p.market_value !== undefined)
  const weightOf = (p: AnalysedPosition) => (byValue ? p.market_value! : p.cost)
  const total = open.reduce((s, p) => s + weightOf(p), 0)
  const sectors = new Map<string, number>()
  for (const p of open) {
    sectors.set(p.sector ?? "unknown sector", (sectors.get(p.sector ?? "unknown sector") ?? 0) + weightOf(p))
  }
  const indexBySector = new Map(index.map((s) => [s.sector, s.weight_pct]))
  const shares = open.map((p) => ({ symbol: p.symbol, pct: total > 0 ? (100 * weightOf(p)) / total : 0 }))
  const largest = [...shares].sort((a, b) => b.pct - a.pct)[0]
  const inIndex = open.filter((p) => p.in_kse100)
  return {
    weight_basis: byValue ? "market_value" as const : "cost" as const,
    sectors: [...sectors].map(([sector, w]) => ({
      sector,
      portfolio_pct: total > 0 ? r2((100 * w) / total) : 0,
      ...(indexBySector.has(sector) ? { kse100_pct: r2(indexBySector.get(sector)!) } : {})
    })).sort((a, b) => b.portfolio_pct - a.portfolio_pct),
    overlap: {
      symbols_in_kse100: inIndex.length,
      symbols: open.length,
      ...(total > 0 ? { weight_in_kse100_pct: r2((100 * inIndex.reduce((s, p) => s + weightOf(p), 0)) / total) } : {})
    },
    concentration: largest && total > 0
      ? {
        largest_symbol: largest.symbol,
        largest_pct: r2(largest.pct),
        hhi: Math.round(shares.reduce((s, x) => s + x.pct * x.pct, 0))
      }
      : {}
  }
}
