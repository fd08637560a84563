/**
 * Builds the bundled offline data pack (data/pack/) from the recorded PSX
 * responses in ../shared/data/psx-raw, with the same parsers the live portal
 * adapter uses. Every dataset carries its provenance. Nothing is estimated:
 * what a recording does not hold is absent from the pack.
 *
 *   npm run build:pack [-- <path to psx-raw>]     (or PSX_RAW_DIR=<path>; default ../shared/data/psx-raw)
 *
 * The manifest is checked against its schema before it is written: a dataset
 * whose provenance lacks a field (or has it empty) fails the build.
 *
 * Price series: the `/timeseries/eod` recording (I-Zaifa) is restated by the
 * exchange for splits made before it was recorded; the ChubsB recording and
 * the `/historical` pages are as traded. Both are kept as separate series;
 * where they disagree by a whole-history factor the disagreement is recorded
 * and the eod series of that symbol is marked restated. One-day jumps that
 * revert across many symbols at once are recorded as source glitches.
 */
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { gzipSync } from "node:zlib"
import { parseCompanyPage } from "../domain/psx/CompanyPage.ts"
import { type Announcement, parseAnnouncements, parseCompanyPayouts, parseMarketPayouts } from "../domain/psx/Filings.ts"
import { listedFromScreener, parseIndexConstituents, parseScreener, parseSectors, parseSymbols } from "../domain/psx/Listing.ts"
import { changeColumn } from "../domain/psx/PriceCsv.ts"
import { parseHistorical, parseMarketWatch, type PriceRow } from "../domain/psx/Prices.ts"
import { parseScreenerExport } from "../domain/psx/ScreenerExport.ts"
import { encodeSeries, manifestProblems, type PackManifest, type PackProvenance } from "../domain/pack/Pack.ts"
import { judgeGlitchDays } from "../domain/pack/GlitchVerdict.ts"
import { findDisagreements } from "../domain/pack/Restatements.ts"
import { AS_TRADED_DIR, EOD_DIR, KSE100_CLOSES, MARKET_SUMMARY, packCsvFiles, readPackCsv } from "./pack-csv.ts"
import { buildResearchDatasets } from "./pack-research.ts"

const raw = resolve(process.argv[2] ?? process.env["PSX_RAW_DIR"] ?? "../shared/data/psx-raw")
const outDir = resolve("data/pack")
mkdirSync(outDir, { recursive: true })

const read = (p: string) => readFileSync(join(raw, p), "utf8")
const datasets: Array<PackProvenance> = []
const log = (s: string) => process.stderr.write(s + "\n")

const write = (file: string, value: unknown) => {
  const json = JSON.stringify(value)
  const bytes = file.endsWith(".gz") ? gzipSync(json, { level: 9 }) : Buffer.from(json)
  writeFileSync(join(outDir, file), bytes)
  return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }
}

const add = (
  p: Omit<PackProvenance, "bytes" | "sha256">,
  value: unknown
) => {
  const w = write(p.file, value)
  datasets.push({ ...p, ...w })
  log(`${p.id.padEnd(24)} ${String(p.rows).padStart(8)} rows  ${String(w.bytes).padStart(9)} B  skipped ${JSON.stringify(p.skipped)}`)
}

const MTAUHA = {
  repository: "github.com/mtauha/psxdata",
  commit: "2efc0c0e7f4cd67f69299c6c103fa9b311eb2305",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2026-04-08"
}
const IZAIFA = {
  repository: "github.com/I-Zaifa/psx-analyzer",
  commit: "45b2e559e32af60b9cb2c2bca28719405141125c",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2026-07-08"
}
const CHUBSB = {
  repository: "github.com/ChubsB/KSE-100-Data",
  commit: "92e707ffe673fb8a4baf66de778e7a63948dba7b",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2023-05-27"
}

