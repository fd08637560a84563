/**
 * Anonymous users that never recorded an event expire: each free
 * `POST /v1/me/session` creates a user, and one that never records an event
 * and whose credentials are not used for the idle TTL (default 24 h,
 * `PSX_ANONYMOUS_USER_TTL_HOURS`, at least 2 h) is removed with its keys.
 * A user whose portfolio stream has any event is never removed.
 *
 * A sweep runs in the background every `PSX_ANONYMOUS_SWEEP_MINUTES`
 * (default 10) and removes at most `batch` users a pass (bounded work and
 * lock time); a backlog drains over the next passes. Idle means: created, or
 * last authenticated (Keys marks that at most hourly), before now − TTL. The
 * delete re-checks idleness and the absence of events under the row lock, so
 * a credential that authenticates while the sweep runs either keeps its user
 * or is refused, never left pointing at a removed user.
 *
 * Owns the sweep. Does not own credentials (Keys) or events (EventStore).
 */
import { Clock, Config, Context, Data, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { PORTFOLIO_STREAM_PREFIX } from "../../../domain/ledger/Streams.ts"
import { RateLimiter } from "../../http/RateLimiter.ts"
import { streamHasEventsSql } from "../events/EventStore.ts"
import { SEEN_EVERY_MS } from "./Keys.ts"

export interface ExpiryOptions {
  /** Idle time after which a user with no events is removed. */
  readonly ttl: Duration.Duration
  /** Pause between background sweeps. */
  readonly every: Duration.Duration
  /** Most users removed by one sweep. */
  readonly batch: number
}

const options: Config.Config<ExpiryOptions> = Config.all({
  ttlHours: Config.schema(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(2)), "PSX_ANONYMOUS_USER_TTL_HOURS").pipe(
    Config.withDefault(24)
  ),
  everyMinutes: Config.schema(Schema.Finite.check(Schema.isGreaterThan(0)), "PSX_ANONYMOUS_SWEEP_MINUTES").pipe(
    Config.withDefault(10)
  )
}).pipe(
  Config.map(({ ttlHours, everyMinutes }) => ({
    ttl: Duration.hours(ttlHours),
    every: Duration.minutes(everyMinutes),
    batch: 500
  }))
)

/** A sweep that met a user seen while it ran: rolled back whole, the next sweep tries again. */
class Retry extends Data.TaggedError("Retry")<{}> {}

const IDLE = `coalesce(last_seen_at, created_at)`
/** The user's portfolio stream has an event: the event store's condition over the stream named as streamOf names it. */
const HAS_EVENTS = streamHasEventsSql(`'${PORTFOLIO_STREAM_PREFIX}' || users.id`)

export class AnonymousExpiry extends Context.Service<AnonymousExpiry, {
  /** One sweep: marks users found to have events, removes up to `batch` idle users without any; the ids removed. */
  readonly sweep: Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
}>()("psx/ledger/AnonymousExpiry") {
  /** The sweep with given options, and its background loop in the layer's scope. */
  static readonly layerWith = (opts: ExpiryOptions) =>
    Layer.effect(
      AnonymousExpiry,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const limiter = yield* RateLimiter
        const ttlMs = Duration.toMillis(opts.ttl)
        if (ttlMs <= SEEN_EVERY_MS) {
          return yield* Effect.die(new Error("the anonymous user TTL must be longer than the hourly last-seen mark"))
        }

        const sweep = Effect.fn("AnonymousExpiry.sweep")(function*() {
          const cutoff = new Date((yield* Clock.currentTimeMillis) - ttlMs).toISOString()
          return yield* sql.withTransaction(Effect.gen(function*() {
            // Users with events leave the index once, so later sweeps never read them again.
            yield* sql.unsafe(
              `UPDATE users SET has_events = true WHERE id IN (
                 SELECT id FROM users WHERE NOT has_events AND ${IDLE} < $1::timestamptz AND ${HAS_EVENTS}
                 ORDER BY ${IDLE} LIMIT $2)`,
              [cutoff, opts.batch]
            )
            const gone = yield* sql.unsafe<{ id: string }>(
              `SELECT id FROM users WHERE NOT has_events AND ${IDLE} < $1::timestamptz AND NOT ${HAS_EVENTS}
               ORDER BY ${IDLE} LIMIT $2 FOR UPDATE SKIP LOCKED`,
              [cutoff, opts.batch]
            )
            if (gone.length === 0) return { users: [] as ReadonlyArray<string>, keys: [] as ReadonlyArray<string> }
            const ids = `{${gone.map((g) => g.id).join(",")}}`
            const keys = yield* sql.unsafe<{ id: string }>(
              `DELETE FROM api_keys WHERE user_id = ANY($1::text[]) RETURNING id`,
              [ids]
            )
            yield* sql.unsafe(`DELETE FROM idempotency WHERE user_id = ANY($1::text[])`, [ids])
            const users = yield* sql.unsafe<{ id: string }>(
              `DELETE FROM users WHERE id = ANY($1::text[]) AND ${IDLE} < $2::timestamptz AND NOT ${HAS_EVENTS} RETURNING id`,
              [ids, cutoff]
            )
            // A user seen meanwhile kept its row; its keys must stay too: roll back unless every selected user went.
            if (users.length !== gone.length) return yield* Effect.fail(new Retry())
            return { users: users.map((u) => u.id), keys: keys.map((k) => k.id) }
          })).pipe(
            Effect.tap((r) => Effect.sync(() => r.keys.forEach((k) => limiter.forgetKey(k)))),
            Effect.map((r) => r.users),
            Effect.catchTag("Retry", () => Effect.succeed([] as ReadonlyArray<string>))
          )
        })()

        yield* Effect.forkScoped(
          sweep.pipe(
            Effect.tap((ids) =>
              ids.length > 0 ? Effect.logInfo({ msg: "anonymous users expired", count: ids.length }) : Effect.void
            ),
            Effect.catchCause((cause) => Effect.logWarning({ msg: "anonymous user sweep failed", cause })),
            Effect.repeat(Schedule.spaced(opts.every)),
            Effect.delay(opts.every)
          )
        )
        return { sweep }
      })
    )

  /** The options from the environment. */
  static readonly layer = Layer.unwrap(Effect.map(
    Effect.orDie(Effect.gen(function*() {
      return yield* options
    })),
    AnonymousExpiry.layerWith
  ))
}
