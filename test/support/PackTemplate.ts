/**
 * The pack, imported once per machine rather than once per test file: on the
 * embedded store the prebuilt image (src/db/StoreImage.ts), on PostgreSQL a
 * template database `psx_pack_<image key>` that each file's throwaway
 * database is created from (`CREATE DATABASE … TEMPLATE`, about a second).
 * Both are keyed like the image, so a new pack or migration rebuilds them.
 * Built by the vitest global setup (test/support/GlobalSetup.ts).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted, References } from "effect"
import { Reactivity } from "effect/reactivity"
import { existsSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import { layerEmbedded, layerPostgres } from "../../src/db/Database.ts"
import { LOCK_FILE } from "../../src/db/DataDirLock.ts"
import { imageKey, imageRoot } from "../../src/db/StoreImage.ts"
import { importPackInto } from "../../src/ingest/PackImage.ts"

export const templateName = () => `psx_pack_${imageKey()}`

const urlFor = (url: string, database: string) => {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

const admin = (url: string) => PgClient.make({ url: Redacted.make(urlFor(url, "postgres")), maxConnections: 1 })

/** Whether the server at `url` holds the current template. */
export const hasTemplate = (url: string) =>
  Effect.gen(function*() {
    const client = yield* admin(url)
    const rows = yield* client.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM pg_database WHERE datname = $1`, [
      templateName()
    ])
    return (rows[0]?.n ?? 0) > 0
  }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))

/**
 * Builds the template unless the server has it: filled under a scratch name,
 * then renamed, so a concurrent build or an interrupted one never leaves a
 * half-filled template under the real name.
 */
export const buildTemplate = (url: string) =>
  Effect.gen(function*() {
    if (yield* hasTemplate(url)) return
    const name = templateName()
    const scratch = `${name}_build_${process.pid}`
    const client = yield* admin(url)
    yield* client.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`)
    yield* client.unsafe(`CREATE DATABASE ${scratch}`)
    yield* importPackInto(layerPostgres(Redacted.make(urlFor(url, scratch)), 2)).pipe(
      Effect.tapError(() => client.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`).pipe(Effect.ignore))
    )
    // A concurrent build that finished first wins; ours is then dropped.
    yield* client.unsafe(`ALTER DATABASE ${scratch} RENAME TO ${name}`).pipe(
      Effect.catch(() => client.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`))
    )
  }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))

/** An embedded store holding the migrated schema and nothing else, keyed like the pack's image. */
export const emptyImagePath = () => join(imageRoot, `empty-image-${imageKey()}`)

/**
 * Builds the empty store's image unless it exists: a test file's empty store then starts as a copy of it
 * (about a second) instead of creating a cluster and migrating it (about twenty). Built in a scratch
 * directory and renamed into place, as the pack's image is.
 */
export const buildEmptyImage = Effect.gen(function*() {
  const target = emptyImagePath()
  if (existsSync(join(target, "PG_VERSION"))) return
  const scratch = `${target}.building-${process.pid}`
  rmSync(scratch, { recursive: true, force: true })
  yield* Effect.scoped(Layer.build(layerEmbedded(scratch)))
  rmSync(join(scratch, LOCK_FILE), { force: true })
  try {
    renameSync(scratch, target)
  } catch (cause) {
    rmSync(scratch, { recursive: true, force: true })
    if (!existsSync(join(target, "PG_VERSION"))) throw cause
  }
}).pipe(Effect.provide(Layer.succeed(References.MinimumLogLevel, "Warn")))