// ---------------------------------------------------------------- universe
const symbols = parseSymbols(JSON.parse(read("mtauha__psxdata/tests/fixtures/symbols.json")))
const sectors = parseSectors(read("mtauha__psxdata/tests/fixtures/sector_summary.html"))
const screener = parseScreener(read("mtauha__psxdata/tests/fixtures/screener.html"))
const sectorCodeOf = new Map(screener.rows.filter((r) => r.sectorCode).map((r) => [r.symbol, r.sectorCode!]))
add({
  id: "universe",
  file: "universe.json",
  title: "Listed securities with sectors and ETF/debt flags",
  source: "PSX data portal GET /symbols",
  upstream: "https://dps.psx.com.pk/symbols",
  path: "mtauha__psxdata/tests/fixtures/symbols.json",
  ...MTAUHA,
  asOf: "2026-04-08",
  rows: symbols.rows.length,
  skipped: symbols.skipped
}, symbols.rows.map((s) => ({ ...s, ...(sectorCodeOf.has(s.symbol) ? { sectorCode: sectorCodeOf.get(s.symbol) } : {}) })))

add({
  id: "sectors",
  file: "sectors.json",
  title: "Sector codes and names",
  source: "PSX data portal GET /sector-summary/sectorwise (first table)",
  upstream: "https://dps.psx.com.pk/sector-summary/sectorwise",
  path: "mtauha__psxdata/tests/fixtures/sector_summary.html",
  ...MTAUHA,
  asOf: "2026-04-08",
  rows: sectors.rows.length,
  skipped: sectors.skipped
}, sectors.rows)

add({
  id: "screener",
  file: "screener.json.gz",
  title: "Screener snapshot: market cap, price, change, P/E (TTM), dividend yield, free float, 30-day volume",
  source: "PSX data portal GET /screener",
  upstream: "https://dps.psx.com.pk/screener",
  path: "mtauha__psxdata/tests/fixtures/screener.html",
  ...MTAUHA,
  asOf: "2026-04-08",
  rows: screener.rows.length,
  skipped: screener.skipped,
  notes: "A 0 P/E or 0 yield on the portal cannot be told from 'no figure' and is left out."
}, screener.rows)

const kse100 = parseIndexConstituents(read("mtauha__psxdata/tests/fixtures/indices_KSE100.html"))
add({
  id: "index_kse100",
  file: "index_kse100.json",
  title: "KSE-100 constituents with index weights",
  source: "PSX data portal GET /indices/KSE100",
  upstream: "https://dps.psx.com.pk/indices/KSE100",
  path: "mtauha__psxdata/tests/fixtures/indices_KSE100.html",
  ...MTAUHA,
  asOf: "2026-04-08",
  rows: kse100.rows.length,
  skipped: kse100.skipped,
  notes: "Membership and weights as shown on 2026-04-08 (the date they are known to hold from)."
}, kse100.rows)

const allshr = parseIndexConstituents(read("mtauha__psxdata/tests/fixtures/indices_ALLSHR.html"))
add({
  id: "board_allshr",
  file: "board_allshr.json.gz",
  title: "All-share board snapshot: previous close, current, change, volume, free float, market cap",
  source: "PSX data portal GET /indices/ALLSHR",
  upstream: "https://dps.psx.com.pk/indices/ALLSHR",
  path: "mtauha__psxdata/tests/fixtures/indices_ALLSHR.html",
  ...MTAUHA,
  asOf: "2026-04-08T10:05:00.000Z",
  rows: allshr.rows.length,
  skipped: allshr.skipped,
  notes: "Taken during trading on 2026-04-08 (the trading panel of the same probe reads 3:05 PM PKT); a delayed snapshot."
}, allshr.rows)

