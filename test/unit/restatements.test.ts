/**
 * Restatement factors and source glitch days, found on the real recordings
 * (vendored slices in test/fixtures/psx: the weeks around 2021-10-25 for the
 * 100 symbols both recordings hold; LUCK, SYS and HUBC from 2021-05-26 to
 * 2021-12-31).
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync } from "node:fs"
import { findDisagreements, glitchDays, RULES, wholeHistoryFactor } from "../../domain/pack/Restatements.ts"
import { parsePriceCsv } from "../../domain/psx/PriceCsv.ts"
import type { PriceRow } from "../../domain/psx/Prices.ts"
import { psxFixturesDir, readPsx } from "../support/Fixtures.ts"

const EOD = "I-Zaifa__psx-analyzer/data/csv/symbols"
const AS_TRADED = "ChubsB__KSE-100-Data"
const load = (dir: string, parse: (text: string) => { readonly rows: ReadonlyArray<PriceRow> }) =>
  new Map(
    readdirSync(`${psxFixturesDir}${dir}`).map((
      f
    ) => [f.replace(/\.csv$/, "").trim().toUpperCase(), parse(readPsx(`${dir}/${f}`)).rows])
  )
const eod = load(EOD, parsePriceCsv)
const asTraded = load(AS_TRADED, parsePriceCsv)

describe("whole-history restatement factors", () => {
  it("LUCK and SYS: the eod closes are 0.2 × the as-traded closes on every shared day (the 5-for-1 splits)", () => {
    const luck = wholeHistoryFactor("LUCK", eod.get("LUCK")!, asTraded.get("LUCK")!)!
    assert.deepStrictEqual([luck.factor, luck.from, luck.agreeing === luck.points], [0.2, "2021-05-26", true])
    assert.isAbove(luck.points, 100)
    // The raw cells for 2021-05-26: eod 181.16, as traded 905.81 (same volume, 589,475).
    assert.strictEqual(eod.get("LUCK")!.find((r) => r.date === "2021-05-26")!.close, 181.16)
    assert.strictEqual(asTraded.get("LUCK")!.find((r) => r.date === "2021-05-26")!.close, 905.81)
    assert.strictEqual(wholeHistoryFactor("SYS", eod.get("SYS")!, asTraded.get("SYS")!)?.factor, 0.2)
  })

  it("HUBC was not restated: no factor", () => {
    assert.isUndefined(wholeHistoryFactor("HUBC", eod.get("HUBC")!, asTraded.get("HUBC")!))
  })

  it("too few shared days say nothing", () => {
    assert.isUndefined(wholeHistoryFactor("LUCK", eod.get("LUCK")!.slice(0, 19), asTraded.get("LUCK")!))
  })

  it("across all 100 symbols: exactly the eight restated names the full recordings show", () => {
    const found = findDisagreements(eod, asTraded).disagreements
    assert.deepStrictEqual(found.map((d) => [d.symbol, d.factor]).sort(), [
      ["BAFL", 0.5],
      ["FHAM", 2],
      ["KOHC", 0.2],
      ["KTML", 0.2],
      ["LCI", 0.2],
      ["LUCK", 0.2],
      ["SYS", 0.2],
      ["UBL", 0.5]
    ])
  })
})

describe("source glitch days", () => {
  const found = findDisagreements(eod, asTraded)

  it("2021-10-25 is the one glitch day: 60 symbols' eod closes are off their as-traded closes", () => {
    assert.deepStrictEqual(found.glitchDays.map((g) => [g.date, g.symbols]), [["2021-10-25", 60]])
    const day = found.glitchDays[0]!
    assert.strictEqual(day.affected.length, 60)
    assert.deepStrictEqual([...day.affected].sort(), day.affected, "sorted")
    // The days around it agree: the glitch is one day, not a level shift.
    const around = ["2021-10-22", "2021-10-26"]
    assert.isFalse(found.glitchDays.some((g) => around.includes(g.date)))
  })

  it("without the restatement factors, every day of the restated names would count as off", () => {
    const unfactored = glitchDays(eod, asTraded, [], { ...RULES, minGlitchSymbols: 8 })
    assert.isAbove(unfactored.length, 20)
    assert.deepStrictEqual(
      glitchDays(eod, asTraded, found.disagreements, { ...RULES, minGlitchSymbols: 8 }).map((g) => g.date),
      ["2021-10-25"]
    )
  })
})
