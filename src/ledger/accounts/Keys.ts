/**
 * Users, sessions and API keys. A secret is shown once, when created, and
 * stored only as its SHA-256 hash.
 *
 * - `POST /v1/me/session` creates an anonymous user and a session token. The
 *   session token is accepted as a bearer credential for that user, carries
 *   both portfolio grants, and may manage the user's keys.
 * - API keys are created with the grants chosen then: `portfolio:read`,
 *   `portfolio:write`, and `keys:manage` (never given by default) — never a
 *   grant the creating credential lacks. A key may list, create or revoke
 *   keys only with `keys:manage`, and never revoke a session or a key holding
 *   a grant it lacks (domain/ledger/Grants.ts).
 * - A revoked or unknown credential is 401 UNAUTHORIZED; a valid one without
 *   the grant an endpoint needs is 403 FORBIDDEN.
 * - A user holds at most MAX_LIVE_KEYS unrevoked API keys (sessions aside);
 *   creations are counted under a lock on the user's row, so concurrent ones
 *   cannot pass the bound. The list is paged (creation time, then id) with a
 *   signed cursor.
 * - An error never repeats the id it was given: a secret pasted as a key id
 *   must not come back in a body (or a log of it).
 *
 * Secret comparison: a credential is looked up by the SHA-256 of what was
 * sent (an index probe on a digest the sender cannot steer), and the stored
 * digest is then compared with `timingSafeEqual`.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import {
  DataNotFound,
  Forbidden,
  InvalidRequest,
  type SourceUnavailable,
  Unauthorized
} from "../../../domain/Errors.ts"
import {
  type Grant,
  GRANTS,
  grantsBeyond,
  mayManageKeys,
  type Principal,
  SESSION_GRANTS
} from "../../../domain/ledger/Grants.ts"
import { KeyInfo as KeyInfoSchema, MAX_LIVE_KEYS } from "../../../domain/ledger/Schemas.ts"
import { iso, storeUnavailable } from "../../db/Rows.ts"
import { RateLimiter } from "../../http/RateLimiter.ts"
import { Cursors } from "../../paging/Cursors.ts"
import { sha256 } from "../events/EventStore.ts"

export type { Principal }
export type KeyInfo = typeof KeyInfoSchema.Type

/** A page of a user's keys and sessions, oldest first. */
export interface KeyPage {
  readonly total: number
  readonly next_cursor: string | null
  readonly items: ReadonlyArray<KeyInfo>
}

/** How stale a user's `last_seen_at` may get before an authentication writes it again (the expiry TTL is longer). */
export const SEEN_EVERY_MS = 3_600_000

const newSecret = (kind: "session" | "key") =>
  `psx_${kind === "session" ? "s" : "k"}_${randomBytes(24).toString("base64url")}`

const KeyRow = Schema.Struct({
  id: Schema.String,
  prefix: Schema.String,
  kind: Schema.Literals(["session", "key"]),
  label: Schema.NullOr(Schema.String),
  grants: Schema.Array(Schema.Literals(GRANTS)),
  created_at: Schema.String,
  revoked_at: Schema.NullOr(Schema.String)
})
const decodeKeyRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const AuthRow = Schema.Struct({
  id: Schema.String,
  user_id: Schema.String,
  kind: Schema.Literals(["session", "key"]),
  grants: Schema.Array(Schema.Literals(GRANTS)),
  secret_hash: Schema.String,
  revoked: Schema.Boolean,
  stale: Schema.Boolean
})
const decodeAuthRows = Schema.decodeUnknownEffect(Schema.Array(AuthRow))

const toInfo = (r: typeof KeyRow.Type): KeyInfo => ({
  id: r.id,
  prefix: r.prefix,
  kind: r.kind,
  grants: r.grants,
  created_at: r.created_at,
  ...(r.label !== null ? { label: r.label } : {}),
  ...(r.revoked_at !== null ? { revoked_at: r.revoked_at } : {})
})