const watch = parseMarketWatch(read("umairsandhu__psx-dps/tests/fixtures/market_watch.html"))
add({
  id: "market_watch_sample",
  file: "market_watch_sample.json",
  title: "Market-watch rows (3 rows, trimmed by the recorder)",
  source: "PSX data portal GET /market-watch",
  upstream: "https://dps.psx.com.pk/market-watch",
  path: "umairsandhu__psx-dps/tests/fixtures/market_watch.html",
  repository: "github.com/umairsandhu/psx-dps",
  commit: "0745ffe5aebde94b7fa0738d74bfe0ba1ea74a1f",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2026-09",
  asOf: "2026-09",
  rows: watch.rows.length,
  skipped: watch.skipped,
  notes: "The recording has no date of its own beyond 'Sep 2026'; used as a parser fixture, not as a quote."
}, watch.rows)

// Securities listed after the April listing: the August screener is the first recording that names them.
const AUGUST_SCREENER = "alihamza098__psx-stock-screener/data_snapshot.json"
const august = parseScreenerExport(JSON.parse(read(AUGUST_SCREENER)))
const since = listedFromScreener(symbols.rows, august.rows)
if (august.takenAt === undefined) throw new Error(`${AUGUST_SCREENER}: no timestamp, so no as-of`)
add({
  id: "universe_2026_08_04",
  file: "universe_2026_08_04.json",
  title: "Securities the 2026-08-04 screener shows that the April listing lacks (listed since), with name and sector",
  source: "PSX data portal GET /screener (the cells' data-order values, exported as JSON)",
  upstream: "https://dps.psx.com.pk/screener",
  path: AUGUST_SCREENER,
  repository: "github.com/alihamza098/psx-stock-screener",
  commit: "ccc63e9e7be6be1988df973d6d8d249e87eaabef",
  licence: "none found (internal test use); data © Pakistan Stock Exchange",
  recordedAt: august.takenAt,
  asOf: august.takenAt,
  rows: since.rows.length,
  skipped: since.skipped,
  notes: "The first recording that shows each of them; symbol, name and sector code only. Not ETF, not debt: the " +
    "portal's screener lists neither (none of the April listing's 9 ETFs and 282 debt lines is in its screener)."
}, since.rows)

// ------------------------------------------------------------------ prices
type Series = Map<string, ReadonlyArray<PriceRow>>
// Every CSV is read by its header (scripts/pack-csv.ts): an unknown header stops the build with the file's name.
const csvFiles = packCsvFiles(raw)
const symbolOfFile = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.csv$/, "").trim().toUpperCase()
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
const { series: asTraded, skipped: atSkipped } = readSeries(AS_TRADED_DIR, (s, text) => asTradedChanges.set(s, changeColumn(text)))
const engro = parseHistorical(read("mtauha__psxdata/tests/fixtures/historical_engro.html"))
/** The newest date of a recording's rows; a recording without rows has no as-of and stops the build. */
const newest = (rows: ReadonlyArray<PriceRow>, what: string) => {
  const dates = rows.map((r) => r.date).sort()
  const last = dates[dates.length - 1]
  if (last === undefined) throw new Error(`${what}: no rows, so no as-of date`)
  return last
}
const summary = readPackCsv(MARKET_SUMMARY, read(MARKET_SUMMARY), "market_summary")

// Disagreements between the eod recording and the as-traded recording, and
// source glitch days (domain/pack/Restatements.ts).
// Which source is wrong on each glitch day is decided from each source's own evidence (GlitchVerdict.ts).
const found = findDisagreements(eod, asTraded)
const disagreements = found.disagreements
const glitchDays = judgeGlitchDays(found.glitchDays, eod, asTraded, asTradedChanges, disagreements)
log(`glitch days: ${glitchDays.map((g) => `${g.date} (${g.symbols} symbols; ${g.reason})`).join(", ")}`)
log(`whole-history disagreements: ${disagreements.map((d) => `${d.symbol}×${d.factor}`).join(" ")}`)

