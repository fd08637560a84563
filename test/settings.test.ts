/**
 * Portfolio settings and recording entitlements as they fall due over HTTP on the
 * bundled pack (both stores). The test moves the service's wall clock (Asia/Karachi dates below).
 *
 * The portfolio (a filer from 2026-01-01): 10 MEBL bought 2026-03-18, 90 more 2026-05-25, 40 LUCK 2026-05-18.
 * - MEBL "70%(F) (D)" (closure 2026-03-25 to 03-27) and "75%(i) (D)" (2026-05-06 to 05-07) on 10 shares: credited
 *   before auto-recording is turned on, so they stay `due` for accept.
 * - MEBL "80(ii) (D)", closure 2026-08-19 to 08-20, last buy date 08-17: 100 shares × 80% × Rs 10 = Rs 800 gross,
 *   15% = Rs 120 withheld, Rs 680 net. Turned on 2026-08-19: not yet due (credited 08-20, the closure's end); due
 *   on 08-20, recorded once.
 * - LUCK "250%(F) (D)", closure 2026-08-18 to 08-25 (face value Rs 2): due 08-25, after auto-recording is off.
 */
import { assert, layer } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { Entitlements } from "../src/ledger/entitlements/Entitlements.ts"
import { EventStore } from "../src/ledger/events/EventStore.ts"
import { Portfolio } from "../src/ledger/portfolio/Portfolio.ts"
import { LedgerWriter } from "../src/ledger/portfolio/Writer.ts"
import { AutoRecord } from "../src/ledger/settings/AutoRecord.ts"
import { PortfolioSettings } from "../src/ledger/settings/Settings.ts"
import { wallClock } from "./support/ShiftedClock.ts"
import { assertFailed, assertOk, bodyOf, get, post, put, type Reply, TestApp } from "./support/TestApp.ts"

/** The service's wall clock: set by the test, moving with real time from there. */
let wall = Date.parse("2026-08-19T05:00:00.000Z"), setAt = Date.now()
const setKarachiMorning = (date: string) => {
  wall = Date.parse(`${date}T05:00:00.000Z`)
  setAt = Date.now()
}
const clock = wallClock(() => wall + (Date.now() - setAt))

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const send = (token: string, body: unknown) => post("/v1/me/transactions", body, bearer(token))
const created = <B, F>(r: Reply<B, F>) => {
  assertOk(r, 201)
  return r.body
}
const settings = (token: string, body: unknown) => put("/v1/me/settings", body, bearer(token))
const entitlement = (token: string, symbol: string, closure: string) =>
  Effect.map(get("/v1/me/entitlements", bearer(token)), (r) => {
    const e = bodyOf(r).items.find((x) => x.symbol === symbol && x.book_closure_from === closure)
    assert.exists(e, `an entitlement of ${symbol} at ${closure}`)
    return e!
  })
const ledgerOf = (token: string) => Effect.map(get("/v1/me/ledger", bearer(token)), (r) => bodyOf(r))

/** A second writer of the same store, as another process has: its own event store, writer, caches and stripes. */
const otherProcess = AutoRecord.layerWith({ every: Duration.hours(24) }).pipe(
  Layer.provide(Layer.mergeAll(PortfolioSettings.layer, Entitlements.layer)),
  Layer.provide(Portfolio.layer),
  Layer.provide(LedgerWriter.layer),
  Layer.provide(EventStore.layer)
)

const app = TestApp({ withPack: true }).pipe(Layer.provideMerge(Layer.succeed(Clock.Clock, clock)))

