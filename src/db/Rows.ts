/**
 * Reading database rows: `numeric` arrives as text and `int8` as BigInt, so
 * figures go through `num`, which keeps NULL as absent (never 0). Instants
 * are selected with `iso(column)` as ISO-8601 text. `makeReader` reads rows
 * decoded with a row Schema.
 */
import { Cause, Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { describeStoreError, isStoreUnavailable } from "./SqlErrors.ts"

export const num = (v: unknown): number | undefined => {
  if (v === null || v === undefined) return undefined
  const n = typeof v === "number" ? v : Number(v)
  return Number.isFinite(n) ? n : undefined
}

/** Only the keys whose values are defined. */
export const present = <T extends Record<string, unknown>>(o: T) => {
  const out: Record<string, unknown> = {}
  for (const k in o) if (o[k] !== undefined && o[k] !== null) out[k] = o[k]
  return out as { [K in keyof T]?: Exclude<T[K], null | undefined> }
}

export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * A failed query, mapped once by what the store said (SqlErrors.ts `isStoreUnavailable`): a store that cannot
 * answer now is SOURCE_UNAVAILABLE (503, retry); anything else (a constraint, a syntax error, rows that do not
 * decode) is a fault of this service: a defect, logged with its SQLSTATE and message, answered 500 INTERNAL.
 */
export const storeUnavailable = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  effect.pipe(
    Effect.catchCause((cause) => {
      const error = Cause.squash(cause)
      const logged = Effect.logError({
        msg: "store query failed",
        error: describeStoreError(error),
        cause: Cause.pretty(cause)
      })
      if (!Cause.hasFails(cause)) return Effect.andThen(logged, Effect.failCause(cause as Cause.Cause<never>))
      return Effect.andThen(
        logged,
        isStoreUnavailable(error)
          ? Effect.fail(new SourceUnavailable({ message: "the store did not answer; try again shortly" }))
          : Effect.die(error)
      )
    })
  )

/** Reads rows with a query and decodes them with a row Schema; a failure is mapped by `storeUnavailable`. */
export const makeReader =
  (sql: SqlClient.SqlClient) =>
  <S extends Schema.Codec<any, any>>(schema: S, query: string, params: ReadonlyArray<unknown> = []) =>
    sql.unsafe(query, params as Array<unknown>).pipe(
      Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(schema))),
      storeUnavailable
    )
export type Reader = ReturnType<typeof makeReader>
