/**
 * The pack's price and index datasets (called by scripts/build-pack.ts):
 * the eod and as-traded CSV recordings read by their header (pack-csv.ts),
 * ENGRO's historical page, the 2021-01-21 market summary, where the two
 * series disagree (Restatements.ts, GlitchVerdict.ts), and KSE-100's level
 * and daily closes. Nothing is estimated: what a recording lacks is absent.
 */
import { judgeGlitchDays } from "../domain/pack/GlitchVerdict.ts"
import { encodeSeries, type PackProvenance } from "../domain/pack/Pack.ts"
import { findDisagreements } from "../domain/pack/Restatements.ts"
import { changeColumn } from "../domain/psx/PriceCsv.ts"
import { parseHistorical, type PriceRow } from "../domain/psx/Prices.ts"
import { AS_TRADED_DIR, EOD_DIR, KSE100_CLOSES, MARKET_SUMMARY, packCsvFiles, readPackCsv } from "./pack-csv.ts"
import { CHUBSB, IZAIFA, MTAUHA } from "./pack-sources.ts"

export interface PriceWriter {
  readonly raw: string
  readonly read: (path: string) => string
  readonly add: (p: Omit<PackProvenance, "bytes" | "sha256">, value: unknown) => void
  readonly log: (line: string) => void
}

type Series = Map<string, ReadonlyArray<PriceRow>>

/** The newest date of a recording's rows; a recording without rows has no as-of and stops the build. */
const newest = (rows: ReadonlyArray<PriceRow>, what: string) => {
  const dates = rows.map((r) => r.date).sort()
  const last = dates[dates.length - 1]
  if (last === undefined) throw new Error(`${what}: no rows, so no as-of date`)
  return last
}
const encodeAll = (s: Series) => Object.fromEntries([...s].map(([k, rows]) => [k, encodeSeries(rows)]))
const count = (s: Series) => [...s.values()].reduce((n, r) => n + r.length, 0)

