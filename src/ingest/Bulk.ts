/**
 * Batched, idempotent upserts: a batch of rows travels as one JSON parameter
 * and is expanded in the database with `jsonb_to_recordset`, so thousands of
 * rows cost one statement and one round trip (no row-at-a-time inserts).
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"

export interface UpsertSpec {
  readonly table: string
  /** Column name → SQL type, in insert order. */
  readonly columns: Readonly<Record<string, string>>
  readonly key: ReadonlyArray<string>
  /** Rows per statement. */
  readonly batch?: number
}

export const upsert = (spec: UpsertSpec, rows: ReadonlyArray<Record<string, unknown>>, onBatch?: (n: number) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const names = Object.keys(spec.columns)
    const recordType = names.map((n) => `${n} ${spec.columns[n]}`).join(", ")
    const updates = names.filter((n) => !spec.key.includes(n)).map((n) => `${n} = excluded.${n}`)
    const conflict = updates.length > 0
      ? `ON CONFLICT (${spec.key.join(", ")}) DO UPDATE SET ${updates.join(", ")}`
      : `ON CONFLICT (${spec.key.join(", ")}) DO NOTHING`
    const text =
      `INSERT INTO ${spec.table} (${names.join(", ")}) SELECT ${names.join(", ")} FROM jsonb_to_recordset($1::jsonb) AS t(${recordType}) ${conflict}`
    const size = spec.batch ?? 5000
    for (let i = 0; i < rows.length; i += size) {
      const chunk = rows.slice(i, i + size)
      yield* sql.unsafe(text, [JSON.stringify(chunk)])
      if (onBatch) yield* onBatch(chunk.length)
    }
    return rows.length
  })

/** Query rows decoded with a schema (a row that does not match is a defect of the store, not a value to guess). */
export const decodeRows = <S extends Schema.Decoder<unknown>>(row: S) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(row))
  return <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) => Effect.flatMap(query, (rows) => Effect.orDie(decode(rows)))
}
