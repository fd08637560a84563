/**
 * A portfolio's performance (GET /v1/me/performance): the daily valuation
 * (DailyValuation.ts) from its first event to the last valued session, and
 * for each standard period (Returns.ts) the figures of PerformancePeriods.ts.
 * Pure.
 *
 * The valuation ends at the newest session with a recorded close of the
 * benchmark (KSE-100) and of every symbol held on it: nothing is valued at a
 * close older than its day's. Events that take effect after it are listed as
 * recorded but not yet valued. A period runs from the close of its start
 * session (excluded) to the close of its last; one that would start before
 * the first event starts at inception instead (its first session included,
 * its trades from their prices).
 */
import type { IndexCloses } from "../market/board/IndexHistory.ts"
import { lastAtOrBefore, type Move, movesOf, sessionsBetween, valuate, type ValuationCloses } from "./DailyValuation.ts"
import { type DaySeries, rowsOf } from "./PerformanceDays.ts"
import { figuresOf, type Window, windowOf } from "./PerformancePeriods.ts"
import type { PerformanceDay, PeriodFigures, UnvaluedEvent } from "./PerformanceSchemas.ts"
import type { Entry, ReplayFailure } from "./Replay.ts"
import { dayBefore, PERIODS, periodStart } from "./Returns.ts"

export { RETURN_PLACES } from "./PerformancePeriods.ts"

export interface PerformanceRequest {
  readonly entries: ReadonlyArray<Entry>
  readonly closes: ReadonlyMap<string, ValuationCloses>
  /** KSE-100's closes (a total-return index). */
  readonly index: IndexCloses | undefined
  /** KSE100PR's closes (its price-return variant), where recorded. */
  readonly priceIndex?: IndexCloses | undefined
  /** Karachi's date today: no close after it is used. */
  readonly today: string
  /** The first and last days of the daily rows wanted (the periods end at `to`, and `from` adds the range). */
  readonly from?: string | undefined
  readonly to?: string | undefined
  /** Which rows to give (default none: the periods only). */
  readonly days?: DaySeries | undefined
}

export interface PerformanceResult {
  readonly first_event?: string
  readonly last_session?: string
  readonly periods: ReadonlyArray<PeriodFigures>
  readonly not_yet_valued: ReadonlyArray<UnvaluedEvent>
  readonly days?: ReadonlyArray<PerformanceDay>
}

/** The newest recorded close of `dates` on or before `day` ("" when none). */
const newestOn = (dates: ReadonlyArray<string> | undefined, day: string) => {
  const i = dates ? lastAtOrBefore(dates, day) : -1
  return i >= 0 ? dates![i]! : ""
}

/** The symbols with shares held after the moves dated on or before `day`. */
const heldOn = (moves: ReadonlyArray<Move>, day: string) => {
  const quantity = new Map<string, number>()
  for (const m of moves) if (m.date <= day) quantity.set(m.symbol, (quantity.get(m.symbol) ?? 0) + m.quantity)
  return [...quantity].flatMap(([symbol, q]) => (q !== 0 ? [symbol] : []))
}

/**
 * The last day the portfolio can be valued: KSE-100's newest close (without one, the newest close of a symbol it
 * traded), brought back to the newest close of each symbol held on it that has closes at all; "" when none.
 */
export const valuedThrough = (moves: ReadonlyArray<Move>, req: PerformanceRequest): string => {
  const symbols = [...new Set(moves.map((m) => m.symbol))]
  let end = newestOn(req.index?.dates, req.today)
  for (const s of end === "" ? symbols : []) {
    const newest = newestOn(req.closes.get(s)?.dates, req.today)
    if (newest > end) end = newest
  }
  for (let changed = true; changed && end !== "";) {
    changed = false
    for (const s of heldOn(moves, end)) {
      // A symbol with no close on or before `end` is valued as unknown (flagged no_close), not a cut.
      const newest = newestOn(req.closes.get(s)?.dates, end)
      if (newest !== "" && newest < end) {
        end = newest
        changed = true
      }
    }
  }
  return end
}

/** The moves after the valuation's end, as the events they come from. */
const unvaluedOf = (moves: ReadonlyArray<Move>, end: string): Array<UnvaluedEvent> =>
  moves.filter((m) => m.date > end).map((m) => ({
    event_id: m.event_id,
    kind: m.kind,
    symbol: m.symbol,
    takes_effect: m.date
  }))

/** The performance of a portfolio's events at recorded closes, or the replay's failure. */
export const performanceOf = (req: PerformanceRequest): PerformanceResult | ReplayFailure => {
  const moves = movesOf(req.entries)
  if ("_tag" in moves) return moves
  const noRows = req.days === undefined || req.days === "none" ? {} : { days: [] }
  if (moves.length === 0) return { periods: [], not_yet_valued: [], ...noRows }
  const firstEvent = moves[0]!.date
  // With no close recorded at all, the sessions run to the last event, every value unknown (flagged no_close).
  const end = valuedThrough(moves, req) || moves[moves.length - 1]!.date
  const all = sessionsBetween(firstEvent, end)
  const base = { first_event: firstEvent, not_yet_valued: unvaluedOf(moves, end), ...noRows }
  if (all.length === 0) return { ...base, ...(end >= firstEvent ? {} : { last_session: end }), periods: [] }
  const last = req.to === undefined ? all.length - 1 : lastAtOrBefore(all, req.to)
  if (last < 0) return { ...base, last_session: all[all.length - 1]!, periods: [] }
  const sessions = all.slice(0, last + 1)
  const windows = [
    ...PERIODS.map((p) => windowOf(sessions, last, p, periodStart(p, sessions[last]!))),
    ...(req.from !== undefined ? [windowOf(sessions, last, "range", dayBefore(req.from))] : [])
  ].filter((w): w is Window => w !== undefined)
  const v = valuate(moves, req.closes, req.index, sessions, new Set(windows.flatMap((w) => [w.base, w.last])))
  const benchmarks = { total: req.index, price: req.priceIndex }
  const firstRow = req.from === undefined ? 0 : lastAtOrBefore(sessions, dayBefore(req.from)) + 1
  const days = rowsOf(v, firstRow, last, req.days ?? "none")
  return {
    ...base,
    last_session: all[all.length - 1]!,
    periods: windows.map((w) => figuresOf(v, moves, benchmarks, w)),
    ...(days !== undefined ? { days } : {})
  }
}
