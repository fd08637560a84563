/**
 * What /ready asks (system/Readiness.ts `ReadinessSources`), answered from the pack import's state, the market
 * store's version and the version of the snapshot the read model serves.
 */
import { Effect, Layer } from "effect"
import { MarketStore } from "../market/readmodel/MarketStore.ts"
import { MarketReadModel } from "../market/readmodel/ReadModel.ts"
import { ReadinessSources } from "../system/Readiness.ts"
import { PackImport } from "./PackImport.ts"

export const PackReadinessLive = Layer.effect(
  ReadinessSources,
  Effect.gen(function*() {
    const importer = yield* PackImport
    const store = yield* MarketStore
    const model = yield* MarketReadModel
    return ReadinessSources.of({
      importState: importer.state,
      storeVersion: store.version,
      servedVersion: () => model.state()?.snapshot.version
    })
  })
)
