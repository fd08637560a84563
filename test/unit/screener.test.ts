/**
 * The screener: GET-query and POST-body decoding give the same request;
 * unknown fields and wrong types are rejected naming the field; filters on
 * the exchange's screener snapshot of 2026-04-08 (test/fixtures/screener)
 * against hand-listed results; a property test over the real rows plus
 * generated ones (SYNTHETIC, for drawdowns and ex-dividend states the
 * snapshot lacks): every returned security satisfies every filter, no
 * excluded security with known values does, and paging walks to exactly
 * `total`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { type ScreenFigures, SecurityType } from "../../domain/market/analytics/AnalyticsSchemas.ts"
import { screen } from "../../domain/market/analytics/Screener.ts"
import {
  decodeScreenBody,
  decodeScreenQuery,
  SCREENER_MAX_LIMIT,
  type ScreenRequest,
  type ScreenRequestError
} from "../../domain/market/analytics/ScreenRequest.ts"
import { snapshotFigures } from "../support/ScreenerFixture.ts"

const rows = snapshotFigures()
const ok = (r: Result.Result<ScreenRequest, ScreenRequestError>): ScreenRequest =>
  Result.match(r, { onSuccess: (q) => q, onFailure: (e) => assert.fail(e.message) })
const failure = (r: Result.Result<ScreenRequest, ScreenRequestError>): string =>
  Result.match(r, { onSuccess: () => assert.fail("expected a rejection"), onFailure: (e) => e.message })
const all = (req: ScreenRequest) => screen(rows, { ...req, limit: SCREENER_MAX_LIMIT })
const symbols = (req: ScreenRequest) => all(req).items.map((r) => r.symbol)

describe("request decoding", () => {
  const body = {
    dividend_yield_min: 3,
    daily_change_max: 0,
    daily_change_min: -5.5,
    drawdown_5d_min: 2,
    drawdown_20d_min: 5,
    drawdown_mode: "all",
    pe_max: 12,
    pe_min: 2,
    market_cap_min: 1e9,
    market_cap_max: 1e12,
    min_value_traded: 1000000,
    min_avg_volume_30d: 5000,
    min_avg_value_traded_30d: 100,
    free_float_min_pct: 10,
    free_float_min_shares: 1000,
    sectors: ["CEMENT", "0807"],
    inside_kse100: true,
    security_types: ["equity", "etf"],
    exclude_ex_dividend: false,
    limit: 20,
    cursor: "abc"
  }
  const query = {
    dividend_yield_min: "3",
    daily_change_max: "0",
    daily_change_min: "-5.5",
    drawdown_5d_min: "2",
    drawdown_20d_min: "5",
    drawdown_mode: "all",
    pe_max: "12",
    pe_min: "2",
    market_cap_min: "1e9",
    market_cap_max: "1000000000000",
    min_value_traded: "1000000",
    min_avg_volume_30d: "5000",
    min_avg_value_traded_30d: "100",
    free_float_min_pct: "10",
    free_float_min_shares: "1000",
    sectors: "CEMENT, 0807",
    inside_kse100: "true",
    security_types: "equity,etf",
    exclude_ex_dividend: "false",
    limit: "20",
    cursor: "abc"
  }

  it("GET query strings and the POST body decode to the same request, and give the same result", () => {
    const fromBody = ok(decodeScreenBody(body)), fromQuery = ok(decodeScreenQuery(query))
    assert.deepStrictEqual(fromQuery, fromBody)
    assert.deepStrictEqual(screen(rows, fromQuery), screen(rows, fromBody))
    // a repeated parameter is a list too
    assert.deepStrictEqual(
      ok(decodeScreenQuery({ sectors: ["CEMENT", "0807"] })),
      ok(decodeScreenBody({ sectors: ["CEMENT", "0807"] }))
    )
    assert.deepStrictEqual(ok(decodeScreenQuery({ inside_kse100: "null" })), { inside_kse100: null })
    assert.deepStrictEqual(ok(decodeScreenBody({ inside_kse100: null })), { inside_kse100: null })
    assert.deepStrictEqual(ok(decodeScreenQuery({})), {})
    // an empty list is no filter
    assert.deepStrictEqual(ok(decodeScreenQuery({ sectors: "" })), { sectors: [] })
    assert.strictEqual(screen(rows, { sectors: [], limit: 1 }).total, rows.length)
  })

  it("unknown fields and wrong types are rejected, naming the field", () => {
    assert.strictEqual(failure(decodeScreenBody({ pe_maxx: 3 })), "pe_maxx: unknown field")
    assert.strictEqual(failure(decodeScreenQuery({ pe_max: "abc" })), "pe_max: Expected a number")
    assert.deepStrictEqual(
      Result.match(decodeScreenBody({ limit: 500 }), { onSuccess: () => undefined, onFailure: (e) => e }),
      { field: "limit", message: "limit: Expected a value between 1 and 200" }
    )
    assert.include(failure(decodeScreenQuery({ sector: "CEMENT" })), "sector")
    assert.include(failure(decodeScreenBody({ pe_max: "3" })), "pe_max")
    assert.include(failure(decodeScreenBody({ inside_kse100: "yes" })), "inside_kse100")
    assert.include(failure(decodeScreenBody({ sectors: "CEMENT" })), "sectors")
    assert.include(failure(decodeScreenQuery({ pe_max: "abc" })), "pe_max")
    assert.include(failure(decodeScreenQuery({ pe_max: "" })), "pe_max")
    assert.include(failure(decodeScreenQuery({ dividend_yield_min: "NaN" })), "dividend_yield_min")
    // a bound beyond any figure is refused, not read as no filter
    assert.strictEqual(
      failure(decodeScreenQuery({ pe_max: "1e302" })),
      "pe_max: Expected a value between -1000000000000000 and 1000000000000000"
    )
    assert.include(failure(decodeScreenBody({ market_cap_min: -1e16 })), "market_cap_min")
    assert.deepStrictEqual(ok(decodeScreenQuery({ market_cap_max: "1e15" })), { market_cap_max: 1e15 })
    assert.include(failure(decodeScreenQuery({ exclude_ex_dividend: "1" })), "exclude_ex_dividend")
    assert.include(failure(decodeScreenQuery({ security_types: "equity,stock" })), "security_types")
    assert.include(failure(decodeScreenQuery({ limit: "0" })), "limit")
    assert.include(failure(decodeScreenQuery({ limit: String(SCREENER_MAX_LIMIT + 1) })), "limit")
    assert.include(failure(decodeScreenBody({ limit: 2.5 })), "limit")
    assert.include(failure(decodeScreenBody({ drawdown_mode: "both" })), "drawdown_mode")
  })
})

describe("filters on the 2026-04-08 snapshot slice (71 lines)", () => {
  const noSector = rows.filter((r) => r.sector === undefined && r.sector_code === undefined)
  it("CEMENT inside the KSE-100, by name or by code", () => {
    const expected = ["BWCL", "CHCC", "DGKC", "FCCL", "KOHC", "LUCK", "MLCF", "PIOC", "POWER"]
    assert.deepStrictEqual(symbols({ sectors: ["cement"], inside_kse100: true }), expected)
    assert.deepStrictEqual(symbols({ sectors: ["0804"], inside_kse100: true }), expected)
    assert.strictEqual(all({ sectors: ["0804"], inside_kse100: false }).total, 23 - 9)
    assert.strictEqual(all({ sectors: ["0804"], inside_kse100: null }).total, 23)
  })

  it("pe_max=5 in cement: KOHC 4.14, MLCF 4.87, THCCL 2.93; the 8 without a P/E are left out as unknown", () => {
    const r = all({ sectors: ["CEMENT"], pe_max: 5 })
    assert.deepStrictEqual(r.items.map((x) => x.symbol), ["KOHC", "MLCF", "THCCL"])
    // 8 cement lines without a P/E, plus the 4 rights lines without a sector (sector unknown)
    assert.strictEqual(noSector.length, 4)
    assert.strictEqual(r.left_out_unknown, 23 - 15 + 4)
    assert.strictEqual(
      r.unknown_by_filter["pe_max"],
      8 + rows.filter((x) => x.sector_code !== "0804" && x.pe_ttm === undefined).length
    )
  })

  it("daily_change_max=0 means at or below the previous close (a 0.000% change matches)", () => {
    const r = symbols({ daily_change_max: 0 })
    assert.deepStrictEqual(r, [
      "EXTR",
      "FDMF",
      "FLYNGR1",
      "GTECHBR",
      "HSMPSR",
      "INMF",
      "JVDCR1",
      "LPCL",
      "NIB",
      "PAKCEM",
      "PGF",
      "PIF",
      "PUDF",
      "SILK",
      "SMBL",
      "SMBLCPSA",
      "ZELP"
    ])
    assert.include(r, "PAKCEM") // change 0
  })

  it("banks yielding at least 8%: unknown yields are left out and counted, not treated as 0", () => {
    const r = all({ sectors: ["COMMERCIAL BANKS"], dividend_yield_min: 8 })
    assert.deepStrictEqual(r.items.map((x) => x.symbol), [
      "ABL",
      "BAFL",
      "BAHL",
      "BIPL",
      "BOK",
      "HMB",
      "MCB",
      "NBP",
      "SCBPL",
      "UBL"
    ])
    // BML JSBL NIB SBL SILK SMBL SMBLCPSA SMBLCPSB, plus the 4 lines without a sector
    assert.strictEqual(r.left_out_unknown, 8 + 4)
  })

  it("exclude_ex_dividend: an undetermined state (null) is unknown, so nothing of the snapshot matches", () => {
    const r = all({ exclude_ex_dividend: true })
    assert.strictEqual(r.total, 0)
    assert.strictEqual(r.left_out_unknown, rows.length)
    assert.strictEqual(all({ exclude_ex_dividend: false }).total, rows.length)
  })

  it("free_float_min_pct needs shares outstanding, which the screener does not give: unknown, left out", () => {
    const r = all({ free_float_min_pct: 1 })
    assert.strictEqual(r.total, 0)
    assert.strictEqual(r.unknown_by_filter["free_float_min_pct"], rows.length)
  })

  it("security_types: the rights lines", () => {
    assert.deepStrictEqual(
      symbols({ security_types: ["right"] }),
      rows.filter((r) => r.security_type === "right").map((r) => r.symbol).sort()
    )
    assert.isAbove(all({ security_types: ["right"] }).total, 0)
  })
})

describe("drawdown gates (SYNTHETIC figures)", () => {
  const base = { name: "x", security_type: "equity" as const, inside_kse100: false, ex_dividend: null }
  const synthetic: Array<ScreenFigures> = [
    { ...base, symbol: "A", drawdown_5d_pct: 6, drawdown_20d_pct: 2 },
    { ...base, symbol: "B", drawdown_5d_pct: 1, drawdown_20d_pct: 12 },
    { ...base, symbol: "C", drawdown_5d_pct: 6, drawdown_20d_pct: 12 },
    { ...base, symbol: "D", drawdown_5d_pct: 6 },
    { ...base, symbol: "E", drawdown_5d_pct: 1 }
  ]
  const q = { drawdown_5d_min: 5, drawdown_20d_min: 10 }
  it("any (the default when both are set): either gate; a known pass is enough", () => {
    const r = screen(synthetic, q)
    assert.deepStrictEqual(r.items.map((x) => x.symbol), ["A", "B", "C", "D"])
    assert.strictEqual(r.left_out_unknown, 1) // E: 5-day fails, 20-day unknown
  })
  it("all: both gates, both known", () => {
    const r = screen(synthetic, { ...q, drawdown_mode: "all" })
    assert.deepStrictEqual(r.items.map((x) => x.symbol), ["C"])
    assert.strictEqual(r.left_out_unknown, 1) // D: 5-day passes, 20-day unknown
  })
})

// ------------------------------------------------------------------ property

const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
const o = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const SectorPick = Schema.Literals(["CEMENT", "0807", "commercial banks", "FERTILIZER", "0806", "NOPE"])
const RequestGen = Schema.Struct({
  dividend_yield_min: o(between(0, 12)),
  daily_change_max: o(between(-10, 10)),
  daily_change_min: o(between(-10, 10)),
  drawdown_5d_min: o(between(0, 10)),
  drawdown_20d_min: o(between(0, 20)),
  drawdown_mode: o(Schema.Literals(["any", "all"])),
  pe_max: o(between(0, 40)),
  pe_min: o(between(0, 40)),
  market_cap_min_exp: o(between(7, 12)),
  market_cap_max_exp: o(between(8, 13)),
  min_value_traded_exp: o(between(3, 10)),
  min_avg_volume_30d: o(between(0, 5_000_000)),
  free_float_min_shares: o(between(0, 500_000_000)),
  sectors: o(Schema.Array(SectorPick)),
  inside_kse100: o(Schema.NullOr(Schema.Boolean)),
  security_types: o(Schema.Array(SecurityType)),
  exclude_ex_dividend: o(Schema.Boolean),
  limit: o(between(1, 25))
})
const RowGen = Schema.Struct({
  sector: o(Schema.Literals(["CEMENT", "COMMERCIAL BANKS"])),
  security_type: SecurityType,
  inside_kse100: Schema.Boolean,
  change_pct: o(between(-10, 10)),
  pe_ttm: o(between(0, 40)),
  dividend_yield_pct: o(between(0, 12)),
  drawdown_5d_pct: o(between(0, 10)),
  drawdown_20d_pct: o(between(0, 20)),
  ex_dividend: Schema.NullOr(Schema.Boolean)
})

const toRequest = (g: typeof RequestGen.Type): ScreenRequest => {
  const { market_cap_min_exp, market_cap_max_exp, min_value_traded_exp, ...rest } = g
  return {
    ...rest,
    ...(market_cap_min_exp !== undefined ? { market_cap_min: 10 ** market_cap_min_exp } : {}),
    ...(market_cap_max_exp !== undefined ? { market_cap_max: 10 ** market_cap_max_exp } : {}),
    ...(min_value_traded_exp !== undefined ? { min_value_traded: 10 ** min_value_traded_exp } : {})
  }
}

/** The filters written out one by one from the documented rules: true, false or undefined (unknown). */
const verdicts = (r: ScreenFigures, q: ScreenRequest): Array<boolean | undefined> => {
  const v: Array<boolean | undefined> = []
  const ge = (x: number | undefined, min: number | undefined) =>
    min !== undefined && v.push(x === undefined ? undefined : x >= min)
  const le = (x: number | undefined, max: number | undefined) =>
    max !== undefined && v.push(x === undefined ? undefined : x <= max)
  ge(r.dividend_yield_pct, q.dividend_yield_min)
  le(r.change_pct, q.daily_change_max)
  ge(r.change_pct, q.daily_change_min)
  le(r.pe_ttm, q.pe_max)
  ge(r.pe_ttm, q.pe_min)
  ge(r.market_cap, q.market_cap_min)
  le(r.market_cap, q.market_cap_max)
  ge(r.value_traded, q.min_value_traded)
  ge(r.avg_volume_30d, q.min_avg_volume_30d)
  ge(r.avg_value_traded_30d, q.min_avg_value_traded_30d)
  ge(r.free_float_pct, q.free_float_min_pct)
  ge(r.free_float_shares, q.free_float_min_shares)
  if (q.drawdown_5d_min !== undefined && q.drawdown_20d_min !== undefined) {
    const a = r.drawdown_5d_pct === undefined ? undefined : r.drawdown_5d_pct >= q.drawdown_5d_min
    const b = r.drawdown_20d_pct === undefined ? undefined : r.drawdown_20d_pct >= q.drawdown_20d_min
    if (q.drawdown_mode === "all") {
      v.push(a === false || b === false ? false : a === true && b === true ? true : undefined)
    } else v.push(a === true || b === true ? true : a === false && b === false ? false : undefined)
  } else {
    ge(r.drawdown_5d_pct, q.drawdown_5d_min)
    ge(r.drawdown_20d_pct, q.drawdown_20d_min)
  }
  if (q.sectors !== undefined && q.sectors.length > 0) {
    const names = q.sectors.map((s) => s.toUpperCase())
    v.push(
      r.sector === undefined && r.sector_code === undefined
        ? undefined
        : names.includes((r.sector ?? "").toUpperCase()) || names.includes((r.sector_code ?? "").toUpperCase())
    )
  }
  if (typeof q.inside_kse100 === "boolean") v.push(r.inside_kse100 === q.inside_kse100)
  if (q.security_types !== undefined && q.security_types.length > 0) v.push(q.security_types.includes(r.security_type))
  if (q.exclude_ex_dividend === true) v.push(r.ex_dividend === null ? undefined : r.ex_dividend === false)
  return v
}

