/**
 * Opaque, tamper-evident paging cursors: the keyset position (never an
 * offset) signed with the service's cursor key and stamped with an expiry. A
 * changed, foreign or expired cursor is INVALID_REQUEST.
 *
 * Used by every paged endpoint (market and ledger alike). The key comes from
 * `CURSOR_SECRET` through AppConfig; unset, a random key per process (cursors
 * then do not survive a restart or cross instances).
 */
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { InvalidRequest } from "../../domain/Errors.ts"
import { DAY_MS } from "../../domain/Karachi.ts"
import { AppConfig } from "../config/AppConfig.ts"

/**
 * A cursor expires at the end of the UTC day after the one it was issued on (24 to 48 hours): the same for
 * every cursor of a day, so an encoded answer that carries one stays byte-identical until midnight.
 */
export const cursorExpiry = (now: number) => Math.floor(now / DAY_MS) * DAY_MS + 2 * DAY_MS

/** When answers issued at `now` start carrying a different cursor expiry. */
export const nextCursorDay = (now: number) => Math.floor(now / DAY_MS) * DAY_MS + DAY_MS

/** Compares a cursor's MAC with the expected one in constant time. */
const sameMac = (expected: string, given: string) => {
  const a = Buffer.from(expected, "utf8")
  const b = Buffer.from(given, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

export type CursorPosition = ReadonlyArray<string | number>

const CursorBody = Schema.Struct({
  s: Schema.String,
  p: Schema.Array(Schema.Union([Schema.String, Schema.Finite])),
  e: Schema.Finite
})
const decodeBody = Schema.decodeUnknownOption(Schema.fromJsonString(CursorBody))

export class Cursors extends Context.Service<Cursors, {
  /** A cursor for `scope` (the endpoint and its filters) continuing after `position`. */
  readonly encode: (scope: string, position: CursorPosition) => Effect.Effect<string>
  /** The position a cursor carries, `undefined` for no cursor; INVALID_REQUEST when it is not valid for `scope`. */
  readonly decode: (
    scope: string,
    cursor: string | undefined
  ) => Effect.Effect<CursorPosition | undefined, InvalidRequest>
}>()("psx/paging/Cursors") {
  static readonly make = (secret: string) => {
    const sign = (body: string) => createHmac("sha256", secret).update(body).digest("base64url").slice(0, 22)
    const encode = (scope: string, position: CursorPosition) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const body = Buffer.from(JSON.stringify({ s: scope, p: position, e: cursorExpiry(now) })).toString("base64url")
        return `${body}.${sign(body)}`
      })
    const decode = (scope: string, cursor: string | undefined) =>
      Effect.gen(function*() {
        if (cursor === undefined || cursor === "") return undefined
        const bad = (why: string) =>
          new InvalidRequest({ message: `query field \`cursor\`: ${why}; start again without a cursor` })
        const [body, mac] = cursor.split(".")
        if (!body || !mac || !sameMac(sign(body), mac)) return yield* bad("not a cursor this service issued")
        const parsed = decodeBody(Buffer.from(body, "base64url").toString("utf8"))
        if (Option.isNone(parsed)) return yield* bad("unreadable cursor")
        if (parsed.value.s !== scope) return yield* bad("the cursor belongs to another query")
        if (parsed.value.e < (yield* Clock.currentTimeMillis)) return yield* bad("the cursor has expired")
        return parsed.value.p
      })
    return Cursors.of({ encode, decode })
  }

  static readonly layer = Layer.effect(
    Cursors,
    Effect.map(AppConfig, (config) =>
      Cursors.make(Option.match(config.cursorSecret, {
        onNone: () => randomBytes(32).toString("hex"),
        onSome: Redacted.value
      })))
  )
}
