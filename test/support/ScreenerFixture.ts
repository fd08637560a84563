/**
 * The vendored screener snapshot slice of 2026-04-08 (test/fixtures/screener,
 * see its PROVENANCE.md), decoded with a Schema, and turned into the screen
 * figures the screener filters on (the screener's price and change stand in
 * for the quote of that snapshot).
 */
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { SecurityType } from "../../domain/market/analytics/AnalyticsSchemas.ts"
import { screenFigures } from "../../domain/market/analytics/Screener.ts"

const N = Schema.NullOr(Schema.Finite)
export const SnapshotRow = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  sector_code: Schema.NullOr(Schema.String),
  sector: Schema.NullOr(Schema.String),
  security_type: SecurityType,
  inside_kse100: Schema.Boolean,
  price: N,
  change_pct: N,
  market_cap: N,
  pe_ttm: N,
  dividend_yield_pct: N,
  free_float_shares: N,
  volume_30d_avg: N
})
export type SnapshotRow = typeof SnapshotRow.Type

export const SNAPSHOT_AS_OF = "2026-04-08T10:05:00.000Z"

export const snapshotRows = (): ReadonlyArray<SnapshotRow> =>
  Schema.decodeUnknownSync(Schema.fromJsonString(Schema.Array(SnapshotRow)))(
    readFileSync(new URL("../fixtures/screener/screener-2026-04-08-slice.json", import.meta.url), "utf8")
  )

const u = <A>(v: A | null): A | undefined => v ?? undefined

export const fundamentalsOf = (r: SnapshotRow) => ({
  market_cap: u(r.market_cap),
  pe_ttm: u(r.pe_ttm),
  dividend_yield_pct: u(r.dividend_yield_pct),
  free_float_shares: u(r.free_float_shares),
  volume_30d_avg: u(r.volume_30d_avg),
  as_of: "2026-04-08"
})

export const snapshotFigures = () =>
  snapshotRows().map((r) =>
    screenFigures({
      symbol: r.symbol,
      name: r.name,
      sector: u(r.sector),
      sector_code: u(r.sector_code),
      security_type: r.security_type,
      inside_kse100: r.inside_kse100,
      quote: r.price === null ? undefined : { price: r.price, change_pct: u(r.change_pct), as_of: SNAPSHOT_AS_OF },
      fundamentals: fundamentalsOf(r),
      ex_dividend: null
    })
  )