describe("screener properties", () => {
  it.prop("returned securities satisfy every filter; excluded ones with known values fail one; paging walks to total", [
    RequestGen,
    Schema.Array(RowGen)
  ], ([gen, extra]) => {
    const q = toRequest(gen)
    const universe: Array<ScreenFigures> = [
      ...rows,
      ...extra.map((e, i) => ({ ...e, symbol: `ZZSYN${String(i).padStart(3, "0")}`, name: "SYNTHETIC" }))
    ]
    const pages: Array<ScreenFigures> = []
    let after: string | undefined
    let first: ReturnType<typeof screen> | undefined
    for (let guard = 0; guard < 1000; guard++) {
      const page = screen(universe, q, after)
      first ??= page
      assert.strictEqual(page.total, first.total)
      assert.isAtMost(page.items.length, q.limit ?? 50)
      pages.push(...page.items)
      if (page.next_after === undefined) break
      after = page.next_after
    }
    assert.strictEqual(pages.length, first!.total)
    const got = new Set(pages.map((r) => r.symbol))
    assert.strictEqual(got.size, pages.length)
    assert.deepStrictEqual(pages.map((r) => r.symbol), [...pages.map((r) => r.symbol)].sort())
    let unknownOnly = 0
    for (const r of universe) {
      const v = verdicts(r, q)
      if (got.has(r.symbol)) assert.isTrue(v.every((x) => x === true), `${r.symbol} returned but fails a filter`)
      else {
        assert.isFalse(v.every((x) => x === true), `${r.symbol} left out but satisfies every filter`)
        if (!v.includes(false)) unknownOnly++
      }
    }
    assert.strictEqual(first!.left_out_unknown, unknownOnly)
  }, { arbitrary: { runs: 400 } })
})