/** Two hex digests compared in constant time. */
const sameDigest = (a: string, b: string) => {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

const forbidManage = new Forbidden({
  message: "managing keys needs the owner's session token, or a key holding the grant keys:manage"
})

type Now = Effect.Effect<string>

/** The key table: a new key's row, keys selected as records, and a new anonymous session. */
const keyStore = (sql: SqlClient.SqlClient, now: Now) => {
  const insertKey = (
    userId: string,
    kind: "session" | "key",
    grants: ReadonlyArray<Grant>,
    label: string | undefined,
    at: string
  ) =>
    Effect.gen(function*() {
      const secret = newSecret(kind)
      const id = randomUUID()
      yield* sql`
        INSERT INTO api_keys (id, user_id, secret_hash, prefix, kind, label, grants, created_at)
        VALUES (${id}, ${userId}, ${sha256(secret)}, ${secret.slice(0, 10)}, ${kind}, ${label ?? null},
                ${`{${grants.join(",")}}`}::text[], ${at}::timestamptz)`
      return { secret, id }
    })

  const createSession = Effect.fn("Keys.createSession")(function*() {
    const at = yield* now
    const userId = randomUUID()
    const token = yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`INSERT INTO users (id, created_at) VALUES (${userId}, ${at}::timestamptz)`
      return (yield* insertKey(userId, "session", SESSION_GRANTS, "session", at)).secret
    }))
    return { token, user: { id: userId, created_at: at }, grants: SESSION_GRANTS }
  }, storeUnavailable)()

  const SELECT = `SELECT id, prefix, kind, label, grants, ${iso("created_at")} AS created_at, ${
    iso("revoked_at")
  } AS revoked_at FROM api_keys`
  const selectKeys = (where: string, params: ReadonlyArray<unknown>) =>
    Effect.flatMap(sql.unsafe(`${SELECT} ${where}`, params), decodeKeyRows).pipe(storeUnavailable)
  return { insertKey, createSession, selectKeys }
}

/** Inserts a key unless the user already holds MAX_LIVE_KEYS live ones (counted under a lock on the user's row). */
const boundedInsert =
  (sql: SqlClient.SqlClient, insertKey: ReturnType<typeof keyStore>["insertKey"]) =>
  (owner: Principal, grants: ReadonlyArray<Grant>, label: string | undefined, at: string) =>
    sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT id FROM users WHERE id = ${owner.userId} FOR UPDATE`
      const live = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM api_keys WHERE user_id = ${owner.userId} AND kind = 'key' AND revoked_at IS NULL`
      if ((live[0]?.n ?? 0) >= MAX_LIVE_KEYS) return undefined
      return yield* insertKey(owner.userId, "key", grants, label, at)
    })).pipe(storeUnavailable)

