/**
 * Indices: the current level, the recorded daily closes (history, in a
 * bounded window) and constituents with weights where membership is
 * recorded. Only KSE-100 membership is tracked; every other index says so
 * instead of listing constituents. Read from the market read model (no SQL);
 * other features read the closes with domain/market/board/IndexHistory.ts over the
 * snapshot. The market snapshot is `MarketBoard`'s.
 */
import { Context, Effect, Layer } from "effect"
import { DataNotFound, InvalidRequest, type SourceUnavailable } from "../../../domain/Errors.ts"
import type { IndexDetail, IndexList } from "../../../domain/market/board/BoardSchemas.ts"
import { type IndexCloses, indexCloses, rowsBetween, windowChange } from "../../../domain/market/board/IndexHistory.ts"
import { TRACKED_INDEX, untrackedIndexNote } from "../../../domain/market/board/Sectors.ts"
import { INDEX_HISTORY_DEFAULT_LIMIT, type Range, rangeStart } from "../../../domain/market/shared/Limits.ts"
import { indexWeightWarnings } from "../../../domain/market/shared/Warnings.ts"
import type { MarketSnapshot } from "../../../domain/market/snapshot/Snapshot.ts"
import { defined } from "../../../domain/Objects.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { indexSummary } from "./BoardFigures.ts"

const listNote =
  "Current levels; an index's recorded daily closes are at GET /v1/indices/{id}. Only KSE-100 membership " +
  "is tracked: its constituents (with weights where the recorded list gives them) are at GET /v1/indices/KSE100; other " +
  "indices have no constituents here."

export interface IndexQuery {
  readonly range?: Range | undefined
  readonly date_from?: string | undefined
  readonly date_to?: string | undefined
  readonly limit?: number | undefined
}

/** The window asked for: date_from..date_to, or a named range (default 1Y) counted back from the last close. */
const windowOf = (s: IndexCloses, q: IndexQuery) =>
  q.date_from && q.date_to && q.date_from > q.date_to
    ? Effect.fail(
      new InvalidRequest({ message: `query field \`date_from\` (${q.date_from}) is after \`date_to\` (${q.date_to})` })
    )
    : q.range && (q.date_from || q.date_to)
    ? Effect.fail(new InvalidRequest({ message: "query fields `range` and `date_from`/`date_to` cannot be combined" }))
    : Effect.succeed(
      q.date_from || q.date_to
        ? { from: q.date_from, to: q.date_to }
        : { from: rangeStart(q.range ?? "1Y", s.dates[s.dates.length - 1]!), to: undefined }
    )

/** The history block of an index: the window's closes newest first (at most `limit`) and its change. */
const historyOf = (s: IndexCloses, q: IndexQuery) =>
  Effect.map(windowOf(s, q), ({ from, to }) => {
    const { lo, hi } = rowsBetween(s, from, to)
    const limit = q.limit ?? INDEX_HISTORY_DEFAULT_LIMIT
    const items = []
    for (let i = hi; i >= lo && items.length < limit; i--) items.push({ date: s.dates[i]!, close: s.close[i]! })
    const datasets = [...new Set(s.dataset)]
    return {
      history: {
        basis: "daily_close" as const,
        first_date: s.dates[0]!,
        last_date: s.dates[s.dates.length - 1]!,
        recorded: s.dates.length,
        ...defined({ window_from: from, window_to: to }),
        in_window: Math.max(0, hi - lo + 1),
        items,
        truncated: hi - lo + 1 > limit,
        ...windowChange(s, lo, hi),
        note: "Closes as recorded, newest first; not adjusted. The window's high, low and change are close-based."
      },
      datasets
    }
  })

/** "KSE-100", "kse100" → "KSE100". */
export const indexCode = (raw: string) => raw.trim().toUpperCase().replace(/[^A-Z0-9]/g, "")

/** Every index with a recorded level or recorded members (tracked or not), by code. */
const codesOf = (snapshot: MarketSnapshot) =>
  [...new Set([...snapshot.indexLevels.map((l) => l.code), ...snapshot.indexMembers.keys()])].sort()

const tracked = (snapshot: MarketSnapshot, code: string) =>
  code === TRACKED_INDEX && (snapshot.indexMembers.get(code)?.length ?? 0) > 0

export class MarketIndexes extends Context.Service<MarketIndexes, {
  readonly indices: Effect.Effect<typeof IndexList.Type, SourceUnavailable>
  /** One index by code (any case, punctuation ignored: KSE-100 is KSE100) with its closes in a window; unknown is DATA_NOT_FOUND. */
  readonly index: (
    code: string,
    query?: IndexQuery
  ) => Effect.Effect<typeof IndexDetail.Type, DataNotFound | InvalidRequest | SourceUnavailable>
}>()("psx/market/MarketIndexes") {
  static readonly layer = Layer.effect(
    MarketIndexes,
    Effect.gen(function*() {
      const model = yield* MarketReadModel

      const indices = Effect.map(model.snapshot, (snap) => ({
        items: codesOf(snap).map((code) => {
          const l = snap.indexLevels.find((x) => x.code === code)
          return { ...(l !== undefined ? indexSummary(l) : { code }), constituents_tracked: tracked(snap, code) }
        }),
        note: listNote,
        sources: sourcesOf(snap, [
          ...snap.indexLevels.map((l) => l.dataset),
          ...(tracked(snap, TRACKED_INDEX) ? [snap.indexMembers.get(TRACKED_INDEX)![0]!.dataset] : [])
        ])
      })).pipe(Effect.withSpan("MarketIndexes.indices"))

      const index = Effect.fn("MarketIndexes.index")(function*(raw: string, query: IndexQuery = {}) {
        const snap = yield* model.snapshot
        const code = indexCode(raw)
        const l = snap.indexLevels.find((x) => x.code === code)
        const isTracked = tracked(snap, code)
        const members = isTracked ? snap.indexMembers.get(code)! : []
        if (l === undefined && !snap.indexMembers.has(code)) {
          return yield* new DataNotFound({
            message:
              `no index ${code || JSON.stringify(raw.slice(0, 40))} is recorded (recorded: ${
                codesOf(snap).join(", ") || "none"
              }); ` +
              "only KSE-100 membership is tracked"
          })
        }
        const closes = indexCloses(snap, code)
        const history = closes === undefined ? undefined : yield* historyOf(closes, query)
        return {
          ...(l !== undefined ? indexSummary(l) : { code }),
          ...(history !== undefined ? { history: history.history } : {}),
          constituents_tracked: isTracked,
          constituents: members.map((m) => ({ symbol: m.symbol, ...defined({ weight_pct: m.weight_pct }) })),
          ...(members[0] !== undefined ? { constituents_as_of: members[0].effective_date } : {}),
          ...(isTracked ? {} : { note: untrackedIndexNote(code) }),
          ...indexWeightWarnings(
            code,
            members,
            members[0]?.effective_date,
            snap.indexWeights.get(code)?.[0]?.effective_date
          ),
          sources: sourcesOf(snap, [
            ...(l ? [l.dataset] : []),
            ...(history?.datasets ?? []),
            ...(members[0] ? [members[0].dataset] : [])
          ])
        }
      })

      return { indices, index }
    })
  )
}
