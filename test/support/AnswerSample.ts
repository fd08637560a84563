/**
 * The recorded sample of public answers (test/fixtures/answers/), change detectors rather than truth: a fixed
 * list of requests covering every public route, each answer stored as its
 * status line and body bytes. test/answers.test.ts compares the running code
 * with it; `npm run answers:record` re-records it after an intended change.
 *
 * The app runs on the bundled pack with its wall clock stopped at NOW
 * (FrozenClockLayer) and a fixed cursor key, so timestamps, staleness ages
 * and cursors are the same bytes on every run and no normalisation is
 * needed. Left out: the portfolio routes (per-user, random ids),
 * /v1/ledger/signing-key (a key generated per store) and /ready (it names the
 * store, embedded or postgres). The same sample holds on both stores.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { fixturesDir } from "./Fixtures.ts"

export const NOW = "2026-06-15T06:00:00.000Z"
export const CURSOR_SECRET = "answers-sample-cursor-key"
export const answersDir = `${fixturesDir}answers/`

export interface SampleRequest {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly body?: unknown
}

const get = (...urls: ReadonlyArray<string>): ReadonlyArray<SampleRequest> =>
  urls.map((url) => ({ method: "GET", url }))

export const SAMPLE: ReadonlyArray<SampleRequest> = [
  ...get("/health", "/openapi.json", "/v1/nope"),
  // companies, quotes, prices, filings, provenance
  ...get("/v1/companies?limit=5", "/v1/companies/HUBC", "/v1/companies/NOPE", "/v1/companies/hubc", "/v1/search?q=hub"),
  ...get("/v1/quotes/HUBC", "/v1/quotes/HUBC?allow_stale=true", "/v1/quotes/MEBL?allow_stale=true", "/v1/quotes/H%00"),
  ...get("/v1/prices/HUBC", "/v1/prices/HUBC?range=1M", "/v1/prices/SYS?range=5Y", "/v1/prices/HUBC?range=2W"),
  ...get("/v1/stocks/HUBC", "/v1/financials/HUBC", "/v1/stocks/HUBC/financials", "/v1/dividends/MEBL"),
  ...get("/v1/stocks/MEBL/dividends", "/v1/dividends/HUBC", "/v1/corporate-actions/SYS", "/v1/announcements?limit=5"),
  ...get("/v1/announcements/HUBC", "/v1/stocks/HUBC/announcements", "/v1/news?limit=5", "/v1/freshness"),
  ...get("/v1/ai/sources/HUBC", "/v1/ingest/fundamentals?n=5"),
  // board, sectors, indices, calendar
  ...get("/v1/market/status", "/v1/market/snapshot", "/v1/market/board", "/v1/sectors", "/v1/sectors/board"),
  ...get("/v1/sectors/cement", "/v1/sectors/0807/peers", "/v1/sectors/commercial-banks/valuation", "/v1/sectors/nope"),
  ...get("/v1/indices", "/v1/indices/KSE100", "/v1/calendar/dividends"),
  // a window of KSE-100 closes, a symbol listed after April, the OHLCV-layout eod file
  ...get("/v1/indices/KSE100?date_from=2026-05-18&date_to=2026-05-25", "/v1/companies/SLM", "/v1/prices/786R?range=1M"),
  // analytics, screener, comparison, research
  ...get(
    "/v1/stocks/HUBC/analytics",
    "/v1/stocks/SYS/analytics",
    "/v1/stocks/HUBC/valuation",
    "/v1/stocks/HUBC/technicals"
  ),
  ...get("/v1/stocks/LUCK/research", "/v1/stocks/LUCK/rh", "/v1/ai/research/LUCK"),
  ...get(
    "/v1/screener?pe_max=15&limit=5",
    "/v1/screener?dividend_yield_min=6&pe_max=12&limit=3",
    "/v1/screener?pe_maxx=1"
  ),
  { method: "POST", url: "/v1/screener", body: { dividend_yield_min: 5, sectors: ["CEMENT", "0807"], limit: 4 } },
  ...get("/v1/compare?symbols=HUBC,KAPCO", "/v1/compare?symbols=HUBC,KAPCO,LUCK", "/v1/compare?symbols=HUBC"),
  // tools for agents
  ...get("/v1/ai/tools")
]

/** The file an answer is recorded in: method and URL with every other character as `_`. */
export const fileOf = (r: SampleRequest) =>
  `${r.method}${r.url}`.replace(/[^A-Za-z0-9.=-]+/g, "_").slice(0, 120) + ".txt"

/** What is stored: the status and content type on the first line, then the body bytes as served. */
export const render = (status: number, contentType: string, body: string) => `${status} ${contentType}\n${body}`

export const recorded = (r: SampleRequest): string | undefined => {
  const file = `${answersDir}${fileOf(r)}`
  return existsSync(file) ? readFileSync(file, "utf8") : undefined
}

export const storedFiles = (): ReadonlyArray<string> =>
  existsSync(answersDir) ? readdirSync(answersDir).filter((f) => f.endsWith(".txt")).sort() : []

/** Replaces the whole sample (every recorded answer; the folder's README stays). */
export const record = (answers: ReadonlyArray<readonly [SampleRequest, string]>) => {
  mkdirSync(answersDir, { recursive: true })
  for (const file of storedFiles()) rmSync(`${answersDir}${file}`)
  for (const [r, text] of answers) writeFileSync(`${answersDir}${fileOf(r)}`, text)
}
