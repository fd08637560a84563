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
 * Price series (scripts/pack-prices.ts): the eod recording (restated by the
 * exchange for earlier splits) and the as-traded ones stay separate series;
 * their disagreements and one-day source glitches are recorded.
 */
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { gzipSync } from "node:zlib"
import { manifestProblems, type PackManifest, type PackProvenance } from "../domain/pack/Pack.ts"
import { parseCompanyPage } from "../domain/psx/CompanyPage.ts"
import {
  type Announcement,
  parseAnnouncements,
  parseCompanyPayouts,
  parseMarketPayouts
} from "../domain/psx/Filings.ts"
import {
  listedFromScreener,
  parseIndexConstituents,
  parseScreener,
  parseSectors,
  parseSymbols
} from "../domain/psx/Listing.ts"
import { parseMarketWatch } from "../domain/psx/Prices.ts"
import { parseScreenerExport } from "../domain/psx/ScreenerExport.ts"
import { ANNOUNCEMENT_EXPORT, readPackCsv } from "./pack-csv.ts"
import { buildPriceDatasets } from "./pack-prices.ts"
import { buildResearchDatasets } from "./pack-research.ts"
import { MTAUHA } from "./pack-sources.ts"

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
  log(
    `${p.id.padEnd(24)} ${String(p.rows).padStart(8)} rows  ${String(w.bytes).padStart(9)} B  skipped ${
      JSON.stringify(p.skipped)
    }`
  )
}

// ---------------------------------------------------------------- universe
const symbols = parseSymbols(JSON.parse(read("mtauha__psxdata/tests/fixtures/symbols.json")))
const sectors = parseSectors(read("mtauha__psxdata/tests/fixtures/sector_summary.html"))
const screener = parseScreener(read("mtauha__psxdata/tests/fixtures/screener.html"))
const sectorCodeOf = new Map(screener.rows.filter((r) => r.sectorCode).map((r) => [r.symbol, r.sectorCode!]))
add(
  {
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
  },
  symbols.rows.map((s) => ({ ...s, ...(sectorCodeOf.has(s.symbol) ? { sectorCode: sectorCodeOf.get(s.symbol) } : {}) }))
)

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
  notes:
    "Taken during trading on 2026-04-08 (the trading panel of the same probe reads 3:05 PM PKT); a delayed snapshot."
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

buildPriceDatasets({ raw, read, add, log })

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
  repository:
    "github.com/uzairbukhari/psx-portfolio; github.com/afireseeker-cloud/Pakistan-Stock-Market-Events-Calendar",
  commit: "984a04b386846eed3d612ed6136a56f664f2304b; b243b81f78a0a96d23b9575159136bee021e1acc",
  licence: "none found (internal test use); data © Pakistan Stock Exchange",
  recordedAt: "2026-08-18",
  asOf: "2026-08-10",
  rows: mebl.rows.length + luck.rows.length,
  skipped: { ...mebl.skipped, ...luck.skipped },
  notes:
    "Coverage: only MEBL (2025-02 to 2026-08) and LUCK (2025-08, 2026-08) were recorded; other symbols are coverage unknown."
}, [
  ...mebl.rows.map((r) => ({ ...r, source: "company_payouts" })),
  ...luck.rows.map((r) => ({ ...r, source: "market_payouts" }))
])

const annFiles: ReadonlyArray<readonly [string, string, string]> = [
  [
    "yasir-a__psx-data/tests/fixtures/announcements_hubc.html",
    "github.com/yasir-a/psx-data",
    "069bf1b151cc68e4b924a660825ce926b943a9ae"
  ],
  [
    "umairsandhu__psx-dps/tests/fixtures/announcements.html",
    "github.com/umairsandhu/psx-dps",
    "0745ffe5aebde94b7fa0738d74bfe0ba1ea74a1f"
  ],
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
// The announcement export is a CSV too: its header is checked like every other (scripts/pack-csv.ts).
readPackCsv(ANNOUNCEMENT_EXPORT, read(ANNOUNCEMENT_EXPORT), "announcement_export")
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
