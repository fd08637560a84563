/**
 * Users, sessions and API keys. A secret is shown once, when created, and
 * stored only as its SHA-256 hash.
 *
 * - `POST /v1/me/session` creates an anonymous user and a session token. The
 *   session token is accepted as a bearer credential for that user and
 *   carries both portfolio grants.
 * - API keys are created by a signed-in user with the grants chosen then:
 *   market data always; `portfolio:read` and/or `portfolio:write`.
 * - A revoked or unknown credential is 401 UNAUTHORIZED; a valid one without
 *   the grant an endpoint needs is 403 FORBIDDEN.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes, randomUUID } from "node:crypto"
import { DataNotFound, Forbidden, Unauthorized } from "../../domain/Errors.ts"
import { type Grant, GRANTS } from "../../domain/ledger/Grants.ts"
import { iso } from "../db/Rows.ts"
import { sha256 } from "./EventStore.ts"

export interface Principal {
  readonly userId: string
  readonly keyId: string
  readonly kind: "session" | "key"
  readonly grants: ReadonlyArray<Grant>
}

export interface KeyInfo {
  readonly id: string
  readonly prefix: string
  readonly kind: "session" | "key"
  readonly label?: string
  readonly grants: ReadonlyArray<Grant>
  readonly created_at: string
  readonly revoked_at?: string
}

const newSecret = (kind: "session" | "key") => `psx_${kind === "session" ? "s" : "k"}_${randomBytes(24).toString("base64url")}`

export class Keys extends Context.Service<Keys, {
  readonly createSession: Effect.Effect<{ readonly token: string; readonly user: { readonly id: string; readonly created_at: string }; readonly grants: ReadonlyArray<Grant> }>
  readonly createKey: (owner: Principal, grants: ReadonlyArray<Grant>, label: string | undefined) => Effect.Effect<KeyInfo & { readonly key: string }>
  readonly list: (owner: Principal) => Effect.Effect<ReadonlyArray<KeyInfo>>
  readonly revoke: (owner: Principal, id: string) => Effect.Effect<KeyInfo, DataNotFound>
  readonly authenticate: (secret: string) => Effect.Effect<Principal, Unauthorized>
  /** FORBIDDEN unless the principal holds `grant`. */
  readonly require: (principal: Principal, grant: Grant) => Effect.Effect<void, Forbidden>
}>()("psx/ledger/Keys") {
  static readonly layer = Layer.effect(
    Keys,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

      const insertKey = (userId: string, kind: "session" | "key", grants: ReadonlyArray<Grant>, label: string | undefined, at: string) =>
        Effect.gen(function*() {
          const secret = newSecret(kind)
          const id = randomUUID()
          yield* sql`
            INSERT INTO api_keys (id, user_id, secret_hash, prefix, kind, label, grants, created_at)
            VALUES (${id}, ${userId}, ${sha256(secret)}, ${secret.slice(0, 10)}, ${kind}, ${label ?? null},
                    ${`{${grants.join(",")}}`}::text[], ${at}::timestamptz)`
          return { secret, id }
        })

      const createSession = Effect.gen(function*() {
        const at = yield* now
        const userId = randomUUID()
        const grants: ReadonlyArray<Grant> = ["portfolio:read", "portfolio:write"]
        const token = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO users (id, created_at) VALUES (${userId}, ${at}::timestamptz)`
          return (yield* insertKey(userId, "session", grants, "session", at)).secret
        }))
        return { token, user: { id: userId, created_at: at }, grants }
      }).pipe(Effect.orDie)

      const toInfo = (r: Record<string, unknown>): KeyInfo => ({
        id: String(r["id"]),
        prefix: String(r["prefix"]),
        kind: r["kind"] as "session" | "key",
        grants: (r["grants"] as ReadonlyArray<Grant>) ?? [],
        created_at: String(r["created_at"]),
        ...(r["label"] ? { label: String(r["label"]) } : {}),
        ...(r["revoked_at"] ? { revoked_at: String(r["revoked_at"]) } : {})
      })
      const SELECT = `SELECT id, prefix, kind, label, grants, ${iso("created_at")} AS created_at, ${iso("revoked_at")} AS revoked_at FROM api_keys`

      const createKey = (owner: Principal, grants: ReadonlyArray<Grant>, label: string | undefined) =>
        Effect.gen(function*() {
          const at = yield* now
          const unique = GRANTS.filter((g) => grants.includes(g))
          const { secret, id } = yield* insertKey(owner.userId, "key", unique, label, at)
          const rows = yield* sql.unsafe<Record<string, unknown>>(`${SELECT} WHERE id = $1`, [id])
          return { ...toInfo(rows[0]!), key: secret }
        }).pipe(Effect.orDie)

      const list = (owner: Principal) =>
        sql.unsafe<Record<string, unknown>>(`${SELECT} WHERE user_id = $1 ORDER BY created_at, id`, [owner.userId]).pipe(
          Effect.map((rows) => rows.map(toInfo)),
          Effect.orDie
        )

      const revoke = (owner: Principal, id: string) =>
        Effect.gen(function*() {
          const at = yield* now
          const rows = yield* sql.unsafe<Record<string, unknown>>(
            `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $3::timestamptz) WHERE id = $1 AND user_id = $2
             RETURNING id, prefix, kind, label, grants, ${iso("created_at")} AS created_at, ${iso("revoked_at")} AS revoked_at`,
            [id, owner.userId, at]
          ).pipe(Effect.orDie)
          if (rows.length === 0) return yield* new DataNotFound({ message: `no key ${id} for this user` })
          return toInfo(rows[0]!)
        })

      const authenticate = (secret: string) =>
        Effect.gen(function*() {
          if (secret.length < 10 || secret.length > 200) {
            return yield* new Unauthorized({ message: "missing or malformed bearer credential" })
          }
          const rows = yield* sql<{ id: string; user_id: string; kind: string; grants: ReadonlyArray<Grant>; revoked: boolean }>`
            SELECT id, user_id, kind, grants, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE secret_hash = ${sha256(secret)}`
            .pipe(Effect.orDie)
          const r = rows[0]
          if (r === undefined) return yield* new Unauthorized({ message: "unknown credential" })
          if (r.revoked) return yield* new Unauthorized({ message: "this key was revoked" })
          return { userId: r.user_id, keyId: r.id, kind: r.kind as "session" | "key", grants: r.grants }
        })

      const require = (principal: Principal, grant: Grant) =>
        principal.grants.includes(grant)
          ? Effect.void
          : Effect.fail(new Forbidden({ message: `this credential lacks the grant ${grant}` }))

      return { createSession, createKey, list, revoke, authenticate, require }
    })
  )
}
