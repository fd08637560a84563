/**
 * Provenance of every dataset in the store, as `Source` records attached to
 * responses. The datasets table is small; it is read at most every few
 * seconds and kept in memory so hot endpoints pay no extra query.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../domain/Errors.ts"
import type { Source } from "../../domain/market/Schemas.ts"
import { num, storeUnavailable } from "../db/Rows.ts"

export interface DatasetRow {
  readonly id: string
  readonly title: string
  readonly source: string
  readonly upstream: string
  readonly repository: string
  readonly commit: string
  readonly licence: string
  readonly recorded_at: string
  readonly as_of: string
  readonly retrieved_at: string
  readonly rows: number
  readonly notes: string | null
  readonly pack_version: string | null
  readonly coverage_symbols: number | undefined
  readonly coverage_first: string | null
  readonly coverage_last: string | null
}

export class Sources extends Context.Service<Sources, {
  readonly all: Effect.Effect<ReadonlyArray<DatasetRow>, SourceUnavailable>
  /** Source records for the given dataset ids (unknown ids are skipped). */
  readonly of: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Source>, SourceUnavailable>
}>()("psx/market/Sources") {
  static readonly layer = Layer.effect(
    Sources,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      let cache: { at: number; rows: ReadonlyArray<DatasetRow> } | undefined
      const load = sql.unsafe<Record<string, unknown>>(
        `SELECT id, title, source, upstream, repository, commit, licence, recorded_at, as_of,
                retrieved_at, rows, notes, pack_version, coverage_symbols,
                coverage_first::text, coverage_last::text
         FROM datasets ORDER BY id`
      ).pipe(
        Effect.map((rows) => rows.map((r) => ({ ...r, rows: num(r["rows"]) ?? 0, coverage_symbols: num(r["coverage_symbols"]) }) as DatasetRow)),
        storeUnavailable
      )
      const all = Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (cache && now - cache.at < 5_000) return cache.rows
        const rows = yield* load
        cache = { at: now, rows }
        return rows
      })
      const of = (ids: ReadonlyArray<string>) =>
        Effect.map(all, (rows) =>
          ids.flatMap((id) => {
            const d = rows.find((r) => r.id === id)
            return d
              ? [{
                dataset: d.id,
                source: d.source,
                as_of: d.as_of,
                retrieved_at: d.retrieved_at,
                recorded_in: `${d.repository}@${d.commit.slice(0, 12)}`
              }]
              : []
          }))
      return { all, of }
    })
  )
}