const encodeAll = (s: Series) => Object.fromEntries([...s].map(([k, rows]) => [k, encodeSeries(rows)]))
const count = (s: Series) => [...s.values()].reduce((n, r) => n + r.length, 0)

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
  notes: "Close and volume only (no open/high/low), except the files recorded in the layout date,open,high,low,close,volume " +
    `(the recorder's POST /historical fallback: ${eodOhlcv.join(", ")}), read by their header with their open, high and low. ` +
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
  notes: "Unadjusted, as traded. Volume 0 rows are days without a trade (price carried) as recorded; an open, high or low " +
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
  notes: "Read by its header. An open, high, low or previous close of 0 (a line that did not trade, e.g. BAFLTFC6) is the " +
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
  notes: "Retrieved as of its newer input (prices_eod). factor = eod close / as-traded close over the overlap (a split or consolidation after 2023-05-26). " +
    "Glitch days: dates on which at least 20 symbols' eod closes differ by more than 0.5% from the as-traded closes " +
    "(after the whole-history factor) while the series agree around them. Per symbol, `wrong` names the source whose row is wrong, " +
    "decided from the as-traded recording's own change column (GlitchVerdict.ts); that source's row is flagged, both when undecided."
}, { disagreements, glitchDays })

// ------------------------------------------------------ index level, history
const kse = readPackCsv(KSE100_CLOSES, read(KSE100_CLOSES), "price")
const [prevLevel, lastLevel] = kse.rows.slice(-2)
if (lastLevel === undefined || prevLevel === undefined) throw new Error(`${KSE100_CLOSES}: fewer than two closes`)
const KSE100_SOURCE = {
  source: "PSX data portal GET /timeseries/eod/KSE100 (2021 on) and Yahoo Finance ^KSE (2010-2021), per the recorder's README",
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
}, [{ code: "KSE100", name: "KSE-100 Index", date: lastLevel.date, level: lastLevel.close, previous: prevLevel.close, previousDate: prevLevel.date }])

add({
  id: "index_history_kse100",
  file: "index_history_kse100.json.gz",
  title: `KSE-100 daily closes, ${kse.rows[0]!.date} to ${lastLevel.date}`,
  ...KSE100_SOURCE,
  rows: kse.rows.length,
  skipped: kse.skipped,
  notes: "Index points at each day's close; no open, high, low or volume was recorded. The recording mixes two sources and " +
    "does not say which row came from which: the recorder's README names Yahoo Finance ^KSE for 2010-2021 and PSX's " +
    "/timeseries/eod/KSE100 after. Closes are as recorded (the older rows carry Yahoo's float rounding, e.g. 9437.8496)."
}, { KSE100: encodeSeries(kse.rows) })

// The analyzer's master.csv also carries company-page columns (eps, pe_ratio,
// face_value, …), but they are mis-scraped (HBL's "eps" is its 2022 EPS growth,
// its "pe_ratio" the PEG) and face value is always empty: not taken.

const hbl = parseCompanyPage(read("nmnbkhr__psx_ohlcv/hblpsx.txt"))
add({
  id: "company_pages",
  file: "company_pages.json",
  title: "Company pages: profile, equity, quote stats, income statement lines, ratios",
  source: "PSX data portal GET /company/{SYMBOL}",
  upstream: "https://dps.psx.com.pk/company/HBL",
  path: "nmnbkhr__psx_ohlcv/hblpsx.txt",
  repository: "github.com/nmnbkhr/psx_ohlcv",
  commit: "1711e893fc1fe6a4bc56613b9f21a93a3f9426a4",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2026-02-08",
  asOf: "2026-01-27T10:49:00.000Z",
  rows: 1,
  skipped: hbl.unreadable > 0 ? { unreadable: hbl.unreadable } : {},
  notes: "Financials are 'in thousands (000's) except EPS'; data powered by Capital Stake per the page."
}, { HBL: hbl })

