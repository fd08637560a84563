/**
 * Opaque, tamper-evident paging cursors: the keyset position (never an
 * offset) signed with a per-process key and stamped with an expiry. A
 * changed, foreign or expired cursor is INVALID_REQUEST.
 */
import { Clock, Effect } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { InvalidRequest } from "../../domain/Errors.ts"

const key = process.env["CURSOR_SECRET"] ?? randomBytes(32).toString("hex")
const TTL_MS = 24 * 3_600_000

const sign = (body: string) => createHmac("sha256", key).update(body).digest("base64url").slice(0, 22)

/** A cursor for `scope` (the endpoint and its filters) continuing after `position`. */
export const encodeCursor = (scope: string, position: ReadonlyArray<string | number>) =>
  Effect.map(Clock.currentTimeMillis, (now) => {
    const body = Buffer.from(JSON.stringify({ s: scope, p: position, e: now + TTL_MS })).toString("base64url")
    return `${body}.${sign(body)}`
  })

export const decodeCursor = (scope: string, cursor: string | undefined) =>
  Effect.gen(function*() {
    if (cursor === undefined || cursor === "") return undefined
    const bad = (why: string) => new InvalidRequest({ message: `query field \`cursor\`: ${why}; start again without a cursor` })
    const [body, mac] = cursor.split(".")
    if (!body || !mac || sign(body) !== mac) return yield* bad("not a cursor this service issued")
    const parsed = yield* Effect.try({
      try: () => JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { s?: unknown; p?: unknown; e?: unknown },
      catch: () => bad("unreadable cursor")
    })
    if (parsed.s !== scope) return yield* bad("the cursor belongs to another query")
    if (typeof parsed.e !== "number" || parsed.e < (yield* Clock.currentTimeMillis)) return yield* bad("the cursor has expired")
    if (!Array.isArray(parsed.p)) return yield* bad("unreadable cursor")
    return parsed.p as ReadonlyArray<string | number>
  })
