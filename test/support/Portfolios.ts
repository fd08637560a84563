/** What portfolio tests do over HTTP through TestApp: a session, a bearer header, recording a transaction (201). */
import { Effect } from "effect"
import { assertOk, bodyOf, post, type Reply } from "./TestApp.ts"

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
/** A new anonymous session's token. */
export const session = Effect.map(post("/v1/me/session", {}), (r) => bodyOf(r).token as string)
/** POST /v1/me/transactions with `token`. */
export const send = (token: string, body: unknown) => post("/v1/me/transactions", body, bearer(token))
/** The body of a 201, failing the test otherwise. */
export const created = <B, F>(r: Reply<B, F>) => {
  assertOk(r, 201)
  return r.body
}
