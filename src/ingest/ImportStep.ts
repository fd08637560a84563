/**
 * What an import step is: it reads datasets of the pack (decoded), writes its
 * tables with idempotent upserts and says what it read, wrote and skipped.
 * Shared by the market steps (PackSteps.ts) and the company steps
 * (CompanySteps.ts).
 */
import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { SourceUnavailable } from "../../domain/Errors.ts"
import type { PackDataset, PackDatasetId } from "../../domain/pack/Datasets.ts"
import type { PackManifest, PackProvenance } from "../../domain/pack/Pack.ts"
import type { StepSummary } from "./Progress.ts"

export interface StepContext {
  readonly manifest: PackManifest
  /** A dataset of the pack, decoded. */
  readonly read: <K extends PackDatasetId>(id: K) => Effect.Effect<PackDataset<K>, SourceUnavailable>
}

export interface ImportStep {
  readonly name: string
  readonly run: (
    ctx: StepContext
  ) => Effect.Effect<StepSummary, SourceUnavailable | SqlError.SqlError, SqlClient.SqlClient>
}

export const summary = (
  dataset: string,
  read: number,
  written: number,
  skipped: Record<string, number> = {}
): StepSummary => ({
  dataset,
  read,
  written,
  skipped
})

/** The manifest entry of a dataset (decoding guarantees its provenance fields are present). */
export const provenance = (manifest: PackManifest, id: string): Effect.Effect<PackProvenance, SourceUnavailable> =>
  Effect.gen(function*() {
    const entry = manifest.datasets.find((d) => d.id === id)
    if (entry !== undefined) return entry
    return yield* new SourceUnavailable({ message: `data pack manifest has no dataset ${id}` })
  })

/** The calendar date of an as-of (an instant's date in UTC, or the date itself). */
export const dateOf = (asOf: string) => asOf.slice(0, 10)
