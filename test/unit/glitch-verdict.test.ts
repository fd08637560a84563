/**
 * which recording is wrong on the 2021-10-25 glitch day,
 * decided from each source's own evidence (domain/pack/GlitchVerdict.ts), on
 * the vendored slices of ChubsB (as traded, with its Change column) and
 * I-Zaifa (/timeseries/eod) in test/fixtures/psx.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync } from "node:fs"
import { judgeGlitchDays, wrongSource } from "../../domain/pack/GlitchVerdict.ts"
import { findDisagreements } from "../../domain/pack/Restatements.ts"
import { changeColumn, parsePriceCsv } from "../../domain/psx/PriceCsv.ts"
import type { PriceRow } from "../../domain/psx/Prices.ts"
import { psxFixturesDir, readPsx } from "../support/Fixtures.ts"

const EOD = "I-Zaifa__psx-analyzer/data/csv/symbols"
const AS_TRADED = "ChubsB__KSE-100-Data"
const symbolOf = (f: string) => f.replace(/\.csv$/, "").trim().toUpperCase()
const load = (dir: string, parse: (text: string) => { readonly rows: ReadonlyArray<PriceRow> }) =>
  new Map(readdirSync(`${psxFixturesDir}${dir}`).map((f) => [symbolOf(f), parse(readPsx(`${dir}/${f}`)).rows]))
const eod = load(EOD, parsePriceCsv)
const asTraded = load(AS_TRADED, parsePriceCsv)
const changes = new Map(
  readdirSync(`${psxFixturesDir}${AS_TRADED}`).map((f) => [symbolOf(f), changeColumn(readPsx(`${AS_TRADED}/${f}`))])
)

describe("2021-10-25: the as-traded recording is the wrong one", () => {
  it("OGDC: ChubsB repeats the 10-22 close 84.43 (its change says −0.54); its 10-26 change −1.24 to 83.73 implies 84.97 = eod", () => {
    const at = asTraded.get("OGDC")!
    assert.deepStrictEqual(["2021-10-22", "2021-10-25"].map((d) => at.find((r) => r.date === d)!.close), [84.43, 84.43])
    assert.strictEqual(changes.get("OGDC")!.get("2021-10-26"), -1.239998)
    assert.strictEqual(eod.get("OGDC")!.find((r) => r.date === "2021-10-25")!.close, 84.97)
    assert.strictEqual(wrongSource("2021-10-25", eod.get("OGDC")!, at, changes.get("OGDC")!), "as_traded")
  })

  it("a self-consistent as-traded row puts the blame on eod (OGDC 2021-10-27 against a doctored eod close)", () => {
    // Synthetic: the eod row of 10-27 moved by 1 rupee; ChubsB's 10-27 row agrees with its own change columns.
    const doctored = eod.get("OGDC")!.map((r) => (r.date === "2021-10-27" ? { ...r, close: r.close + 1 } : r))
    assert.strictEqual(wrongSource("2021-10-27", doctored, asTraded.get("OGDC")!, changes.get("OGDC")!), "eod")
  })

  it("all 60 symbols of the day: the as-traded row is wrong, none undecided (restated names judged after their factor)", () => {
    const found = findDisagreements(eod, asTraded)
    const [day] = judgeGlitchDays(found.glitchDays, eod, asTraded, changes, found.disagreements)
    assert.strictEqual(day!.date, "2021-10-25")
    assert.deepStrictEqual([day!.wrong!.as_traded.length, day!.wrong!.eod.length, day!.wrong!.undecided.length], [
      60,
      0,
      0
    ])
    assert.include(day!.wrong!.as_traded, "LUCK")
  })
})
