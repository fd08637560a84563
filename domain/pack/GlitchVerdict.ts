/**
 * Which recording is wrong on a source glitch day (Restatements.ts finds the
 * days), decided from each source's internal evidence rather than from a
 * fixed preference. The as-traded recording (ChubsB) carries a `Change`
 * column (close − previous close) beside each close, so its rows can be
 * checked against themselves (`wrongSource`).
 */
import type { PriceRow } from "../psx/Prices.ts"
import type { GlitchDay, SeriesBySymbol } from "./Restatements.ts"

/** Two prices in rupees are the same figure within a paisa of rounding. */
const SAME = 0.011

export type Verdict = "as_traded" | "eod" | "undecided"

/**
 * Which source is wrong for one symbol on `date`; `factor` = eod / as traded (a whole-history restatement, else 1).
 *
 * - its close on the day must equal the previous close plus that day's change;
 * - the next day's close minus the next day's change implies the day's close.
 *
 * If the as-traded row fails either check and the eod close equals the close
 * the next day's change implies, the as-traded row is wrong. If the
 * as-traded row passes both checks, the eod row (which carries no such
 * evidence) is wrong. Otherwise the day is undecided and both rows are
 * flagged. On 2021-10-25 ChubsB repeats the 10-22 close (OGDC 84.43, change
 * −0.54), while its 10-26 change (−1.24 to 83.73) implies 84.97 = eod.
 */
export const wrongSource = (
  date: string,
  eod: ReadonlyArray<PriceRow>,
  asTraded: ReadonlyArray<PriceRow>,
  changes: ReadonlyMap<string, number>,
  factor = 1
): Verdict => {
  const i = asTraded.findIndex((r) => r.date === date)
  const e = eod.find((r) => r.date === date)
  const day = asTraded[i], prev = asTraded[i - 1], next = asTraded[i + 1]
  const change = changes.get(date), nextChange = next ? changes.get(next.date) : undefined
  if (
    e === undefined || day === undefined || prev === undefined || next === undefined || change === undefined ||
    nextChange === undefined
  ) {
    return "undecided"
  }
  const implied = next.close - nextChange
  const selfConsistent = Math.abs(day.close - prev.close - change) <= SAME && Math.abs(implied - day.close) <= SAME
  if (selfConsistent) return "eod"
  return Math.abs(implied * factor - e.close) <= SAME ? "as_traded" : "undecided"
}

/** The glitch days with, per affected symbol, the source found wrong. */
export const judgeGlitchDays = (
  days: ReadonlyArray<GlitchDay>,
  eod: SeriesBySymbol,
  asTraded: SeriesBySymbol,
  changes: ReadonlyMap<string, ReadonlyMap<string, number>>,
  factors: ReadonlyArray<{ readonly symbol: string; readonly factor: number }> = []
): Array<GlitchDay> =>
  days.map((g) => {
    const factorOf = new Map(factors.map((d) => [d.symbol, d.factor]))
    const wrong = { as_traded: [] as Array<string>, eod: [] as Array<string>, undecided: [] as Array<string> }
    for (const symbol of g.affected) {
      const v = wrongSource(
        g.date,
        eod.get(symbol) ?? [],
        asTraded.get(symbol) ?? [],
        changes.get(symbol) ?? new Map(),
        factorOf.get(symbol)
      )
      wrong[v].push(symbol)
    }
    return {
      ...g,
      wrong,
      reason:
        `${wrong.as_traded.length} as-traded rows contradict their own change column while the eod close equals ` +
        `the close the next day's change implies; ${wrong.eod.length} as-traded rows are self-consistent (eod wrong); ` +
        `${wrong.undecided.length} undecided (both flagged)`
    }
  })
