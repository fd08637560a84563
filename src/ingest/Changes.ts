/**
 * Upserts that write only what changed. The rows are compared with the
 * stored ones in the database (one statement); when none differ nothing is
 * written, so no statement trigger fires and `market_version` does not move:
 * a refresh that finds the portal unchanged costs the read model nothing.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { UpsertSpec } from "./Bulk.ts"
import { decodeRows, upsertShape } from "./Bulk.ts"

export interface ChangeSpec extends UpsertSpec {
  /** Columns whose difference counts as a change (default: every column outside the key). */
  readonly compare?: ReadonlyArray<string>
}

export interface Written {
  readonly written: number
  readonly unchanged: number
}

/** The last row per key (a page listing a row twice must not make the upsert touch it twice). */
const lastPerKey = (spec: UpsertSpec, rows: ReadonlyArray<Record<string, unknown>>) => {
  const byKey = new Map<string, Record<string, unknown>>()
  for (const r of rows) byKey.set(spec.key.map((k) => String(r[k])).join("\u0000"), r)
  return [...byKey.values()]
}

const countRow = Schema.Struct({ n: Schema.Int })

export const upsertChanged = (spec: ChangeSpec, input: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    const rows = lastPerKey(spec, input)
    if (rows.length === 0) return { written: 0, unchanged: 0 } satisfies Written
    const sql = yield* SqlClient.SqlClient
    const names = Object.keys(spec.columns)
    const recordType = names.map((n) => `${n} ${spec.columns[n]}`).join(", ")
    const compare = spec.compare ?? names.filter((n) => !spec.key.includes(n))
    const on = spec.key.map((k) => `x.${k} = t.${k}`).join(" AND ")
    const differs = compare.length > 0
      ? `(${compare.map((c) => `x.${c}`).join(", ")}) IS DISTINCT FROM (${compare.map((c) => `t.${c}`).join(", ")})`
      : "false"
    const changed = `SELECT t.* FROM jsonb_to_recordset($1::jsonb) AS t(${recordType})
      LEFT JOIN ${spec.table} x ON ${on} WHERE x.${spec.key[0]} IS NULL OR ${differs}`
    const json = JSON.stringify(rows)
    const [count] = yield* decodeRows(countRow)(sql.unsafe(`SELECT count(*)::int AS n FROM (${changed}) c`, [json]))
    const n = count?.n ?? 0
    if (n > 0) {
      const { into, select, join, updates } = upsertShape(spec)
      yield* sql.unsafe(
        `INSERT INTO ${spec.table} (${into}) SELECT ${select} FROM (${changed}) t ${join}
         ON CONFLICT (${spec.key.join(", ")}) DO ${
          updates.length > 0 ? `UPDATE SET ${updates.join(", ")}` : "NOTHING"
        }`,
        [json]
      )
    }
    return { written: n, unchanged: rows.length - n } satisfies Written
  })

export const addWritten = (a: Written, b: Written): Written => ({
  written: a.written + b.written,
  unchanged: a.unchanged + b.unchanged
})
