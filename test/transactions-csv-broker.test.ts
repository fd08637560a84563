/**
 * A broker's statement imported as it is: headers mapped,
 * day-first dates, "1,000", BUY and buy, a rate with three decimals, a sale's
 * quantity written -50; an Excel re-save's 3/20/2023; an ambiguous file and
 * date_order; the template; a latin1 body. Synthetic test
 * fixtures: every file is made by hand, its figures worked beside it. The
 * service's clock starts at 2026-11-21.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { assertFailed, assertOk, bodyOf, get, payloadOf, post, SharedTestApp } from "./support/TestApp.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const session = Effect.map(post("/v1/me/session", {}), (r) => {
  assertOk(r, 201)
  return r.body.token as string
})
const send = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const response = yield* (yield* HttpClient.HttpClient).execute(request)
    return { status: response.status, headers: response.headers, text: yield* response.text }
  }).pipe(Effect.orDie)
/** POSTs a CSV body (text, or bytes with their content type); the status and JSON body. */
const importCsv = (token: string, body: string | Uint8Array, query = "", contentType = "text/csv") =>
  Effect.map(
    send(
      HttpClientRequest.post(`/v1/me/transactions/import${query}`).pipe(
        HttpClientRequest.setHeaders(bearer(token)),
        typeof body === "string"
          ? HttpClientRequest.bodyText(body, contentType)
          : HttpClientRequest.bodyUint8Array(body, contentType)
      )
    ),
    (r) => ({ status: r.status, body: JSON.parse(r.text) as Record<string, unknown> })
  )
type Event = { readonly line: number; readonly type: string; readonly payload: unknown }
const eventsOf = (body: Record<string, unknown>) => body["events"] as ReadonlyArray<Event>
const lines = (...rows: ReadonlyArray<string>) => rows.map((r) => `${r}\r\n`).join("")

const BROKER = lines(
  "Date,Type,Symbol,Qty,Rate,Commission",
  "22/05/2026,BUY,HUBC,\"1,000\",215.425,150",
  "25/05/2026,buy,ogdc,500,208.95,75.5",
  "25/05/2026,Sell,HUBC,-50,219.5,10"
)

const App = SharedTestApp("2026-11-21T05:00:00.000Z")

