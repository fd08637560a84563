/**
 * The market clock's rows at T, beyond what SQL chose (MarketClock.ts):
 * - each price series cut at the last session closed by T; a restated eod
 *   series (the store's evidence: a price disagreement) retrieved after T is
 *   left out whole, since the restatement's date is not recorded;
 * - the quote: the newest of the quote public by T and the last close of
 *   the served series (a close is public from its session's close);
 * - datasets: those retrieved by T or cited by a row public by T, a later
 *   recording's `as_of` and coverage cut at T's Karachi day;
 * - a delisting after T is not yet known.
 * Pure: no SQL, no clock.
 */
import { fromDay, karachiDate, karachiInstant } from "../../../domain/Karachi.ts"
import { closeMinutes } from "../../../domain/market/calendar/MarketHours.ts"
import type * as R from "../../../domain/market/snapshot/StoreRows.ts"

/** What the store holds whatever T is: each eod series' retrieval and the restated symbols. */
export interface SeriesEvidence {
  /** Newest retrieval of each series' rows (ms), by `symbol|series`. */
  readonly retrieved: ReadonlyMap<string, number>
  /** Symbols whose eod series the store found restated (any version of `price_disagreements`). */
  readonly restated: ReadonlySet<string>
}

/** The instant a session's close is public (ms). */
export const closeInstant = (date: string) => {
  const minutes = closeMinutes(date)
  return karachiInstant(date, Math.floor(minutes / 60), minutes % 60)
}

