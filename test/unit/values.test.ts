/** The portal's number, date and payout notations, quirk by quirk (inputs are notation samples, not market data). */
import { assert, describe, it } from "@effect/vitest"
import { parseFinancialResult, parsePayoutDetails } from "../../domain/psx/PayoutNotation.ts"
import {
  karachiDateOfEpoch,
  parseDate,
  parseKarachiDateTime,
  parseNumber,
  parseRange
} from "../../domain/psx/Values.ts"

describe("numbers", () => {
  it("reads the portal's forms", () => {
    assert.strictEqual(parseNumber("4,496,408"), 4496408)
    assert.strictEqual(parseNumber("Rs.343.72"), 343.72)
    assert.strictEqual(parseNumber("(0.15)"), -0.15)
    assert.strictEqual(parseNumber("(1,234.50)"), -1234.5)
    assert.strictEqual(parseNumber("7.22%"), 7.22)
    assert.strictEqual(parseNumber("892.2M"), 892_200_000)
    assert.strictEqual(parseNumber("53.71B"), 53_710_000_000)
    assert.strictEqual(parseNumber("1O.5"), 10.5, "letter O typed for a zero")
  })
  it("leaves unknowns out, never 0", () => {
    for (const s of ["", " ", "-", "--", "N/A", "n/a", "abc", "1.2.3", undefined, null]) {
      assert.isUndefined(parseNumber(s as any), String(s))
    }
  })
})

describe("dates", () => {
  it("reads every recorded form", () => {
    assert.strictEqual(parseDate("Jan 3, 2025"), "2025-01-03")
    assert.strictEqual(parseDate("August 6, 2026 3:37 PM"), "2026-08-06")
    assert.strictEqual(parseDate("19/08/2026"), "2026-08-19")
    assert.strictEqual(parseDate("2021-02-08 11:00:00"), "2021-02-08")
    assert.strictEqual(parseDate("2021-02-08 19:30:00"), "2021-02-09", "a UTC evening is the next Karachi day")
    assert.isUndefined(parseDate("31/02/2026"))
    assert.isUndefined(parseDate("soon"))
  })
  it("epochs and clock times are Karachi time (UTC+5)", () => {
    assert.strictEqual(karachiDateOfEpoch(1735902000), "2025-01-03")
    assert.strictEqual(parseKarachiDateTime("Sep 29, 2026", "3:28 PM"), "2026-09-29T10:28:00.000Z")
    assert.strictEqual(parseKarachiDateTime("October 27, 2025 11:09 AM"), "2025-10-27T06:09:00.000Z")
    // 12 PM is noon and 12 AM midnight; a date with no time of day is no instant (never an invented 00:00).
    assert.strictEqual(parseKarachiDateTime("Aug 6, 2026", "12:05 PM"), "2026-08-06T07:05:00.000Z")
    assert.strictEqual(parseKarachiDateTime("Aug 6, 2026", "12:05 AM"), "2026-08-05T19:05:00.000Z")
    assert.isUndefined(parseKarachiDateTime("August 6, 2026"))
    assert.deepStrictEqual(parseRange("19/08/2026  - 20/08/2026 "), { from: "2026-08-19", to: "2026-08-20" })
  })
})

describe("payout notation", () => {
  it("final, interims, cash, bonus, right, combined, Rs amounts, missing %", () => {
    assert.deepStrictEqual(parsePayoutDetails(" 40%(F) (D) "), [{ kind: "cash", percent: 40, sequence: "final" }])
    assert.deepStrictEqual(parsePayoutDetails("75%(i) (D)"), [{ kind: "cash", percent: 75, sequence: "interim-1" }])
    assert.deepStrictEqual(parsePayoutDetails("70%(iii) (D)"), [{ kind: "cash", percent: 70, sequence: "interim-3" }])
    assert.deepStrictEqual(parsePayoutDetails("80(ii) (D)"), [{ kind: "cash", percent: 80, sequence: "interim-2" }])
    assert.deepStrictEqual(parsePayoutDetails("25%(F) (D) 10%(B)"), [
      { kind: "cash", percent: 25, sequence: "final" },
      { kind: "bonus", percent: 10 }
    ])
    assert.deepStrictEqual(parsePayoutDetails("Rs.5 (D)"), [{ kind: "cash", amountPerShare: 5 }])
    assert.deepStrictEqual(parsePayoutDetails("20%(R)"), [{ kind: "right", percent: 20 }])
    assert.deepStrictEqual(parsePayoutDetails("to be announced"), [])
  })
  it("the period a payout belongs to", () => {
    assert.deepStrictEqual(parseFinancialResult("30/06/2026(HYR)"), { periodEnd: "2026-06-30", periodType: "HYR" })
    assert.deepStrictEqual(parseFinancialResult("30/09/2025(IIIQ)"), { periodEnd: "2025-09-30", periodType: "IIIQ" })
  })
})
