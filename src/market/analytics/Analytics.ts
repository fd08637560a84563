/**
 * Per-stock analytics, technicals and valuation, the market-wide screener,
 * the comparison and the research package (SPEC 4.2, 4.4), answered from
 * the figures derived once per read-model snapshot (`SnapshotFigures.ts`);
 * no request scans a price history, except an analytics or compare request
 * with `adjust` (AdjustedAnswers.ts: its own series, per request). The figures of each new snapshot are
 * computed in the background as soon as it is swapped in.
 *
 * Owns the figure memo. Does not own the rules (pure, in domain/market:
 * Analytics, Technicals, Valuation, Screener, Compare, Research) nor paging
 * cursors (Cursors).
 */
import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { DataNotFound, InvalidRequest, InvalidSymbol, type SourceUnavailable } from "../../../domain/Errors.ts"
import type {
  Comparison,
  ResearchPackage,
  ScreenerPage,
  StockAnalytics,
  Technicals,
  TechnicalsFigures,
  Valuation
} from "../../../domain/market/analytics/AnalyticsSchemas.ts"
import { compare as compareFigures } from "../../../domain/market/analytics/Compare.ts"
import { screen as screenRows } from "../../../domain/market/analytics/Screener.ts"
import type { ScreenRequest } from "../../../domain/market/analytics/ScreenRequest.ts"
import { valuation as valuationOf } from "../../../domain/market/analytics/Valuation.ts"
import { resolveSector } from "../../../domain/market/board/Sectors.ts"
import { karachiDate } from "../../../domain/market/calendar/Calendar.ts"
import type { AdjustMode } from "../../../domain/market/prices/Adjustment.ts"
import { unknownSymbol } from "../../../domain/market/search/SymbolTable.ts"
import { screenWarnings } from "../../../domain/market/shared/Warnings.ts"
import type { MarketSnapshot, SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import type { SectorRow } from "../../../domain/market/snapshot/StoreRows.ts"
import { companyAliases } from "../../ingest/CompanyAliases.ts"
import { Cursors } from "../../paging/Cursors.ts"
import { listed } from "../filings/Filings.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { cooperatively } from "../readmodel/Cooperative.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { type FigureMemo, makeFigureMemo } from "../readmodel/SnapshotFigures.ts"
import { adjustedAnalyticsAnswer, adjustedLookup } from "./AdjustedAnswers.ts"
import { researchInstant, researchOf } from "./ResearchPackage.ts"

type SymbolErr = InvalidSymbol | DataNotFound | SourceUnavailable
/** The `adjust` query parameter (absent: none). */
type AdjustParam = "none" | AdjustMode | undefined

/** The screener's paging scope: the filters (not limit or cursor), keys sorted, so GET and POST share cursors. */
export const screenScope = (request: ScreenRequest): string => {
  const { cursor: _c, limit: _l, ...filter } = request
  const keys = Object.keys(filter).sort() as Array<keyof typeof filter>
  return "screener:" + JSON.stringify(keys.map((k) => [k, filter[k]]))
}

const noPrices = (symbol: string) =>
  new DataNotFound({ message: `no clean price history is recorded for ${symbol}`, symbol })

/** What the methods read: the read model, the paging cursors and the figure memo. */
interface FigureContext {
  readonly model: typeof MarketReadModel.Service
  readonly cursors: typeof Cursors.Service
  readonly memo: FigureMemo
}

/** A listed symbol's figures from the memo: analytics, technicals, valuation and the research package. */
const symbolMethods = ({ model, memo }: FigureContext) => {
  const withListed = <A>(
    raw: string,
    f: (snapshot: MarketSnapshot, data: SymbolData, now: number) => Effect.Effect<A, SymbolErr>
  ) =>
    Effect.gen(function*() {
      const snapshot = yield* model.snapshot
      const data = yield* listed(snapshot, raw)
      return yield* f(snapshot, data, yield* Clock.currentTimeMillis)
    })
  const seriesSources = (snapshot: MarketSnapshot, data: SymbolData, quoted: boolean) =>
    sourcesOf(snapshot, [...(data.prices?.datasets ?? []), ...(quoted && data.quote ? [data.quote.dataset] : [])])

  const analytics = Effect.fn("Analytics.analytics")((raw: string, adjust?: AdjustParam) =>
    withListed(raw, (snapshot, data) => {
      if (adjust !== undefined && adjust !== "none") return adjustedAnalyticsAnswer(snapshot, data, adjust)
      const a = memo.symbol(snapshot, data).analytics
      return a === undefined
        ? Effect.fail(noPrices(data.security.symbol))
        : Effect.succeed({ ...a, sources: seriesSources(snapshot, data, a.last_price_basis === "quote") })
    })
  )

  const technicals = Effect.fn("Analytics.technicals")((raw: string) =>
    withListed(raw, (snapshot, data) => {
      const t = memo.symbol(snapshot, data).technicals
      return t === undefined
        ? Effect.fail(noPrices(data.security.symbol))
        : Effect.succeed({ ...t, sources: seriesSources(snapshot, data, false) })
    })
  )

  const valuation = Effect.fn("Analytics.valuation")((raw: string) =>
    withListed(raw, (snapshot, data, now) => {
      const symbol = data.security.symbol
      const inputs = memo.day(snapshot, karachiDate(now)).valuation.get(symbol)
      return Effect.succeed({
        ...valuationOf({ symbol, ...(inputs !== undefined ? inputs : {}) }),
        sources: sourcesOf(snapshot, inputs?.datasets ?? [])
      })
    })
  )

  const research = Effect.fn("Analytics.research")((raw: string) =>
    withListed(raw, (snapshot, data, now) => {
      const { at } = researchInstant(now, data.security.symbol)
      return Effect.succeed(
        researchOf(snapshot, data, memo.symbol(snapshot, data), memo.day(snapshot, karachiDate(at)), at)
      )
    })
  )

  return { analytics, technicals, valuation, research }
}

/** The market-wide figures of the day: the screener and the comparison. */
const marketMethods = ({ model, cursors, memo }: FigureContext) => {
  const screen = Effect.fn("Analytics.screen")(function*(asked: ScreenRequest) {
    const snapshot = yield* model.snapshot
    const request = yield* sectorsAsCodes(snapshot.sectors, asked)
    const day = memo.day(snapshot, karachiDate(yield* Clock.currentTimeMillis))
    const scope = screenScope(request)
    const after = yield* cursors.decode(scope, request.cursor)
    const page = screenRows(day.table, request, after !== undefined ? String(after[0]) : undefined)
    return {
      total: page.total,
      next_cursor: page.next_after !== undefined ? yield* cursors.encode(scope, [page.next_after]) : null,
      items: page.items,
      left_out_unknown: page.left_out_unknown,
      unknown_by_filter: page.unknown_by_filter,
      order: "symbol ascending",
      ...screenWarnings(page.left_out_unknown, page.unknown_by_filter),
      sources: sourcesOf(snapshot, day.datasets)
    }
  })

  const compare = Effect.fn("Analytics.compare")(function*(raw: string, adjust?: AdjustParam) {
    const snapshot = yield* model.snapshot
    const day = memo.day(snapshot, karachiDate(yield* Clock.currentTimeMillis))
    const mode = adjust === "none" ? undefined : adjust
    const adjusted = mode !== undefined ? adjustedLookup(snapshot, (s) => day.bySymbol.get(s), mode) : undefined
    const result = compareFigures(raw, adjusted?.lookup ?? ((s) => day.bySymbol.get(s)))
    if ("reason" in result) {
      const symbol = result.symbol !== undefined ? { symbol: result.symbol } : {}
      return yield* result.reason === "unknown_symbol"
        ? new DataNotFound({
          message: result.symbol === undefined
            ? result.message
            : unknownSymbol(snapshot.securities, companyAliases(), result.symbol),
          ...symbol
        })
        : result.reason === "invalid_symbol"
        ? new InvalidSymbol({ message: `query field \`symbols\`: ${result.message}`, ...symbol })
        : new InvalidRequest({ message: `query field \`symbols\`: ${result.message}`, ...symbol })
    }
    const datasets = result.comparison.symbols.flatMap((s) => day.valuation.get(s)?.rowDatasets ?? [])
    if (adjusted === undefined) return { ...result.comparison, sources: sourcesOf(snapshot, datasets) }
    return {
      ...result.comparison,
      adjustments: adjusted.adjustments(result.comparison.symbols),
      sources: sourcesOf(snapshot, [...datasets, ...adjusted.datasets()])
    }
  })

  return { screen, compare }
}

/**
 * Each new snapshot's figures computed in the background, a slice at a time,
 * so the first request does not wait for them; `prepare` does it on demand.
 */
const preparation = ({ model, memo }: FigureContext) => {
  const prepare = Effect.fn("Analytics.prepare")(function*(snapshot: MarketSnapshot) {
    const now = yield* Clock.currentTimeMillis
    return yield* cooperatively(memo.daySteps(snapshot, karachiDate(now)))
  })

  let computed: MarketSnapshot | undefined
  const precompute = Effect.gen(function*() {
    const state = model.state()
    if (state === undefined || state.snapshot === computed) return
    computed = state.snapshot
    const started = yield* Clock.currentTimeMillis
    const day = yield* prepare(state.snapshot)
    yield* Effect.logInfo({
      msg: "market figures computed",
      version: state.snapshot.version,
      symbols: day.rows.length,
      ms: (yield* Clock.currentTimeMillis) - started
    })
  })

  return { prepare, precompute }
}

/**
 * The request with each sector as its code: a sector may be named by any id, code or name the service hands out
 * (GET /v1/sectors, MCP psx://sectors); one that names no sector is 400, never a screen that silently matches nothing.
 */
const sectorsAsCodes = (sectors: ReadonlyArray<SectorRow>, request: ScreenRequest) => {
  if (request.sectors === undefined || request.sectors.length === 0) return Effect.succeed(request)
  const codes: Array<string> = []
  for (const id of request.sectors) {
    const sector = resolveSector(sectors, id)
    if (sector === undefined) {
      return Effect.fail(
        new InvalidRequest({
          message:
            `field \`sectors\`: no sector ${
              JSON.stringify(id.slice(0, 80))
            }; give an id, code or name from GET /v1/sectors ` +
            "(over MCP: the resource psx://sectors)"
        })
      )
    }
    codes.push(sector.code)
  }
  return Effect.succeed({ ...request, sectors: codes })
}

export class Analytics extends Context.Service<Analytics, {
  readonly analytics: (symbol: string, adjust?: AdjustParam) => Effect.Effect<typeof StockAnalytics.Type, SymbolErr>
  readonly technicals: (symbol: string) => Effect.Effect<typeof Technicals.Type, SymbolErr>
  readonly valuation: (symbol: string) => Effect.Effect<typeof Valuation.Type, SymbolErr>
  readonly screen: (
    request: ScreenRequest
  ) => Effect.Effect<typeof ScreenerPage.Type, InvalidRequest | SourceUnavailable>
  readonly compare: (
    symbols: string,
    adjust?: AdjustParam
  ) => Effect.Effect<typeof Comparison.Type, InvalidRequest | SymbolErr>
  readonly research: (symbol: string) => Effect.Effect<ResearchPackage, SymbolErr>
  /** A listed symbol's technicals in a snapshot, from the memo (for the full-company payload). */
  readonly technicalsOf: (snapshot: MarketSnapshot, data: SymbolData) => TechnicalsFigures | undefined
  /** Computes a snapshot's figures for today a slice at a time (the service keeps answering meanwhile); at once if known. */
  readonly prepare: (snapshot: MarketSnapshot) => Effect.Effect<void>
}>()("psx/market/Analytics") {
  static readonly layer = Layer.effect(
    Analytics,
    Effect.gen(function*() {
      const ctx: FigureContext = { model: yield* MarketReadModel, cursors: yield* Cursors, memo: makeFigureMemo() }
      const { prepare, precompute } = preparation(ctx)
      yield* precompute.pipe(Effect.repeat(Schedule.spaced(Duration.millis(250))), Effect.forkScoped)
      return {
        ...symbolMethods(ctx),
        ...marketMethods(ctx),
        technicalsOf: (snapshot: MarketSnapshot, data: SymbolData) => ctx.memo.symbol(snapshot, data).technicals,
        prepare: (snapshot: MarketSnapshot) => Effect.asVoid(prepare(snapshot))
      }
    })
  )
}