export const buildPriceDatasets = ({ raw, read, add, log }: PriceWriter) => {
  // Every CSV is read by its header (scripts/pack-csv.ts): an unknown header stops the build with the file's name.
  const csvFiles = packCsvFiles(raw)
  const symbolOfFile = (path: string) =>
    path.slice(path.lastIndexOf("/") + 1).replace(/\.csv$/, "").trim().toUpperCase()
  const layoutsMet = new Map<string, Array<string>>()
  const readSeries = (dir: string, withText?: (symbol: string, text: string) => void) => {
    const series: Series = new Map()
    const skipped: Record<string, number> = {}
    for (const { path } of csvFiles.filter((f) => f.path.startsWith(`${dir}/`))) {
      const text = read(path)
      const p = readPackCsv(path, text, "price")
      layoutsMet.set(p.layout!, [...(layoutsMet.get(p.layout!) ?? []), symbolOfFile(path)])
      for (const [k, v] of Object.entries(p.skipped)) skipped[k] = (skipped[k] ?? 0) + v
      if (p.rows.length > 0) series.set(symbolOfFile(path), p.rows)
      withText?.(symbolOfFile(path), text)
    }
    return { series, skipped }
  }
  const { series: eod, skipped: eodSkipped } = readSeries(EOD_DIR)
  const eodOhlcv = (layoutsMet.get("ohlcv") ?? []).sort()
  const asTradedChanges = new Map<string, ReadonlyMap<string, number>>()
  // The as-traded recording's own change column: evidence for which source is wrong on a glitch day.
  const { series: asTraded, skipped: atSkipped } = readSeries(
    AS_TRADED_DIR,
    (s, text) => asTradedChanges.set(s, changeColumn(text))
  )
  const engro = parseHistorical(read("mtauha__psxdata/tests/fixtures/historical_engro.html"))
  const summary = readPackCsv(MARKET_SUMMARY, read(MARKET_SUMMARY), "market_summary")

  // Disagreements between the eod recording and the as-traded recording, and
  // source glitch days (domain/pack/Restatements.ts).
  // Which source is wrong on each glitch day is decided from each source's own evidence (GlitchVerdict.ts).
  const found = findDisagreements(eod, asTraded)
  const disagreements = found.disagreements
  const glitchDays = judgeGlitchDays(found.glitchDays, eod, asTraded, asTradedChanges, disagreements)
  log(`glitch days: ${glitchDays.map((g) => `${g.date} (${g.symbols} symbols; ${g.reason})`).join(", ")}`)
  log(`whole-history disagreements: ${disagreements.map((d) => `${d.symbol}×${d.factor}`).join(" ")}`)

  add({
    id: "prices_eod",
    file: "prices_eod.json.gz",
    title: "Daily close and volume, ~613 symbols (the exchange's /timeseries/eod)",
    source: "PSX data portal GET /timeseries/eod/{SYMBOL}",
    upstream: "https://dps.psx.com.pk/timeseries/eod/{SYMBOL}",
    path: "I-Zaifa__psx-analyzer/data/csv/symbols/*.csv",
    ...IZAIFA,
    asOf: newest([...eod.values()].flat(), "prices_eod"),
    rows: count(eod),
    skipped: eodSkipped,
    notes:
      "Close and volume only (no open/high/low), except the files recorded in the layout date,open,high,low,close,volume " +
      `(the recorder's POST /historical fallback: ${
        eodOhlcv.join(", ")
      }), read by their header with their open, high and low. ` +
      "A price of 0 is the recording's blank and is left out; a volume of 0 (no trade) is kept. " +
      "Restated by the exchange for splits made before the recording; " +
      "not adjusted for dividends. Symbols in price_disagreements are restated over their whole history here."
  }, encodeAll(eod))

  add({
    id: "prices_as_traded",
    file: "prices_as_traded.json.gz",
    title: "Daily OHLCV as traded, 100 KSE-100 names (as of 2023-05-27)",
    source: "PSX closing prices (verified against the exchange's 2021-01-21 market summary)",
    upstream: "https://dps.psx.com.pk (closing prices)",
    path: "ChubsB__KSE-100-Data/*.csv",
    ...CHUBSB,
    asOf: newest([...asTraded.values()].flat(), "prices_as_traded"),
    rows: count(asTraded),
    skipped: atSkipped,
    notes:
      "Unadjusted, as traded. Volume 0 rows are days without a trade (price carried) as recorded; an open, high or low " +
      "of 0 is the recording's blank and is left out (counted in skipped). KSE100.csv holds a header and no row."
  }, encodeAll(asTraded))

  add({
    id: "prices_historical_engro",
    file: "prices_historical_engro.json.gz",
    title: "ENGRO daily OHLCV from the exchange's historical page",
    source: "PSX data portal POST /historical (symbol=ENGRO)",
    upstream: "https://dps.psx.com.pk/historical",
    path: "mtauha__psxdata/tests/fixtures/historical_engro.html",
    ...MTAUHA,
    asOf: newest(engro.rows, "historical_engro.html"),
    rows: engro.rows.length,
    skipped: engro.skipped,
    notes: "As traded. ENGRO stopped trading after the 2025 scheme that created ENGROH."
  }, { ENGRO: encodeSeries(engro.rows) })

  add({
    id: "market_summary_20210121",
    file: "market_summary_20210121.json.gz",
    title: "Whole-market daily summary for 2021-01-21 with ex-markers (XD, XB, XR)",
    source: "PSX daily market summary file /download/mkt_summary/2021-01-21.Z",
    upstream: "https://dps.psx.com.pk/download/mkt_summary/2021-01-21.Z",
    path: "nmnbkhr__psx_ohlcv/market_summary_2021-01-21.csv",
    repository: "github.com/nmnbkhr/psx_ohlcv",
    commit: "1711e893fc1fe6a4bc56613b9f21a93a3f9426a4",
    licence: "MIT (recording); data © Pakistan Stock Exchange",
    recordedAt: "2026-05-24",
    asOf: "2021-01-21",
    rows: summary.rows.length,
    skipped: summary.skipped,
    notes:
      "Read by its header. An open, high, low or previous close of 0 (a line that did not trade, e.g. BAFLTFC6) is the " +
      "file's blank and is left out; a volume of 0 is that day's fact and is kept."
  }, summary.rows)

  add({
    id: "price_disagreements",
    file: "price_disagreements.json",
    title: "Where the eod recording and the as-traded recording disagree, and source glitch days",
    source: "Derived by scripts/build-pack.ts from prices_eod and prices_as_traded",
    upstream: "derived",
    path: "scripts/build-pack.ts",
    repository: "this project",
    commit: "-",
    licence: "-",
    // Derived: retrieved when the newer of its two inputs was.
    recordedAt: IZAIFA.recordedAt,
    asOf: newest([...eod.values()].flat(), "prices_eod"),
    rows: disagreements.length + glitchDays.length,
    skipped: {},
    notes:
      "Retrieved as of its newer input (prices_eod). factor = eod close / as-traded close over the overlap (a split or consolidation after 2023-05-26). " +
      "Glitch days: dates on which at least 20 symbols' eod closes differ by more than 0.5% from the as-traded closes " +
      "(after the whole-history factor) while the series agree around them. Per symbol, `wrong` names the source whose row is wrong, " +
      "decided from the as-traded recording's own change column (GlitchVerdict.ts); that source's row is flagged, both when undecided."
  }, { disagreements, glitchDays })

  buildIndexDatasets(read, add)
}

