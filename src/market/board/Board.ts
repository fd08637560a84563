/**
 * The market board, sectors and the dividend calendar (SPEC 4.1 and 4.3),
 * answered from the read model's snapshot. The figures behind them
 * (BoardFigures.ts) are derived once per snapshot and kept beside it in a
 * WeakMap, so a request only picks its part and names its sources; the
 * whole-market records (market board, sector board, sector list) are built
 * once per snapshot too.
 *
 * It owns no data and no SQL. Index levels and constituents are
 * `MarketIndexes` (Indexes.ts); the market snapshot's index levels come from
 * the same figures.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { DataNotFound, type SourceUnavailable } from "../../../domain/Errors.ts"
import { karachiDate, wholeDays } from "../../../domain/Karachi.ts"
import * as M from "../../../domain/market/board/BoardSchemas.ts"
import { openPayouts, payoutCoverageNote } from "../../../domain/market/board/DividendCalendar.ts"
import { resolveSector, type SectorMember, sectorPeers, sectorSlug } from "../../../domain/market/board/Sectors.ts"
import type { PayoutRecord } from "../../../domain/market/filings/Dividends.ts"
import { sectorWarnings } from "../../../domain/market/shared/Warnings.ts"
import type { MarketSnapshot } from "../../../domain/market/snapshot/Snapshot.ts"
import type { DatasetRow } from "../../../domain/market/snapshot/StoreRows.ts"
import { defined } from "../../../domain/Objects.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { type BoardFigures, boardFigures } from "./BoardFigures.ts"

type Rec<S extends { readonly Type: unknown }> = S["Type"]

/** Everything derived from one snapshot. */
interface Derived {
  readonly figures: BoardFigures
  readonly board: Rec<typeof M.MarketBoard> | undefined
  readonly sectorBoard: Rec<typeof M.SectorBoard>
  readonly sectorList: Rec<typeof M.SectorList>
  readonly payouts: ReadonlyArray<PayoutRecord>
  readonly payoutSymbols: ReadonlyArray<string>
  readonly payoutDatasets: ReadonlyArray<string>
}

/** A dataset's age in whole days at `now` (a month-only as-of counts from the 1st). */
export const ageDays = (d: DatasetRow, now: number): number | undefined => {
  const asOf = Date.parse(d.as_of.length === 7 ? `${d.as_of}-01` : d.as_of)
  return Number.isFinite(asOf) ? wholeDays(asOf, now) : undefined
}

const constituent = (m: SectorMember): Rec<typeof M.Constituent> => ({
  symbol: m.symbol,
  name: m.name,
  ...defined({
    security_type: m.security_type,
    inside_kse100: m.inside_kse100,
    price: m.price,
    change_pct: m.change_pct,
    price_as_of: m.price_as_of,
    market_cap: m.market_cap,
    pe_ttm: m.pe_ttm,
    dividend_yield_pct: m.dividend_yield_pct,
    published_as_of: m.published_as_of,
    published_price: m.published_price
  })
})

const derive = (snapshot: MarketSnapshot): Derived => {
  const figures = boardFigures(snapshot)
  const sectorSources = sourcesOf(snapshot, [
    "sectors",
    "universe",
    ...figures.quoteDatasets,
    ...figures.fundamentalsDatasets
  ])
  const payouts = [...snapshot.symbols.values()].flatMap((d) => d.payouts)
  const recorded = [...snapshot.symbols.values()].filter((d) =>
    d.payoutCoverage?.coverage === "recorded" || d.payouts.length > 0
  )
  return {
    figures,
    board: figures.date === undefined ? undefined : {
      date: figures.date,
      indices: figures.indices,
      breadth: { date: figures.date, ...figures.breadth, basis: figures.basis },
      movers: { ...figures.movers, rules: M.moversDescription },
      sector_tone: figures.tone,
      quotes: "delayed",
      sources: sourcesOf(snapshot, [
        ...snapshot.indexLevels.map((l) => l.dataset),
        "universe",
        "sectors",
        ...figures.quoteDatasets,
        ...figures.markerDatasets
      ])
    },
    sectorBoard: { items: figures.sectors, medians: "median", sources: sectorSources },
    sectorList: {
      items: figures.sectors.map((s) => ({ id: s.id, code: s.code, name: s.name, constituents: s.constituents })),
      sources: sourcesOf(snapshot, ["sectors", "universe"])
    },
    payouts,
    payoutSymbols: recorded.map((d) => d.security.symbol),
    payoutDatasets: [
      ...new Set(
        recorded.flatMap((d) => [...d.payoutDatasets, ...(d.payoutCoverage ? [d.payoutCoverage.dataset] : [])])
      )
    ]
  }
}

