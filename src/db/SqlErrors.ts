/**
 * What a store error is, read from the driver's own fields (the SQLSTATE
 * PostgreSQL sent, classified by @effect/sql-pg into the error's `reason`),
 * never from its message text: which failures are worth retrying, and a
 * one-line description for logs that names the SQLSTATE and PostgreSQL's
 * own message (the driver's message alone is "PgConnection: Query failed").
 */
import { Effect, Schedule } from "effect"
import { SqlError } from "effect/sql"

/** The fields PostgreSQL sent with an error, when the driver kept them. */
const pgFields = (e: SqlError.SqlError): { readonly code?: string; readonly message?: string } => {
  const cause: unknown = e.reason.cause
  if (typeof cause !== "object" || cause === null) return {}
  const { code, message } = cause as { code?: unknown; message?: unknown }
  return {
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof message === "string" ? { message } : {})
  }
}

/** The SQLSTATE of a store error, when PostgreSQL sent one. */
export const sqlStateOf = (e: SqlError.SqlError): string | undefined => pgFields(e).code

/** A unique violation (23505): another writer stored the same key first. */
export const isUniqueViolation = (e: SqlError.SqlError): boolean => e.reason._tag === "UniqueViolation"

/** A deadlock (40P01): PostgreSQL aborted this transaction to free another. */
export const isDeadlock = (e: SqlError.SqlError): boolean => e.reason._tag === "DeadlockError"

/** A deadlock (40P01) or a serialization failure (40001): the transaction may simply be run again. */
export const isTransientConflict = (e: unknown): e is SqlError.SqlError =>
  SqlError.isSqlError(e) && (e.reason._tag === "DeadlockError" || e.reason._tag === "SerializationError")

/** Reasons that say the store is away or overloaded for now, not that the request or the code is wrong. */
const UNAVAILABLE_REASONS = new Set([
  "ConnectionError",
  "AuthenticationError",
  "LockTimeoutError",
  "StatementTimeoutError",
  "DeadlockError",
  "SerializationError"
])
/** SQLSTATE classes of the same: 08 connection exception, 53 insufficient resources, 57 operator intervention. */
const UNAVAILABLE_CLASSES = new Set(["08", "53", "57"])

/**
 * Whether a store error means "the store cannot answer now" (a 503 a client may retry): the driver's reason, or
 * PostgreSQL's SQLSTATE class for a reason the driver left unclassified. A constraint, a syntax error or anything
 * that is not a store error is a fault of this code instead.
 */
export const isStoreUnavailable = (e: unknown): boolean => {
  if (!SqlError.isSqlError(e)) return false
  if (UNAVAILABLE_REASONS.has(e.reason._tag)) return true
  const code = sqlStateOf(e)
  return e.reason._tag === "UnknownError" && (code === undefined || UNAVAILABLE_CLASSES.has(code.slice(0, 2)))
}

/** One line for a log: the reason, the SQLSTATE and PostgreSQL's message. */
export const describeStoreError = (e: unknown): string => {
  if (!SqlError.isSqlError(e)) return String(e)
  const pg = pgFields(e)
  const state = pg.code === undefined ? "" : ` SQLSTATE ${pg.code}`
  return `${e.reason._tag}${state}: ${pg.message ?? e.message}`
}

/** Retries a whole transaction a few times, with jittered backoff, when it lost a deadlock or a serialization race. */
export const retryTransient = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  transaction.pipe(
    Effect.tapError((e) =>
      isTransientConflict(e)
        ? Effect.logWarning({ msg: "store conflict; retrying the transaction", error: describeStoreError(e) })
        : Effect.void
    ),
    Effect.retry({
      while: isTransientConflict,
      times: 4,
      schedule: Schedule.exponential("25 millis").pipe(Schedule.jittered)
    })
  )
