/**
 * Builds the prebuilt store image (src/db/StoreImage.ts): a fresh embedded store,
 * migrated, with the whole pack imported and its prices projected, closed
 * (flushed) and moved into place. Run by `npm run setup` and by the tests'
 * global setup.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer, References } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { renameSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { type Database, layerEmbedded } from "../db/Database.ts"
import { LOCK_FILE } from "../db/DataDirLock.ts"
import { currentImage, imagePath, PackImageError } from "../db/StoreImage.ts"
import { MarketStore } from "../market/readmodel/MarketStore.ts"
import { DataPack } from "../sources/DataPack.ts"
import { PackImport, PREBUILT_MARK } from "./PackImport.ts"

/** Imports the pack into the store `database` gives (migrated as it is built) and projects its prices. */
export const importPackInto = <E>(database: Layer.Layer<Database | SqlClient.SqlClient, E>) =>
  Effect.gen(function*() {
    const importer = yield* PackImport
    yield* importer.run()
    const store = yield* MarketStore
    yield* store.projectPrices
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO service_meta (key, value, updated_at) VALUES (${PREBUILT_MARK}, 'true'::jsonb, now())
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`
  }).pipe(
    Effect.provide(
      Layer.mergeAll(PackImport.layer, MarketStore.layer).pipe(
        Layer.provideMerge(database),
        Layer.provide(DataPack.layer),
        Layer.provide(NodeServices.layer),
        Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn"))
      )
    )
  )

/**
 * Builds the current image unless it exists; returns its directory. Built in
 * a scratch directory and renamed into place, so a concurrent build (two test
 * runs) or an interrupted one never leaves a half image under the key.
 */
export const buildImage = Effect.gen(function*() {
  const existing = currentImage()
  if (existing !== undefined) return existing
  const target = imagePath()
  const scratch = join(dirname(target), `.building-${process.pid}-${randomBytes(4).toString("hex")}`)
  yield* Effect.ensuring(
    Effect.gen(function*() {
      // Closed (flushed to disk) when importPackInto's layers are released, before the move.
      yield* importPackInto(layerEmbedded(scratch))
      yield* Effect.try({
        try: () => rmSync(join(scratch, LOCK_FILE), { force: true }),
        catch: (cause) => new PackImageError({ message: `cannot clean the store image in ${scratch}`, cause })
      })
      // A concurrent build that finished first wins; ours is then dropped.
      yield* Effect.try({
        try: () => renameSync(scratch, target),
        catch: (cause) => new PackImageError({ message: `cannot move the store image into ${target}`, cause })
      }).pipe(Effect.catch((e) => currentImage() === undefined ? Effect.fail(e) : Effect.void))
    }),
    Effect.sync(() => rmSync(scratch, { recursive: true, force: true }))
  )
  return target
})
