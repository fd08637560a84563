/**
 * Loads a vendored price-series slice (test/fixtures/series, see its
 * PROVENANCE.md) into the columnar `PriceSeries` the market read model holds,
 * optionally cut at a last date. Rows are decoded with a Schema, not cast.
 */
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import type { PriceSeries } from "../../domain/market/snapshot/Series.ts"

const Cell = Schema.NullOr(Schema.Finite)
const SeriesFile = Schema.Struct({
  symbol: Schema.String,
  series: Schema.Literals(["as_traded", "eod", "merged"]),
  dataset: Schema.String,
  rows: Schema.Array(Schema.Tuple([Schema.String, Cell, Cell, Cell, Schema.Finite, Cell, Schema.NullOr(Schema.String)]))
})

export const loadSeries = (file: string, to?: string): PriceSeries => {
  const text = readFileSync(new URL(`../fixtures/series/${file}`, import.meta.url), "utf8")
  const f = Schema.decodeUnknownSync(Schema.fromJsonString(SeriesFile))(text)
  const rows = f.rows.filter((r) => to === undefined || r[0] <= to)
  const col = (k: 1 | 2 | 3 | 5) => Float64Array.from(rows, (r) => r[k] ?? NaN)
  return {
    symbol: f.symbol,
    series: f.series,
    dates: rows.map((r) => r[0]),
    open: col(1),
    high: col(2),
    low: col(3),
    close: Float64Array.from(rows, (r) => r[4]),
    volume: col(5),
    flag: rows.map((r) => r[6] ?? undefined),
    datasets: [f.dataset],
    datasetIndex: new Uint8Array(rows.length)
  }
}
