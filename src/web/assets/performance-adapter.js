// @ts-check
// The one shape the performance chart and its headline cards draw
// (performance.js), and the adapters that make it: `fromServer` for the
// server's daily valuation (GET /v1/me/performance, issue 38 item 2: a daily
// series of value, cost, external flows, net dividends and flags, and
// period returns with KSE-100's change), and `fromBrowser` for the series
// this page still builds itself from the ledger and the recorded closes
// until that route is wired. Pure functions, no DOM: the tests run them
// under Node.

/**
 * @typedef {{ period: string, from?: string, to?: string, twr?: number, xirr?: number, totalReturn?: number,
 *   benchmark?: number, difference?: number, coversWholePeriod?: boolean }} Period
 * @typedef {{ source: "server" | "browser", dates: string[], value: Array<number | null>, cost: Array<number | null>,
 *   flows: number[], dividends: number[], flags: string[][], periods: Period[], notes: string[] }} Performance
 */

/** @param {unknown} v @returns {number | undefined} */
const n = (v) => (typeof v === "number" && Number.isFinite(v) ? v : undefined)
/** The first field of `o` among `names` that holds a number. @param {any} o @param {string[]} names */
const pick = (o, names) => {
  for (const name of names) if (n(o?.[name]) !== undefined) return /** @type {number} */ (o[name])
  return undefined
}

/**
 * The server's answer, read tolerantly: the daily rows under `daily` (or
 * `series`, `days`), each with date, value, cost, flow(s), dividends, flags;
 * the periods under `periods` (or `returns`), each with TWR, XIRR, total
 * return and KSE-100's change. Absent figures stay absent (null), never 0.
 * @param {any} answer
 * @returns {Performance}
 */
export const fromServer = (answer) => {
  const rows = /** @type {any[]} */ (answer?.daily ?? answer?.series ?? answer?.days ?? [])
  const periods = /** @type {any[]} */ (answer?.periods ?? answer?.returns ?? [])
  return {
    source: "server",
    dates: rows.map((r) => String(r.date)),
    value: rows.map((r) => pick(r, ["value", "market_value"]) ?? null),
    cost: rows.map((r) => pick(r, ["cost"]) ?? null),
    flows: rows.map((r) => pick(r, ["flows", "flow", "external_flow", "net_flow"]) ?? 0),
    dividends: rows.map((r) => pick(r, ["dividends", "dividends_net", "dividend"]) ?? 0),
    flags: rows.map((r) => (Array.isArray(r.flags) ? r.flags.map(String) : r.flag ? [String(r.flag)] : [])),
    periods: periods.map((p) => ({
      period: String(p.period ?? p.name ?? ""),
      from: p.from,
      to: p.to,
      twr: pick(p, ["twr_pct", "twr", "time_weighted_pct", "time_weighted_return_pct"]),
      xirr: pick(p, ["xirr_pct", "xirr", "money_weighted_pct", "money_weighted_return_pct"]),
      totalReturn: pick(p, ["total_return_pct", "total_return"]),
      benchmark: pick(p, ["kse100_change_pct", "benchmark_change_pct", "kse100_pct"]) ?? pick(p.kse100 ?? p.benchmark, ["change_pct"]),
      difference: pick(p, ["difference_pct", "vs_kse100_pct"]),
      coversWholePeriod: typeof p.covers_whole_period === "boolean" ? p.covers_whole_period : undefined
    })),
    notes: [answer?.note, answer?.benchmark_note, answer?.kse100?.note].filter((x) => typeof x === "string")
  }
}

/**
 * The browser's own series (portfolio-charts.js `valueSeries`) and the
 * time-weighted periods of GET /v1/me/analyze, in the same shape.
 * @param {{ dates: string[], value: Array<number | null>, cost: number[], flows?: number[], bonusUnknown?: boolean }} series
 * @param {any} [analysis] /v1/me/analyze
 * @returns {Performance}
 */
export const fromBrowser = (series, analysis) => ({
  source: "browser",
  dates: series.dates,
  value: series.value,
  cost: series.cost,
  flows: series.flows ?? series.dates.map(() => 0),
  dividends: series.dates.map(() => 0),
  flags: series.dates.map(() => []),
  periods: /** @type {any[]} */ (analysis?.returns?.periods ?? []).map((p) => ({
    period: String(p.period ?? "").replace("_", " "),
    from: p.from,
    to: p.to,
    twr: n(p.return_pct),
    coversWholePeriod: p.covers_whole_period
  })),
  notes: series.bonusUnknown ? ["The value from a bonus on is unknown until the server's daily valuation is wired: the ledger serves a bonus's shares only in the current holdings."] : []
})

/**
 * The cumulative time-weighted return at each day, in percent from the first
 * day: each day's growth is (value + dividends received − external flow in)
 * over the day before's value, chained. A day with an unknown value, or
 * after one, breaks the line (null) until a known day follows a known day.
 * @param {Performance} perf
 * @returns {Array<number | null>}
 */
export const cumulativeReturn = (perf) => {
  /** @type {Array<number | null>} */
  const out = []
  let index = 1
  for (let i = 0; i < perf.dates.length; i++) {
    const v = perf.value[i]
    if (i === 0) {
      out.push(v === null || v === undefined ? null : 0)
      continue
    }
    const before = perf.value[i - 1]
    if (v === null || v === undefined || before === null || before === undefined || before <= 0) {
      out.push(null)
      continue
    }
    index *= (v + (perf.dividends[i] ?? 0) - (perf.flows[i] ?? 0)) / before
    out.push(Math.round((index - 1) * 10_000) / 100)
  }
  return out
}

/**
 * An index's closes (newest or oldest first) rebased to 0% on the first of
 * `dates`, carried to each date from its last close on or before it.
 * @param {string[]} dates @param {Array<{ date: string, close: number }>} closes
 * @returns {Array<number | null>}
 */
export const rebasedBenchmark = (dates, closes) => {
  const sorted = [...closes].sort((a, b) => a.date.localeCompare(b.date))
  let j = -1
  /** @type {number | undefined} */
  let base
  return dates.map((d) => {
    while (j + 1 < sorted.length && (sorted[j + 1]?.date ?? "") <= d) j++
    const close = j >= 0 ? sorted[j]?.close : undefined
    if (close === undefined) return null
    base ??= close
    return Math.round((close / base - 1) * 10_000) / 100
  })
}
