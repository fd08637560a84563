/**
 * Provenance of every dataset in the store, as `Source` records attached to
 * responses, read from the market read model (no SQL per request).
 */
import { Context, Effect, Layer } from "effect"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import { recordedIn } from "../../../domain/market/shared/RecordParts.ts"
import type { Source } from "../../../domain/market/shared/Schemas.ts"
import type { MarketSnapshot } from "../../../domain/market/snapshot/Snapshot.ts"
import type { DatasetRow } from "../../../domain/market/snapshot/StoreRows.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"

/** Source records for the given dataset ids, in order, once each (unknown ids are skipped). */
export const sourcesOf = (snapshot: MarketSnapshot, ids: Iterable<string>): Array<Source> => {
  const out: Array<Source> = []
  for (const id of new Set(ids)) {
    const d = snapshot.datasets.get(id)
    if (d === undefined) continue
    out.push({
      dataset: d.id,
      source: d.source,
      as_of: d.as_of,
      retrieved_at: d.retrieved_at,
      recorded_in: recordedIn(d.repository, d.commit, 12)
    })
  }
  return out
}

export class Sources extends Context.Service<Sources, {
  readonly all: Effect.Effect<ReadonlyArray<DatasetRow>, SourceUnavailable>
  /** Source records for the given dataset ids (unknown ids are skipped). */
  readonly of: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Source>, SourceUnavailable>
}>()("psx/market/Sources") {
  static readonly layer = Layer.effect(
    Sources,
    Effect.gen(function*() {
      const model = yield* MarketReadModel
      return {
        all: Effect.map(model.snapshot, (s) => [...s.datasets.values()]),
        of: (ids: ReadonlyArray<string>) => Effect.map(model.snapshot, (s) => sourcesOf(s, ids))
      }
    })
  )
}
