/**
 * Indices: the current level only (no history), with constituents and
 * weights where membership is recorded. Only KSE-100 membership is tracked;
 * every other index says so instead of listing constituents. Read from the
 * market read model (no SQL). The market snapshot is `MarketBoard`'s.
 */
import { Context, Effect, Layer } from "effect"
import { DataNotFound, type SourceUnavailable } from "../../../domain/Errors.ts"
import type { IndexDetail, IndexList } from "../../../domain/market/MarketSchemas.ts"
import { TRACKED_INDEX, untrackedIndexNote } from "../../../domain/market/Sectors.ts"
import type { MarketSnapshot } from "../../../domain/market/Snapshot.ts"
import { indexSummary } from "./BoardFigures.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { sourcesOf } from "../provenance/Provenance.ts"
import { defined } from "../../../domain/Objects.ts"

const listNote = "Levels are current only (no history). Only KSE-100 membership is tracked: its constituents and " +
  "weights are at GET /v1/indices/KSE100; other indices have no constituents here."

/** "KSE-100", "kse100" → "KSE100". */
export const indexCode = (raw: string) => raw.trim().toUpperCase().replace(/[^A-Z0-9]/g, "")

/** Every index with a recorded level or recorded members (tracked or not), by code. */
const codesOf = (snapshot: MarketSnapshot) =>
  [...new Set([...snapshot.indexLevels.map((l) => l.code), ...snapshot.indexMembers.keys()])].sort()

const tracked = (snapshot: MarketSnapshot, code: string) => code === TRACKED_INDEX && (snapshot.indexMembers.get(code)?.length ?? 0) > 0

export class MarketIndexes extends Context.Service<MarketIndexes, {
  readonly indices: Effect.Effect<typeof IndexList.Type, SourceUnavailable>
  /** One index by code (any case, punctuation ignored: KSE-100 is KSE100); unknown is DATA_NOT_FOUND. */
  readonly index: (code: string) => Effect.Effect<typeof IndexDetail.Type, DataNotFound | SourceUnavailable>
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

      const index = Effect.fn("MarketIndexes.index")(function*(raw: string) {
        const snap = yield* model.snapshot
        const code = indexCode(raw)
        const l = snap.indexLevels.find((x) => x.code === code)
        const isTracked = tracked(snap, code)
        const members = isTracked ? snap.indexMembers.get(code)! : []
        if (l === undefined && !snap.indexMembers.has(code)) {
          return yield* new DataNotFound({
            message: `no index ${code || JSON.stringify(raw.slice(0, 40))} is recorded (recorded: ${codesOf(snap).join(", ") || "none"}); ` +
              "only KSE-100 membership is tracked"
          })
        }
        return {
          ...(l !== undefined ? indexSummary(l) : { code }),
          history: "none" as const,
          constituents_tracked: isTracked,
          constituents: members.map((m) => ({ symbol: m.symbol, ...defined({ weight_pct: m.weight_pct }) })),
          ...(members[0] !== undefined ? { constituents_as_of: members[0].effective_date } : {}),
          ...(isTracked ? {} : { note: untrackedIndexNote(code) }),
          sources: sourcesOf(snap, [...(l ? [l.dataset] : []), ...(members[0] ? [members[0].dataset] : [])])
        }
      })

      return { indices, index }
    })
  )
}
