/**
 * The market board, sector, index and dividend-calendar endpoints (SPEC 4.1
 * and 4.3) and the sector tools, over the real bundled pack imported into
 * the test store and read through the market read model. Figures are checked
 * against the store's own rows, computed independently in SQL. The service's
 * clock starts at NOW (Monday 15 June 2026, 11:00 in Karachi); the pack's
 * latest recorded session is Monday 25 May 2026.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Clock, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { moverRules } from "../domain/market/board/Board.ts"
import * as M from "../domain/market/board/BoardSchemas.ts"
import { MarketStatus } from "../domain/market/calendar/StatusSchema.ts"
import { AnswerCache } from "../src/http/AnswerCache.ts"
import { MarketBoard } from "../src/market/board/Board.ts"
import { apiClient } from "./support/ApiClient.ts"
import { mcpSession } from "./support/McpSession.ts"
import { shiftedClock } from "./support/ShiftedClock.ts"
import { assertFailed, assertOk, bodyOf, get, getText, SharedTestApp, TestApp } from "./support/TestApp.ts"
import { toolRecordOf } from "./support/ToolRecord.ts"

const NOW = "2026-06-15T06:00:00.000Z"
const SESSION = "2026-05-25"

/** Rows the store holds, decoded. */
const query = <S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S,
  text: string,
  params: ReadonlyArray<unknown> = []
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(text, params as Array<any>)).pipe(
    Effect.map((rows) => Schema.decodeUnknownSync(Schema.Array(schema))(rows)),
    Effect.orDie
  )

/** The Karachi date of a stored instant, in SQL. */
const karachiDay = (column: string) => `((${column} AT TIME ZONE 'UTC') + interval '5 hours')::date`