/** KSE-100's current level and its daily closes, from the recorded closes. */
const buildIndexDatasets = (read: PriceWriter["read"], add: PriceWriter["add"]) => {
  const kse = readPackCsv(KSE100_CLOSES, read(KSE100_CLOSES), "price")
  const [prevLevel, lastLevel] = kse.rows.slice(-2)
  if (lastLevel === undefined || prevLevel === undefined) throw new Error(`${KSE100_CLOSES}: fewer than two closes`)
  const KSE100_SOURCE = {
    source:
      "PSX data portal GET /timeseries/eod/KSE100 (2021 on) and Yahoo Finance ^KSE (2010-2021), per the recorder's README",
    upstream: "https://dps.psx.com.pk/timeseries/eod/KSE100; https://finance.yahoo.com/quote/%5EKSE",
    path: KSE100_CLOSES,
    ...IZAIFA,
    asOf: lastLevel.date
  }
  add({
    id: "index_levels",
    file: "index_levels.json",
    title: "Current KSE-100 level and the previous close",
    ...KSE100_SOURCE,
    rows: 1,
    skipped: {},
    notes: "The last two rows of the recorded daily closes (index_history_kse100)."
  }, [{
    code: "KSE100",
    name: "KSE-100 Index",
    date: lastLevel.date,
    level: lastLevel.close,
    previous: prevLevel.close,
    previousDate: prevLevel.date
  }])

  add({
    id: "index_history_kse100",
    file: "index_history_kse100.json.gz",
    title: `KSE-100 daily closes, ${kse.rows[0]!.date} to ${lastLevel.date}`,
    ...KSE100_SOURCE,
    rows: kse.rows.length,
    skipped: kse.skipped,
    notes:
      "Index points at each day's close; no open, high, low or volume was recorded. The recording mixes two sources and " +
      "does not say which row came from which: the recorder's README names Yahoo Finance ^KSE for 2010-2021 and PSX's " +
      "/timeseries/eod/KSE100 after. Closes are as recorded (the older rows carry Yahoo's float rounding, e.g. 9437.8496)."
  }, { KSE100: encodeSeries(kse.rows) })
}
