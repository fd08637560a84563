/**
 * The live adapter for the PSX data portal (dps.psx.com.pk). Off by default:
 * the portal's terms restrict redistribution; enable with PSX_SOURCE=portal.
 *
 * Polite by construction: one request at a time, at least `minIntervalMs`
 * apart (about 2 a second), a timeout on every request, retries with
 * exponential backoff on transport errors and 5xx answers, and an
 * identifying User-Agent. Any failure — unreachable, an error status, a body
 * that does not parse into rows — is SOURCE_UNAVAILABLE, never an empty
 * success. Parsing is done by the pure parsers in domain/psx.
 */
import { Config, Context, Duration, Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { type CompanyPage, parseCompanyPage, parseCompanyPagePayouts } from "../../domain/psx/CompanyPage.ts"
import {
  type Announcement,
  parseAnnouncements,
  parseCompanyPayouts,
  parseMarketPayouts,
  type PayoutRow
} from "../../domain/psx/Filings.ts"
import {
  type IndexConstituent,
  type ListedSymbol,
  parseIndexConstituents,
  parseScreener,
  parseSectors,
  parseSymbols,
  type ScreenerRow,
  type Sector
} from "../../domain/psx/Listing.ts"
import type { Parsed } from "../../domain/psx/Parsed.ts"
import {
  type BoardRow,
  type IntradayTick,
  parseEod,
  parseHistorical,
  parseIntraday,
  parseMarketWatch,
  type PriceRow
} from "../../domain/psx/Prices.ts"
import { makePoliteFetch } from "./PoliteFetch.ts"
import { unknownHeaders } from "./PortalHeaders.ts"

export interface PortalOptions {
  readonly baseUrl: string
  readonly minIntervalMs: number
  readonly timeout: Duration.Input
  readonly retries: number
  readonly userAgent: string
}

export const portalConfig = Config.all({
  baseUrl: Config.String("PSX_PORTAL_URL").pipe(Config.withDefault("https://dps.psx.com.pk")),
  minIntervalMs: Config.Int("PSX_PORTAL_MIN_INTERVAL_MS").pipe(Config.withDefault(500)),
  timeout: Config.Duration("PSX_PORTAL_TIMEOUT").pipe(Config.withDefault(Duration.seconds(15))),
  retries: Config.Int("PSX_PORTAL_RETRIES").pipe(Config.withDefault(3)),
  userAgent: Config.String("PSX_PORTAL_USER_AGENT").pipe(
    Config.withDefault("psx-data-service/1.0 (research data service; delayed data; polite client, 2 requests/s)")
  )
})

type Result<A> = Effect.Effect<Parsed<A>, SourceUnavailable>

/** The HTTP status a failed request carries, if it got an answer at all. */
type FetchText = (
  what: string,
  request: HttpClientRequest.HttpClientRequest
) => Effect.Effect<string, SourceUnavailable>

/** A parse that read nothing is a failure, not an empty success. */
const rowsOf = <A>(what: string, parsed: Parsed<A>): Effect.Effect<Parsed<A>, SourceUnavailable> =>
  parsed.rows.length > 0
    ? Effect.succeed(parsed)
    : Effect.fail(
      new SourceUnavailable({
        message: `PSX portal: ${what} held no rows (an unknown symbol, a holiday, or a changed page)`
      })
    )

/** An HTML page is parsed only when its table headers are the ones the parser was written for. */
const checked = <A>(what: string, route: string, text: string, parse: (text: string) => Parsed<A>) => {
  const unknown = unknownHeaders(route, text)
  return unknown === undefined
    ? rowsOf(what, parse(text))
    : Effect.fail(
      new SourceUnavailable({ message: `PSX portal: ${what} (${route}) has unknown table headers: ${unknown}` })
    )
}

/** GET and POST readers of HTML tables and JSON over one polite fetch: rows, or SOURCE_UNAVAILABLE. */
const readers = (fetchText: FetchText) => ({
  get: <A>(what: string, path: string, parse: (text: string) => Parsed<A>, route = path) =>
    Effect.flatMap(fetchText(what, HttpClientRequest.get(path)), (text) => checked(what, route, text, parse)),
  post: <A>(what: string, path: string, form: Record<string, string>, parse: (text: string) => Parsed<A>) =>
    Effect.flatMap(
      fetchText(what, HttpClientRequest.post(path).pipe(HttpClientRequest.bodyUrlParams(form))),
      (text) => checked(what, `POST ${path}`, text, parse)
    ),
  getJson: <A>(what: string, path: string, parse: (u: unknown) => Parsed<A>) =>
    fetchText(what, HttpClientRequest.get(path)).pipe(
      Effect.flatMap((text) =>
        Effect.try({
          try: (): unknown => JSON.parse(text),
          catch: () => new SourceUnavailable({ message: `PSX portal: ${what} answered something that is not JSON` })
        })
      ),
      Effect.flatMap((value) => rowsOf(what, parse(value)))
    ),
  /** The company page, when its tables are the known ones and it names a company. */
  companyPage: (symbol: string, path: string) =>
    Effect.flatMap(fetchText(`company ${symbol}`, HttpClientRequest.get(path)), (text) => {
      const unknown = unknownHeaders("/company/{SYM}", text)
      if (unknown !== undefined) {
        return Effect.fail(
          new SourceUnavailable({
            message: `PSX portal: company ${symbol} (/company/{SYM}) has unknown table headers: ${unknown}`
          })
        )
      }
      const page = parseCompanyPage(text)
      return page.name === undefined
        ? Effect.fail(new SourceUnavailable({ message: `PSX portal: company page for ${symbol} held no company` }))
        : Effect.succeed({ ...page, payouts: parseCompanyPagePayouts(symbol, text) })
    })
})

export class PsxPortal extends Context.Service<PsxPortal, {
  readonly symbols: Result<ListedSymbol>
  readonly eod: (symbol: string) => Result<PriceRow>
  readonly intraday: (symbol: string) => Result<IntradayTick>
  readonly marketWatch: Result<BoardRow>
  readonly screener: Result<ScreenerRow>
  readonly indexConstituents: (code: string) => Result<IndexConstituent>
  readonly sectors: Result<Sector>
  readonly historical: (symbol: string, month?: { readonly month: number; readonly year: number }) => Result<PriceRow>
  readonly announcements: (symbol?: string) => Result<Announcement>
  readonly companyPayouts: (symbol: string) => Result<PayoutRow>
  readonly marketPayouts: Result<PayoutRow>
  /** The company page, with its payout table (the same rows `POST /company/payouts` lists). */
  readonly companyPage: (
    symbol: string
  ) => Effect.Effect<CompanyPage & { readonly payouts: Parsed<PayoutRow> }, SourceUnavailable>
}>()("psx/sources/PsxPortal") {
  static readonly make = (options: PortalOptions) =>
    Effect.gen(function*() {
      const client = (yield* HttpClient.HttpClient).pipe(
        HttpClient.mapRequest((r) =>
          r.pipe(
            HttpClientRequest.prependUrl(options.baseUrl),
            HttpClientRequest.setHeader("user-agent", options.userAgent),
            HttpClientRequest.setHeader("accept", "text/html,application/json")
          )
        ),
        HttpClient.filterStatusOk
      )
      const fetchText = yield* makePoliteFetch(client, options, "PSX portal")
      const { get, post, getJson, companyPage } = readers(fetchText)
      const sym = (s: string) => encodeURIComponent(s.trim().toUpperCase())
      return PsxPortal.of({
        symbols: getJson("symbols", "/symbols", parseSymbols),
        eod: (s) => getJson(`eod ${s}`, `/timeseries/eod/${sym(s)}`, parseEod),
        intraday: (s) => getJson(`intraday ${s}`, `/timeseries/int/${sym(s)}`, parseIntraday),
        marketWatch: get("market watch", "/market-watch", parseMarketWatch),
        screener: get("screener", "/screener", parseScreener),
        indexConstituents: (code) =>
          get(`index ${code}`, `/indices/${sym(code)}`, parseIndexConstituents, "/indices/{CODE}"),
        sectors: get("sector summary", "/sector-summary/sectorwise", parseSectors),
        historical: (s, month) =>
          post(`historical ${s}`, "/historical", {
            symbol: s.toUpperCase(),
            ...(month ? { month: String(month.month), year: String(month.year) } : {})
          }, parseHistorical),
        announcements: (s) =>
          post(
            "announcements",
            "/announcements",
            { type: "C", ...(s ? { symbol: s.toUpperCase() } : {}) },
            parseAnnouncements
          ),
        companyPayouts: (s) =>
          post(`payouts ${s}`, "/company/payouts", { symbol: s.toUpperCase() }, (t) => parseCompanyPayouts(s, t)),
        marketPayouts: post("payouts", "/payouts", {}, parseMarketPayouts),
        companyPage: (s) => companyPage(s, `/company/${sym(s)}`)
      })
    })

  /** The adapter with its configuration and a fetch-based HTTP client. */
  static readonly layer = Layer.effect(PsxPortal, Effect.flatMap(portalConfig, PsxPortal.make)).pipe(
    Layer.provide(FetchHttpClient.layer)
  )
}