/** The instant a dataset's retrieval names: an instant itself, a date or month the end of that Karachi day or month. */
export const retrievalInstant = (retrieved: string) => {
  if (/^\d{4}-\d{2}$/.test(retrieved)) {
    const [y, m] = retrieved.split("-").map(Number) as [number, number]
    return karachiInstant(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, "0")}-01`)
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(retrieved)) return karachiInstant(retrieved) + 86_400_000
  return Date.parse(retrieved)
}

const sliceRows = (row: R.PriceSeriesRow, n: number): R.PriceSeriesRow => ({
  ...row,
  rows: n,
  dates: row.dates.subarray(0, n * 4),
  open: row.open.subarray(0, n * 8),
  high: row.high.subarray(0, n * 8),
  low: row.low.subarray(0, n * 8),
  close: row.close.subarray(0, n * 8),
  volume: row.volume.subarray(0, n * 8),
  dataset_index: row.dataset_index.subarray(0, n * 2)
})

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** A series cut to the sessions closed by `at` (its dates ascend), or undefined when none is. */
export const seriesClosedBy = (row: R.PriceSeriesRow, at: number): R.PriceSeriesRow | undefined => {
  const dates = view(row.dates)
  let n = row.rows
  while (n > 0 && closeInstant(fromDay(dates.getInt32((n - 1) * 4))) > at) n--
  return n === 0 ? undefined : n === row.rows ? row : sliceRows(row, n)
}

/** The last close of a series as a quote (the pack's own rule: close, the previous close, change). */
const closeQuote = (row: R.PriceSeriesRow): R.QuoteRow | undefined => {
  const n = row.rows
  const close = view(row.close).getFloat64((n - 1) * 8)
  if (Number.isNaN(close)) return undefined
  const date = fromDay(view(row.dates).getInt32((n - 1) * 4))
  const figure = (bytes: Uint8Array, i: number) => {
    const v = i < 0 ? Number.NaN : view(bytes).getFloat64(i * 8)
    return Number.isNaN(v) ? undefined : v
  }
  const previous = figure(row.close, n - 2)
  const optional = (k: string, v: number | undefined) => (v === undefined ? {} : { [k]: v })
  return {
    symbol: row.symbol,
    price: close,
    ...optional("previous_close", previous),
    ...optional("open", figure(row.open, n - 1)),
    ...optional("high", figure(row.high, n - 1)),
    ...optional("low", figure(row.low, n - 1)),
    ...optional("change", previous === undefined ? undefined : Math.round((close - previous) * 100) / 100),
    ...optional("change_pct", previous === undefined ? undefined : Math.round((close / previous - 1) * 1e6) / 1e4),
    ...optional("volume", figure(row.volume, n - 1)),
    as_of: new Date(closeInstant(date)).toISOString(),
    basis: "daily_close",
    dataset: row.datasets[view(row.dataset_index).getInt16((n - 1) * 2)]!
  }
}

/** The newer of two quotes (by their instant). */
const newer = (a: R.QuoteRow | undefined, b: R.QuoteRow | undefined) =>
  a === undefined ? b : b === undefined ? a : Date.parse(b.as_of) > Date.parse(a.as_of) ? b : a

/** A date or instant no later than `at`: a later one is cut to T's Karachi day. */
const cutAt = (value: string | undefined, at: number) =>
  value === undefined
    ? undefined
    : (value.length === 10 ? value <= karachiDate(at) : Date.parse(value) <= at)
    ? value
    : karachiDate(at)

/** The datasets known at `at`: retrieved by then, or cited by a row public by then (their later days cut). */
const datasetsAt = (
  rows: R.StoreRows,
  series: ReadonlyArray<R.PriceSeriesRow>,
  at: number
): ReadonlyArray<R.DatasetRow> => {
  const cited = new Set<string>()
  for (const [key, value] of Object.entries(rows)) {
    if (key === "datasets" || !Array.isArray(value)) continue
    for (const row of value as ReadonlyArray<{ readonly dataset?: unknown }>) {
      if (typeof row.dataset === "string") cited.add(row.dataset)
    }
  }
  for (const s of series) for (const d of s.datasets) cited.add(d)
  const day = karachiDate(at)
  return rows.datasets.flatMap((d) => {
    if (retrievalInstant(d.retrieved_at) <= at) return [d]
    if (!cited.has(d.id)) return []
    const { coverage_first, coverage_last, ...rest } = d
    // A coverage that starts after T is not known then; one that runs past T is cut at T's day.
    const coverage = coverage_first !== undefined && coverage_first > day
      ? {}
      : {
        ...(coverage_first === undefined ? {} : { coverage_first }),
        ...(coverage_last === undefined ? {} : { coverage_last: cutAt(coverage_last, at)! })
      }
    return [{ ...rest, as_of: cutAt(d.as_of, at)!, ...coverage }]
  })
}

/** The rows the market knew at `at`, from the rows SQL chose and the store's series evidence. */
export const knownRowsAt = (rows: R.StoreRows, evidence: SeriesEvidence, at: number): R.StoreRows => {
  const withheldEod: Array<string> = []
  const series = rows.series.flatMap((row) => {
    const retrieved = evidence.retrieved.get(`${row.symbol}|${row.series}`) ?? Infinity
    if (row.series === "eod" && evidence.restated.has(row.symbol) && retrieved > at) {
      withheldEod.push(row.symbol)
      return []
    }
    const cut = retrieved <= at ? row : seriesClosedBy(row, at)
    return cut === undefined ? [] : [cut]
  })
  const lastClose = new Map<string, R.PriceSeriesRow>()
  for (const s of series) {
    const held = lastClose.get(s.symbol)
    const day = (r: R.PriceSeriesRow) => view(r.dates).getInt32((r.rows - 1) * 4)
    // The newest session; on a tie the as-traded row (as the pack's quotes are made).
    if (held === undefined || day(s) > day(held) || (day(s) === day(held) && s.series === "as_traded")) {
      lastClose.set(s.symbol, s)
    }
  }
  const quotes = new Map(rows.quotes.map((q) => [q.symbol, q]))
  for (const [symbol, s] of lastClose) {
    const q = newer(quotes.get(symbol), closeQuote(s))
    if (q !== undefined) quotes.set(symbol, q)
  }
  const day = karachiDate(at)
  const securities = rows.securities.map((s) => {
    if (s.delisted_on === undefined || s.delisted_on <= day) return s
    const { delisted_on: _, ...listed } = s
    return listed
  })
  const known = { ...rows, series, quotes: [...quotes.values()], securities, withheldEod }
  return { ...known, datasets: datasetsAt(known, series, at) }
}
