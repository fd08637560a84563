/**
 * The CSV import under load and the write-side rules of issues 51 and 50, through the whole service:
 * a 10,000-row file in any order and into any portfolio is planned (linear in the rows), one import per
 * user at a time, an ambiguous event id refused, a long X-Request-Id refused, and a payout counted once
 * (accepting LUCK's 250% final, then recording the same warrant by hand, is 409 naming the event).
 * No assertion here is about time. The service's clock starts at 2026-11-21.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { buys, csvOf } from "./support/ImportFiles.ts"
import { bearer, created, send, session } from "./support/Portfolios.ts"
import { assertFailed, bodyOf, get, post, SharedTestApp } from "./support/TestApp.ts"

const importCsv = (token: string, text: string, query = "", headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.post(`/v1/me/transactions/import${query}`).pipe(
        HttpClientRequest.setHeaders({ ...bearer(token), ...headers }),
        HttpClientRequest.bodyText(text, "text/csv")
      )
    )
    return { status: response.status, body: (yield* response.json) as Record<string, unknown> }
  }).pipe(Effect.orDie)

layer(SharedTestApp("2026-11-21T05:00:00.000Z"), { timeout: 600_000, excludeTestServices: true })(
  "ledger import under load",
  (it) => {
    it.effect("10,000 OGDC buys, newest first, are all planned by a dry run (before: 400 after 20 s)", () =>
      Effect.gen(function*() {
        const t = yield* session
        const reply = yield* importCsv(t, csvOf(buys("OGDC", 10_000).reverse()), "?dry_run=true")
        assert.strictEqual(reply.status, 200, JSON.stringify(reply.body).slice(0, 500))
        assert.deepStrictEqual([
          reply.body["rows"],
          reply.body["recorded"],
          (reply.body["errors"] as Array<unknown>).length
        ], [10_000, 0, 0])
        const events = reply.body["events"] as ReadonlyArray<{ line: number }>
        assert.strictEqual(events.length, 10_000)
        assert.deepStrictEqual([events[0]!.line, events[9_999]!.line], [2, 10_001], "listed by line")
      }))

    it.effect("10,000 sorted HBL buys into a portfolio holding a later-dated HBL buy are recorded (before: 400)", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* send(t, { kind: "buy", symbol: "HBL", quantity: 10, price: 300, trade_date: "2026-05-20" }))
        const reply = yield* importCsv(t, csvOf(buys("HBL", 10_000)))
        assert.strictEqual(reply.status, 200, JSON.stringify(reply.body).slice(0, 500))
        assert.strictEqual(reply.body["recorded"], 10_000)
        // 10 bought at 300, then 10,000 at 100: 10,010 shares costing 3,000 + 1,000,000 = 1,003,000.
        const hbl = bodyOf(yield* get("/v1/me/holdings", bearer(t))).items.find((h) => h.symbol === "HBL")
        assert.deepStrictEqual([hbl?.quantity, hbl?.cost], [10_010, 1_003_000])
        const verify = bodyOf(yield* get("/v1/me/ledger/verify", bearer(t)))
        assert.strictEqual(verify.ok, true, JSON.stringify(verify))
      }))

    it.effect("a second import by the same user while one is under way is 409, and records nothing", () =>
      Effect.gen(function*() {
        const t = yield* session
        // Two 10,000-row imports sent together: whichever takes the portfolio first runs, the other is refused.
        const file = csvOf(buys("OGDC", 10_000))
        const replies = yield* Effect.all([importCsv(t, file, "?dry_run=true"), importCsv(t, file, "?dry_run=true")], {
          concurrency: 2
        })
        assert.deepStrictEqual(replies.map((r) => r.status).sort(), [200, 409])
        const refused = replies.find((r) => r.status === 409)!
        assert.match(String(refused.body["message"]), /another import into this portfolio is under way/)
        assert.strictEqual(bodyOf(yield* get("/v1/me/ledger", bearer(t))).total, 0)
      }))

    it.effect("two rows sharing one event id, then a reversal of that id: the reversal is refused as ambiguous", () =>
      Effect.gen(function*() {
        const t = yield* session
        const file = csvOf([
          "2026-05-18,buy,OGDC,10,250,,,dup",
          "2026-05-19,buy,OGDC,20,250,,,dup",
          "2026-05-19,reversal,OGDC,,,dup,typo,"
        ])
        const plan = yield* importCsv(t, file, "?dry_run=true")
        assert.strictEqual(plan.status, 200)
        const errors = plan.body["errors"] as ReadonlyArray<{ line: number; column: string; message: string }>
        assert.deepStrictEqual(errors.map((e) => [e.line, e.column]), [[4, "reverses"]])
        assert.match(errors[0]!.message, /event id dup is the event_id of 2 rows \(lines 2, 3\)/)
        assertFailed(yield* Effect.map(importCsv(t, file), (r) => ({ ...r, headers: {} }) as never), 400)
      }))

    it.effect("an X-Request-Id over 200 characters is refused before anything is recorded; 200 is kept", () =>
      Effect.gen(function*() {
        const t = yield* session
        const body = { kind: "buy", symbol: "OGDC", quantity: 1, price: 250, trade_date: "2026-05-18" }
        assertFailed(
          yield* post("/v1/me/transactions", body, { ...bearer(t), "x-request-id": "r".repeat(15_000) }),
          400,
          "INVALID_REQUEST",
          "X-Request-Id"
        )
        assertFailed(yield* post("/v1/me/transactions", body, { ...bearer(t), "x-request-id": "r".repeat(201) }), 400)
        created(yield* post("/v1/me/transactions", body, { ...bearer(t), "x-request-id": "r".repeat(200) }))
        const ledger = bodyOf(yield* get("/v1/me/ledger", bearer(t)))
        assert.strictEqual(ledger.total, 1)
        assert.strictEqual((ledger.items[0]!.metadata as Record<string, unknown>)["client_request_id"], "r".repeat(200))
      }))

    it.effect("accept LUCK's 250% final, then record the warrant by hand: 409 naming the event; the CSV row too", () =>
      Effect.gen(function*() {
        const t = yield* session
        created(yield* send(t, { kind: "tax_status", filer: true, trade_date: "2026-01-01" }))
        created(yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 100, price: 440, trade_date: "2026-08-13" }))
        const entitlement = bodyOf(yield* get("/v1/me/entitlements", bearer(t))).items.find((e) =>
          e.symbol === "LUCK" && e.book_closure_from === "2026-08-18"
        )
        assert.exists(entitlement)
        const accepted = bodyOf(yield* post(`/v1/me/entitlements/${entitlement!.id}/accept`, {}, bearer(t)))
        const warrant = {
          kind: "dividend",
          symbol: "LUCK",
          gross_amount: 500,
          tax_withheld: 75,
          book_closure_from: "2026-08-18",
          trade_date: "2026-08-25"
        }
        const refused = yield* send(t, warrant)
        assertFailed(refused, 409, "INVALID_REQUEST", accepted.event_id!)
        assert.strictEqual((refused.body as unknown as Record<string, unknown>)["event_id"], accepted.event_id)
        const row = yield* importCsv(
          t,
          "trade_date,kind,symbol,gross_amount,tax_withheld,book_closure_from\r\n2026-08-25,dividend,LUCK,500,75,2026-08-18\r\n",
          "?dry_run=true"
        )
        const errors = row.body["errors"] as ReadonlyArray<{ message: string }>
        assert.strictEqual(errors.length, 1)
        assert.include(errors[0]!.message, `already recorded as event ${accepted.event_id}`)
        // 100 LUCK × Rs 5 (250% of the Rs 2 face value) = Rs 500 gross, counted once.
        const luck = bodyOf(yield* get("/v1/me/holdings", bearer(t))).items.find((h) => h.symbol === "LUCK")
        assert.strictEqual(luck?.dividends_gross, 500)
      }))

    it.effect("LUCK at 1,050 on 2026-05-20 is recorded with a flag naming the close 410.88, its basis and the 5:1 restatement", () =>
      Effect.gen(function*() {
        const t = yield* session
        const answer = created(
          yield* send(t, { kind: "buy", symbol: "LUCK", quantity: 1, price: 1050, trade_date: "2026-05-20" })
        )
        const flag = answer.flags.find((f) => f.includes("recorded close"))
        assert.exists(flag, JSON.stringify(answer.flags))
        // 1,050 / 410.88 = 2.555… → 2.56×; as traded the close is 410.88 / 0.2 = 2,054.40, and 1,050 / 2,054.40 = 0.51×.
        assert.include(flag!, "price 1,050 is 2.56× LUCK's recorded close of 410.88 on 2026-05-20")
        assert.include(flag!, "restated 5:1 for a split; as traded that close is 2,054.4, so the price is 0.51× it")
      }))
  }
)
