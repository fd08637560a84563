/**
 * The prebuilt store image: an embedded (PGlite) data directory holding the
 * migrated schema and the whole bundled pack, built once on this machine
 * (`npm run setup`) so that a first start copies files (about a second)
 * instead of importing ~900k rows (tens of seconds).
 *
 * Owns: the image's key and location, and copying it into an empty data
 * directory (src/ingest/PackImage.ts builds it). Keyed by the pack manifest's bytes, the
 * migration list and the PGlite version, so a new pack, a new migration or a
 * new PGlite rebuilds it; a stale image is never used (the start then
 * imports, as on PostgreSQL). The image is a plain directory copy, not a
 * tarball loaded through PGlite: copying costs no WASM memory.
 */
import { Data, Effect } from "effect"
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { cp } from "node:fs/promises"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { migrations } from "../../migrations/index.ts"
import { defaultPackDirectory } from "../sources/DataPack.ts"
import { LOCK_FILE } from "./DataDirLock.ts"

export class PackImageError
  extends Data.TaggedError("PackImageError")<{ readonly message: string; readonly cause?: unknown }>
{}

/** Where images are kept: the project's `.data/`, beside the default data directory, whatever PSX_DATA_DIR says. */
export const imageRoot = fileURLToPath(new URL("../../.data/", import.meta.url))

/** PostgreSQL writes this file last when it creates a cluster; PGlite resumes a directory that has it. */
const PG_VERSION = "PG_VERSION"

const pgliteVersion = () => {
  // The package does not export its package.json, and vitest's module runner has no import.meta.resolve.
  const manifest = fileURLToPath(new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url))
  return String((JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown }).version)
}

/** Bumped when what the image holds changes (2: the prebuilt mark of PackImport; 3: every row's retrieval time, migration 0026). */
const IMAGE_FORMAT = 3

/** The key of the image for the pack in `packDir` under this code's migrations and PGlite. */
export const imageKey = (packDir: string = defaultPackDirectory) =>
  createHash("sha256")
    .update(readFileSync(join(packDir, "manifest.json")))
    .update(`\0${IMAGE_FORMAT}\0${Object.keys(migrations).join(",")}\0${pgliteVersion()}`)
    .digest("hex")
    .slice(0, 16)

export const imagePath = (key: string = imageKey()) => join(imageRoot, `pack-image-${key}`)

/** The current image's directory, when it has been built. */
export const currentImage = (): string | undefined => {
  const path = imagePath()
  return existsSync(join(path, PG_VERSION)) ? path : undefined
}

/** Whether `dataDir` holds no store yet. */
export const isEmptyStore = (dataDir: string) => !existsSync(join(resolve(dataDir), PG_VERSION))

/**
 * Copies the current image into `dataDir` when that holds no store yet and the
 * image is built; true when it did. PG_VERSION goes last, so an interrupted
 * copy leaves a directory PGlite does not take for a store (the next start
 * copies again over it).
 */
export const seedFromImage = (dataDir: string) =>
  Effect.suspend(() => {
    const image = currentImage()
    if (dataDir.startsWith("memory://") || image === undefined || !isEmptyStore(dataDir)) return Effect.succeed(false)
    return copyImage(image, dataDir)
  })

/** Copies the store directory `image` into `dataDir`, PG_VERSION last; true when done. */
export const copyImage = (image: string, dataDir: string) =>
  Effect.suspend(() => {
    const target = resolve(dataDir)
    const last = join(image, PG_VERSION)
    const lock = join(image, LOCK_FILE)
    // Copied off the event loop (the port is open by now, and /ready must keep answering).
    return Effect.tryPromise({
      try: () =>
        cp(image, target, { recursive: true, filter: (src) => src !== last && src !== lock })
          .then(() => cp(last, join(target, PG_VERSION)))
          .then(() => true),
      catch: (cause) => new PackImageError({ message: `cannot copy the store image into ${dataDir}`, cause })
    })
  })
