/**
 * What the ledger asks the market, answered from the market read model (no
 * SQL on market tables from the ledger): a trade's circuit-breaker bounds
 * from the previous trading day's as-traded close (`previousClose`, the one
 * definition), the symbol's first recorded session and its delisting day, the book closure of a
 * recorded payout, the recorded payouts of the symbols a portfolio holds (with the face value in force on
 * each ex day and their sources, for entitlements), sectors and the newest KSE-100 weights for analysis, and for
 * performance the held symbols' daily closes (as traded where recorded, then the served series, with the source's
 * restatement marked) and KSE-100's recorded closes.
 *
 * Owns: turning market facts into the decider's context. Does not own: the
 * facts themselves (the read model) or the rules (domain/market/calendar/Calendar.ts).
 */
import { Context, Effect, Layer } from "effect"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import type { ValuationCloses } from "../../../domain/ledger/DailyValuation.ts"
import type { PayoutFact } from "../../../domain/ledger/Entitlements.ts"
import type { DayClose } from "../../../domain/ledger/PriceCheck.ts"
import { type IndexCloses, indexCloses } from "../../../domain/market/board/IndexHistory.ts"
import { addDays, circuitBounds, xdDate } from "../../../domain/market/calendar/Calendar.ts"
import { repairExDate } from "../../../domain/market/filings/Dividends.ts"
import { faceValueOn, faceValueRecords } from "../../../domain/market/filings/FaceValues.ts"
import { previousClose } from "../../../domain/market/prices/PreviousClose.ts"
import type { Source } from "../../../domain/market/shared/RecordParts.ts"
import { datasetAt, indexAtOrBefore, type PriceSeries } from "../../../domain/market/snapshot/Series.ts"
import type { SymbolData } from "../../../domain/market/snapshot/Snapshot.ts"
import { sourcesOf } from "../../market/provenance/Provenance.ts"
import { MarketReadModel } from "../../market/readmodel/ReadModel.ts"

export interface TradeFacts {
  readonly circuit?: { readonly lower: number; readonly upper: number; readonly previous_date: string } | undefined
  readonly dayCloses?: ReadonlyArray<DayClose> | undefined
  readonly firstSession?: string | undefined
  readonly delistedOn?: string | undefined
}

export interface IndexFacts {
  readonly meta: ReadonlyArray<
    { readonly symbol: string; readonly sector_name: string | undefined; readonly kse100: boolean }
  >
  /** The KSE-100's sector weights at the newest effective date that carries weights, and nothing summed across dates. */
  readonly sectors: ReadonlyArray<{ readonly sector: string; readonly weight: number }>
}

/** How far back from a credit date a recorded book closure may be taken as the payout's. */
const PAYOUT_WINDOW_DAYS = 120

export interface PayoutFacts {
  readonly payouts: ReadonlyArray<PayoutFact>
  /** The sources of the payouts, by dataset. */
  readonly sources: ReadonlyArray<Source>
}

/**
 * The face value in force on a payout's ex day: a dated, sourced record (domain/market/filings/FaceValues.ts) first,
 * else the company page's figure; absent when neither is recorded (never an assumed Rs 10).
 */
const faceValueOf = (data: SymbolData, day: string): PayoutFact["faceValue"] => {
  const dated = faceValueOn(data.security.symbol, day)
  if (dated !== undefined) return { rupees: dated.rupees, source: dated.source }
  const f = data.fundamentals
  return f?.face_value !== undefined
    ? {
      rupees: f.face_value,
      source: `company page, equity section (dataset ${f.dataset}${f.as_of ? `, as of ${f.as_of}` : ""})`
    }
    : undefined
}

/** A symbol's recorded payouts with a book closure, as the ledger asks for them. */
const payoutFactsOf = (data: SymbolData): ReadonlyArray<PayoutFact> =>
  data.payouts.flatMap((p) => {
    if (p.bookClosureFrom === undefined || p.id === undefined) return []
    const closure = repairExDate(p.bookClosureFrom, p.announcedAt).ex_date
    return [{
      id: p.id,
      symbol: p.symbol,
      kind: p.kind,
      details: p.details,
      percent: p.percent,
      amountPerShare: p.amountPerShare,
      announcedAt: p.announcedAt,
      bookClosureFrom: closure,
      bookClosureTo: p.bookClosureTo,
      faceValue: faceValueOf(data, xdDate(closure) ?? closure),
      dataset: p.dataset ?? "unknown"
    }]
  })

