/**
 * The transactions export holds every event kind and imports back as the same
 * ledger; no exported cell starts a formula however a
 * spreadsheet splits it, and the formula prefix undoes exactly. Synthetic test fixtures: the portfolio is made up here, its
 * figures worked by hand. The service's clock starts at 2026-11-21.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { assertOk, bodyOf, get, payloadOf, post, SharedTestApp } from "./support/TestApp.ts"

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

/** A request's status, headers and body text. */
const send = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const response = yield* (yield* HttpClient.HttpClient).execute(request)
    return { status: response.status, headers: response.headers, text: yield* response.text }
  }).pipe(Effect.orDie)
const exported = (token: string) =>
  send(HttpClientRequest.get("/v1/me/transactions/export").pipe(HttpClientRequest.setHeaders(bearer(token))))
const importCsv = (token: string, text: string) =>
  Effect.map(
    send(
      HttpClientRequest.post("/v1/me/transactions/import").pipe(
        HttpClientRequest.setHeaders(bearer(token)),
        HttpClientRequest.bodyText(text, "text/csv")
      )
    ),
    (r) => ({ status: r.status, body: JSON.parse(r.text) as Record<string, unknown> })
  )

/**
 * The cells a spreadsheet reads when it splits lines on `separator`, honouring double quotes (a quote toggles
 * quoting, a doubled quote inside is one quote, the quotes themselves are not shown), as Excel in a `;` locale does.
 */
const cellsSplitOn = (text: string, separator: string) =>
  text.split("\r\n").filter((l) => l !== "").flatMap((line) => {
    const cells: Array<string> = []
    let cell = "", quoted = false
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!
      if (c === "\"" && quoted && line[i + 1] === "\"") {
        cell += "\""
        i++
      } else if (c === "\"") quoted = !quoted
      else if (c === separator && !quoted) {
        cells.push(cell)
        cell = ""
      } else cell += c
    }
    return [...cells, cell]
  })
/** OWASP's list, with a plain (negative) number allowed. */
const startsFormula = (cell: string) => /^[=+\-@\t\r]/u.test(cell) && !/^-?\d+(\.\d+)?$/u.test(cell)

const DDE = "typo;=cmd|' /C calc'!A0;=HYPERLINK(A1)"

/** A portfolio with every kind of event; the ids of the events named later. */
const seed = (token: string) =>
  Effect.gen(function*() {
    yield* record(token, { kind: "tax_status", filer: true, trade_date: "2025-07-01" })
    yield* record(token, { kind: "buy", symbol: "OGDC", quantity: 100, price: 208.95, trade_date: "2025-05-26" })
    yield* record(token, {
      kind: "buy",
      symbol: "HUBC",
      quantity: 100,
      price: 215.42,
      fees: 120,
      trade_date: "2026-05-22"
    })
    const mistaken = yield* record(token, {
      kind: "buy",
      symbol: "HUBC",
      quantity: 10,
      price: 220,
      trade_date: "2026-05-25"
    })
    yield* record(token, { kind: "reversal", event_id: mistaken, reason: "'=1" })
    yield* record(token, {
      kind: "sell",
      symbol: "HUBC",
      quantity: 40,
      price: 219.5,
      fees: 10,
      trade_date: "2026-05-25"
    })
    const typo = yield* record(token, {
      kind: "buy",
      symbol: "OGDC",
      quantity: 1,
      price: 210,
      trade_date: "2026-05-25"
    })
    yield* record(token, { kind: "reversal", event_id: typo, reason: DDE })
    yield* record(token, {
      kind: "dividend",
      symbol: "HUBC",
      trade_date: "2026-06-15",
      book_closure_from: "2026-06-01",
      per_share: 2
    })
    yield* record(token, {
      kind: "dividend",
      symbol: "OGDC",
      trade_date: "2026-06-15",
      book_closure_from: "2026-06-01",
      gross_amount: 300,
      tax_withheld: 45
    })
    yield* record(token, {
      kind: "bonus",
      symbol: "HUBC",
      trade_date: "2026-07-10",
      book_closure_from: "2026-07-01",
      percent: 10
    })
    yield* record(token, { kind: "split", symbol: "OGDC", trade_date: "2026-08-03", numerator: 2, denominator: 1 })
    assertOk(yield* post("/v1/me/donations", { amount: 500, note: "=zakat" }, bearer(token)), 200)
    // A donation dated in an earlier tax year (2026) can only come from a file.
    const earlier = yield* importCsv(
      token,
      "trade_date,kind,amount,note\r\n2026-03-10,donation,250.5,\"''=a gift\"\r\n"
    )
    assert.strictEqual(earlier.status, 200, JSON.stringify(earlier.body))
  })

/**
 * The ledger's events as a set: type, effective date and payload, a reversal naming the content of the event it
 * reverses, sorted by their JSON. An import stores its rows in date order (a reversal after its date's rows), so a
 * portfolio recorded out of date order comes back with the same events in that order. A donation's id is new in each
 * ledger, and an imported one states its `date` (a posted one takes its effective date from its recording): both are
 * left out, the effective date compared.
 */
const ledgerOf = (token: string) =>
  Effect.gen(function*() {
    const items = [...bodyOf(yield* get("/v1/me/ledger?limit=1000", bearer(token))).items]
    const contentOf = (e: (typeof items)[number]): Record<string, unknown> => {
      const { donation_id: _id, date: _date, reverses: _reverses, ...payload } = payloadOf(e)
      return { type: e.type, effective_date: e.effective_date, ...payload }
    }
    const byId = new Map(items.map((e) => [e.event_id, e]))
    return items.map((e): Record<string, unknown> => {
      const reverses = payloadOf(e)["reverses"]
      const target = reverses === undefined ? undefined : byId.get(reverses as string)
      return { ...contentOf(e), ...(target !== undefined ? { reverses: contentOf(target) } : {}) }
    }).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
  })