layer(App, { timeout: 600_000, excludeTestServices: true })("a broker's statement imported as it is", (it) => {
  it.effect("the dry run shows the mapping, the date order and the notes; the import records the trades", () =>
    Effect.gen(function*() {
      const token = yield* session
      const plan = yield* importCsv(token, BROKER, "?dry_run=true")
      assert.strictEqual(plan.status, 200, JSON.stringify(plan.body))
      assert.deepStrictEqual(plan.body["mapping"], {
        format: "mapped",
        columns: [
          { header: "Date", reads_as: "trade_date" },
          { header: "Type", reads_as: "kind" },
          { header: "Symbol", reads_as: "symbol" },
          { header: "Qty", reads_as: "quantity" },
          { header: "Rate", reads_as: "price" },
          { header: "Commission", reads_as: "fees (added)" }
        ],
        ignored: [],
        date_order: "dmy"
      })
      assert.deepStrictEqual(plan.body["errors"], [])
      assert.deepStrictEqual(
        (plan.body["notes"] as ReadonlyArray<{ line: number; column: string }>).map((n) => [n.line, n.column]),
        [[2, "Rate"]]
      )
      // 215.425 → 215.42 for a buy; 1,000 × 0.005 = Rs 5.00 more fees: 155. The sale's -50 is 50 shares.
      assert.deepStrictEqual(
        eventsOf(plan.body).map((e) => {
          const p = payloadOf(e)
          return [e.line, p["side"], p["symbol"], p["quantity"], p["price"], p["fees"], p["trade_date"]]
        }),
        [
          [2, "buy", "HUBC", 1000, 215.42, 155, "2026-05-22"],
          [3, "buy", "OGDC", 500, 208.95, 75.5, "2026-05-25"],
          [4, "sell", "HUBC", 50, 219.5, 10, "2026-05-25"]
        ]
      )
      const done = yield* importCsv(token, BROKER)
      assert.deepStrictEqual([done.status, done.body["recorded"]], [200, 3], JSON.stringify(done.body))
      const holdings = bodyOf(yield* get("/v1/me/holdings", bearer(token))).items
      // HUBC cost 215.42 × 1,000 + 155 = 215,575 for 1,000 shares: 215.575 a share (the broker's 215.425 + 0.15 of
      // commission); the sale keeps the average. OGDC 208.95 × 500 + 75.50 = 104,550.50: 209.101 a share.
      assert.deepStrictEqual(holdings.map((h) => [h.symbol, h.quantity, h.average_cost]), [["HUBC", 950, 215.575], [
        "OGDC",
        500,
        209.101
      ]])
      const again = yield* importCsv(token, BROKER)
      assert.deepStrictEqual(
        [again.body["recorded"], again.body["skipped"]],
        [0, 3],
        "the same statement twice adds nothing"
      )
    }))

  it.effect("an Excel re-save's 3/20/2023 is month first; CDC and other charges add to the fees; other columns are ignored", () =>
    Effect.gen(function*() {
      const token = yield* session
      const file = lines(
        "Trade Date,Side,Scrip,Quantity,Price,Brokerage,CDC Charges,Net Amount",
        "3/20/2023,BUY,OGDC,10,85.5,12.5,0.75,-868.25"
      )
      const plan = yield* importCsv(token, file, "?dry_run=true")
      assert.strictEqual(plan.status, 200, JSON.stringify(plan.body))
      assert.deepStrictEqual([
        (plan.body["mapping"] as { date_order: string }).date_order,
        (plan.body["mapping"] as { ignored: unknown }).ignored
      ], ["mdy", ["Net Amount"]])
      // Fees 12.50 + 0.75 = 13.25.
      const [event] = eventsOf(plan.body)
      assert.deepStrictEqual([payloadOf(event!)["trade_date"], payloadOf(event!)["fees"]], ["2023-03-20", 13.25])
    }))

  it.effect("dates that could be either order: 400 naming date_order, which then decides them", () =>
    Effect.gen(function*() {
      const token = yield* session
      const file = lines("Date,Type,Symbol,Qty,Rate", "03/04/2026,buy,HUBC,10,200")
      assertFailed(yield* importCsv(token, file, "?dry_run=true"), 400, "INVALID_REQUEST", "date_order=dmy")
      const dayFirst = yield* importCsv(token, file, "?dry_run=true&date_order=dmy")
      const monthFirst = yield* importCsv(token, file, "?dry_run=true&date_order=mdy")
      // 03/04/2026: 3 April (a Friday) day first, 4 March (a Wednesday) month first.
      assert.strictEqual(payloadOf(eventsOf(dayFirst.body)[0]!)["trade_date"], "2026-04-03")
      assert.strictEqual(payloadOf(eventsOf(monthFirst.body)[0]!)["trade_date"], "2026-03-04")
      assertFailed(yield* importCsv(token, file, "?date_order=ydm"), 400, "INVALID_REQUEST")
      const mixed = lines("Date,Type,Symbol,Qty,Rate", "20/05/2026,buy,HUBC,10,200", "5/25/2026,buy,HUBC,10,200")
      assertFailed(yield* importCsv(token, mixed, "?dry_run=true"), 400, "INVALID_REQUEST", "mixes day-first")
    }))

  it.effect("a refused row names the file's own header; a formula cell refuses the file, -50 does not", () =>
    Effect.gen(function*() {
      const token = yield* session
      const plan = yield* importCsv(
        token,
        lines("Date,Type,Scrip,Qty,Rate", "22/05/2026,buy,HUBC,1.5,200", "22/05/2026,hold,HUBC,1,200"),
        "?dry_run=true"
      )
      assert.deepStrictEqual(
        (plan.body["errors"] as ReadonlyArray<{ line: number; column: string }>).map((e) => [e.line, e.column]),
        [[2, "Qty"], [3, "Type"]]
      )
      assertFailed(
        yield* importCsv(token, lines("Date,Type,Scrip,Qty,Rate", "22/05/2026,buy,=HUBC,1,200")),
        400,
        "INVALID_REQUEST",
        "line 2, column Scrip"
      )
      const negative = yield* importCsv(
        token,
        lines("Date,Type,Scrip,Qty,Rate", "22/05/2026,buy,HUBC,-50,200"),
        "?dry_run=true"
      )
      assert.strictEqual(negative.status, 200, "-50 is a number, not a formula")
      assert.deepStrictEqual((negative.body["errors"] as ReadonlyArray<{ column: string }>).map((e) => e.column), [
        "Qty"
      ], "a buy of -50 shares is refused as a quantity")
    }))

  it.effect("headers the import does not know are read by the client's mapping, which must match the file", () =>
    Effect.gen(function*() {
      const token = yield* session
      const file = lines("Dt,B/S,Instrument,Units,Px", "22/05/2026,B,HUBC,10,215.42")
      const unknown = yield* importCsv(token, file, "?dry_run=true")
      assert.deepStrictEqual((unknown.body["mapping"] as { ignored: unknown }).ignored, ["Dt", "Instrument", "Px"])
      const mapping = encodeURIComponent(JSON.stringify({ Dt: "trade_date", Instrument: "symbol", Px: "price" }))
      const mapped = yield* importCsv(token, file, `?dry_run=true&mapping=${mapping}`)
      assert.strictEqual(mapped.status, 200, JSON.stringify(mapped.body))
      const p = payloadOf(eventsOf(mapped.body)[0]!)
      assert.deepStrictEqual([p["trade_date"], p["side"], p["symbol"], p["quantity"], p["price"]], [
        "2026-05-22",
        "buy",
        "HUBC",
        10,
        215.42
      ])
      const changed = lines("Date,B/S,Instrument,Units,Px", "22/05/2026,B,HUBC,10,215.42")
      assertFailed(
        yield* importCsv(token, changed, `?mapping=${mapping}`),
        400,
        "INVALID_REQUEST",
        "the mapping names a column \"Dt\""
      )
      assertFailed(
        yield* importCsv(token, file, `?mapping=${encodeURIComponent("{\"Dt\":\"when\"}")}`),
        400,
        "INVALID_REQUEST",
        "query parameter `mapping`"
      )
    }))

  it.effect("a latin1 body is converted; another charset is refused", () =>
    Effect.gen(function*() {
      const token = yield* session
      // "Café" in ISO-8859-1: é is the one byte 0xE9.
      const text = "trade_date,kind,amount,note\r\n2026-03-10,donation,100,Caf\u00e9\r\n"
      const latin1 = Uint8Array.from(text, (c) => c.charCodeAt(0))
      assert.strictEqual(latin1.length, text.length)
      const reply = yield* importCsv(token, latin1, "", "text/csv; charset=latin1")
      assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
      assert.strictEqual(payloadOf(eventsOf(reply.body)[0]!)["note"], "Café")
      assertFailed(yield* importCsv(token, latin1), 400, "INVALID_REQUEST", "not UTF-8")
      assertFailed(
        yield* importCsv(token, text, "", "text/csv; charset=utf-16le"),
        400,
        "INVALID_REQUEST",
        "charset \"utf-16le\""
      )
    }))

  it.effect("the template downloads without a key, and imports as an empty file", () =>
    Effect.gen(function*() {
      const all = yield* send(HttpClientRequest.get("/v1/me/transactions/import/template"))
      assert.strictEqual(all.status, 200)
      assert.strictEqual(all.headers["x-content-type-options"], "nosniff")
      assert.strictEqual(all.text.split("\r\n")[0]!.split(",").length, 23)
      const trades = yield* send(HttpClientRequest.get("/v1/me/transactions/import/template?columns=trades"))
      assert.strictEqual(trades.text, "trade_date,kind,symbol,quantity,price,fees\r\n")
      const token = yield* session
      for (const template of [all.text, trades.text]) {
        const reply = yield* importCsv(token, template)
        assert.deepStrictEqual([reply.status, reply.body["rows"], reply.body["recorded"]], [200, 0, 0])
      }
    }))
})