export interface PerformanceFacts {
  /** Each symbol's closes for valuation (symbols without a recorded close are absent). */
  readonly closes: ReadonlyMap<string, ValuationCloses>
  readonly index: IndexCloses | undefined
  /** KSE100PR's recorded closes (the price-return variant), if any. */
  readonly priceIndex: IndexCloses | undefined
  /** The sources of the closes used, by dataset. */
  readonly sources: ReadonlyArray<Source>
  /** The market snapshot's version they come from (a computed answer is the same while it holds). */
  readonly version: number
}

/** The codes KSE-100's closes and its price-return variant's are stored under. */
const KSE100 = "KSE100"
const KSE100PR = "KSE100PR"

/** The first session on the face value a source's restatement by `factor` divides by (new / old), where dated. */
const splitOn = (symbol: string, factor: number) =>
  faceValueRecords.find((r) =>
    r.symbol === symbol && r.from !== undefined &&
    faceValueRecords.some((o) =>
      o.symbol === symbol && o.until !== undefined && o.until < r.from! &&
      Math.abs(r.rupees / o.rupees - factor) < 0.001
    )
  )?.from

/** The datasets an index's closes come from, once per snapshot's closes. */
const indexDatasets = new WeakMap<IndexCloses, ReadonlyArray<string>>()
const datasetsOf = (closes: IndexCloses) => {
  let datasets = indexDatasets.get(closes)
  if (datasets === undefined) indexDatasets.set(closes, datasets = [...new Set(closes.dataset)])
  return datasets
}

/**
 * A symbol's closes for valuing whole shares: the as-traded rows where recorded, then the served series' rows after
 * them (unflagged, positive). When the source restated its series for a split it does not date, the rows taken from
 * it are marked with its factor. Built once per snapshot's symbol.
 */
const valuationCloses = new WeakMap<
  SymbolData,
  { readonly closes: ValuationCloses | undefined; readonly datasets: ReadonlyArray<string> }
>()
const valuationClosesOf = (data: SymbolData) => {
  const known = valuationCloses.get(data)
  if (known !== undefined) return known
  const dates: Array<string> = [], close: Array<number> = [], datasets = new Set<string>()
  const take = (s: PriceSeries, after: string) => {
    for (let i = 0; i < s.dates.length; i++) {
      const c = s.close[i]!
      if (s.dates[i]! <= after || s.flag[i] !== undefined || !(c > 0)) continue
      dates.push(s.dates[i]!)
      close.push(c)
      datasets.add(datasetAt(s, i))
    }
  }
  if (data.asTraded) take(data.asTraded, "")
  const asTradedEnd = dates.length
  if (data.prices && data.prices !== data.asTraded) take(data.prices, dates[dates.length - 1] ?? "")
  const r = data.restatement
  const restated = r.restated === true && r.factor !== undefined && dates.length > asTradedEnd
    ? { factor: r.factor, from: dates[asTradedEnd]!, splitOn: splitOn(data.security.symbol, r.factor) }
    : undefined
  const built = { closes: dates.length > 0 ? { dates, close, restated } : undefined, datasets: [...datasets] }
  valuationCloses.set(data, built)
  return built
}

/** A series' unflagged positive close on `date`, or undefined. */
const closeOn = (s: PriceSeries | undefined, date: string) => {
  const i = s === undefined ? -1 : indexAtOrBefore(s, date)
  const c = i >= 0 && s!.dates[i] === date && s!.flag[i] === undefined ? s!.close[i]! : NaN
  return c > 0 ? c : undefined
}

/** The trade day's recorded closes: as traded, and the served series' when it is another series (with its restatement). */
const dayClosesOf = (data: SymbolData, date: string): ReadonlyArray<DayClose> => {
  const asTraded = closeOn(data.asTraded, date)
  const served = data.prices === data.asTraded ? undefined : closeOn(data.prices, date)
  const r = data.restatement
  return [
    ...(asTraded === undefined ? [] : [{ date, close: asTraded, series: "as_traded" as const, restated: false }]),
    ...(served === undefined
      ? []
      : [{ date, close: served, series: "served" as const, restated: r.restated, factor: r.factor }])
  ]
}

const firstSessionOf = (data: SymbolData) =>
  [data.asTraded?.dates[0], data.prices?.dates[0]].filter((d): d is string => d !== undefined).sort()[0]

