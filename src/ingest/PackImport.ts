/**
 * Imports the bundled data pack into the store: idempotent upserts in
 * batches, provenance for every dataset, a progress display, and a summary
 * of rows read, written and skipped (with reasons).
 *
 * Owns: running the import steps (./PackSteps.ts) in order and recording the
 * pack's provenance: `retrieved_at` is when the recording was retrieved from
 * upstream (from the manifest), `loaded_at` when this service loaded it.
 */
import { Clock, Context, Effect, Layer, Ref, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../domain/Errors.ts"
import type { PackManifest } from "../../domain/pack/Pack.ts"
import { retryTransient } from "../db/SqlErrors.ts"
import { DataPack } from "../sources/DataPack.ts"
import { decodeRows, upsert } from "./Bulk.ts"
import { importSteps, type StepContext } from "./PackSteps.ts"
import type { StepSummary } from "./Progress.ts"
import { datasetsTable } from "./Tables.ts"

/**
 * Marks a prebuilt store (src/ingest/PackImage.ts): its datasets' `loaded_at` is
 * when the image was built, so the first start on it stamps them with the
 * instant this service loaded them, as an import would have, and drops the mark.
 */
export const PREBUILT_MARK = "data_pack_prebuilt"

export type { ImportState } from "../system/Readiness.ts"
import type { ImportState } from "../system/Readiness.ts"

export interface ImportSummary {
  readonly packVersion: string
  readonly imported: boolean
  readonly steps: ReadonlyArray<StepSummary>
  readonly seconds: number
}

/** Coverage per dataset (symbols, first and last dates), for /v1/freshness. */
const coverageUpdate = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    yield* sql`
      UPDATE datasets d SET coverage_symbols = c.symbols, coverage_first = c.first, coverage_last = c.last
      FROM (SELECT dataset, max(symbols) AS symbols, min(first) AS first, max(last) AS last FROM (
        SELECT dataset, count(DISTINCT symbol)::int AS symbols, min(date) AS first, max(date) AS last FROM daily_prices GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, NULL, NULL FROM securities GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, NULL, NULL FROM fundamentals GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, min(effective_date), max(effective_date) FROM index_membership GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, min(book_closure_from), max(book_closure_from) FROM payouts GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, min(published_on), max(published_on) FROM announcements GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT code)::int, min(as_of), max(as_of) FROM index_levels GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT code)::int, min(date), max(date) FROM index_closes GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, NULL, NULL FROM company_profiles GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, NULL, NULL FROM financial_lines GROUP BY dataset
        UNION ALL SELECT dataset, count(DISTINCT symbol)::int, min((published_at AT TIME ZONE 'Asia/Karachi')::date),
          max((published_at AT TIME ZONE 'Asia/Karachi')::date) FROM news_items GROUP BY dataset
      ) u GROUP BY dataset) c WHERE c.dataset = d.id`
  })

/** Every step of the pack into the store, then the version marker (last: an interrupted import runs again). */
const importAll = (sql: SqlClient.SqlClient, pack: typeof DataPack.Service, manifest: PackManifest) =>
  Effect.gen(function*() {
    const loadedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    // Provenance first: every row below names one of these.
    yield* upsert(
      datasetsTable,
      manifest.datasets.map((d) => ({
        id: d.id,
        title: d.title,
        source: d.source,
        upstream: d.upstream,
        path: d.path,
        repository: d.repository,
        commit: d.commit,
        licence: d.licence,
        recorded_at: d.recordedAt,
        as_of: d.asOf,
        retrieved_at: d.recordedAt,
        loaded_at: loadedAt,
        rows: d.rows,
        skipped: d.skipped,
        notes: d.notes ?? null,
        pack_version: manifest.version
      }))
    )
    const ctx: StepContext = { manifest, read: pack.dataset }
    const steps: Array<StepSummary> = []
    for (const step of importSteps) {
      // A step is idempotent upserts: one that lost a deadlock to another writer (a crawl) is run again.
      const done = yield* retryTransient(step.run(ctx)).pipe(
        Effect.withSpan(`PackImport.step`, { attributes: { step: step.name } })
      )
      steps.push(done)
      yield* Effect.logInfo({ msg: "imported", ...done })
    }
    yield* retryTransient(coverageUpdate(sql))
    yield* sql`
      INSERT INTO service_meta (key, value, updated_at) VALUES ('data_pack', ${
      JSON.stringify(manifest.version)
    }::jsonb, now())
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`
    return steps
  })

/** A store seeded from the prebuilt image: its datasets are stamped loaded now (once). */
const stampPrebuilt = (sql: SqlClient.SqlClient, version: string) =>
  Effect.gen(function*() {
    const loadedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    const marks = yield* sql`DELETE FROM service_meta WHERE key = ${PREBUILT_MARK} RETURNING key`
    if (marks.length > 0) yield* sql`UPDATE datasets SET loaded_at = ${loadedAt} WHERE pack_version = ${version}`
  }).pipe(sql.withTransaction, Effect.orDie)

export class PackImport extends Context.Service<PackImport, {
  /** The pack version the store holds, if any. */
  readonly installedVersion: Effect.Effect<string | undefined>
  /** Imports the pack unless the store already holds this version (or `force`). */
  readonly run: (options?: { readonly force?: boolean }) => Effect.Effect<ImportSummary, SourceUnavailable>
  /** Where this process stands with the pack. */
  readonly state: Effect.Effect<ImportState>
}>()("psx/ingest/PackImport") {
  static readonly layer = Layer.effect(
    PackImport,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pack = yield* DataPack
      const state = yield* Ref.make<ImportState>("not_started")

      const installedVersion = decodeRows(Schema.Struct({ value: Schema.String }))(
        sql`select value #>> '{}' as value from service_meta where key = 'data_pack'`
      ).pipe(Effect.map((rows) => rows[0]?.value), Effect.orDie)

      const run = Effect.fn("PackImport.run")(function*(options?: { readonly force?: boolean }) {
        const started = yield* Clock.currentTimeMillis
        const manifest = yield* pack.manifest
        const installed = yield* installedVersion
        if (installed === manifest.version && options?.force !== true) {
          yield* stampPrebuilt(sql, manifest.version)
          yield* Ref.set(state, "installed")
          return { packVersion: manifest.version, imported: false, steps: [], seconds: 0 } satisfies ImportSummary
        }
        yield* Effect.logInfo({
          msg: "importing the data pack",
          version: manifest.version,
          installed: installed ?? null
        })
        // Not one transaction: on the embedded store an open transaction
        // blocks every other connection, and the import takes seconds. Each
        // batch is an idempotent upsert, and the version marker is written
        // last, so an interrupted import is simply run again.
        yield* Ref.set(state, "importing")
        const steps = yield* importAll(sql, pack, manifest).pipe(
          Effect.provideService(SqlClient.SqlClient, sql),
          Effect.catchTag("SqlError", (e) => Effect.die(e)),
          Effect.onExit((exit) => Ref.set(state, exit._tag === "Success" ? "installed" : "failed"))
        )
        const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
        yield* Effect.logInfo({
          msg: "data pack imported",
          version: manifest.version,
          seconds,
          rows: steps.reduce((n, s) => n + s.written, 0)
        })
        return { packVersion: manifest.version, imported: true, steps, seconds } satisfies ImportSummary
      })

      return { installedVersion, run, state: Ref.get(state) }
    })
  )
}
