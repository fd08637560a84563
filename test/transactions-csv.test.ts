/**
 * CSV in and out of the portfolio, through the whole
 * service: the export's rows worked by hand from the transactions posted, a
 * round trip into a new portfolio giving the same holdings, dry runs, all or
 * none, re-imports adding nothing, grants, and hostile files refused whole.
 * Runs on the embedded store and, with DATABASE_URL, on PostgreSQL. The
 * service's clock starts at 2026-11-21 (`TestApp({ now })`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { assertFailed, assertOk, bodyOf, get, getText, payloadOf, post, SharedTestApp } from "./support/TestApp.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const session = Effect.map(post("/v1/me/session", {}), (r) => {
  assertOk(r, 201)
  return r.body.token as string
})
const record = (token: string, body: unknown) =>
  Effect.map(post("/v1/me/transactions", body, bearer(token)), (r) => {
    assertOk(r, 201)
    return r.body.event.event_id as string
  })
const exported = (token: string) => getText("/v1/me/transactions/export", bearer(token))

/** POSTs a CSV body; the reply's status and JSON body. */
const importCsv = (token: string, text: string | Uint8Array, query = "") =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.post(`/v1/me/transactions/import${query}`).pipe(
        HttpClientRequest.setHeaders(bearer(token)),
        typeof text === "string"
          ? HttpClientRequest.bodyText(text, "text/csv")
          : HttpClientRequest.bodyUint8Array(text, "text/csv")
      )
    )
    return { status: response.status, body: (yield* response.json) as Record<string, unknown> }
  }).pipe(Effect.orDie)

const HEADER =
  "trade_date,kind,symbol,quantity,price,fees,per_share,gross_amount,tax_withheld,filer,book_closure_from," +
  "percent,numerator,denominator,reverses,reason,event_id"
/** A row of the 17 columns above, cell by cell. */
const row = (...cells: ReadonlyArray<string>) => {
  assert.strictEqual(cells.length, 17)
  return cells.join(",")
}
/** The export's header: the columns above, then a donation's and the computed figures. */
const EXPORT_HEADER = HEADER.replace(
  ",event_id",
  ",amount,note,shares,dividend_gross,dividend_tax,dividend_net,event_id"
)
const csv = (...lines: ReadonlyArray<string>) => [HEADER, ...lines].map((l) => `${l}\r\n`).join("")

const INJECTED = "=HYPERLINK(\"http://evil.example\",\"x\")"

/** Seven transactions of one portfolio; their event ids in the order posted. */
const seed = (token: string) =>
  Effect.gen(function*() {
    const ids: Array<string> = []
    ids.push(yield* record(token, { kind: "tax_status", filer: true, trade_date: "2025-07-01" }))
    ids.push(
      yield* record(token, { kind: "buy", symbol: "OGDC", quantity: 100, price: 208.95, trade_date: "2025-05-26" })
    )
    ids.push(
      yield* record(token, {
        kind: "buy",
        symbol: "HUBC",
        quantity: 100,
        price: 215.42,
        fees: 120,
        trade_date: "2026-05-22"
      })
    )
    ids.push(yield* record(token, { kind: "buy", symbol: "HUBC", quantity: 10, price: 220, trade_date: "2026-05-25" }))
    ids.push(yield* record(token, { kind: "reversal", event_id: ids[3], reason: INJECTED }))
    ids.push(
      yield* record(token, {
        kind: "sell",
        symbol: "HUBC",
        quantity: 40,
        price: 219.5,
        fees: 10,
        trade_date: "2026-05-25"
      })
    )
    ids.push(
      yield* record(token, {
        kind: "dividend",
        symbol: "HUBC",
        trade_date: "2026-06-15",
        book_closure_from: "2026-06-01",
        gross_amount: 300,
        tax_withheld: 45
      })
    )
    return ids
  })

const holdingsOf = (token: string) => Effect.map(get("/v1/me/holdings", bearer(token)), (r) => bodyOf(r).items)
const eventCount = (token: string) => Effect.map(exported(token), (r) => r.text.split("\r\n").length - 2)

const App = SharedTestApp("2026-11-21T05:00:00.000Z")