/** The current snapshot with what the board derives from it (memoized per snapshot). */
type Current = Effect.Effect<{ readonly snapshot: MarketSnapshot; readonly derived: Derived }, SourceUnavailable>

/** GET /v1/market/snapshot: index levels, breadth, dataset freshness. */
const marketSnapshotOf = (current: Current) =>
  Effect.gen(function*() {
    const { snapshot, derived: { figures } } = yield* current
    const now = yield* Clock.currentTimeMillis
    return {
      indices: figures.indices,
      ...(figures.date !== undefined
        ? { breadth: { date: figures.date, ...figures.breadth, basis: figures.basis } }
        : {}),
      freshness: [...snapshot.datasets.values()].map((d) => {
        const age = ageDays(d, now)
        return { dataset: d.id, as_of: d.as_of, ...defined({ age_days: age }) }
      }),
      quotes: "delayed" as const,
      sources: sourcesOf(snapshot, [
        ...snapshot.indexLevels.map((l) => l.dataset),
        "universe",
        ...figures.quoteDatasets
      ])
    }
  }).pipe(Effect.withSpan("MarketBoard.snapshot"))

/** One sector by id: its figures, its peers and its valuation medians. */
const sectorMethods = (current: Current) => {
  /** The sector an id names, with its lines and figures. */
  const find = (raw: string) =>
    Effect.flatMap(current, ({ snapshot, derived }) => {
      const found = resolveSector(derived.figures.sectors, raw)
      if (found === undefined) {
        return Effect.fail(
          new DataNotFound({
            message:
              `no sector ${JSON.stringify(raw.slice(0, 80))}: ids are a PSX sector code (e.g. 0807) or its slug ` +
              "(e.g. commercial-banks); GET /v1/sectors lists them"
          })
        )
      }
      return Effect.succeed({
        snapshot,
        derived,
        figures: found,
        lines: derived.figures.members.get(found.code) ?? [],
        head: { id: sectorSlug(found.name), code: found.code, name: found.name }
      })
    })

  const sector = Effect.fn("MarketBoard.sector")(function*(id: string) {
    const { derived, figures, lines } = yield* find(id)
    return {
      ...figures,
      members: lines.map(constituent),
      ...sectorWarnings(figures),
      sources: derived.sectorBoard.sources
    }
  })

  const peers = Effect.fn("MarketBoard.peers")(function*(id: string) {
    const { derived, lines, head } = yield* find(id)
    const peers = sectorPeers(lines, derived.figures.listed, derived.figures.peerWindowStart)
    return { ...head, peers: peers.map(constituent), sources: derived.sectorBoard.sources }
  })

  const valuation = Effect.fn("MarketBoard.valuation")(function*(id: string) {
    const { snapshot, derived, figures, head } = yield* find(id)
    const {
      median_pe,
      pe_peers,
      loss_makers_excluded,
      without_pe,
      median_dividend_yield_pct,
      yield_peers,
      without_yield,
      not_trading
    } = figures
    return {
      ...head,
      ...defined({ median_pe }),
      pe_peers,
      loss_makers_excluded,
      without_pe,
      ...defined({ median_dividend_yield_pct }),
      yield_peers,
      without_yield,
      not_trading,
      ...sectorWarnings(figures),
      sources: sourcesOf(snapshot, ["sectors", "universe", ...derived.figures.fundamentalsDatasets])
    }
  })

  return { sector, peers, valuation }
}

