/**
 * Dated rules match their evidence: the 2020 steps of the single-stock price
 * limit, read from the recorded closes of 100 KSE-100 names
 * (ChubsB/KSE-100-Data, as-traded daily closes, vendored under
 * test/fixtures/psx); the withholding rule's date is sourced or labelled.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync } from "node:fs"
import { dividendWithholdingRules } from "../../domain/ledger/Taxes.ts"
import { priceLimitRules } from "../../domain/market/calendar/Rules.ts"
import { beyondLimit, priceLimitPct } from "../../domain/market/prices/PriceSteps.ts"
import { psxFixturesDir, readPsx } from "../support/Fixtures.ts"

interface Move {
  readonly date: string
  readonly symbol: string
  readonly prev: number
  readonly close: number
  /** (close / prev − 1) × 100 */
  readonly pct: number
}

const folder = "ChubsB__KSE-100-Data"
/** Every day-on-day move of a recorded close from 2020-01-01 to 2020-04-30 (rows without a positive close break the chain). */
const moves2020: ReadonlyArray<Move> = readdirSync(`${psxFixturesDir}${folder}`).filter((f) => f.endsWith(".csv"))
  .flatMap((file) => {
    const out: Array<Move> = []
    let prev: number | undefined
    for (const line of readPsx(`${folder}/${file}`).split("\n").slice(1)) {
      const cells = line.split(",")
      if (cells.length < 5) continue
      const date = cells[0]!.replace(/"/g, "").slice(0, 10)
      const close = Number(cells[4])
      if (!(close > 0)) {
        prev = undefined
        continue
      }
      if (prev !== undefined && date >= "2020-01-01" && date <= "2020-04-30") {
        out.push({ date, symbol: file.slice(0, -4), prev, close, pct: (close / prev - 1) * 100 })
      }
      prev = close
    }
    return out
  })

/**
 * A move that lands on `percent` (within 0.05 of a point, either way) on a line where the percent decides the limit:
 * below Rs 1.05 of band the Rs 1 minimum may allow it (UNITY 16.59 → 15.59 on 2020-01-06 is −6.03% but Rs 1).
 */
const at = (percent: number) => (m: Move) =>
  Math.abs(Math.abs(m.pct) - percent) <= 0.05 && Math.abs(m.close - m.prev) > 1.05

describe("the 2020 price-limit steps match the recorded closes", () => {
  it("each step starts on the first session with a close at the new limit: 6% 02-03, 6.5% 02-17, 7% 03-02, 7.5% 03-16", () => {
    const firstAt = (p: number) => moves2020.filter(at(p)).map((m) => m.date).sort()[0]
    // Read from the closes (not from the table): the first session with a move of exactly the new limit.
    assert.deepStrictEqual([6, 6.5, 7, 7.5].map(firstAt), ["2020-02-03", "2020-02-17", "2020-03-02", "2020-03-16"])
    const ruleFrom = (p: number) => priceLimitRules.find((r) => r.percent === p)?.from
    assert.deepStrictEqual([6, 6.5, 7, 7.5].map(ruleFrom), ["2020-02-03", "2020-02-17", "2020-03-02", "2020-03-16"])
    assert.deepStrictEqual(
      ["2020-01-31", "2020-02-03", "2020-02-14", "2020-02-17", "2020-02-28", "2020-03-02", "2020-03-13", "2020-03-16"]
        .map(priceLimitPct),
      [5.5, 6, 6, 6.5, 6.5, 7, 7, 7.5]
    )
  })

  it("43 names close at −7.5% on 2020-03-16 (61 on 2020-03-24), and no move at a scheduled limit is read as beyond the limit", () => {
    const down75 = (d: string) => moves2020.filter((m) => m.date === d && Math.abs(m.pct + 7.5) <= 0.05).length
    assert.deepStrictEqual([down75("2020-03-13"), down75("2020-03-16"), down75("2020-03-24")], [0, 43, 61])
    // Under the old table (7% until 03-19) each of these was beyond the limit; the old 0.5-point tolerance hid it.
    const atALimit = moves2020.filter((m) => [5.5, 6, 6.5, 7, 7.5].some((p) => at(p)(m)))
    const beyond = atALimit.filter((m) => beyondLimit(m.prev, m.close, m.date)).map((m) =>
      `${m.symbol} ${m.date} ${m.pct.toFixed(3)}%`
    )
    assert.deepStrictEqual(beyond, [])
    assert.isAbove(atALimit.length, 300)
  })

  it("a close beyond the limit by more than the limit price's rounding is a step: 7.6% on a 7.5% day is detected", () => {
    // 100 → 92.40 is −7.6%: Rs 7.60 against a band of Rs 7.50 plus Rs 0.05 of rounding.
    assert.isTrue(beyondLimit(100, 92.4, "2020-03-16"))
    // FATIMA 42.18 → 39.00 on 2022-04-21 (recorded): Rs 3.18 against 7.5% × 42.18 = Rs 3.1635, within the rounding.
    assert.isFalse(beyondLimit(42.18, 39, "2022-04-21"))
  })
})

describe("the dividend withholding rule says whether its date is sourced", () => {
  it("wht-dividend-2019-07 is labelled unsourced for its start date", () => {
    const rule = dividendWithholdingRules.find((r) => r.id === "wht-dividend-2019-07")!
    assert.isFalse(rule.effective_sourced)
    assert.include(rule.source, "Unsourced date")
    assert.isTrue(dividendWithholdingRules.every((r) => r.source.length > 0))
  })
})
