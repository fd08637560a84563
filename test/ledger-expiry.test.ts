/**
 * Anonymous users that never recorded an event expire after the idle TTL
 * (24 h by default); a user with any event is never removed; using a
 * credential keeps its user alive. Time is moved with a movable clock and the
 * sweep is run directly (the background loop runs the same sweep on a
 * schedule), so nothing sleeps.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AnonymousExpiry } from "../src/ledger/accounts/AnonymousExpiry.ts"
import { EventStore } from "../src/ledger/events/EventStore.ts"
import { streamOf } from "../src/ledger/portfolio/Portfolio.ts"
import { MovableClock, MovableClockLayer } from "./support/MovableClock.ts"
import { assertOk, get, post, TestApp } from "./support/TestApp.ts"

const T0 = "2026-11-20T03:00:00.000Z"
const at = (hours: number) => new Date(Date.parse(T0) + hours * 3_600_000).toISOString()
const App = TestApp().pipe(Layer.provideMerge(MovableClockLayer(T0)))

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const session = Effect.map(post("/v1/me/session", {}), (r) => {
  assertOk(r, 201)
  return { token: r.body.token as string, user: r.body.user.id as string }
})
const usersLeft = (ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<{ id: string }>(`SELECT id FROM users WHERE id = ANY($1::text[])`, [
      `{${ids.join(",")}}`
    ])
    return new Set(rows.map((r) => r.id))
  })

layer(App, { timeout: 120_000, excludeTestServices: true })("anonymous users", (it) => {
  it.effect("expire after the idle TTL without events; a user with an event, or seen recently, stays", () =>
    Effect.gen(function*() {
      const clock = yield* MovableClock
      const expiry = yield* AnonymousExpiry
      const store = yield* EventStore
      clock.moveTo(T0)
      const idle = yield* session
      const active = yield* session
      const trader = yield* session
      yield* store.append(streamOf(trader.user), yield* store.head(streamOf(trader.user)), [
        { type: "TaxStatusRecorded", filer: true, trade_date: "2026-11-19" }
      ], {})

      clock.moveTo(at(20))
      assert.strictEqual(
        (yield* get("/v1/me/holdings", bearer(active.token))).status,
        200,
        "using the session marks the user seen"
      )
      assert.deepStrictEqual(yield* expiry.sweep, [], "nobody is idle for 24 h yet")

      clock.moveTo(at(25))
      const first = yield* expiry.sweep
      assert.includeMembers([...first], [idle.user])
      assert.notInclude([...first], active.user)
      assert.notInclude([...first], trader.user)
      assert.deepStrictEqual(
        yield* usersLeft([idle.user, active.user, trader.user]),
        new Set([active.user, trader.user])
      )
      const gone = yield* get("/v1/me/holdings", bearer(idle.token))
      assert.strictEqual(gone.status, 401, "an expired user's session no longer authenticates")

      clock.moveTo(at(45))
      const second = yield* expiry.sweep
      assert.includeMembers([...second], [active.user], "idle for 25 h since it was last seen")
      assert.notInclude([...second], trader.user)
      clock.moveTo(at(24 * 400))
      assert.notInclude([...(yield* expiry.sweep)], trader.user, "a user with an event is never removed")
      assert.strictEqual((yield* get("/v1/me/holdings", bearer(trader.token))).status, 200)
    }))
})