/** Open payouts judged now (Clock) in Asia/Karachi. */
const dividendCalendarOf = (current: Current) =>
  Effect.gen(function*() {
    const { snapshot, derived } = yield* current
    const now = yield* Clock.currentTimeMillis
    const items = openPayouts(derived.payouts, now)
    const asOf = derived.payoutDatasets.map((d) => snapshot.datasets.get(d)?.as_of).filter((d) => d !== undefined)
      .sort().at(-1)
    return {
      today: karachiDate(now),
      items,
      coverage: asOf === undefined
        ? "No payout is recorded: payouts of every symbol are unknown, not absent."
        : payoutCoverageNote(derived.payoutSymbols, asOf, items.length),
      sources: sourcesOf(snapshot, derived.payoutDatasets)
    }
  }).pipe(Effect.withSpan("MarketBoard.dividendCalendar"))

export class MarketBoard extends Context.Service<MarketBoard, {
  /** GET /v1/market/snapshot: index levels, breadth of the latest session, dataset freshness. */
  readonly snapshot: Effect.Effect<Rec<typeof M.MarketSnapshot>, SourceUnavailable>
  /** GET /v1/market/board: indices, breadth, movers, sector tone. DATA_NOT_FOUND when no quote is recorded. */
  readonly board: Effect.Effect<Rec<typeof M.MarketBoard>, DataNotFound | SourceUnavailable>
  readonly sectors: Effect.Effect<Rec<typeof M.SectorList>, SourceUnavailable>
  readonly sectorBoard: Effect.Effect<Rec<typeof M.SectorBoard>, SourceUnavailable>
  /** One sector by PSX code or slug; an unknown id is DATA_NOT_FOUND. */
  readonly sector: (id: string) => Effect.Effect<Rec<typeof M.Sector>, DataNotFound | SourceUnavailable>
  readonly peers: (id: string) => Effect.Effect<Rec<typeof M.SectorPeers>, DataNotFound | SourceUnavailable>
  readonly valuation: (id: string) => Effect.Effect<Rec<typeof M.SectorValuation>, DataNotFound | SourceUnavailable>
  /** GET /v1/calendar/dividends: open payouts judged now (Clock) in Asia/Karachi. */
  readonly dividendCalendar: Effect.Effect<Rec<typeof M.DividendCalendar>, SourceUnavailable>
}>()("psx/market/MarketBoard") {
  static readonly layer = Layer.effect(
    MarketBoard,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      const memo = new WeakMap<MarketSnapshot, Derived>()
      const current: Current = Effect.map(model.snapshot, (snapshot) => {
        let derived = memo.get(snapshot)
        if (derived === undefined) {
          derived = derive(snapshot)
          memo.set(snapshot, derived)
        }
        return { snapshot, derived }
      })

      const snapshot = marketSnapshotOf(current)

      const board = Effect.flatMap(current, ({ derived }) =>
        derived.board !== undefined
          ? Effect.succeed(derived.board)
          : Effect.fail(new DataNotFound({ message: "no quote is recorded: the market board has no session to show" })))
        .pipe(Effect.withSpan("MarketBoard.board"))

      const { sector, peers, valuation } = sectorMethods(current)
      const dividendCalendar = dividendCalendarOf(current)

      return {
        snapshot,
        board,
        sectors: Effect.map(current, ({ derived }) => derived.sectorList),
        sectorBoard: Effect.map(current, ({ derived }) => derived.sectorBoard),
        sector,
        peers,
        valuation,
        dividendCalendar
      }
    })
  )
}