export class MarketFacts extends Context.Service<MarketFacts, {
  readonly trade: (symbol: string, date: string) => Effect.Effect<TradeFacts, SourceUnavailable>
  readonly bookClosure: (
    symbol: string,
    kind: "cash" | "bonus",
    creditDate: string
  ) => Effect.Effect<string | undefined, SourceUnavailable>
  readonly index: (symbols: ReadonlyArray<string>) => Effect.Effect<IndexFacts, SourceUnavailable>
  readonly payouts: (symbols: ReadonlyArray<string>) => Effect.Effect<PayoutFacts, SourceUnavailable>
  readonly performance: (symbols: ReadonlyArray<string>) => Effect.Effect<PerformanceFacts, SourceUnavailable>
}>()("psx/ledger/MarketFacts") {
  static readonly layer = Layer.effect(
    MarketFacts,
    Effect.gen(function*() {
      const model = yield* MarketReadModel

      const trade = Effect.fn("MarketFacts.trade")(function*(symbol: string, date: string) {
        const data = (yield* model.snapshot).symbols.get(symbol)
        if (data === undefined) return {}
        const prev = previousClose(data, date)
        const bounds = prev ? circuitBounds(prev.close, date) : undefined
        return {
          ...(prev && bounds
            ? { circuit: { lower: bounds.lower, upper: bounds.upper, previous_date: prev.date } }
            : {}),
          dayCloses: dayClosesOf(data, date),
          firstSession: firstSessionOf(data),
          ...(data.security.delisted_on !== undefined ? { delistedOn: data.security.delisted_on } : {})
        }
      })

      const bookClosure = Effect.fn("MarketFacts.bookClosure")(
        function*(symbol: string, kind: "cash" | "bonus", creditDate: string) {
          const data = (yield* model.snapshot).symbols.get(symbol)
          const earliest = addDays(creditDate, -PAYOUT_WINDOW_DAYS)
          return (data?.payouts ?? [])
            .flatMap((p) => (p.kind === kind && p.bookClosureFrom !== undefined
              ? [repairExDate(p.bookClosureFrom, p.announcedAt).ex_date]
              : [])
            )
            .filter((d) => d <= creditDate && d >= earliest)
            .sort()
            .pop()
        }
      )

      const index = Effect.fn("MarketFacts.index")(function*(symbols: ReadonlyArray<string>) {
        const snapshot = yield* model.snapshot
        const members = snapshot.indexMembers.get("KSE100") ?? []
        const sectorOf = (s: string) => snapshot.symbols.get(s)?.security.sector_name ?? undefined
        const weights = new Map<string, number>()
        for (const m of snapshot.indexWeights.get("KSE100") ?? []) {
          if (m.weight_pct === undefined) continue
          const sector = sectorOf(m.symbol) ?? "unknown sector"
          weights.set(sector, (weights.get(sector) ?? 0) + m.weight_pct)
        }
        const inIndex = new Set(members.map((m) => m.symbol))
        return {
          meta: symbols.map((symbol) => ({ symbol, sector_name: sectorOf(symbol), kse100: inIndex.has(symbol) })),
          sectors: [...weights].map(([sector, weight]) => ({ sector, weight }))
        }
      })

      const payouts = Effect.fn("MarketFacts.payouts")(function*(symbols: ReadonlyArray<string>) {
        const snapshot = yield* model.snapshot
        const found = symbols.flatMap((s) => {
          const data = snapshot.symbols.get(s)
          return data === undefined ? [] : payoutFactsOf(data)
        })
        return { payouts: found, sources: sourcesOf(snapshot, found.map((p) => p.dataset)) }
      })

      const performance = Effect.fn("MarketFacts.performance")(function*(symbols: ReadonlyArray<string>) {
        const snapshot = yield* model.snapshot
        const closes = new Map<string, ValuationCloses>()
        const datasets = new Set<string>()
        for (const symbol of symbols) {
          const data = snapshot.symbols.get(symbol)
          const v = data === undefined ? undefined : valuationClosesOf(data)
          if (v?.closes === undefined) continue
          closes.set(symbol, v.closes)
          for (const d of v.datasets) datasets.add(d)
        }
        const kse = indexCloses(snapshot, KSE100)
        const pr = indexCloses(snapshot, KSE100PR)
        for (const d of [...(kse ? datasetsOf(kse) : []), ...(pr ? datasetsOf(pr) : [])]) datasets.add(d)
        return { closes, index: kse, priceIndex: pr, sources: sourcesOf(snapshot, datasets), version: snapshot.version }
      })

      return { trade, bookClosure, index, payouts, performance }
    })
  )
}