layer(app, { timeout: 600_000, excludeTestServices: true })(
  "settings: auto-recording entitlements",
  (it) => {
    it.effect("opted in, a due entitlement is recorded once as an ordinary event naming its source; opted out, nothing is", () =>
      Effect.gen(function*() {
        setKarachiMorning("2026-08-19")
        const t = bodyOf(yield* post("/v1/me/session", {})).token as string
        created(yield* send(t, { kind: "tax_status", filer: true, trade_date: "2026-01-01" }))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 10, price: 400, trade_date: "2026-03-18" }))
        created(yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 90, price: 400, trade_date: "2026-05-25" }))
        created(yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 40, price: 350, trade_date: "2026-05-18" }))
        assert.deepStrictEqual(
          bodyOf(yield* get("/v1/me/settings", bearer(t))).auto_record_entitlements,
          false,
          "off by default"
        )

        const on = bodyOf(yield* settings(t, { auto_record_entitlements: true }))
        assert.deepStrictEqual([on.auto_record_entitlements, on.auto_record_since, on.recorded_now], [
          true,
          "2026-08-19",
          []
        ], "the 70%(F) and 75%(i) fell due before; the 80(ii) is credited tomorrow")
        assert.strictEqual((yield* ledgerOf(t)).total, 4, "nothing recorded yet")
        const auto = yield* AutoRecord
        assert.strictEqual(yield* auto.sweep, 0, "a sweep the same day records nothing: not yet due")

        setKarachiMorning("2026-08-20")
        const second = yield* Effect.scoped(Effect.gen(function*() {
          const other = Context.get(yield* Layer.build(otherProcess), AutoRecord)
          return yield* Effect.all([auto.sweep, auto.sweep, other.sweep, other.sweep], { concurrency: "unbounded" })
        }))
        assert.strictEqual(
          second.reduce((a, b) => a + b, 0),
          1,
          `four concurrent sweeps, two writers: one event (${second})`
        )
        const ledger = yield* ledgerOf(t)
        assert.strictEqual(ledger.total, 5)
        const mebl = yield* entitlement(t, "MEBL", "2026-08-19")
        const item = ledger.items[0]!
        assert.deepStrictEqual([mebl.state, mebl.recorded_event_id, mebl.matches], ["recorded", item.event_id, true])
        assert.deepStrictEqual(item.payload, {
          type: "DividendRecorded",
          symbol: "MEBL",
          trade_date: "2026-08-20",
          book_closure_from: "2026-08-19",
          entitlement_date: "2026-08-17",
          per_share: 8,
          tax_rule: "wht-dividend-2019-07",
          tax_rate_pct: 15,
          filer: true
        }, "an ordinary dividend event, as accept records it")
        const meta = item.metadata as Record<string, unknown>
        assert.include(
          String(meta.source),
          `payout ${mebl.payout_id} (80(ii) (D), book closure 2026-08-19) from dataset ${mebl.dataset}`
        )
        assert.include(String(meta.source), "recorded automatically")
        assert.strictEqual(meta.causation_id, mebl.id)
        const sessionKey = bodyOf(yield* get("/v1/me/keys", bearer(t))).items.find((k) => k.kind === "session")
        assert.strictEqual(meta.actor_key_id, sessionKey?.id, "the credential that turned it on")
        const holding = bodyOf(yield* get("/v1/me/holdings", bearer(t))).items.find((h) => h.symbol === "MEBL")
        assert.deepStrictEqual([holding?.dividends_gross, holding?.tax_withheld, holding?.dividends_net], [
          800,
          120,
          680
        ])
        for (const closure of ["2026-03-25", "2026-05-06"]) {
          assert.strictEqual((yield* entitlement(t, "MEBL", closure)).state, "due")
        }

        const again = bodyOf(yield* settings(t, { auto_record_entitlements: true }))
        assert.strictEqual(again.auto_record_since, "2026-08-19", "turning it on again keeps the day it was turned on")
        const off = bodyOf(yield* settings(t, { auto_record_entitlements: false }))
        assert.deepStrictEqual([off.auto_record_entitlements, off.auto_record_since], [false, undefined])
        setKarachiMorning("2026-08-26")
        assert.strictEqual(yield* auto.sweep, 0)
        assert.strictEqual(
          (yield* entitlement(t, "LUCK", "2026-08-18")).state,
          "due",
          "opted out: the LUCK dividend is not recorded"
        )
        assert.strictEqual((yield* ledgerOf(t)).total, 5)
        const back = bodyOf(yield* settings(t, { auto_record_entitlements: true }))
        assert.deepStrictEqual(
          [back.auto_record_since, back.recorded_now],
          ["2026-08-26", []],
          "what fell due while off stays for accept"
        )
        assert.strictEqual((yield* ledgerOf(t)).total, 5)
      }))

    it.effect("the body is exactly { auto_record_entitlements: boolean } (400 otherwise); reading needs portfolio:read, changing portfolio:write", () =>
      Effect.gen(function*() {
        const t = bodyOf(yield* post("/v1/me/session", {})).token as string
        for (
          const bad of [{}, { auto_record_entitlements: "true" }, { auto_record_entitlements: true, other: 1 }, {
            auto_record_entitlements: null
          }]
        ) {
          assertFailed(yield* settings(t, bad), 400, "INVALID_REQUEST")
        }
        assert.strictEqual(
          bodyOf(yield* get("/v1/me/settings", bearer(t))).auto_record_entitlements,
          false,
          "a refused body changes nothing"
        )
        const reader = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(t))).key as string
        const writer = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(t))).key as string
        assertFailed(yield* settings(reader, { auto_record_entitlements: true }), 403)
        assertFailed(yield* get("/v1/me/settings", bearer(writer)), 403)
        assertFailed(yield* get("/v1/me/settings"), 401)
        assertFailed(yield* put("/v1/me/settings", { auto_record_entitlements: true }), 401)
        assertOk(yield* settings(writer, { auto_record_entitlements: true }))
        assert.strictEqual(bodyOf(yield* get("/v1/me/settings", bearer(reader))).auto_record_entitlements, true)
      }))
  }
)
