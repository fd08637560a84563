/**
 * The analytics, technicals, valuation, screener, comparison and research
 * endpoints and the screen_stocks / compare_stocks tools over the real
 * bundled pack (test store: PGlite, or the real PostgreSQL with
 * DATABASE_URL). The service's clock starts at NOW (Monday 15 June 2026,
 * 11:00 in Karachi), three weeks after the pack's last session (25 May 2026),
 * so the quotes are stale and trailing windows are the same in any year.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { analytics } from "../domain/market/analytics/Analytics.ts"
import { COMPARE_MAX_SYMBOLS } from "../domain/market/analytics/Compare.ts"
import { technicals } from "../domain/market/analytics/Technicals.ts"
import { seriesBasis } from "../domain/market/prices/Restated.ts"
import { MarketReadModel } from "../src/market/readmodel/ReadModel.ts"
import { mcpSession } from "./support/McpSession.ts"
import type { ItemOf, OpenApiOperation, Reply, SuccessOf } from "./support/ReplyTypes.ts"
import {
  assertFailed,
  assertOk,
  assertSucceeded,
  bodyOf,
  get,
  getText,
  post,
  SharedTestApp
} from "./support/TestApp.ts"
import { toolRecordOf } from "./support/ToolRecord.ts"

/** Listed securities: the April listing's 1,029 (/symbols) and the 10 the 2026-08-04 screener shows besides. */
const LISTED = 1029 + 10

const NOW = "2026-06-15T06:00:00.000Z"

