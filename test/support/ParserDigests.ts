/**
 * What every parser makes of every recorded HTML page, feed and CSV file, as one short digest per (file, parser):
 * the row count and the first 16 hex digits of SHA-256 over the output's canonical JSON. Recorded once with the
 * regular-expression parsers (scripts/parser-digests.ts writes test/fixtures/parsers/digests.json); the test
 * test/parsers-equivalence.test.ts checks the current parsers still give the same digests.
 *
 * Files: the vendored recordings under test/fixtures (always there) and, where the shared recordings are beside
 * the clone (`PSX_RAW_DIR`, or ../shared/data/psx-raw), every HTML, feed and CSV file among them.
 */
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { gunzipSync } from "node:zlib"
import { canonicalJson } from "../../domain/ledger/Chain.ts"
import { parseCsv } from "../../domain/ledger/csv/Rfc4180.ts"
import { parseFeed } from "../../domain/news/Rss.ts"
import { parseCompanyPageAnnouncements } from "../../domain/psx/CompanyAnnouncements.ts"
import { parseCompanyPage, parseCompanyPagePayouts } from "../../domain/psx/CompanyPage.ts"
import { csvTable } from "../../domain/psx/Csv.ts"
import { parseAnnouncements, parseCompanyPayouts, parseMarketPayouts } from "../../domain/psx/Filings.ts"
import { tables } from "../../domain/psx/Html.ts"
import { parseIndexConstituents, parseScreener, parseSectors } from "../../domain/psx/Listing.ts"
import { parseHistorical, parseMarketWatch } from "../../domain/psx/Prices.ts"

const repo = resolve(import.meta.dirname, "../..")
export const digestsFile = join(repo, "test/fixtures/parsers/digests.json")

/** The shared recordings' folder, when it is beside this clone (or named by PSX_RAW_DIR). */
export const psxRawDir = (): string | undefined =>
  [process.env["PSX_RAW_DIR"], join(repo, "../shared/data/psx-raw"), join(repo, "../../shared/data/psx-raw")]
    .find((d): d is string => d !== undefined && existsSync(d))

type Kind = "html" | "feed" | "csv"

const kindOf = (path: string): Kind | undefined => {
  const name = path.replace(/\.gz$/, "")
  if (/\.html$/.test(name) || name.endsWith("hblpsx.txt")) return "html"
  if (/\.(rss|atom|xml)$/.test(name)) return "feed"
  if (/\.csv$/.test(name)) return "csv"
  return undefined
}

const walk = (dir: string): Array<string> =>
  readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

/** Every recorded file a parser reads, keyed `fixtures/<path>` or `psx-raw/<path>` (a `.gz` read unzipped, named without it). */
export const recordedFiles = (): Array<{ readonly key: string; readonly kind: Kind; readonly read: () => string }> => {
  const from = (prefix: string, dir: string) =>
    walk(dir).flatMap((path) => {
      const kind = kindOf(path)
      if (kind === undefined || relative(dir, path).startsWith("answers")) return []
      const read = () =>
        path.endsWith(".gz") ? gunzipSync(readFileSync(path)).toString("utf8") : readFileSync(path, "utf8")
      return [{ key: `${prefix}/${relative(dir, path).replace(/\.gz$/, "")}`, kind, read }]
    })
  const raw = psxRawDir()
  return [...from("fixtures", join(repo, "test/fixtures")), ...(raw ? from("psx-raw", raw) : [])]
}

const rowCount = (output: unknown): number | undefined => {
  if (Array.isArray(output)) return output.length
  if (typeof output !== "object" || output === null) return undefined
  const o = output as Record<string, unknown>
  for (const k of ["rows", "records"]) if (Array.isArray(o[k])) return (o[k] as Array<unknown>).length
  return undefined
}

/** "<rows> <16 hex digits>" for an output (or "threw <digest>" when the parser threw). */
const digestOf = (run: () => unknown): string => {
  let output: unknown
  try {
    output = run()
  } catch (e) {
    return `threw ${createHash("sha256").update(String(e)).digest("hex").slice(0, 16)}`
  }
  const hash = createHash("sha256").update(canonicalJson(output)).digest("hex").slice(0, 16)
  return `${rowCount(output) ?? "-"} ${hash}`
}

/** Each parser that reads a kind of file, run on every file of that kind (a page not its own gives no rows). */
const PARSERS: Record<Kind, Record<string, (text: string) => unknown>> = {
  html: {
    tables: (t) => tables(t),
    parseScreener: (t) => parseScreener(t),
    parseIndexConstituents: (t) => parseIndexConstituents(t),
    parseSectors: (t) => parseSectors(t),
    parseHistorical: (t) => parseHistorical(t),
    parseMarketWatch: (t) => parseMarketWatch(t),
    parseAnnouncements: (t) => parseAnnouncements(t),
    parseCompanyPayouts: (t) => parseCompanyPayouts("SYM", t),
    parseMarketPayouts: (t) => parseMarketPayouts(t),
    parseCompanyPage: (t) => parseCompanyPage(t),
    parseCompanyPagePayouts: (t) => parseCompanyPagePayouts("SYM", t),
    parseCompanyPageAnnouncements: (t) => parseCompanyPageAnnouncements("SYM", t)
  },
  feed: {
    parseFeed: (t) => parseFeed(t)
  },
  // Both readers of comma-separated text; the CSV parsers above them read only what csvTable gives.
  csv: {
    csvTable: (t) => csvTable(t),
    rfc4180: (t) => parseCsv(t, { maxRows: 1_000_000, maxColumns: 1_000, maxCellLength: 100_000 })
  }
}

export type Digests = Record<string, Record<string, string>>

/** The digests of every recorded file present here, by key, then by parser. */
export const currentDigests = (): Digests => {
  const out: Digests = {}
  for (const file of recordedFiles()) {
    const text = file.read()
    const byParser: Record<string, string> = {}
    for (const [name, parse] of Object.entries(PARSERS[file.kind])) byParser[name] = digestOf(() => parse(text))
    out[file.key] = byParser
  }
  return out
}
