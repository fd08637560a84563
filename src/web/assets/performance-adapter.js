// @ts-check
// The server's daily valuation (GET /v1/me/performance) in the shape the
// performance chart and its headline cards draw (performance.js): one array
// a field over the sessions, returns in percent, absent figures null (never
// 0); and the return lines the chart's percent mode draws, chained from the
// rows exactly as the server chains its time-weighted return. Pure
// functions, no DOM: test/web-performance.test.ts runs them under Node.

/** @typedef {import("./api.js").Success<"portfolio.performance">} Answer */
/** @typedef {Answer["periods"][number]} ServerPeriod */
/**
 * @typedef {{ period: ServerPeriod["period"], from: string, to: string, fromInception: boolean, coversWholePeriod: boolean,
 *   twr?: number, mwr?: number, xirr?: number, totalReturn?: number, gain?: number, dividends: number, kse100?: number,
 *   difference?: number, note?: string,
 *   contributions: Array<{ symbol: string, gain?: number, contribution?: number, dividends: number }> }} Period
 * @typedef {{ dates: string[], value: Array<number | null>, cost: number[], netFlow: number[], dividends: number[],
 *   kse100: Array<number | null>, flags: string[][], periods: Period[], firstEvent?: string, lastSession?: string,
 *   benchmarkNote: string, basis: string }} Performance
 */

/** A decimal return (0.410382) in percent (41.0382), exactly as far as it goes. @param {number | undefined} x */
const pct = (x) => (typeof x === "number" && Number.isFinite(x) ? Math.round(x * 1e6) / 1e4 : undefined)

/** @param {ServerPeriod} p @returns {Period} */
const periodOf = (p) => ({
  period: p.period,
  from: p.from,
  to: p.to,
  fromInception: p.from_inception,
  coversWholePeriod: p.covers_whole_period,
  twr: pct(p.twr),
  mwr: pct(p.mwr),
  xirr: pct(p.xirr),
  totalReturn: pct(p.total_return),
  gain: p.gain,
  dividends: p.dividends,
  kse100: pct(p.kse100?.change),
  difference: pct(p.difference),
  note: p.note,
  contributions: p.contributions.map((c) => ({ symbol: c.symbol, gain: c.gain, contribution: pct(c.contribution), dividends: c.dividends }))
})

/** @param {Answer} answer @returns {Performance} */
export const fromServer = (answer) => fromDays(answer, answer.days ?? [])

/** @param {Answer} answer @param {NonNullable<Answer["days"]>} days @returns {Performance} */
const fromDays = (answer, days) => ({
  dates: days.map((d) => d.date),
  value: days.map((d) => d.value ?? null),
  cost: days.map((d) => d.cost),
  netFlow: days.map((d) => d.net_flow),
  dividends: days.map((d) => d.dividends),
  kse100: days.map((d) => d.kse100 ?? null),
  flags: days.map((d) => d.flags ?? []),
  periods: answer.periods.map(periodOf),
  firstEvent: answer.first_event,
  lastSession: answer.last_session,
  benchmarkNote: answer.benchmark.note,
  basis: answer.basis
})

/** Two decimals of a percent, for a chart point. @param {number} x */
const point = (x) => Math.round(x * 100) / 100

/**
 * The portfolio's cumulative time-weighted return at each session from
 * `start` on, in percent, as the server chains it: a day's growth is
 * (value + net dividends + money out) / (the day before's value + money in),
 * money in at the start of its day and out at its end (a row's net_flow:
 * in when positive, out when negative); a day with nothing at risk is left
 * out. With `fromInception` the first day counts from nothing held (its
 * trades from their prices to its close), else the line is 0 at `start`.
 * From an unknown value on, the line is unknown (null): a return across it
 * cannot be known.
 * @param {Performance} perf @param {number} start @param {boolean} fromInception
 * @returns {Array<number | null>}
 */
export const returnLine = (perf, start, fromInception) => {
  /** @type {Array<number | null>} */
  const out = []
  let growth = 1
  let previous = fromInception ? 0 : perf.value[start] ?? null
  let broken = previous === null
  if (!fromInception) out.push(broken ? null : 0)
  for (let i = fromInception ? start : start + 1; i < perf.dates.length; i++) {
    const value = perf.value[i] ?? null
    if (broken || value === null || previous === null) {
      broken = true
      out.push(null)
      continue
    }
    const flow = perf.netFlow[i] ?? 0
    const base = previous + Math.max(flow, 0)
    if (base > 0) growth *= (value + (perf.dividends[i] ?? 0) + Math.max(-flow, 0)) / base
    out.push(point((growth - 1) * 100))
    previous = value
  }
  return out
}

/**
 * KSE-100's change at each session from `start` on, in percent from its
 * close at `start` (the last recorded on or before it), carried over a
 * session without a close; unknown (null) before a first close.
 * @param {Performance} perf @param {number} start
 * @returns {Array<number | null>}
 */
export const benchmarkLine = (perf, start) => {
  /** @type {number | null} */
  let close = null
  for (let i = start; i >= 0 && close === null; i--) close = perf.kse100[i] ?? null
  const base = close
  return perf.dates.slice(start).map((_, k) => {
    close = perf.kse100[start + k] ?? close
    return base === null || close === null ? null : point((close / base - 1) * 100)
  })
}

/**
 * Where a period's lines start: the index of its `from` session, or of the
 * first session on or after it.
 * @param {Performance} perf @param {Period} period
 */
export const startOf = (perf, period) => {
  const i = perf.dates.findIndex((d) => d >= period.from)
  return i < 0 ? 0 : i
}

/**
 * The days a held symbol's close was not that session's own, grouped by
 * symbol and kind (carried, no_close, restated, unrestated), each with its
 * sessions in order.
 * @param {Performance} perf
 * @returns {Array<{ kind: string, symbol: string, dates: string[] }>}
 */
export const flaggedDays = (perf) => {
  /** @type {Map<string, { kind: string, symbol: string, dates: string[] }>} */
  const groups = new Map()
  perf.flags.forEach((flags, i) => {
    for (const flag of flags) {
      const [kind = flag, symbol = ""] = flag.split(":")
      const group = groups.get(flag) ?? { kind, symbol, dates: [] }
      group.dates.push(perf.dates[i] ?? "")
      groups.set(flag, group)
    }
  })
  return [...groups.values()]
}

/**
 * The last session's gain: the change in market value with money put in or
 * taken out that day excluded and its net dividends included, and its share
 * of the day before's value (with that day's money in): that day's
 * time-weighted return. Unknown when either value is.
 * @param {Performance} perf
 */
export const dayChange = (perf) => {
  const n = perf.dates.length
  const last = perf.value[n - 1] ?? null, before = perf.value[n - 2] ?? null
  if (n < 2 || last === null || before === null) return undefined
  const flow = perf.netFlow[n - 1] ?? 0
  const rupees = Math.round((last + (perf.dividends[n - 1] ?? 0) - before - flow) * 100) / 100
  const base = before + Math.max(flow, 0)
  return { rupees, pct: base > 0 ? point((rupees / base) * 100) : undefined, date: perf.dates[n - 1] ?? "", previous: perf.dates[n - 2] ?? "" }
}
