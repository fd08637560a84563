/**
 * Batched, idempotent upserts: a batch of rows travels as one JSON parameter
 * and is expanded in the database with `jsonb_to_recordset`, so thousands of
 * rows cost one statement and one round trip (no row-at-a-time inserts).
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { HISTORY_TABLES } from "../../migrations/0026_market_history.ts"

export interface UpsertSpec {
  readonly table: string
  /** Column name → SQL type, in insert order. */
  readonly columns: Readonly<Record<string, string>>
  readonly key: ReadonlyArray<string>
  /** Rows per statement. */
  readonly batch?: number
}

/**
 * How a market row gets its retrieval time (`known_at`, migration 0026): the writer's
 * `psx.retrieved_at` (the crawler sets it: the instant it fetched), else its dataset's retrieval
 * (a recording's date, known from the end of that Karachi day), else now. Datasets compute their
 * own from `retrieved_at`; a table kept without history has none.
 */
const withKnown = (spec: UpsertSpec) =>
  HISTORY_TABLES[spec.table] !== undefined && spec.table !== "datasets" && spec.columns["dataset"] !== undefined

/**
 * An upsert's parts over incoming rows aliased `t`: the columns written, what is selected for them,
 * the join that gives a row its retrieval time, and the conflict's assignments.
 */
export const upsertShape = (spec: UpsertSpec) => {
  const names = Object.keys(spec.columns)
  const known = withKnown(spec)
  const updates = names.filter((n) => !spec.key.includes(n)).map((n) => `${n} = excluded.${n}`)
  if (known && updates.length > 0) updates.push("known_at = excluded.known_at")
  return {
    into: (known ? [...names, "known_at"] : names).join(", "),
    select: [
      ...names.map((n) => `t.${n}`),
      ...(known
        ? ["coalesce(nullif(current_setting('psx.retrieved_at', true), '')::timestamptz, k.known_at, now())"]
        : [])
    ].join(", "),
    join: known ? "LEFT JOIN datasets k ON k.id = t.dataset" : "",
    updates
  }
}

export const upsert = (
  spec: UpsertSpec,
  rows: ReadonlyArray<Record<string, unknown>>,
  onBatch?: (n: number) => Effect.Effect<void>
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const names = Object.keys(spec.columns)
    const recordType = names.map((n) => `${n} ${spec.columns[n]}`).join(", ")
    const shape = upsertShape(spec)
    const conflict = shape.updates.length > 0
      ? `ON CONFLICT (${spec.key.join(", ")}) DO UPDATE SET ${shape.updates.join(", ")}`
      : `ON CONFLICT (${spec.key.join(", ")}) DO NOTHING`
    const text = `INSERT INTO ${spec.table} (${shape.into}) SELECT ${shape.select}
      FROM jsonb_to_recordset($1::jsonb) AS t(${recordType}) ${shape.join} ${conflict}`
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
  return <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    Effect.flatMap(query, (rows) => Effect.orDie(decode(rows)))
}