/** Key management by its owner (the session token, or a key holding keys:manage). */
const keyManagement = (
  sql: SqlClient.SqlClient,
  now: Now,
  limiter: typeof RateLimiter.Service,
  cursors: typeof Cursors.Service
) => {
  const { insertKey, selectKeys } = keyStore(sql, now)
  const insertBounded = boundedInsert(sql, insertKey)
  const mustManage = (p: Principal) => (mayManageKeys(p) ? Effect.void : Effect.fail(forbidManage))

  const createKey = Effect.fn("Keys.createKey")(
    function*(owner: Principal, grants: ReadonlyArray<Grant>, label: string | undefined) {
      yield* mustManage(owner)
      const unique = GRANTS.filter((g) => grants.includes(g))
      const beyond = grantsBeyond(owner, { kind: "key", grants: unique })
      if (beyond.length > 0) {
        return yield* new Forbidden({
          message: `a credential can never mint one with more grants than itself: it lacks ${beyond.join(", ")}`
        })
      }
      const created = yield* insertBounded(owner, unique, label, yield* now)
      if (created === undefined) {
        return yield* new InvalidRequest({
          message:
            `this user already holds ${MAX_LIVE_KEYS} live API keys, the most allowed: revoke one before creating another`
        })
      }
      const rows = yield* selectKeys("WHERE id = $1", [created.id])
      return { ...toInfo(rows[0]!), key: created.secret }
    }
  )

  /** A page of the user's keys and sessions, oldest first, after the cursor's (created_at, id). */
  const list = Effect.fn("Keys.list")(function*(owner: Principal, limit: number, cursor: string | undefined) {
    yield* mustManage(owner)
    const scope = `keys:${owner.userId}`
    const after = yield* cursors.decode(scope, cursor)
    const where = after === undefined ? "" : "AND (created_at, id) > ($2::timestamptz, $3)"
    const params = after === undefined ? [owner.userId] : [owner.userId, String(after[0]), String(after[1])]
    const [rows, total] = yield* Effect.all([
      selectKeys(`WHERE user_id = $1 ${where} ORDER BY created_at, id LIMIT ${limit + 1}`, params),
      Effect.map(
        sql<{ n: number }>`SELECT count(*)::int AS n FROM api_keys WHERE user_id = ${owner.userId}`,
        (r) => r[0]?.n ?? 0
      )
        .pipe(storeUnavailable)
    ])
    const items = rows.slice(0, limit)
    const last = items[items.length - 1]
    return {
      total,
      next_cursor: rows.length > limit && last !== undefined
        ? yield* cursors.encode(scope, [last.created_at, last.id])
        : null,
      items: items.map(toInfo)
    } satisfies KeyPage
  })

  const revoke = Effect.fn("Keys.revoke")(function*(owner: Principal, id: string) {
    yield* mustManage(owner)
    const target = (yield* selectKeys("WHERE id = $1 AND user_id = $2", [id, owner.userId]))[0]
    // The id is not repeated: a secret sent in its place must not come back in the answer.
    if (target === undefined) return yield* new DataNotFound({ message: "no such key for this user" })
    const beyond = grantsBeyond(owner, target)
    if (beyond.length > 0) {
      return yield* new Forbidden({
        message: `a key can never revoke a credential holding more than itself: ${beyond.join(", ")}`
      })
    }
    const at = yield* now
    yield* sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${at}::timestamptz) WHERE id = ${id}`.pipe(
      storeUnavailable
    )
    // Its later requests are charged to their address again.
    limiter.forgetKey(id)
    return toInfo((yield* selectKeys("WHERE id = $1", [id]))[0]!)
  })
  return { createKey, list, revoke }
}

/** A bearer secret → its principal (marking the user seen at most hourly). */
const makeAuthenticate = (sql: SqlClient.SqlClient) =>
  Effect.fn("Keys.authenticate")(function*(secret: string) {
    if (secret.length < 10 || secret.length > 200 || !/^[\x21-\x7e]+$/u.test(secret)) {
      return yield* new Unauthorized({ message: "missing or malformed bearer credential" })
    }
    const digest = sha256(secret)
    const at = yield* Clock.currentTimeMillis
    const rows = yield* sql.unsafe(
      `SELECT k.id, k.user_id, k.kind, k.grants, k.secret_hash, k.revoked_at IS NOT NULL AS revoked,
                coalesce(u.last_seen_at, u.created_at) < $2::timestamptz AS stale
         FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.secret_hash = $1`,
      [digest, new Date(at - SEEN_EVERY_MS).toISOString()]
    ).pipe(Effect.flatMap(decodeAuthRows), storeUnavailable)
    const r = rows[0]
    if (r === undefined || !sameDigest(r.secret_hash, digest)) {
      return yield* new Unauthorized({ message: "unknown credential" })
    }
    if (r.revoked) return yield* new Unauthorized({ message: "this key was revoked" })
    if (r.stale) {
      // Marks the user seen (at most hourly). The expiry sweep deletes only users idle for longer
      // than its TTL and re-checks that under the row lock, so no row here means the sweep won.
      const touched = yield* sql`UPDATE users SET last_seen_at = ${
        new Date(at).toISOString()
      }::timestamptz WHERE id = ${r.user_id} RETURNING id`
        .pipe(storeUnavailable)
      if (touched.length === 0) return yield* new Unauthorized({ message: "unknown credential" })
    }
    return { userId: r.user_id, keyId: r.id, kind: r.kind, grants: r.grants }
  })

export class Keys extends Context.Service<Keys, {
  readonly createSession: Effect.Effect<
    {
      readonly token: string
      readonly user: { readonly id: string; readonly created_at: string }
      readonly grants: ReadonlyArray<Grant>
    },
    SourceUnavailable
  >
  readonly createKey: (owner: Principal, grants: ReadonlyArray<Grant>, label: string | undefined) => Effect.Effect<
    KeyInfo & { readonly key: string },
    Forbidden | InvalidRequest | SourceUnavailable
  >
  readonly list: (
    owner: Principal,
    limit: number,
    cursor: string | undefined
  ) => Effect.Effect<KeyPage, Forbidden | InvalidRequest | SourceUnavailable>
  readonly revoke: (
    owner: Principal,
    id: string
  ) => Effect.Effect<KeyInfo, DataNotFound | Forbidden | SourceUnavailable>
  readonly authenticate: (secret: string) => Effect.Effect<Principal, Unauthorized | SourceUnavailable>
  /** FORBIDDEN unless the principal holds `grant`. */
  readonly require: (principal: Principal, grant: Grant) => Effect.Effect<void, Forbidden>
}>()("psx/ledger/Keys") {
  static readonly layer = Layer.effect(
    Keys,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const limiter = yield* RateLimiter
      const now: Now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
      const require = (principal: Principal, grant: Grant) =>
        principal.grants.includes(grant)
          ? Effect.void
          : Effect.fail(new Forbidden({ message: `this credential lacks the grant ${grant}` }))
      return {
        createSession: keyStore(sql, now).createSession,
        ...keyManagement(sql, now, limiter, yield* Cursors),
        authenticate: makeAuthenticate(sql),
        require
      }
    })
  )
}
