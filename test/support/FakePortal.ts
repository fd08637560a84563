/**
 * A loopback stand-in for dps.psx.com.pk (node:http on 127.0.0.1, a free
 * port) that answers every route the crawler uses with recorded responses
 * (test/fixtures/psx and test/fixtures/portal; see their PROVENANCE.md).
 *
 * The session. Price routes follow a "last session" cursor over the days of
 * the vendored `/timeseries/eod` slices: `/timeseries/eod/{SYM}` answers the
 * recorded rows up to that day (newest first, epochs as recorded), and
 * `/market-watch` answers that day's recorded close and volume (LDCP = the
 * recorded close of the day before) laid out in the recorded market-watch
 * table (its real header row). That market-watch body is therefore
 * SYNTHESISED from recorded eod figures: no figure is invented, but no such
 * page was recorded. `advance()` moves the cursor to the next recorded day.
 *
 * Faults on command: `hang` (never answers), `403`, `500`, and `headers`
 * (every HTML table header renamed, as a portal reorganisation would).
 * Per-symbol routes without a recording answer 404 ("not recorded").
 *
 * Edits: `amend(path, edit)` rewrites the answer of one path (a SYNTHETIC
 * change a test makes on purpose, and must say so: a row left out, a figure
 * altered); `amend(path, undefined)` restores the recording.
 *
 * News: `/feeds/{file}` answers the feed fixtures of test/fixtures/news
 * (synthetic envelopes around recorded items; see its README) while
 * `publishFeeds` lists the file; the others answer 404.
 *
 * Listing: `dropFromListing` leaves symbols out of the recorded `/symbols`
 * (as after a delisting or a rename); the rest of the body is the recording.
 * Closed histories: ENGRO stopped trading on 2025-01-03 (the scheme that
 * created ENGROH) but stays in the recorded listing; its vendored eod days
 * (30 sessions of 2021) and its whole recorded `POST /historical` (OHLCV)
 * are served as recorded, whatever the session cursor says.
 */
