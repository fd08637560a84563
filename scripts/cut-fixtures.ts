/**
 * Cuts the test fixtures (test/fixtures/psx/) out of the recordings in
 * ../shared/data/psx-raw, so the tests run on a clone with nothing beside it.
 * Paths are kept as in the recording; a file over 100 kB is stored gzipped
 * (`<path>.gz`, byte-for-byte the recording once unzipped); the two big CSV
 * recordings are cut down to the dates the tests name (test/fixtures/psx/PROVENANCE.md); the header line of
 * every CSV the pack reads is kept in csv-headers.json.
 *
 *   node scripts/cut-fixtures.ts [<path to psx-raw>]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { gzipSync } from "node:zlib"
import { packCsvFiles } from "./pack-csv.ts"

const raw = resolve(process.argv[2] ?? "../shared/data/psx-raw")
const out = resolve("test/fixtures/psx")

const put = (path: string, bytes: Buffer) => {
  const target = join(out, bytes.length > 100_000 ? `${path}.gz` : path)
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, bytes.length > 100_000 ? gzipSync(bytes, { level: 9 }) : bytes)
}

/** Whole files, as recorded. */
const whole = [
  "mtauha__psxdata/tests/fixtures/symbols.json",
  "mtauha__psxdata/tests/fixtures/screener.html",
  "mtauha__psxdata/tests/fixtures/indices_KSE100.html",
  "mtauha__psxdata/tests/fixtures/indices_ALLSHR.html",
  "mtauha__psxdata/tests/fixtures/sector_summary.html",
  "mtauha__psxdata/tests/fixtures/historical_engro.html",
  "yasir-a__psx-data/tests/fixtures/symbols.json",
  "yasir-a__psx-data/tests/fixtures/announcements_hubc.html",
  "umairsandhu__psx-dps/tests/fixtures/history_month.html",
  "umairsandhu__psx-dps/tests/fixtures/market_watch.html",
  "umairsandhu__psx-dps/tests/fixtures/announcements.html",
  "nmnbkhr__psx_ohlcv/market_summary_2021-01-21.csv",
  "nmnbkhr__psx_ohlcv/hblpsx.txt",
  "afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/announcements_sample.html",
  "afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/payouts_sample.html",
  "uzairbukhari__psx-portfolio/tests/fixtures/psx-mebl-payouts.html",
  // The eod recording's one file in the date,open,high,low,close,volume layout, and the KSE-100 closes.
  "I-Zaifa__psx-analyzer/data/csv/symbols/786R.csv",
  "I-Zaifa__psx-analyzer/data/csv/macro_kse100.csv",
  // The August screener and its Sales export: the symbols listed after April, their sales, and its zeros.
  "alihamza098__psx-stock-screener/data_snapshot.json",
  "alihamza098__psx-stock-screener/financials.json"
]
for (const p of whole) put(p, readFileSync(join(raw, p)))

// The two price recordings, cut by date. Every symbol in both keeps the weeks
// around the 2021-10-25 glitch day; LUCK and SYS (restated ×0.2) and HUBC
// (not restated) keep 2021-05-26 to 2021-12-31; HUBC's first as-traded day
// and GADT's duplicated date are kept for the parser tests. Every as-traded
// symbol also keeps the 2020 steps of the price limit (from its last close
// of 2019 to 2020-04-30) for the dated-rules test.
const GLITCH_WINDOW: readonly [string, string] = ["2021-10-04", "2021-11-15"]
const LIMIT_STEPS_2020: readonly [string, string] = ["2019-12-20", "2020-04-30"]
const FACTOR_WINDOW: readonly [string, string] = ["2021-05-26", "2021-12-31"]
const LONG = new Set(["LUCK", "SYS", "HUBC"])
const EXTRA: Record<string, ReadonlyArray<string>> = { HUBC: ["2004-01-01"], GADT: ["2015-01-01"] }
const within = (d: string, [a, b]: readonly [string, string]) => d >= a && d <= b
const keep = (symbol: string, date: string) =>
  within(date, GLITCH_WINDOW) || within(date, LIMIT_STEPS_2020) || (LONG.has(symbol) && within(date, FACTOR_WINDOW)) ||
  (EXTRA[symbol] ?? []).includes(date)

const cut = (dir: string, file: string, dateOf: (line: string) => string) => {
  const lines = readFileSync(join(raw, dir, file), "utf8").split(/\r?\n/)
  const symbol = symbolOf(file)
  const kept = [lines[0]!, ...lines.slice(1).filter((l) => l.length > 0 && keep(symbol, dateOf(l)))]
  put(`${dir}/${file}`, Buffer.from(kept.join("\n") + "\n"))
}
const EOD = "I-Zaifa__psx-analyzer/data/csv/symbols"
const AS_TRADED = "ChubsB__KSE-100-Data"
const symbolOf = (file: string) => file.replace(/\.csv$/, "").trim().toUpperCase()
const asTradedFile = new Map(
  readdirSync(join(raw, AS_TRADED)).filter((f) => f.endsWith(".csv")).map((f) => [symbolOf(f), f])
)
for (const f of readdirSync(join(raw, EOD))) {
  const other = asTradedFile.get(symbolOf(f))
  if (other === undefined) continue
  cut(EOD, f, (l) => l.slice(0, 10))
  cut(AS_TRADED, other, (l) => l.slice(1, 11))
}
cut(AS_TRADED, "GADT.csv", (l) => l.slice(1, 11))

// The header line of every CSV the pack build reads, so a test checks them all.
const firstLine = (path: string) => readFileSync(join(raw, path), "utf8").split(/\r?\n/)[0]!
put(
  "csv-headers.json",
  Buffer.from(
    JSON.stringify(
      packCsvFiles(raw).map(({ path, reader }) => ({ path, reader, header: firstLine(path) })),
      null,
      1
    ) + "\n"
  )
)
process.stderr.write(`fixtures cut from ${raw} into ${out}\n`)
