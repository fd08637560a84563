/**
 * The bundled offline data pack (data/pack): its manifest and datasets, read
 * from the project's own files. Failure to read or decode is
 * SOURCE_UNAVAILABLE, never an empty success.
 *
 * Owns: locating and decoding pack files. Does not own: storing them (Ingest).
 */
import { Context, Effect, FileSystem, Layer } from "effect"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"
import type { PackManifest } from "../../domain/pack/Pack.ts"
import { SourceUnavailable } from "../../domain/Errors.ts"

export interface DataPackShape {
  readonly directory: string
  readonly manifest: Effect.Effect<PackManifest, SourceUnavailable>
  /** The decoded JSON of one dataset of the manifest. */
  readonly dataset: (id: string) => Effect.Effect<unknown, SourceUnavailable>
}

export const defaultPackDirectory = fileURLToPath(new URL("../../data/pack/", import.meta.url))

export class DataPack extends Context.Service<DataPack, DataPackShape>()("psx/sources/DataPack") {
  static readonly layerAt = (directory: string) =>
    Layer.effect(
      DataPack,
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const unavailable = (what: string) => (cause: unknown) =>
          new SourceUnavailable({ message: `data pack: cannot read ${what}: ${String((cause as Error)?.message ?? cause)}` })
        const readJson = (file: string) =>
          fs.readFile(`${directory}/${file}`).pipe(
            Effect.mapError(unavailable(file)),
            Effect.flatMap((bytes) =>
              Effect.try({
                try: () => JSON.parse(new TextDecoder().decode(file.endsWith(".gz") ? gunzipSync(bytes) : bytes)) as unknown,
                catch: unavailable(file)
              })
            )
          )
        const manifest = Effect.cached(readJson("manifest.json") as Effect.Effect<PackManifest, SourceUnavailable>)
        const cachedManifest = yield* manifest
        const dataset = Effect.fn("DataPack.dataset")(function*(id: string) {
          const m = yield* cachedManifest
          const entry = m.datasets.find((d) => d.id === id)
          if (entry === undefined) return yield* new SourceUnavailable({ message: `data pack has no dataset ${id}` })
          return yield* readJson(entry.file)
        })
        return { directory, manifest: cachedManifest, dataset }
      })
    )

  static readonly layer = DataPack.layerAt(defaultPackDirectory)
}