import { Context, Duration, Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { NewsFeeds } from "../../src/sources/NewsFeeds.ts"
import { readFixture, readPsx } from "./Fixtures.ts"

export type PortalFault = "none" | "hang" | "403" | "500" | "headers"

/** Symbols with a vendored eod slice (test/fixtures/portal/eod). */
export const eodSymbols = ["BOP", "HBL", "LUCK", "MCB", "MEBL", "OGDC", "TRG"] as const
/** Symbols with a recorded company page. */
export const companyPages: Readonly<Record<string, () => string>> = {
  HBL: () => readPsx("nmnbkhr__psx_ohlcv/hblpsx.txt"),
  ...Object.fromEntries(["BOP", "MCB", "MEBL", "TRG"].map((s) => [s, () => readFixture("portal", `company/${s}.html`)]))
}
/** Symbols whose vendored eod days (before the slices) are all served: `date,close,volume` as recorded. */
export const closedHistories: Readonly<Record<string, () => string>> = {
  ENGRO: () => readPsx("I-Zaifa__psx-analyzer/data/csv/symbols/ENGRO.csv")
}
/** Symbols with a recorded `POST /historical` (whole history, OHLCV) answer. */
export const historicalPages: Readonly<Record<string, () => string>> = {
  ENGRO: () => readPsx("mtauha__psxdata/tests/fixtures/historical_engro.html")
}
/** Symbols with a recorded `POST /company/payouts` answer. */
export const companyPayouts: Readonly<Record<string, () => string>> = {
  MEBL: () => readPsx("uzairbukhari__psx-portfolio/tests/fixtures/psx-mebl-payouts.html")
}

/** The news feed fixtures (test/fixtures/news). */
export const newsFeedFiles = ["dawn-business.rss", "google-news.rss", "brecorder.atom"] as const

export interface EodRow {
  readonly date: string
  readonly epoch: number
  readonly close: number
  readonly volume: number
}

/** A vendored eod slice (or closed history), oldest first (`date,close,volume`, the date a UTC rendering of the recorded epoch). */
export const eodRows = (symbol: string): ReadonlyArray<EodRow> =>
  (closedHistories[symbol]?.() ?? readFixture("portal", `eod/${symbol}.csv`)).trim().split("\n").slice(1).map(
    (line) => {
      const [stamp = "", close = "", volume = ""] = line.split(",")
      const epoch = Date.parse(`${stamp.replace(" ", "T")}Z`) / 1000
      return { date: stamp.slice(0, 10), epoch, close: Number(close), volume: Number(volume) }
    }
  )

/** Every recorded session day of the slices, ascending. */
export const sessionDays = (): ReadonlyArray<string> =>
  [...new Set(eodSymbols.flatMap((s) => eodRows(s).map((r) => r.date)))].sort()

export interface FakePortalHandle {
  readonly url: string
  /** Requests seen, in order: method, path and body. */
  readonly seen: Array<{ readonly method: string; readonly url: string; readonly body: string }>
  readonly setFault: (fault: PortalFault) => void
  /** The last session day the portal shows. */
  readonly lastSession: () => string
  /** Moves the last session to the next recorded day (fails at the end of the recording). */
  readonly advance: () => string
  /** Leaves these symbols out of `/symbols` from now on (an empty list restores the recording). */
  readonly dropFromListing: (symbols: ReadonlyArray<string>) => void
  /** Leaves these symbols' rows out of `/market-watch` from now on (an empty list restores them). */
  readonly dropFromBoard: (symbols: ReadonlyArray<string>) => void
  /** Rewrites the answer of `path` from now on (synthetic: the test says so); undefined restores the recording. */
  readonly amend: (path: string, edit: ((body: string) => string) | undefined) => void
  /** The feed files `/feeds/{file}` answers from now on (default: every one of newsFeedFiles). */
  readonly publishFeeds: (files: ReadonlyArray<string>) => void
  readonly close: () => void
}

const marketWatchHead = () => {
  const page = readPsx("umairsandhu__psx-dps/tests/fixtures/market_watch.html")
  return page.slice(0, page.indexOf("<tbody"))
}

const cell = (
  n: number | undefined
) => (n === undefined ? "<td class=\"right\"></td>" : `<td class="right" data-order="${n}">${n}</td>`)

/** The market watch of `day`: recorded close and volume, LDCP the previous recorded close (see the file comment). */
const marketWatchOf = (day: string, left: ReadonlySet<string>) => {
  const rows = eodSymbols.filter((symbol) => !left.has(symbol)).flatMap((symbol) => {
    const all = eodRows(symbol)
    const i = all.findIndex((r) => r.date === day)
    if (i < 0) return []
    const today = all[i]!
    const ldcp = i > 0 ? all[i - 1]!.close : undefined
    return [
      `<tr><td data-search="${symbol}" data-order="${symbol}"><a class="tbl__symbol" href="/company/${symbol}"><strong>${symbol}</strong></a></td>` +
      `<td></td><td></td>${cell(ldcp)}${cell(undefined)}${cell(undefined)}${cell(undefined)}${cell(today.close)}` +
      `${cell(undefined)}${cell(undefined)}${cell(today.volume)}</tr>`
    ]
  })
  return `${marketWatchHead()}<tbody class="tbl__body">${rows.join("")}</tbody></table>`
}

/** Every header cell's text gets a "NEW " prefix (inside any markup the cell wraps it in). */
const renameHeaders = (html: string) => html.replace(/(<th[^>]*>)(\s*(?:<[^>]+>\s*)*)([^<\s])/g, "$1$2NEW $3")

export const startFakePortal = (): Promise<FakePortalHandle> =>
  new Promise((resolve) => {
    const days = sessionDays()
    let cursor = days.length - 2
    let fault: PortalFault = "none"
    let dropped: ReadonlySet<string> = new Set()
    let offBoard: ReadonlySet<string> = new Set()
    let feeds: ReadonlySet<string> = new Set(newsFeedFiles)
    const edits = new Map<string, (body: string) => string>()
    const seen: FakePortalHandle["seen"] = []
    const answer = (req: IncomingMessage, body: string, res: ServerResponse) => {
      const send = (status: number, recorded: string, type = "text/html") => {
        const edit = edits.get(req.url ?? "/")
        const text = edit === undefined ? recorded : edit(recorded)
        res.writeHead(status, { "content-type": type })
        res.end(fault === "headers" && type === "text/html" ? renameHeaders(text) : text)
      }
      if (fault === "hang") return
      if (fault === "403") return send(403, "<html><body>Forbidden</body></html>")
      if (fault === "500") return send(500, "<html><body>Internal Server Error</body></html>")
      const url = req.url ?? "/"
      const form = new URLSearchParams(body)
      const day = days[cursor]!
      if (url === "/symbols") {
        const recorded = readPsx("mtauha__psxdata/tests/fixtures/symbols.json")
        const listing = dropped.size === 0
          ? recorded
          : JSON.stringify((JSON.parse(recorded) as Array<{ symbol: string }>).filter((s) => !dropped.has(s.symbol)))
        return send(200, listing, "application/json")
      }
      const feed = /^\/feeds\/([a-z.-]+)$/.exec(url)
      if (feed && feeds.has(feed[1]!)) return send(200, readFixture("news", feed[1]!), "application/xml")
      if (url === "/screener") return send(200, readPsx("mtauha__psxdata/tests/fixtures/screener.html"))
      if (url === "/market-watch") return send(200, marketWatchOf(day, offBoard))
      if (url === "/indices/KSE100") return send(200, readPsx("mtauha__psxdata/tests/fixtures/indices_KSE100.html"))
      if (url === "/sector-summary/sectorwise") {
        return send(200, readPsx("mtauha__psxdata/tests/fixtures/sector_summary.html"))
      }
      if (url === "/payouts") {
        return send(200, readPsx("afireseeker-cloud__Pakistan-Stock-Market-Events-Calendar/payouts_sample.html"))
      }
      if (url === "/announcements") {
        return form.get("symbol") === "HUBC"
          ? send(200, readPsx("yasir-a__psx-data/tests/fixtures/announcements_hubc.html"))
          : send(200, readPsx("umairsandhu__psx-dps/tests/fixtures/announcements.html"))
      }
      const eod = /^\/timeseries\/eod\/([A-Z0-9.-]+)$/.exec(url)
      if (eod && (eodSymbols as ReadonlyArray<string>).includes(eod[1]!)) {
        const data = eodRows(eod[1]!).filter((r) => r.date <= day).reverse().map((r) => [r.epoch, r.close, r.volume])
        return send(200, JSON.stringify({ status: 1, message: "", data }), "application/json")
      }
      if (eod && closedHistories[eod[1]!]) {
        const data = eodRows(eod[1]!).slice().reverse().map((r) => [r.epoch, r.close, r.volume])
        return send(200, JSON.stringify({ status: 1, message: "", data }), "application/json")
      }
      if (url === "/historical" && historicalPages[form.get("symbol") ?? ""] && !form.has("month")) {
        return send(200, historicalPages[form.get("symbol")!]!())
      }
      const company = /^\/company\/([A-Z0-9.-]+)$/.exec(url)
      if (company && companyPages[company[1]!]) return send(200, companyPages[company[1]!]!())
      if (url === "/company/payouts" && companyPayouts[form.get("symbol") ?? ""]) {
        return send(200, companyPayouts[form.get("symbol")!]!())
      }
      return send(404, "not recorded")
    }
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        seen.push({ method: req.method ?? "GET", url: req.url ?? "/", body })
        answer(req, body, res)
      })
    })
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        setFault: (f) => (fault = f),
        lastSession: () => days[cursor]!,
        advance: () => {
          if (cursor + 1 >= days.length) throw new Error("the recording has no later session")
          cursor++
          return days[cursor]!
        },
        dropFromListing: (symbols) => (dropped = new Set(symbols)),
        dropFromBoard: (symbols) => (offBoard = new Set(symbols)),
        publishFeeds: (files) => (feeds = new Set(files)),
        amend: (path, edit) => (edit === undefined ? edits.delete(path) : edits.set(path, edit)),
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      })
    })
  })