// ---------------------------------------------------------------- filings
const mebl = parseCompanyPayouts("MEBL", read("uzairbukhari__psx-portfolio/tests/fixtures/psx-mebl-payouts.html"))
const luck = parseMarketPayouts(
  read("afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/payouts_sample.html")
)
add({
  id: "payouts",
  file: "payouts.json",
  title: "Payouts (cash, bonus, right) with book closures",
  source: "PSX data portal POST /company/payouts (MEBL) and POST /payouts (LUCK)",
  upstream: "https://dps.psx.com.pk/company/payouts; https://dps.psx.com.pk/payouts",
  path: "uzairbukhari__psx-portfolio/tests/fixtures/psx-mebl-payouts.html; afireseeker-cloud__…/payouts_sample.html",
  repository: "github.com/uzairbukhari/psx-portfolio; github.com/afireseeker-cloud/Pakistan-Stock-Market-Events-Calendar",
  commit: "984a04b386846eed3d612ed6136a56f664f2304b; b243b81f78a0a96d23b9575159136bee021e1acc",
  licence: "none found (internal test use); data © Pakistan Stock Exchange",
  recordedAt: "2026-08-18",
  asOf: "2026-08-10",
  rows: mebl.rows.length + luck.rows.length,
  skipped: { ...mebl.skipped, ...luck.skipped },
  notes: "Coverage: only MEBL (2025-02 to 2026-08) and LUCK (2025-08, 2026-08) were recorded; other symbols are coverage unknown."
}, [...mebl.rows.map((r) => ({ ...r, source: "company_payouts" })), ...luck.rows.map((r) => ({ ...r, source: "market_payouts" }))])

const annFiles: ReadonlyArray<readonly [string, string, string]> = [
  ["yasir-a__psx-data/tests/fixtures/announcements_hubc.html", "github.com/yasir-a/psx-data", "069bf1b151cc68e4b924a660825ce926b943a9ae"],
  ["umairsandhu__psx-dps/tests/fixtures/announcements.html", "github.com/umairsandhu/psx-dps", "0745ffe5aebde94b7fa0738d74bfe0ba1ea74a1f"],
  [
    "afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/announcements_sample.html",
    "github.com/afireseeker-cloud/Pakistan-Stock-Market-Events-Calendar",
    "b243b81f78a0a96d23b9575159136bee021e1acc"
  ]
]
const announcements = new Map<string, Announcement>()
const annSkipped: Record<string, number> = {}
for (const [path] of annFiles) {
  const p = parseAnnouncements(read(path))
  for (const [k, v] of Object.entries(p.skipped)) annSkipped[k] = (annSkipped[k] ?? 0) + v
  for (const a of p.rows) announcements.set(a.id, a)
}
add({
  id: "announcements",
  file: "announcements.json",
  title: "Company announcements (filings)",
  source: "PSX data portal POST /announcements",
  upstream: "https://dps.psx.com.pk/announcements",
  path: annFiles.map((f) => f[0]).join("; "),
  repository: annFiles.map((f) => f[1]).join("; "),
  commit: annFiles.map((f) => f[2]).join("; "),
  licence: "MIT / none found (recordings); data © Pakistan Stock Exchange",
  recordedAt: "2026-09",
  asOf: "2026-09-29",
  rows: announcements.size,
  skipped: annSkipped
}, [...announcements.values()])

// ---------------------------------- company pages, screener export, news
buildResearchDatasets({ raw, read, add, announcements: [...announcements.values()] })

// --------------------------------------------------------------- manifest
const version = createHash("sha256").update(datasets.map((d) => d.sha256).join("")).digest("hex").slice(0, 16)
const manifest: PackManifest = {
  version,
  builtFrom: "shared/data/psx-raw",
  notice: "Market data © Pakistan Stock Exchange. dps.psx.com.pk restricts dissemination of its market data, live or " +
    "delayed, without a PSX licence (marketdatarequest@psx.com.pk). These recordings are development snapshots.",
  datasets
}
const problems = manifestProblems(manifest)
if (problems.length > 0) {
  log(`the pack's provenance is incomplete; manifest not written:\n  ${problems.join("\n  ")}`)
  process.exit(1)
}
writeFileSync(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n")
log(`pack ${version}: ${datasets.reduce((n, d) => n + d.bytes, 0)} bytes in ${datasets.length} datasets`)
