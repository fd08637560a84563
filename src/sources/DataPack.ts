/**
 * The bundled offline data pack (data/pack): its manifest and datasets, read
 * from the project's own files and decoded with their schemas
 * (domain/pack/Pack.ts, domain/pack/Datasets.ts). Failure to read or decode
 * is SOURCE_UNAVAILABLE, never an empty success or a guessed value.
 *
 * Owns: locating and decoding pack files. Does not own: storing them (Ingest).
 */
import { Context, Effect, FileSystem, Layer, Schema } from "effect"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { type PackDataset, type PackDatasetId, PackDatasets } from "../../domain/pack/Datasets.ts"
import { PackManifest } from "../../domain/pack/Pack.ts"

export interface DataPackShape {
  readonly directory: string
  readonly manifest: Effect.Effect<PackManifest, SourceUnavailable>
  /** One dataset of the manifest, decoded with its schema. */
  readonly dataset: <K extends PackDatasetId>(id: K) => Effect.Effect<PackDataset<K>, SourceUnavailable>
}

export const defaultPackDirectory = fileURLToPath(new URL("../../data/pack/", import.meta.url))

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

export class DataPack extends Context.Service<DataPack, DataPackShape>()("psx/sources/DataPack") {
  static readonly layerAt = (directory: string) =>
    Layer.effect(
      DataPack,
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const unavailable = (what: string) => (cause: unknown) =>
          new SourceUnavailable({ message: `data pack: cannot read ${what}: ${messageOf(cause).slice(0, 400)}` })
        const read = <S extends Schema.Decoder<unknown>>(file: string, schema: S) =>
          fs.readFile(`${directory}/${file}`).pipe(
            Effect.flatMap((bytes) =>
              Effect.try({
                try: (): unknown =>
                  JSON.parse(new TextDecoder().decode(file.endsWith(".gz") ? gunzipSync(bytes) : bytes)),
                catch: (e) => e
              })
            ),
            Effect.flatMap(Schema.decodeUnknownEffect(schema)),
            Effect.mapError(unavailable(file))
          )
        const manifest = yield* Effect.cached(read("manifest.json", PackManifest))
        const dataset = <K extends PackDatasetId>(id: K) =>
          Effect.gen(function*() {
            const m = yield* manifest
            const entry = m.datasets.find((d) => d.id === id)
            if (entry === undefined) return yield* new SourceUnavailable({ message: `data pack has no dataset ${id}` })
            const schema: Schema.Decoder<PackDataset<K>> = PackDatasets[id]
            return yield* read(entry.file, schema)
          }).pipe(Effect.withSpan("DataPack.dataset", { attributes: { id } }))
        return { directory, manifest, dataset }
      })
    )

  static readonly layer = DataPack.layerAt(defaultPackDirectory)
}