layer(App, { timeout: 600_000, excludeTestServices: true })("transactions as CSV", (it) => {
  it.effect("the export is one row per event in the columns by hand; a cell starting with = is neutralised", () =>
    Effect.gen(function*() {
      const token = yield* session
      const ids = yield* seed(token)
      const reply = yield* exported(token)
      assert.strictEqual(reply.status, 200, reply.text)
      const e = (i: number) => ids[i]!
      // Text cells quoted, numbers bare; the columns after reason (amount, note, shares, dividend_gross, dividend_tax,
      // dividend_net) empty but for the dividend's figures: Rs 300 gross, 45 withheld, 255 net on 60 shares
      // (100 bought on 2026-05-22, the 10 reversed, 40 sold: 60 held when the 2026-06-01 closure starts).
      const q = (text: string) => (text === "" ? "" : `"${text}"`)
      const none = ["", "", "", "", "", ""]
      assert.strictEqual(
        reply.text,
        [
          EXPORT_HEADER,
          [
            q("2025-07-01"),
            q("tax_status"),
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            q("true"),
            "",
            "",
            "",
            "",
            "",
            "",
            ...none,
            q(e(0))
          ],
          [
            q("2025-05-26"),
            q("buy"),
            q("OGDC"),
            "100",
            "208.95",
            "0",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            ...none,
            q(e(1))
          ],
          [
            q("2026-05-22"),
            q("buy"),
            q("HUBC"),
            "100",
            "215.42",
            "120",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            ...none,
            q(e(2))
          ],
          [
            q("2026-05-25"),
            q("buy"),
            q("HUBC"),
            "10",
            "220",
            "0",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            ...none,
            q(e(3))
          ], // The reason starts with '=': written as text ('=…), quoted, its quotes doubled.
          [
            q("2026-05-25"),
            q("reversal"),
            q("HUBC"),
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            q(e(3)),
            "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\"",
            ...none,
            q(e(4))
          ],
          [
            q("2026-05-25"),
            q("sell"),
            q("HUBC"),
            "40",
            "219.5",
            "10",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            ...none,
            q(e(5))
          ],
          [
            q("2026-06-15"),
            q("dividend"),
            q("HUBC"),
            "",
            "",
            "",
            "",
            "300",
            "45",
            "",
            q("2026-06-01"),
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "60",
            "300",
            "45",
            "255",
            q(e(6))
          ]
        ].map((r) => `${typeof r === "string" ? r : r.join(",")}\r\n`).join("")
      )
      assert.isFalse(
        reply.text.split(/[,\r\n]/u).some((cell) => /^"?[=+\-@\t]/u.test(cell)),
        "no cell starts a formula"
      )
    }))

  it.effect("export, then import into a new portfolio: the same holdings; a second import adds nothing", () =>
    Effect.gen(function*() {
      const source = yield* session
      yield* seed(source)
      const file = (yield* exported(source)).text
      const target = yield* session
      const first = yield* importCsv(target, file)
      assert.strictEqual(first.status, 200, JSON.stringify(first.body))
      assert.deepStrictEqual([first.body["rows"], first.body["recorded"], first.body["skipped"]], [7, 7, 0])
      const holdings = yield* holdingsOf(target)
      assert.deepStrictEqual(holdings, yield* holdingsOf(source))
      // By hand: OGDC 100; HUBC 100 bought, the 10 reversed, 40 sold: 60. Dividend Rs 300 gross, 45 withheld.
      assert.deepStrictEqual(holdings.map((h) => [h.symbol, h.quantity]), [["HUBC", 60], ["OGDC", 100]])
      assert.deepStrictEqual(
        holdings.filter((h) => h.symbol === "HUBC").map((h) => [h.dividends_gross, h.tax_withheld, h.dividends_net]),
        [[300, 45, 255]]
      )
      // The reversal names the target's own copy of the reversed buy.
      const events = first.body["events"] as ReadonlyArray<{ event_id: string; payload: unknown }>
      assert.strictEqual(payloadOf(events[4]!)["reverses"], events[3]!.event_id)
      assert.strictEqual(payloadOf(events[4]!)["reason"], INJECTED, "the apostrophe the export added is dropped")

      const again = yield* importCsv(target, file)
      assert.strictEqual(again.status, 200, JSON.stringify(again.body))
      assert.deepStrictEqual([again.body["recorded"], again.body["skipped"]], [0, 7])
      assert.strictEqual(yield* eventCount(target), 7)
      // Its own export, imported into itself, is skipped too.
      const own = yield* importCsv(target, (yield* exported(target)).text)
      assert.deepStrictEqual([own.body["recorded"], own.body["skipped"]], [0, 7])
    }))

  it.effect("a dry run records nothing and lists every row's error by line and column", () =>
    Effect.gen(function*() {
      const token = yield* session
      const file = csv(
        row("2026-05-22", "buy", "HUBC", "100", "215.42", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-05-22", "buy", "HUBC", "1.5", "215.42", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-05-23", "buy", "HUBC", "5", "215.42", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-05-22", "buy", "ZZZZQ", "5", "1", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-05-25", "sell", "HUBC", "500", "219.5", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-05-25", "split", "HUBC", "5", "", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("", "reversal", "", "", "", "", "", "", "", "", "", "", "", "", "no-such-event", "mistyped", "")
      )
      const plan = yield* importCsv(token, file, "?dry_run=true")
      assert.strictEqual(plan.status, 200, JSON.stringify(plan.body))
      assert.deepStrictEqual([plan.body["dry_run"], plan.body["rows"], plan.body["recorded"]], [true, 7, 0])
      const events = plan.body["events"] as ReadonlyArray<{ line: number; type: string; event_id?: string }>
      assert.deepStrictEqual(events.map((e) => [e.line, e.type, e.event_id]), [[2, "TradeRecorded", undefined]])
      const errors = plan.body["errors"] as ReadonlyArray<{ line: number; column: string; message: string }>
      assert.deepStrictEqual(errors.map((e) => [e.line, e.column]), [
        [3, "quantity"],
        [4, "trade_date"],
        [5, "symbol"],
        [6, "kind"],
        [7, "quantity"],
        [8, "reverses"]
      ])
      assert.include(errors[1]!.message, "not a PSX trading day")
      assert.include(errors[3]!.message, "sell more HUBC than is held")
      assert.include(errors[4]!.message, "not a field of a split row")
      assert.strictEqual(yield* eventCount(token), 0, "a dry run writes nothing")
    }))

  it.effect("one bad row: nothing is recorded, and the 400 names its line and column", () =>
    Effect.gen(function*() {
      const token = yield* session
      const file = csv(
        row("2026-05-22", "buy", "HUBC", "100", "215.42", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-05-25", "sell", "HUBC", "40", "219.5", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-05-25", "sell", "HUBC", "61", "219.5", "", "", "", "", "", "", "", "", "", "", "", "")
      )
      const reply = yield* importCsv(token, file)
      assertFailed(reply, 400, "INVALID_REQUEST", "line 4, column kind")
      assert.strictEqual(yield* eventCount(token), 0, "all rows or none")
      assert.deepStrictEqual(yield* holdingsOf(token), [])
    }))

  it.effect("BOM, CRLF and quoted commas are read as RFC 4180; a reversal may name another row's event_id", () =>
    Effect.gen(function*() {
      const token = yield* session
      const file = "\uFEFF" + csv(
        row("2026-05-22", "buy", "hubc", "100", "\"215.42\"", "0", "", "", "", "", "", "", "", "", "", "", "r1"),
        row("", "reversal", "", "", "", "", "", "", "", "", "", "", "", "", "r1", "\"typo, \"\"wrong\"\" day\"", "r2")
      )
      const reply = yield* importCsv(token, file)
      assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
      const events = reply.body["events"] as ReadonlyArray<{ event_id: string; payload: unknown }>
      assert.deepStrictEqual(events.map((e) => payloadOf(e)["type"]), ["TradeRecorded", "TransactionReversed"])
      assert.strictEqual(payloadOf(events[0]!)["symbol"], "HUBC")
      assert.strictEqual(payloadOf(events[1]!)["reverses"], events[0]!.event_id)
      assert.strictEqual(payloadOf(events[1]!)["reason"], "typo, \"wrong\" day")
    }))

  it.effect("rows are decided with the rows above them: a filer status and a backdated buy change a dividend", () =>
    Effect.gen(function*() {
      const token = yield* session
      const file = csv(
        row("2025-07-01", "tax_status", "", "", "", "", "", "", "", "false", "", "", "", "", "", "", ""),
        row("2026-05-22", "buy", "HUBC", "100", "215.42", "", "", "", "", "", "", "", "", "", "", "", ""),
        row("2026-06-15", "dividend", "HUBC", "", "", "", "2", "", "", "", "2026-06-01", "", "", "", "", "", ""),
        row("2026-05-21", "buy", "HUBC", "50", "214", "", "", "", "", "", "", "", "", "", "", "", "")
      )
      const reply = yield* importCsv(token, file)
      assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
      // By hand: 150 shares held on the last buy date before the 2026-06-01 closure, Rs 2 a share = Rs 300 gross;
      // a non-filer's 30% withheld = Rs 90; net Rs 210.
      const [hubc] = yield* holdingsOf(token)
      assert.deepStrictEqual([hubc?.quantity, hubc?.dividends_gross, hubc?.tax_withheld, hubc?.dividends_net], [
        150,
        300,
        90,
        210
      ])
    }))

  it.effect("each hostile file is a 400 and writes nothing, dry run or not", () =>
    Effect.gen(function*() {
      const token = yield* session
      const buy = row("2026-05-22", "buy", "HUBC", "100", "215.42", "", "", "", "", "", "", "", "", "", "", "", "")
      const hostile: ReadonlyArray<readonly [string, string | Uint8Array, string]> = [
        [
          "formula",
          csv(
            row(
              "2026-05-22",
              "buy",
              `"${INJECTED.replaceAll("\"", "\"\"")}"`,
              "1",
              "1",
              "",
              "",
              "",
              "",
              "",
              "",
              "",
              "",
              "",
              "",
              "",
              ""
            )
          ),
          "line 2, column symbol"
        ],
        [
          "formula in a free-text cell",
          csv(buy, row("", "reversal", "", "", "", "", "", "", "", "", "", "", "", "", "x", "@SUM(1)", "")),
          "formula"
        ],
        ["10 MB", csv() + `${buy}\r\n`.repeat(170_000), "over 2,000,000 bytes"],
        ["ragged row", csv(buy, "2026-05-22,buy,HUBC,1,215.42"), "line 3: the row has 5 cells"],
        ["a byte-order mark past the start", csv(buy, `\uFEFF${buy}`), "byte-order mark"],
        ["a bare CR", `${HEADER}\r${buy}\r`, "carriage return"],
        [
          "a quoted comma in a symbol",
          csv(row("2026-05-22", "buy", "\"HUBC,OGDC\"", "1", "1", "", "", "", "", "", "", "", "", "", "", "", "")),
          "column symbol"
        ],
        [
          "a line break in a quoted cell",
          csv(row("2026-05-22", "buy", "\"HU\r\nBC\"", "1", "1", "", "", "", "", "", "", "", "", "", "", "", "")),
          "line break"
        ],
        [
          "a stray quote",
          csv(row("2026-05-22", "buy", "HU\"BC", "1", "1", "", "", "", "", "", "", "", "", "", "", "", "")),
          "quote"
        ],
        ["an unknown column", `${HEADER},notes\r\n${buy},hello\r\n`, "unknown column \"notes\""],
        ["not UTF-8", Buffer.concat([Buffer.from(csv(buy)), Buffer.from([0x48, 0xff, 0x2c])]), "not UTF-8"]
      ]
      for (const [name, file, mentions] of hostile) {
        assertFailed(yield* importCsv(token, file), 400, "INVALID_REQUEST", mentions)
        assert.strictEqual(yield* eventCount(token), 0, `${name}: nothing written`)
      }
      assertFailed(yield* importCsv(token, hostile[0]![1], "?dry_run=true"), 400, "INVALID_REQUEST", "formula")
    }))

  it.effect("export needs portfolio:read, import portfolio:write", () =>
    Effect.gen(function*() {
      const token = yield* session
      const reader = yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(token))
      const writer = yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(token))
      assertOk(reader, 201)
      assertOk(writer, 201)
      assert.strictEqual((yield* exported(reader.body.key)).status, 200)
      assert.strictEqual((yield* exported(writer.body.key)).status, 403)
      assert.strictEqual((yield* importCsv(reader.body.key, csv())).status, 403)
      assertFailed(
        yield* post("/v1/me/transactions/import", { kind: "buy" }, bearer(token)),
        415,
        "INVALID_REQUEST",
        "send the body as text/csv"
      )
      const empty = yield* importCsv(writer.body.key, csv())
      assert.deepStrictEqual([empty.status, empty.body["rows"], empty.body["recorded"]], [200, 0, 0])
      assert.strictEqual((yield* exported(token)).text, `${EXPORT_HEADER}\r\n`)
    }))
})