/** The fake portal for the life of a scope. */
export const fakePortal = Effect.acquireRelease(Effect.promise(startFakePortal), (p) => Effect.sync(() => p.close()))

/** The fake portal as a service of a test layer. */
export class FakePortal extends Context.Service<FakePortal, FakePortalHandle>()("test/FakePortal") {
  static readonly layer = Layer.effect(FakePortal, fakePortal)
}

/** The news feeds read from the fake portal's `/feeds/` (every fixture file, whether published or not). */
export const NewsOnFake = Layer.unwrap(Effect.map(FakePortal, (fake) =>
  Layer.effect(
    NewsFeeds,
    NewsFeeds.make({
      feeds: newsFeedFiles.map((f) => `${fake.url}/feeds/${f}`),
      minIntervalMs: 0,
      timeout: Duration.millis(1500),
      retries: 1,
      userAgent: "psx-data-service/test"
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))))

/** No news feed configured (a news run is SOURCE_UNAVAILABLE): for tests about the portal alone. */
export const NoNewsFeeds = Layer.effect(
  NewsFeeds,
  NewsFeeds.make({
    feeds: [],
    minIntervalMs: 0,
    timeout: Duration.millis(500),
    retries: 0,
    userAgent: "psx-data-service/test"
  })
).pipe(Layer.provide(FetchHttpClient.layer))