/** The export's rows with every event id taken out, sorted (an import stores its rows in date order). */
const rowsWithoutIds = (text: string) => text.split("\r\n").map((line) => line.replace(/"[0-9a-f-]{36}"/gu, "")).sort()

const App = SharedTestApp("2026-11-21T05:00:00.000Z")

layer(App, { timeout: 600_000, excludeTestServices: true })("the transactions CSV round trip", (it) => {
  it.effect("the export: every kind, the computed figures, quoted text, a private nosniff download", () =>
    Effect.gen(function*() {
      const token = yield* session
      yield* seed(token)
      const reply = yield* exported(token)
      assert.strictEqual(reply.status, 200, reply.text)
      assert.strictEqual(reply.headers["x-content-type-options"], "nosniff")
      assert.strictEqual(reply.headers["cache-control"], "private, no-store")
      assert.match(reply.headers["content-type"] ?? "", /^text\/csv/u)
      const lines = reply.text.split("\r\n").slice(1, -1)
      assert.deepStrictEqual(lines.map((l) => /^[^,]*,"([a-z_]+)"/u.exec(l)?.[1]), [
        "tax_status",
        "buy",
        "buy",
        "buy",
        "reversal",
        "sell",
        "buy",
        "reversal",
        "dividend",
        "dividend",
        "bonus",
        "split",
        "donation",
        "donation"
      ])
      const cells = (i: number) => lines[i]!.split(",")
      // Columns 19–22 are shares, dividend_gross, dividend_tax, dividend_net (1-based).
      const figures = (i: number) => cells(i).slice(18, 22)
      // HUBC: 100 bought, the 10 reversed, 40 sold: 60 held on the last buy date before 2026-06-01.
      // Rs 2 a share: gross 120.00; a filer's 15%: tax 18.00; net 102.00.
      assert.deepStrictEqual(figures(8), ["60", "120", "18", "102"])
      // OGDC: 100 held (the 1-share buy reversed); the warrant's gross 300 and tax 45: net 255.
      assert.deepStrictEqual(figures(9), ["100", "300", "45", "255"])
      // A 10% bonus on 60 HUBC: 6 shares credited.
      assert.deepStrictEqual(figures(10), ["6", "", "", ""])
      // The donation posted today (2026-11-21), its note's formula neutralised.
      assert.deepStrictEqual(cells(12).slice(0, 2).concat(cells(12).slice(16, 18)), [
        "\"2026-11-21\"",
        "\"donation\"",
        "500",
        "\"'=zakat\""
      ])
      assert.deepStrictEqual(cells(13).slice(16, 18), ["250.5", "\"''=a gift\""])
    }))

  it.effect("opened as a ;-separated or ,-separated file, no cell starts a formula", () =>
    Effect.gen(function*() {
      const token = yield* session
      yield* seed(token)
      const { text } = yield* exported(token)
      assert.include(text, "typo;=cmd", "the DDE reason is in the file")
      for (const separator of [";", ",", "\t"]) {
        const bad = cellsSplitOn(text, separator).filter(startsFormula)
        assert.deepStrictEqual(bad, [], `split on ${JSON.stringify(separator)}`)
      }
    }))

  it.effect("imported into a new portfolio, the export recreates the same ledger; '=1 comes back as '=1", () =>
    Effect.gen(function*() {
      const source = yield* session
      yield* seed(source)
      const file = (yield* exported(source)).text
      const target = yield* session
      const first = yield* importCsv(target, file)
      assert.strictEqual(first.status, 200, JSON.stringify(first.body))
      assert.deepStrictEqual([first.body["rows"], first.body["recorded"], first.body["skipped"]], [14, 14, 0])
      const [before, after] = [yield* ledgerOf(source), yield* ledgerOf(target)]
      assert.deepStrictEqual(after, before)
      assert.deepStrictEqual(
        rowsWithoutIds((yield* exported(target)).text),
        rowsWithoutIds(file),
        "the target's export is the source's"
      )
      assert.deepStrictEqual(
        after.filter((e) => e["reason"] !== undefined).map((e) => e["reason"]).sort(),
        ["'=1", DDE].sort()
      )
      assert.deepStrictEqual(
        after.filter((e) => e.type === "DonationRecorded").map((e) => [e.effective_date, e["amount"], e["note"]])
          .sort(),
        [
          ["2026-03-10", 250.5, "'=a gift"],
          ["2026-11-21", 500, "=zakat"]
        ]
      )
      // The earlier donation stays in tax year 2026 (1 Jul 2025 – 30 Jun 2026).
      const statement = bodyOf(yield* get("/v1/me/tax-statement?tax_year=2026", bearer(target)))
      assert.deepStrictEqual(statement.donations.map((d) => [d.date, d.amount]), [["2026-03-10", 250.5]])
      const verified = bodyOf(yield* get("/v1/me/ledger/verify", bearer(target)))
      assert.deepStrictEqual([verified.ok, verified.events], [true, 14], "the imported ledger verifies")
      // The same file again adds nothing, donations included.
      const again = yield* importCsv(target, file)
      assert.deepStrictEqual([again.status, again.body["recorded"], again.body["skipped"]], [200, 0, 14])
    }))
})
