/**
 * Names to tickers (domain/news/NameResolver.ts) over the reviewed alias
 * table: the agent benchmark's task 7 ("Hub Power", "Meezan", "Lucky Cement") and its
 * "unknown symbol HUBCO should name HUBC", with the expected tickers read from
 * data/pack/universe.json (HUBC The Hub Power Company Limited, MEBL Meezan Bank
 * Limited, LUCK Lucky Cement Limited).
 */
import { assert, describe, it } from "@effect/vitest"
import { editDistance, resolveSymbols } from "../../domain/news/NameResolver.ts"
import { companyAliases } from "../../src/ingest/CompanyAliases.ts"

const table = companyAliases()
const first = (query: string) => resolveSymbols(table, query)[0]

describe("name resolver", () => {
  it("resolves the agent benchmark's names to their tickers, best first", () => {
    // The registered name without its legal words is a whole name: "The Hub Power Company Limited" -> "hub power".
    assert.deepStrictEqual(first("Hub Power"), {
      symbol: "HUBC",
      name: "The Hub Power Company Limited",
      match: "name",
      matched: "The Hub Power Company Limited"
    })
    assert.deepStrictEqual(first("Lucky Cement"), {
      symbol: "LUCK",
      name: "Lucky Cement Limited",
      match: "name",
      matched: "Lucky Cement Limited"
    })
    assert.deepStrictEqual(first("HUBCO"), {
      symbol: "HUBC",
      name: "The Hub Power Company Limited",
      match: "name",
      matched: "Hubco"
    })
    assert.deepStrictEqual(first("Oil and Gas Development")?.symbol, "OGDC")
    // "Meezan" starts two names: Meezan Bank (one word left over) before Meezan Pakistan ETF (two).
    assert.deepStrictEqual(resolveSymbols(table, "Meezan").map((m) => [m.symbol, m.match]), [["MEBL", "prefix"], [
      "MZNPETF",
      "prefix"
    ]])
    // Fewer words left over ranks first, whatever the symbols' order.
    const two = [
      { symbol: "AAB", name: "Alpha Beta Gamma Delta Limited", ticker: "word" as const, aliases: [] },
      { symbol: "ZZA", name: "Alpha Beta Limited", ticker: "word" as const, aliases: [] }
    ]
    assert.deepStrictEqual(resolveSymbols(two, "alpha").map((m) => m.symbol), ["ZZA", "AAB"])
  })

  it("a ticker in any case or with the exchange's prefix is itself; a typing slip is near", () => {
    assert.strictEqual(first("hubc")?.match, "ticker")
    assert.strictEqual(first("PSX:OGDC")?.symbol, "OGDC")
    assert.deepStrictEqual([first("Meezn Bank")?.symbol, first("Meezn Bank")?.match], ["MEBL", "near"])
    assert.deepStrictEqual([first("MBEL")?.symbol, first("MBEL")?.match], ["MEBL", "near"])
  })

  it("nothing for an empty or unmatched query, and at most `limit` rows", () => {
    assert.deepStrictEqual(resolveSymbols(table, "  "), [])
    assert.deepStrictEqual(resolveSymbols(table, "zzqxv wombat"), [])
    assert.strictEqual(resolveSymbols(table, "Bank", 3).length, 3)
    assert.deepStrictEqual(resolveSymbols(table, "Meezan", 0), [])
  })

  it("edit distance counts a swap of neighbours as one slip", () => {
    assert.strictEqual(editDistance("MEBL", "MBEL", 2), 1)
    assert.strictEqual(editDistance("kitten", "sitting", 3), 3) // k->s, e->i, +g
    assert.strictEqual(editDistance("kitten", "sitting", 1), 2) // over the bound: bound + 1
  })
})