/** Every item of a screen, walking `next_cursor` from the first page (GET). */
const walk = (query: string, limit: number) =>
  Effect.gen(function*() {
    const items: Array<ItemOf<"/v1/screener">> = []
    let cursor: string | null = null
    let total = -1, pages = 0
    do {
      const r: Reply<SuccessOf<"/v1/screener">> = yield* get(
        `/v1/screener?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
      )
      assertOk(r)
      if (total >= 0) assert.strictEqual(r.body.total, total, "total is the same on every page")
      total = r.body.total
      items.push(...r.body.items)
      cursor = r.body.next_cursor
      pages++
      assert.isBelow(pages, 500)
    } while (cursor !== null)
    return { items, total }
  })

/** A filter, written out independently of the screener: true, false, or undefined when the figure is unknown. */
type Check = (row: any) => boolean | undefined
const min = (field: string, v: number): Check => (r) => (r[field] === undefined ? undefined : r[field] >= v)
const max = (field: string, v: number): Check => (r) => (r[field] === undefined ? undefined : r[field] <= v)

const SCREENS: ReadonlyArray<{ readonly query: string; readonly checks: ReadonlyArray<Check> }> = [
  { query: "dividend_yield_min=6&pe_max=12", checks: [min("dividend_yield_pct", 6), max("pe_ttm", 12)] },
  { query: "daily_change_max=0&inside_kse100=true", checks: [max("change_pct", 0), (r) => r.inside_kse100 === true] },
  // A line with no recorded sector is unknown for a sector filter, not outside it.
  {
    query: "market_cap_min=50000000000&sectors=CEMENT,0807",
    checks: [
      min("market_cap", 5e10),
      (r) =>
        r.sector === undefined && r.sector_code === undefined
          ? undefined
          : ["CEMENT", "0807"].includes(r.sector) || r.sector_code === "0807" || r.sector?.toUpperCase() === "CEMENT"
    ]
  },
  {
    query: "drawdown_5d_min=3&drawdown_20d_min=10&drawdown_mode=all&security_types=equity",
    checks: [min("drawdown_5d_pct", 3), min("drawdown_20d_pct", 10), (r) => r.security_type === "equity"]
  },
  {
    query: "min_avg_value_traded_30d=10000000&free_float_min_pct=30&inside_kse100=false",
    checks: [min("avg_value_traded_30d", 1e7), min("free_float_pct", 30), (r) => r.inside_kse100 === false]
  },
  {
    query: "exclude_ex_dividend=true&pe_min=5&pe_max=8",
    checks: [(r) => (r.ex_dividend === null ? undefined : r.ex_dividend === false), min("pe_ttm", 5), max("pe_ttm", 8)]
  }
]

/** Every query parameter of the screener set at once (the benchmark's request). */
export const ALL_FILTERS =
  "dividend_yield_min=2&daily_change_max=5&daily_change_min=-10&drawdown_5d_min=0&drawdown_20d_min=0" +
  "&drawdown_mode=any&pe_min=1&pe_max=40&market_cap_min=1000000000&market_cap_max=10000000000000&min_value_traded=0" +
  "&min_avg_volume_30d=0&min_avg_value_traded_30d=0&free_float_min_pct=1&free_float_min_shares=1&sectors=CEMENT,0807,FERTILIZER" +
  "&inside_kse100=true&security_types=equity&exclude_ex_dividend=true&limit=50"

layer(SharedTestApp(NOW), { timeout: 300_000, excludeTestServices: true })(
  "analytics endpoints over the bundled pack",
  (it) => {
    it.effect("analytics and technicals are the pure computations over the symbol's served series, with sources", () =>
      Effect.gen(function*() {
        const snapshot = yield* Effect.flatMap(MarketReadModel, (m) => m.snapshot)
        for (const symbol of ["HUBC", "SYS", "MEBL", "LUCK"]) {
          const data = snapshot.symbols.get(symbol)!
          const q = data.quote!
          const actions = data.actions.map((a) => ({ kind: a.kind, xd_date: a.xd_date, ratio: a.ratio }))
          const a = yield* get(`/v1/stocks/${symbol}/analytics`)
          assertOk(a)
          const { sources, price_series, ...figures } = a.body
          // The served figures carry the series they rest on (domain/market/prices/Restated.ts); the pure computation does not.
          assert.deepStrictEqual(
            price_series,
            JSON.parse(JSON.stringify(seriesBasis(data.prices!.series, data.restatement))),
            symbol
          )
          const expected = analytics(data.prices!, {
            quote: {
              price: q.price,
              previous_close: q.previous_close,
              change_pct: q.change_pct,
              volume: q.volume,
              as_of: q.as_of
            },
            actions
          })
          const want = JSON.parse(JSON.stringify(expected))
          assert.exists(price_series)
          if (price_series.restated_by_source === true && want.liquidity_30d !== undefined) {
            // On a series restated for a split, value traded (restated close × unrestated volume) is withheld and said so.
            delete want.liquidity_30d.value_traded
            delete want.liquidity_30d.avg_value_traded
            assert.include(figures.unavailable.map((u) => u.figure), "liquidity_30d.value_traded", symbol)
            figures.unavailable = figures.unavailable.filter((u) => u.figure !== "liquidity_30d.value_traded")
          }
          assert.deepStrictEqual(figures, want, symbol)
          assert.isAbove(sources.length, 0)
          assert.strictEqual(a.body.as_of, "2026-05-25", `${symbol}: the pack's last session`)
          const t = yield* get(`/v1/stocks/${symbol.toLowerCase()}/technicals`)
          assertOk(t)
          const { sources: ts, price_series: tps, ...tech } = t.body
          assert.deepStrictEqual(tps, price_series, symbol)
          assert.deepStrictEqual(tech, JSON.parse(JSON.stringify(technicals(data.prices!, actions))), symbol)
          assert.isTrue(tech.labels.every((l: string) => !/buy|sell/u.test(l)), "never a rating")
          assert.isAbove(ts.length, 0)
          // The full-company payload carries the same technicals.
          const stock = yield* get(`/v1/stocks/${symbol}`)
          assertSucceeded(stock)
          assert.deepStrictEqual<unknown>(
            stock.body.technicals,
            { ...tech, price_series: tps },
            `${symbol} /v1/stocks technicals`
          )
        }
        assertFailed(yield* get("/v1/stocks/ZZZZQ/analytics"), 404, "DATA_NOT_FOUND", "ZZZZQ")
        assertFailed(yield* get("/v1/stocks/H$UBC/technicals"), 400, "INVALID_SYMBOL")
      }))

    it.effect("valuation: P/E, yield and market cap with as-of, basis and position against the sector medians", () =>
      Effect.gen(function*() {
        const v = yield* get("/v1/stocks/LUCK/valuation")
        assertOk(v)
        const m = v.body.sector_medians
        assert.exists(m)
        assert.strictEqual(m.sector, "CEMENT")
        assert.isAbove(m.pe_peers, 3)
        const figures = { pe_ttm: v.body.pe_ttm, market_cap: v.body.market_cap }
        for (const [k, f] of Object.entries(figures)) {
          assert.exists(f, k)
          assert.isString(f.as_of, k)
          assert.isString(f.basis, k)
          assert.include(["below", "at", "above"], f.position, k)
          assert.exists(f.sector_median, k)
          assert.strictEqual(
            f.position,
            Math.abs(f.value - f.sector_median) <= Math.abs(f.sector_median) / 100
              ? "at"
              : f.value < f.sector_median
              ? "below"
              : "above"
          )
        }
        assert.isAbove(v.body.sources.length, 0)
        // Medians are over the sector's equities: the LUCK and DGKC answers carry the same cement medians.
        const d = yield* get("/v1/stocks/DGKC/valuation")
        assertSucceeded(d)
        assert.deepStrictEqual(d.body.sector_medians, m)
        assertFailed(yield* get("/v1/stocks/ZZZZQ/valuation"), 404, "DATA_NOT_FOUND")
      }))

    it.effect("GET and POST screener give identical bodies for equal filters; unknown fields and wrong types are 400 naming the field", () =>
      Effect.gen(function*() {
        const g = yield* get(
          "/v1/screener?dividend_yield_min=4&pe_max=15&sectors=CEMENT,0807&inside_kse100=true&drawdown_mode=any&limit=3"
        )
        const p = yield* post("/v1/screener", {
          dividend_yield_min: 4,
          pe_max: 15,
          sectors: ["CEMENT", "0807"],
          inside_kse100: true,
          drawdown_mode: "any",
          limit: 3
        })
        assertOk(g)
        assert.deepStrictEqual(p.body, g.body)
        assert.isAbove(g.body.total, 0)
        // A cursor from GET continues the same screen on POST.
        if (g.body.next_cursor !== null) {
          const g2 = yield* get(
            `/v1/screener?dividend_yield_min=4&pe_max=15&sectors=CEMENT,0807&inside_kse100=true&drawdown_mode=any&limit=3&cursor=${
              encodeURIComponent(g.body.next_cursor)
            }`
          )
          const p2 = yield* post("/v1/screener", {
            dividend_yield_min: 4,
            pe_max: 15,
            sectors: ["CEMENT", "0807"],
            inside_kse100: true,
            drawdown_mode: "any",
            limit: 3,
            cursor: g.body.next_cursor
          })
          assert.deepStrictEqual(p2.body, g2.body)
        }
        const every = yield* get(`/v1/screener?${ALL_FILTERS}`)
        const everyPost = yield* post(
          "/v1/screener",
          Object.fromEntries(
            [...new URLSearchParams(ALL_FILTERS).entries()].map((
              [k, v]
            ) => [
              k,
              k === "sectors" || k === "security_types"
                ? v.split(",")
                : k === "drawdown_mode"
                ? v
                : v === "true"
                ? true
                : Number(v)
            ])
          )
        )
        assertOk(every)
        assert.deepStrictEqual(everyPost.body, every.body)
        assert.deepStrictEqual(Object.keys(every.body.unknown_by_filter).sort(), [
          "daily_change_max",
          "daily_change_min",
          "dividend_yield_min",
          "drawdown_any",
          "exclude_ex_dividend",
          "free_float_min_pct",
          "free_float_min_shares",
          "inside_kse100",
          "market_cap_max",
          "market_cap_min",
          "min_avg_value_traded_30d",
          "min_avg_volume_30d",
          "min_value_traded",
          "pe_max",
          "pe_min",
          "sectors",
          "security_types"
        ])

        assertFailed(yield* get("/v1/screener?pe_maxx=3"), 400, "INVALID_REQUEST", "pe_maxx")
        assertFailed(yield* get("/v1/screener?pe_max=abc"), 400, "INVALID_REQUEST", "pe_max")
        assertFailed(yield* get("/v1/screener?inside_kse100=maybe"), 400, "INVALID_REQUEST", "inside_kse100")
        assertFailed(yield* get("/v1/screener?limit=0"), 400, "INVALID_REQUEST", "limit")
        assertFailed(yield* post("/v1/screener", { pe_maxx: 3 }), 400, "INVALID_REQUEST", "pe_maxx")
        assertFailed(yield* post("/v1/screener", { pe_max: "3" }), 400, "INVALID_REQUEST", "pe_max")
        assertFailed(yield* post("/v1/screener", { sectors: "CEMENT" }), 400, "INVALID_REQUEST", "sectors")
        assertFailed(yield* get("/v1/screener?cursor=not-a-cursor"), 400, "INVALID_REQUEST", "cursor")
        // A cursor of one screen is refused by another.
        const a = yield* get("/v1/screener?pe_max=20&limit=1")
        assertSucceeded(a)
        assert.exists(a.body.next_cursor)
        assertFailed(
          yield* get(`/v1/screener?pe_max=21&limit=1&cursor=${encodeURIComponent(a.body.next_cursor)}`),
          400,
          "INVALID_REQUEST",
          "cursor"
        )
      }))

    it.effect("every returned security satisfies every filter; no excluded security with known values does; paging walks to exactly total", () =>
      Effect.gen(function*() {
        const universe = yield* walk("", 200)
        assert.strictEqual(universe.total, LISTED, "no filter: every listed security")
        assert.strictEqual(universe.items.length, LISTED)
        const bySymbol = new Map(universe.items.map((r) => [r.symbol, r]))
        let matchedSomewhere = 0
        for (const { checks, query } of SCREENS) {
          const page = yield* get(`/v1/screener?${query}&limit=1`)
          assertSucceeded(page)
          const { items, total } = yield* walk(query, 7)
          assert.strictEqual(items.length, total, `${query}: paging walks to exactly total`)
          assert.strictEqual(new Set(items.map((r) => r.symbol)).size, total, `${query}: no repeats`)
          assert.deepStrictEqual(
            items.map((r) => r.symbol),
            [...items.map((r) => r.symbol)].sort(),
            `${query}: ascending`
          )
          const returned = new Set(items.map((r) => r.symbol))
          let unknown = 0
          for (const row of bySymbol.values()) {
            const verdicts = checks.map((c) => c(row))
            if (returned.has(row.symbol)) {
              assert.isTrue(verdicts.every((v) => v === true), `${query}: ${row.symbol} returned but fails a filter`)
              assert.deepStrictEqual(items.find((r) => r.symbol === row.symbol), row, "the same figures as unfiltered")
            } else if (verdicts.every((v) => v !== undefined)) {
              assert.isTrue(
                verdicts.includes(false),
                `${query}: ${row.symbol} has known values, passes every filter, yet was left out`
              )
            } else if (!verdicts.includes(false)) unknown++
          }
          assert.strictEqual(page.body.left_out_unknown, unknown, `${query}: left out for unknown data`)
          matchedSomewhere += total
        }
        assert.isAbove(matchedSomewhere, 20, "the screens are not all empty")
        const every = yield* get(`/v1/screener?${ALL_FILTERS}`)
        assertOk(every)
        assert.strictEqual(
          every.body.items.length,
          Math.min(every.body.total, 50),
          "the first page holds min(total, limit) rows"
        )
        assert.isAtMost(
          every.body.total + every.body.left_out_unknown,
          universe.total,
          "a security is matched or left out, never both"
        )
        assert.isAbove(
          every.body.left_out_unknown,
          0,
          "with every filter set, some securities are left out for unknown figures"
        )
      }))

    it.effect("compare: head to head for two, winners per metric for three or more; clear errors", () =>
      Effect.gen(function*() {
        const two = yield* get("/v1/compare?symbols=HUBC,kapco")
        assertOk(two)
        assert.deepStrictEqual(two.body.symbols, ["HUBC", "KAPCO"])
        assert.strictEqual(two.body.mode, "head_to_head")
        assert.exists(two.body.head_to_head)
        const wins = two.body.head_to_head.measures.filter((m) => m.outcome === "win")
        assert.deepStrictEqual(
          two.body.head_to_head.totals.map((t) => t.points),
          ["HUBC", "KAPCO"].map((s) => wins.filter((m) => m.winner === s).length)
        )
        const screen = yield* walk("", 200)
        const hubc = screen.items.find((r) => r.symbol === "HUBC")
        assert.exists(hubc)
        const pe = two.body.head_to_head.measures.find((m) => m.measure === "pe_ttm")
        assert.exists(pe)
        assert.strictEqual(pe.values[0]!.value, hubc.pe_ttm, "measures are the screener's figures")
        const three = yield* get("/v1/compare?symbols=LUCK,DGKC,MLCF")
        assertSucceeded(three)
        assert.strictEqual(three.body.mode, "per_metric")
        assert.exists(three.body.metrics)
        assert.strictEqual(three.body.metrics.length, 7)
        assert.isAbove(three.body.sources.length, 0)
        const many = ["HUBC", "KAPCO", "LUCK", "DGKC", "MLCF", "OGDC", "PPL", "MEBL", "MCB", "UBL", "ENGRO"]
        assert.strictEqual(many.length, COMPARE_MAX_SYMBOLS + 1)
        assertFailed(
          yield* get(`/v1/compare?symbols=${many.join(",")}`),
          400,
          "INVALID_REQUEST",
          `at most ${COMPARE_MAX_SYMBOLS}`
        )
        assert.strictEqual(
          (yield* get(`/v1/compare?symbols=${many.slice(0, COMPARE_MAX_SYMBOLS).join(",")}`)).status,
          200
        )
        assertFailed(yield* get("/v1/compare?symbols=HUBC"), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/compare?symbols=HUBC,hubc"), 400, "INVALID_REQUEST", "HUBC")
        assertFailed(yield* get("/v1/compare?symbols=HUBC,ZZZZQ"), 404, "DATA_NOT_FOUND", "ZZZZQ")
        assertFailed(yield* get("/v1/compare?symbols=HUBC,H$B"), 400, "INVALID_SYMBOL")
        assertFailed(yield* get("/v1/compare"), 400, "INVALID_REQUEST", "symbols")
      }))

    it.effect("the research package: one body at three paths, with quote staleness, valuation, caveats and sources", () =>
      Effect.gen(function*() {
        const [a, b, c] = [
          yield* getText("/v1/stocks/SYS/research"),
          yield* getText("/v1/stocks/SYS/rh"),
          yield* getText("/v1/ai/research/SYS")
        ]
        assertOk(a)
        // generated_at starts the symbol's 5-minute window; in the unlikely case it turned over between the requests, ask again.
        const again = JSON.parse(a.text).generated_at === JSON.parse(c.text).generated_at
          ? undefined
          : yield* getText("/v1/stocks/SYS/research")
        assert.strictEqual(b.text, a.text)
        assert.strictEqual(c.text, again?.text ?? a.text)
        const r = JSON.parse(a.text)
        assert.strictEqual(r.profile.symbol, "SYS")
        assert.strictEqual(r.quote.status, "delayed")
        assert.isTrue(r.quote.stale, "the pack's last quote is three weeks old at NOW")
        assert.strictEqual(
          r.quote_age_seconds,
          Math.floor((Date.parse(r.generated_at) - Date.parse(r.quote.as_of)) / 1000)
        )
        assert.isAtMost(
          Math.abs(Date.parse(r.generated_at) - Date.parse(NOW)),
          10 * 60_000,
          "dated near the service's clock"
        )
        const codes = r.caveats.map((x: any) => x.code)
        assert.includeMembers(codes, ["no_balance_sheet", "unadjusted_prices", "quote_stale"])
        assert.strictEqual(r.analytics.week52.basis === "close", codes.includes("close_based_52w_range"))
        const { sources: _, ...valuation } = bodyOf(yield* get("/v1/stocks/SYS/valuation"))
        assert.deepStrictEqual(r.valuation, valuation, "the valuation endpoint's figures")
        assert.isAtMost(r.filings.length, 10)
        assert.strictEqual(r.dividends.symbol, "SYS")
        assert.isTrue(r.sources.every((s: any) => typeof s.as_of === "string" && typeof s.dataset === "string"))
        assert.includeMembers(r.sources.map((s: any) => s.dataset), [r.quote.source.dataset])
        assertFailed(yield* get("/v1/stocks/ZZZZQ/research"), 404, "DATA_NOT_FOUND")
        assertFailed(yield* get("/v1/ai/research/ZZZZQ"), 404, "DATA_NOT_FOUND")
      }))

    it.effect("encoded screener answers are byte for byte the HttpApi encoding, cursors included", () =>
      Effect.gen(function*() {
        const first = yield* get("/v1/screener?pe_max=15&limit=5")
        assertSucceeded(first)
        assert.exists(first.body.next_cursor)
        const urls = [
          `/v1/screener?${ALL_FILTERS}`,
          "/v1/screener?pe_max=15&limit=5",
          `/v1/screener?pe_max=15&limit=5&cursor=${encodeURIComponent(first.body.next_cursor)}`,
          "/v1/screener?sectors=CEMENT%2C0807&inside_kse100=null&limit=200",
          ...SCREENS.map((x) => `/v1/screener?${x.query}`)
        ]
        for (const url of urls) {
          const fast = yield* getText(url)
          const again = yield* getText(url)
          const full = yield* getText(url, { "cache-control": "no-cache" })
          assertOk(fast, 200, url)
          assert.strictEqual(fast.text, full.text, url)
          assert.strictEqual(again.text, full.text, url)
        }
        // Repeated parameters and rejections are left to the HttpApi pipeline, with the same answers.
        const repeated = yield* get("/v1/screener?sectors=CEMENT&sectors=0807&limit=200")
        assert.deepStrictEqual(repeated.body, (yield* get("/v1/screener?sectors=CEMENT,0807&limit=200")).body)
        assertFailed(yield* get("/v1/screener?pe_maxx=1"), 400, "INVALID_REQUEST", "pe_maxx")
      }))

    it.effect("the tool endpoint: screen_stocks and compare_stocks answer the HTTP bodies", () =>
      Effect.gen(function*() {
        const { call, list: listTools } = yield* mcpSession
        const list = yield* listTools
        assertSucceeded(list)
        const names = list.body.result.tools.map((t) => t.name)
        assert.includeMembers(names, ["screen_stocks", "compare_stocks", "get_company", "get_quote"])
        const catalogue = yield* get("/v1/ai/tools")
        assertSucceeded(catalogue)
        assert.includeMembers(catalogue.body.tools.map((t) => t.name), ["screen_stocks", "compare_stocks"])
        const args = { dividend_yield_min: 5, sectors: ["CEMENT", "FERTILIZER", "0807"], limit: 4 }
        const screen = yield* call("screen_stocks", args)
        assert.isFalse(screen.isError, JSON.stringify(screen.value))
        assert.deepStrictEqual(screen.value, toolRecordOf(yield* post("/v1/screener", args)))
        assert.deepStrictEqual(screen.structured, screen.value)
        const cmp = yield* call("compare_stocks", { symbols: "HUBC,KAPCO" })
        assert.deepStrictEqual(cmp.value, toolRecordOf(yield* get("/v1/compare?symbols=HUBC,KAPCO")))
        const dup = yield* call("compare_stocks", { symbols: "HUBC,HUBC" })
        assert.isTrue(dup.isError)
        assert.strictEqual(dup.value.error, "INVALID_REQUEST")
        const unknown = yield* call("compare_stocks", { symbols: "HUBC,ZZZZQ" })
        assert.strictEqual(unknown.value.error, "DATA_NOT_FOUND")
        assert.strictEqual(unknown.value.symbol, "ZZZZQ")
      }))

    it.effect("the OpenAPI document describes every new route with a summary and its limits", () =>
      Effect.gen(function*() {
        const doc = bodyOf(yield* get("/openapi.json"))
        for (
          const [path, method] of [
            ["/v1/stocks/{symbol}/analytics", "get"],
            ["/v1/stocks/{symbol}/valuation", "get"],
            ["/v1/stocks/{sym}/technicals", "get"],
            ["/v1/screener", "get"],
            ["/v1/screener", "post"],
            ["/v1/compare", "get"],
            ["/v1/stocks/{symbol}/research", "get"],
            ["/v1/stocks/{symbol}/rh", "get"],
            ["/v1/ai/research/{symbol}", "get"]
          ] as const
        ) {
          const item: Partial<Record<"get" | "post", OpenApiOperation>> = doc.paths[path]
          const op = item[method]
          assert.isDefined(op, `${method} ${path}`)
          assert.isString(op.summary)
          assert.isAbove(op.description.length, 100)
        }
        assert.include(doc.paths["/v1/compare"].get.description, `${COMPARE_MAX_SYMBOLS} symbols`)
        const params = (doc.paths["/v1/screener"].get.parameters ?? []).map((p) => p.name)
        assert.includeMembers(params, [
          "dividend_yield_min",
          "daily_change_max",
          "drawdown_mode",
          "pe_min",
          "pe_max",
          "min_value_traded",
          "exclude_ex_dividend",
          "market_cap_min",
          "free_float_min_pct",
          "security_types",
          "sectors",
          "inside_kse100",
          "limit",
          "cursor"
        ])
        Schema.decodeUnknownSync(Schema.Struct({ openapi: Schema.String }))(doc)
      }))
  }
)
