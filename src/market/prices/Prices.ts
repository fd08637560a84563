/**
 * Daily price history, newest first, read from the columnar series of the
 * market read model: as recorded, or with `adjust=splits|total_return` put
 * on the basis of its last row by the recorded corporate actions
 * (domain/market/prices/Adjustment.ts: the factors applied, and the cut where an
 * adjustment is not known, are part of the answer).
 */
import { Context, Effect, Layer } from "effect"
import { DataNotFound, InvalidRequest, type InvalidSymbol, type SourceUnavailable } from "../../../domain/Errors.ts"
import { addDays } from "../../../domain/market/calendar/Calendar.ts"
import {
  adjustedOf,
  adjustmentRecord,
  adjustmentSources,
  type AdjustMode
} from "../../../domain/market/prices/Adjustment.ts"
import { unknownSymbol } from "../../../domain/market/search/SymbolTable.ts"
import { PRICES_DEFAULT_LIMIT, type Range, rangeStart } from "../../../domain/market/shared/Limits.ts"
import type { PricesResponse } from "../../../domain/market/shared/Schemas.ts"
import { parseTicker } from "../../../domain/market/shared/Ticker.ts"
import { datasetAt, indexAtOrBefore, known, type PriceSeries } from "../../../domain/market/snapshot/Series.ts"
import type { SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { defined } from "../../../domain/Objects.ts"
import { companyAliases } from "../../ingest/CompanyAliases.ts"
import { Cursors } from "../../paging/Cursors.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"

export interface PricesQuery {
  readonly date_from?: string | undefined
  readonly date_to?: string | undefined
  readonly limit?: number | undefined
  readonly range?: Range | undefined
  readonly series?: "auto" | "as_traded" | "eod" | undefined
  readonly adjust?: "none" | AdjustMode | undefined
  readonly cursor?: string | undefined
}

/**
 * The series served for a request, and whether the source restated it.
 *
 * Two recorded series exist: `as_traded` (closing prices as they traded) and
 * `eod` (the exchange's timeseries, restated for splits made before it was
 * recorded). `series=auto` (default) serves `merged` — as-traded where
 * recorded, else eod — only for symbols whose eod series is verified as
 * traded over the overlap of the two; every other symbol gets `eod` alone
 * with `restated_by_source` true (a whole-history factor) or "unknown" (no
 * evidence), so the two are never mixed (domain/market/prices/Restated.ts).
 */
export const chooseSeries = (data: SymbolData, wanted: PricesQuery["series"]) => {
  const r = data.restatement
  const auto = data.prices?.series ?? "eod"
  const label: "as_traded" | "eod" | "merged" = wanted === "as_traded" || wanted === "eod" ? wanted : auto
  const series = label === "as_traded" ? data.asTraded : label === "eod" ? data.eod : data.prices
  const restatedBySource: boolean | "unknown" = label === "eod" ? r.restated : false
  return { label, series, restatedBySource, restatement: r }
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places

/**
 * Close-based high, low and change over rows [lo, hi] that are not flagged (source glitches). A named `range`
 * counts back from the newest row of the series (the data may end before today) and answers with these.
 */
export const windowStats = (s: PriceSeries, lo: number, hi: number) => {
  let high = -Infinity, low = Infinity, first: number | undefined, last: number | undefined
  for (let i = lo; i <= hi; i++) {
    if (s.flag[i] !== undefined) continue
    const c = s.close[i]!
    if (c > high) high = c
    if (c < low) low = c
    if (first === undefined) first = c
    last = c
  }
  if (first === undefined || last === undefined) return undefined
  return {
    high,
    low,
    first_close: first,
    last_close: last,
    change: round(last - first, 4),
    change_pct: round((last / first - 1) * 100, 4)
  }
}

type PricesError = InvalidSymbol | InvalidRequest | DataNotFound | SourceUnavailable

/** One row of a price history: unknown figures are absent keys. */
const priceItem = (s: PriceSeries, i: number) => ({
  date: s.dates[i]!,
  ...defined({ open: known(s.open[i]), high: known(s.high[i]), low: known(s.low[i]) }),
  close: s.close[i]!,
  ...defined({ volume: known(s.volume[i]), flag: s.flag[i] })
})

/** A date window is either a named range or date_from..date_to, in order. */
const checkWindow = (q: PricesQuery) =>
  q.date_from && q.date_to && q.date_from > q.date_to
    ? Effect.fail(
      new InvalidRequest({ message: `query field \`date_from\` (${q.date_from}) is after \`date_to\` (${q.date_to})` })
    )
    : q.range && (q.date_from || q.date_to)
    ? Effect.fail(new InvalidRequest({ message: "query fields `range` and `date_from`/`date_to` cannot be combined" }))
    : Effect.void

/** Why the eod series is not served merged: restated by the source, or not known not to be. */
const restatementNote = (
  symbol: string,
  restatement: { readonly restated: boolean | "unknown"; readonly basis: string }
) =>
  `eod series of ${symbol}: ${restatement.basis}. series=eod is the exchange's series` +
  (restatement.restated === true ? " restated by the source" : "") +
  `; series=as_traded is as traded where recorded. They are not mixed.`

/** Rows lo..hi of a series, newest first: the page of `limit` rows before the cursor's date, and whether more follow. */
const pageOf = (s: PriceSeries, lo: number, hi: number, afterDate: string | undefined, limit: number) => {
  const start = afterDate === undefined ? hi : Math.min(hi, indexAtOrBefore(s, addDays(afterDate, -1)))
  const end = Math.max(lo, start - limit + 1)
  const items = []
  for (let i = start; i >= end && i >= lo; i--) items.push(priceItem(s, i))
  return { items, more: end > lo && start >= lo }
}

/** The datasets rows lo..hi came from, sorted. */
const datasetsIn = (s: PriceSeries, lo: number, hi: number) => {
  const datasets = new Set<string>()
  for (let i = lo; i <= hi; i++) datasets.add(datasetAt(s, i))
  return [...datasets].sort()
}

export class Prices extends Context.Service<Prices, {
  readonly history: (symbol: string, query: PricesQuery) => Effect.Effect<typeof PricesResponse.Type, PricesError>
  /** Unflagged closes of the default series from `fromDate` on, oldest first. */
  readonly closes: (
    symbol: string,
    fromDate: string
  ) => Effect.Effect<ReadonlyArray<{ date: string; close: number }>, SourceUnavailable>
}>()("psx/market/Prices") {
  static readonly layer = Layer.effect(
    Prices,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      const cursors = yield* Cursors

      const history = Effect.fn("Prices.history")(function*(raw: string, q: PricesQuery) {
        const symbol = yield* parseTicker(raw)
        const limit = q.limit ?? PRICES_DEFAULT_LIMIT
        yield* checkWindow(q)
        const snapshot = yield* model.snapshot
        const data = snapshot.symbols.get(symbol)
        if (data === undefined) {
          return yield* new DataNotFound({
            message: unknownSymbol(snapshot.securities, companyAliases(), symbol),
            symbol
          })
        }
        const { label, series: s, restatedBySource, restatement } = chooseSeries(data, q.series)
        const newest = s?.dates[s.dates.length - 1]
        if (s === undefined || newest === undefined) {
          return yield* new DataNotFound({ message: `no ${label} price history is recorded for ${symbol}`, symbol })
        }
        const mode = q.adjust === "none" ? undefined : q.adjust
        const adjusted = mode === undefined ? undefined : adjustedOf(data, s, mode)
        const from = q.range ? rangeStart(q.range, newest) : q.date_from
        const to = q.range ? newest : q.date_to
        const scope = `prices:${symbol}:${label}:${from ?? ""}:${to ?? ""}${mode === undefined ? "" : `:${mode}`}`
        const after = yield* cursors.decode(scope, q.cursor)
        const served = adjusted?.series ?? s
        const lo = from === undefined ? 0 : indexAtOrBefore(served, addDays(from, -1)) + 1
        const hi = to === undefined ? served.dates.length - 1 : indexAtOrBefore(served, to)
        const total = Math.max(0, hi - lo + 1)
        const { items, more } = pageOf(served, lo, hi, after === undefined ? undefined : String(after[0]), limit)
        const stats = q.range && total > 0 ? windowStats(served, lo, hi) : undefined
        return {
          symbol,
          adjusted: adjusted !== undefined,
          series: label,
          restated_by_source: restatedBySource,
          ...(restatement.restated !== false ? { note: restatementNote(symbol, restatement) } : {}),
          ...(mode !== undefined && adjusted !== undefined
            ? {
              adjustment: adjustmentRecord(mode, adjusted, served.dates[lo] ?? served.dates[served.dates.length - 1])
            }
            : {}),
          total,
          next_cursor: more && items.length > 0 ? yield* cursors.encode(scope, [items[items.length - 1]!.date]) : null,
          ...(stats && q.range
            ? {
              window: {
                range: q.range,
                from: served.dates[lo]!,
                to: served.dates[hi]!,
                ...stats,
                basis: "close" as const
              }
            }
            : {}),
          items,
          sources: sourcesOf(snapshot, [
            ...datasetsIn(served, lo, hi),
            ...(adjusted !== undefined ? adjustmentSources(adjusted) : [])
          ])
        }
      })

      const closes = (symbol: string, fromDate: string) =>
        Effect.map(model.snapshot, (snapshot) => {
          const s = snapshot.symbols.get(symbol)?.prices
          if (s === undefined) return []
          const out: Array<{ date: string; close: number }> = []
          for (let i = indexAtOrBefore(s, addDays(fromDate, -1)) + 1; i < s.dates.length; i++) {
            if (s.flag[i] === undefined) out.push({ date: s.dates[i]!, close: s.close[i]! })
          }
          return out
        })

      return { history, closes }
    })
  )
}