layer(SharedTestApp(NOW), { timeout: 300_000, excludeTestServices: true })(
  "board, sectors, indices and calendar over the pack",
  (it) => {
    it.effect("market status answers from the service clock, with its calendar", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/market/status")
        assertOk(r)
        Schema.decodeUnknownSync(MarketStatus)(r.body)
        assert.deepInclude(r.body, {
          date: "2026-06-15",
          weekday: "Monday",
          state: "open",
          phase: "trading",
          calendar: "published",
          settlement: "T+1"
        })
        assert.strictEqual(r.body.next_trading_day, "2026-06-16")
      }))

    it.effect("breadth adds up to the securities priced on the latest session, as the store's quotes say", () =>
      Effect.gen(function*() {
        const api = yield* apiClient
        const snap = yield* api.board.marketSnapshot({ query: {} })
        const board = yield* api.board.marketBoard({ query: {} })
        const b = board.breadth
        assert.deepStrictEqual(snap.breadth, b, "snapshot and board count the same session")
        assert.strictEqual(b.date, SESSION)
        assert.strictEqual(b.advancers + b.decliners + b.unchanged, b.priced)
        const [sql] = yield* query(
          Schema.Struct({ up: Schema.Int, down: Schema.Int, flat: Schema.Int, lines: Schema.Int }),
          `SELECT count(*) FILTER (WHERE q.volume > 0 AND q.previous_close > 0 AND q.price > 0 AND q.price > q.previous_close)::int AS up,
                count(*) FILTER (WHERE q.volume > 0 AND q.previous_close > 0 AND q.price > 0 AND q.price < q.previous_close)::int AS down,
                count(*) FILTER (WHERE q.volume > 0 AND q.previous_close > 0 AND q.price > 0 AND q.price = q.previous_close)::int AS flat,
                count(*)::int AS lines
         FROM securities s LEFT JOIN quotes q ON q.symbol = s.symbol AND ${karachiDay("q.as_of")} = $1::date
         WHERE s.security_type <> 'debt'`,
          [SESSION]
        )
        assert.deepStrictEqual([b.advancers, b.decliners, b.unchanged], [sql!.up, sql!.down, sql!.flat])
        assert.strictEqual(
          b.priced + b.not_priced,
          sql!.lines,
          "every listed security but debt is either priced that day or not"
        )
        assert.isAbove(b.priced, 400)
        const kse = snap.indices.find((i) => i.code === "KSE100")
        assert.deepInclude(kse, { level: 171725.29, previous: 167844.24, as_of: SESSION })
        assert.strictEqual(snap.freshness.find((d) => d.dataset === "prices_eod")?.age_days, 21)
        assert.includeMembers(snap.sources.map((s) => s.dataset), ["index_levels", "prices_eod"])
      }))

    it.effect("movers: top ten by change and by value, none a rights, preference or debt line or under Rs 1 million", () =>
      Effect.gen(function*() {
        const body = yield* (yield* apiClient).board.marketBoard({ query: {} })
        const m = body.movers
        assert.strictEqual(m.rules, M.moversDescription)
        for (const list of [m.gainers, m.losers, m.most_active]) assert.strictEqual(list.length, 10)
        const all = [...m.gainers, ...m.losers, ...m.most_active]
        const types = new Map(
          (yield* query(
            Schema.Struct({ symbol: Schema.String, security_type: Schema.String }),
            "SELECT symbol, security_type FROM securities"
          ))
            .map((r) => [r.symbol, r.security_type])
        )
        for (const x of all) {
          assert.isAtLeast(x.value_traded, 1_000_000, x.symbol)
          assert.strictEqual(x.value_basis, "volume_x_price")
          assert.notInclude(["right", "preference", "debt"], types.get(x.symbol), x.symbol)
        }
        const sorted = (xs: ReadonlyArray<number>, dir: 1 | -1) =>
          xs.every((v, i) => i === 0 || dir * (xs[i - 1]! - v) >= 0)
        assert.isTrue(sorted(m.gainers.map((x) => x.change_pct), 1) && m.gainers.every((x) => x.change_pct > 0))
        assert.isTrue(sorted(m.losers.map((x) => x.change_pct), -1) && m.losers.every((x) => x.change_pct < 0))
        assert.isTrue(sorted(m.most_active.map((x) => x.value_traded), 1))
        // The session's most traded equity by value, from the store's quotes.
        const [top] = yield* query(
          Schema.Struct({ symbol: Schema.String }),
          `SELECT q.symbol FROM quotes q JOIN securities s USING (symbol)
         WHERE s.security_type = 'equity' AND ${karachiDay("q.as_of")} = $1::date AND q.volume > 0
         ORDER BY q.volume * q.price DESC LIMIT 1`,
          [SESSION]
        )
        assert.strictEqual(m.most_active[0]?.symbol, top!.symbol)
        assert.isAbove(m.excluded.right ?? 0, 0, "rights lines were left out (absent would fail too)")
        assert.isAbove(m.excluded.value_under_1m ?? 0, 0)
        assert.strictEqual(
          body.sector_tone.reduce((n, t) => n + t.priced, 0),
          body.breadth.priced,
          "every priced line sits in one sector"
        )
      }))

    it.effect("the sector list: every sector once, by stable id and PSX code", () =>
      Effect.gen(function*() {
        const body = yield* (yield* apiClient).board.sectors({ query: {} })
        const stored = yield* query(Schema.Struct({ code: Schema.String }), "SELECT code FROM sectors ORDER BY code")
        assert.deepStrictEqual(body.items.map((s) => s.code), stored.map((s) => s.code))
        assert.strictEqual(new Set(body.items.map((s) => s.id)).size, body.items.length)
        assert.deepInclude(body.items, {
          id: "commercial-banks",
          code: "0807",
          name: "COMMERCIAL BANKS",
          constituents: 24
        })
      }))

    it.effect("a sector by code, slug or name is the same answer; an unknown id is 404 on every sector route", () =>
      Effect.gen(function*() {
        const byCode = yield* get("/v1/sectors/0804")
        assertOk(byCode)
        assert.deepStrictEqual((yield* get("/v1/sectors/cement")).body, byCode.body)
        assert.deepStrictEqual((yield* get("/v1/sectors/CEMENT")).body, byCode.body)
        assert.deepStrictEqual(
          (yield* get("/v1/sectors/0807/peers")).body,
          (yield* get("/v1/sectors/Commercial%20Banks/peers")).body
        )
        for (const id of ["nope", "0899", "---"]) {
          for (const suffix of ["", "/peers", "/valuation"]) {
            assertFailed(yield* get(`/v1/sectors/${id}${suffix}`), 404, "DATA_NOT_FOUND")
          }
        }
      }))

    it.effect("sector medians equal the store's medians; an unknown median is absent, never 0", () =>
      Effect.gen(function*() {
        const body = yield* (yield* apiClient).board.sectorBoard({ query: {} })
        assert.strictEqual(body.medians, "median")
        const Row = Schema.Struct({ code: Schema.String, pe: Schema.NullOr(Schema.Finite), n: Schema.Int })
        const stored = yield* query(
          Row,
          // Peers traded in the 20 sessions up to the latest (2026-04-27 to 2026-05-25; domain/market/board/PeerRule.ts): in the
          // pack, a quote is the last recorded close of the line.
          `SELECT s.sector_code AS code, percentile_cont(0.5) WITHIN GROUP (ORDER BY f.pe_ttm)::float8 AS pe, count(f.pe_ttm)::int AS n
         FROM securities s JOIN fundamentals f USING (symbol) JOIN quotes q USING (symbol)
         WHERE s.security_type = 'equity' AND f.pe_ttm > 0 AND ${karachiDay("q.as_of")} >= '2026-04-27'::date
           AND (q.volume IS NULL OR q.volume <> 0)
         GROUP BY s.sector_code`
        )
        for (const code of ["0804", "0807", "0820"]) {
          const item = body.items.find((s) => s.code === code)
          const row = stored.find((r) => r.code === code)!
          assert.strictEqual(item?.median_pe, Math.round(row.pe! * 10_000) / 10_000, code)
          assert.strictEqual(item?.pe_peers, row.n, code)
        }
        for (const s of body.items) {
          assert.strictEqual(s.breadth.advancers + s.breadth.decliners + s.breadth.unchanged, s.breadth.priced, s.code)
          assert.strictEqual(s.breadth.priced + s.breadth.not_priced, s.ordinary_constituents, s.code)
          assert.strictEqual(
            s.pe_peers + s.loss_makers_excluded + s.without_pe + s.not_trading,
            s.ordinary_constituents,
            s.code
          )
          assert.strictEqual("median_pe" in s, s.pe_peers > 0, s.code)
          assert.strictEqual("median_dividend_yield_pct" in s, s.yield_peers > 0, s.code)
          assert.strictEqual("median_change_pct" in s, s.change_peers > 0, s.code)
          if (s.median_pe !== undefined) assert.isAbove(s.median_pe, 0, s.code)
        }
        const jute = body.items.find((s) => s.id === "jute")!
        // JUTE has no P/E, so no median P/E (never a 0); its yield median follows its yield peers (checked above for
        // every sector): in the newest screener snapshot (2026-08-04) none of its lines is priced with a yield.
        assert.deepStrictEqual([jute.pe_peers, "median_pe" in jute], [0, false])
        assert.strictEqual(jute.median_dividend_yield_pct === undefined, jute.yield_peers === 0)
        const etfs = body.items.find((s) => s.code === "0837")!
        assert.deepStrictEqual(
          [etfs.change_peers, "median_change_pct" in etfs],
          [0, false],
          "no ETF traded on the session"
        )
      }))

    it.effect("sector, peers and valuation agree with the sector board", () =>
      Effect.gen(function*() {
        const api = yield* apiClient
        const board = (yield* api.board.sectorBoard({ query: {} })).items.find((s) => s.code === "0807")!
        const sector = yield* api.board.sector({ params: { id: "commercial-banks" }, query: {} })
        const { members, sources, warnings, ...figures } = sector
        assert.deepStrictEqual(figures, board)
        assert.strictEqual(members.length, board.constituents)
        assert.includeMembers(sources.map((s) => s.dataset), ["sectors", "universe", "prices_eod", "screener"])
        const peers = yield* api.board.sectorPeers({ params: { id: "0807" }, query: {} })
        assert.strictEqual(peers.peers.length, board.ordinary_constituents - board.not_trading)
        const caps = peers.peers.flatMap((p) => (p.market_cap !== undefined ? [p.market_cap] : []))
        assert.isTrue(caps.every((c, i) => i === 0 || caps[i - 1]! >= c), "largest market cap first")
        const valuation = yield* api.board.sectorValuation({ params: { id: "0807" }, query: {} })
        for (
          const k of [
            "median_pe",
            "pe_peers",
            "loss_makers_excluded",
            "without_pe",
            "median_dividend_yield_pct",
            "yield_peers",
            "without_yield",
            "not_trading"
          ] as const
        ) {
          assert.strictEqual(valuation[k], board[k], k)
        }
        // Medians over each bank's newest screener snapshot (2026-08-04).
        assert.deepInclude(valuation, { id: "commercial-banks", code: "0807", median_pe: 7.1498 })
        // Both say what the medians leave out, in the same words.
        assert.deepStrictEqual(valuation.warnings, warnings)
      }))

    it.effect("indices: current level; KSE-100 with its 100 recorded constituents, the others say membership is not tracked", () =>
      Effect.gen(function*() {
        const list = yield* (yield* apiClient).board.indices({ query: {} })
        assert.include(list.note, "Only KSE-100 membership is tracked")
        assert.deepInclude(list.items.find((i) => i.code === "KSE100"), {
          constituents_tracked: true,
          level: 171725.29
        })
        const kse = yield* get("/v1/indices/KSE-100")
        assertOk(kse)
        // Membership from the newest record: the screener's index lists on 2026-08-04, which carry no weights.
        assert.deepInclude(kse.body, { code: "KSE100", constituents_tracked: true, constituents_as_of: "2026-08-04" })
        assert.strictEqual(kse.body.constituents.length, 100)
        const stored = yield* query(
          Schema.Struct({ symbol: Schema.String }),
          "SELECT symbol FROM index_membership WHERE index_code = 'KSE100' AND effective_date = '2026-08-04'"
        )
        assert.sameMembers(
          kse.body.constituents.map((c: { symbol: string; weight_pct?: number }) => c.symbol),
          stored.map((r) => r.symbol)
        )
        assert.isTrue(
          kse.body.constituents.every((c: { symbol: string; weight_pct?: number }) => c.weight_pct === undefined),
          "no weight is invented for 2026-08-04"
        )
        for (const other of list.items.filter((i) => i.code !== "KSE100")) {
          const r = bodyOf(yield* get(`/v1/indices/${other.code}`))
          assert.deepStrictEqual([r.constituents_tracked, r.constituents], [false, []])
          assert.include(r.note, "Only KSE-100 membership is tracked")
        }
        assertFailed(yield* get("/v1/indices/KMI30"), 404, "DATA_NOT_FOUND")
      }))

    it.effect("the dividend calendar: open payouts with book closure and last buy date, judged by the clock in Karachi", () =>
      Effect.gen(function*() {
        const r = yield* get("/v1/calendar/dividends")
        assertOk(r)
        assert.strictEqual(r.body.today, "2026-06-15")
        assert.include(r.body.coverage, "BOP, LUCK, MCB, MEBL, TRG")
        assert.include(r.body.coverage, "unknown, not absent")
        const bySymbol = new Map(r.body.items.map((i) => [i.symbol, i]))
        // LUCK closes its books from Tue 18 Aug 2026: a T+1 trade must settle by Mon 17 Aug; Fri 14 Aug is Independence Day.
        assert.deepInclude(bySymbol.get("LUCK"), {
          book_closure_from: "2026-08-18",
          book_closure_to: "2026-08-25",
          last_buy_date: "2026-08-13",
          settles_on: "2026-08-17",
          settlement_cycle: "T+1",
          buying_today_earns: true,
          calendar: "published"
        })
        assert.deepInclude(bySymbol.get("MEBL"), { book_closure_from: "2026-08-19", last_buy_date: "2026-08-17" })
        assert.strictEqual(r.body.items.length, 2, "the earlier recorded payouts have closed")

        const at = (iso: string) =>
          Effect.flatMap(MarketBoard, (b) => b.dividendCalendar).pipe(
            Effect.provideService(Clock.Clock, shiftedClock(iso))
          )
        // Thu 13 Aug, 15:35 in Karachi: trading has ended on LUCK's last buy date.
        const late = yield* at("2026-08-13T10:35:00.000Z")
        const luck = late.items.find((i) => i.symbol === "LUCK")!
        assert.deepStrictEqual([luck.buying_today_earns, luck.buying_next_session_earns, luck.next_trade_date], [
          false,
          false,
          "2026-08-17"
        ])
        assert.isTrue(late.items.find((i) => i.symbol === "MEBL")!.buying_next_session_earns)
        // Fri 21 Aug: MEBL's closure (19–20 Aug) is over, LUCK's (to 25 Aug) is not.
        assert.deepStrictEqual((yield* at("2026-08-21T06:00:00.000Z")).items.map((i) => i.symbol), ["LUCK"])
      }))

    it.effect("the board routes' cached bytes are exactly what the HttpApi pipeline made", () =>
      Effect.gen(function*() {
        const cache = yield* AnswerCache
        for (const path of ["/v1/market/board", "/v1/sectors/board"]) {
          // Through the request gate: no-cache runs the handler in the pipeline, which keeps its answer; then the fast path serves it.
          const full = yield* getText(path, { "cache-control": "no-cache" })
          const fast = yield* getText(path)
          assert.deepStrictEqual([fast.status, full.status], [200, 200])
          assert.strictEqual(fast.text, full.text, path)
          const cached = cache.lookup(path, yield* Clock.currentTimeMillis)
          assert.isDefined(cached, `${path} is cached`)
          assert.strictEqual(new TextDecoder().decode(cached!.body), full.text, path)
        }
      }))

    it.effect("the OpenAPI document describes every route and how each movers exclusion is detected", () =>
      Effect.gen(function*() {
        const doc = bodyOf(yield* get("/openapi.json"))
        const paths = [
          "/v1/market/snapshot",
          "/v1/market/board",
          "/v1/sectors",
          "/v1/sectors/board",
          "/v1/sectors/{id}",
          "/v1/sectors/{id}/peers",
          "/v1/sectors/{id}/valuation",
          "/v1/indices",
          "/v1/indices/{id}",
          "/v1/calendar/dividends"
        ] as const
        for (const p of paths) {
          assert.isString(doc.paths[p]?.get?.summary, p)
          assert.isString(doc.paths[p]?.get?.description, p)
        }
        for (const rule of Object.values(moverRules)) {
          assert.include(doc.paths["/v1/market/board"].get.description, rule)
        }
        assert.notInclude(doc.paths["/v1/market/status"].get.description, "2026 list held")
      }))

    it.effect("the sector tools answer what their routes answer, as structured content and text", () =>
      Effect.gen(function*() {
        const { call, list } = yield* mcpSession
        const names = bodyOf(yield* list).result.tools.map((t) => t.name)
        assert.includeMembers(names, [
          "get_sector",
          "get_sector_peers",
          "get_sector_valuation",
          "get_index",
          "get_market_snapshot"
        ])
        const catalogue = bodyOf(yield* get("/v1/ai/tools")).tools.map((t) => t.name)
        assert.sameMembers(catalogue, names)
        for (
          const [name, id, path] of [
            ["get_sector", "cement", "/v1/sectors/cement"],
            ["get_sector_peers", "0807", "/v1/sectors/0807/peers"],
            ["get_sector_valuation", "jute", "/v1/sectors/jute/valuation"]
          ] as const
        ) {
          const result = yield* call(name, { id })
          const http = toolRecordOf(yield* get(path))
          assert.isFalse(result.isError, name)
          assert.deepStrictEqual(result.structured, http, name)
          assert.deepStrictEqual(result.value, http, name)
        }
        const missing = yield* call("get_sector", { id: "nope" })
        assert.isTrue(missing.isError)
        assert.strictEqual(missing.value.error, "DATA_NOT_FOUND")
        assert.deepStrictEqual(
          (yield* call("get_index", { id: "KSE100", constituents: true })).structured,
          toolRecordOf(yield* get("/v1/indices/KSE100"))
        )
        assert.deepStrictEqual(
          (yield* call("get_market_snapshot", {})).structured,
          toolRecordOf(yield* get("/v1/market/snapshot"))
        )
      }))
  }
)

describe("board routes without the pack", () => {
  layer(TestApp())("an empty store", (it) => {
    it.effect("no session to show is 404; lists are empty; the calendar says payouts are unknown", () =>
      Effect.gen(function*() {
        assertFailed(yield* get("/v1/market/board"), 404, "DATA_NOT_FOUND")
        const snap = bodyOf(yield* get("/v1/market/snapshot"))
        assert.deepStrictEqual([snap.indices, "breadth" in snap], [[], false])
        assert.deepStrictEqual(bodyOf(yield* get("/v1/sectors/board")).items, [])
        assertFailed(yield* get("/v1/sectors/0807"), 404, "DATA_NOT_FOUND")
        assertFailed(yield* get("/v1/indices/KSE100"), 404, "DATA_NOT_FOUND")
        const cal = bodyOf(yield* get("/v1/calendar/dividends"))
        assert.deepStrictEqual(cal.items, [])
        assert.include(cal.coverage, "unknown, not absent")
      }))
  })
})
