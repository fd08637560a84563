/**
 * The website, served by the API server itself at `/`: the page shells
 * (Pages.ts) and their static files (Assets.ts), every response with a strict
 * Content-Security-Policy (same-origin scripts, styles and requests only; no
 * inline code), `nosniff` and `Referrer-Policy: no-referrer`.
 *
 * `WebLive` is added to the server's `Routes` beside the HttpApi.
 */
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerError, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { DataNotFound } from "../../domain/Errors.ts"
import { parseTicker } from "../../domain/market/shared/Ticker.ts"
import { currentSession } from "../ledger/accounts/WebSession.ts"
import { Companies } from "../market/companies/Companies.ts"
import { type Asset, loadAssets } from "./Assets.ts"
import { html, renderPage } from "./Layout.ts"
import { comparePage, marketPage, screenerPage, symbolPage } from "./MarketPages.ts"
import { donatePage, keysPage, notFoundPage, startPage } from "./Pages.ts"
import { ledgerPage, portfolioPage, taxPage } from "./PortfolioPages.ts"

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** Sent with every page and asset of the website. */
export const securityHeaders = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin"
}

const page = (markup: string, status = 200) =>
  HttpServerResponse.text(markup, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...securityHeaders, "cache-control": "no-cache" }
  })

const serveAsset = (asset: Asset) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.succeed(
    request.headers["if-none-match"] === asset.etag
      ? HttpServerResponse.empty({ status: 304, headers: { ...securityHeaders, etag: asset.etag } })
      : HttpServerResponse.uint8Array(asset.body, {
        contentType: asset.contentType,
        headers: { ...securityHeaders, etag: asset.etag, "cache-control": "no-cache" }
      })
  )

const pathOf = (request: HttpServerRequest.HttpServerRequest) => {
  const q = request.url.indexOf("?")
  return q === -1 ? request.url : request.url.slice(0, q)
}

/**
 * `/market/{symbol}`: the chart page; for a symbol the service does not know, the same page (it says so and offers
 * the search) answered 404; a 400 page naming what is wrong with a malformed one.
 */
const symbolRoute = (request: HttpServerRequest.HttpServerRequest) => {
  const raw = pathOf(request).slice("/market/".length)
  return parseTicker(raw).pipe(
    Effect.flatMap((ticker) =>
      Effect.flatMap(Companies, (companies) => companies.company(ticker)).pipe(
        // Unknown: 404. The store unavailable: the page, whose script says what it can.
        Effect.match({ onFailure: (e) => (e instanceof DataNotFound ? 404 : 200), onSuccess: () => 200 }),
        Effect.map((status) => page(symbolPage(ticker), status))
      )
    ),
    Effect.catch((error) =>
      Effect.succeed(page(
        renderPage({
          section: "market",
          title: "Not a ticker",
          scripts: [],
          body: html`<p class="error">${error.message}</p><p><a href="/market">Back to the market board</a></p>`
        }),
        400
      ))
    )
  )
}

/**
 * A path no route serves: a person's browser (its Accept names text/html) gets
 * a page saying so with the way back; any other client gets the service's
 * JSON record, as before (the guard answers the router's RouteNotFound).
 */
const notFound = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["accept"] ?? "").includes("text/html")
    ? Effect.succeed(page(notFoundPage(pathOf(request)), 404))
    : Effect.fail(new HttpServerError.HttpServerError({ reason: new HttpServerError.RouteNotFound({ request }) }))

/**
 * `/`: a signed-in browser goes to its portfolio; a visitor gets the market desk with "start a portfolio".
 * A store that cannot be asked counts as signed out (the desk is public).
 */
const home = Effect.map(Effect.orElseSucceed(currentSession, () => Option.none()), (session) =>
  Option.isSome(session)
    ? HttpServerResponse.empty({
      status: 303,
      headers: { ...securityHeaders, location: "/portfolio", "cache-control": "no-store" }
    })
    : page(marketPage({ home: true })))

const pages = [
  HttpRouter.route("GET", "/", home),
  HttpRouter.route("GET", "/start", Effect.sync(() => page(startPage()))),
  HttpRouter.route("GET", "/keys", Effect.sync(() => page(keysPage()))),
  HttpRouter.route("GET", "/portfolio", Effect.sync(() => page(portfolioPage()))),
  HttpRouter.route("GET", "/portfolio/tax", Effect.sync(() => page(taxPage()))),
  HttpRouter.route("GET", "/ledger", Effect.sync(() => page(ledgerPage()))),
  HttpRouter.route("GET", "/market", Effect.sync(() => page(marketPage({ home: false })))),
  HttpRouter.route("GET", "/market/:sym", symbolRoute),
  HttpRouter.route("GET", "/screener", Effect.sync(() => page(screenerPage()))),
  HttpRouter.route("GET", "/compare", Effect.sync(() => page(comparePage()))),
  HttpRouter.route("GET", "/donate", Effect.sync(() => page(donatePage())))
]

/** The website's routes: pages and assets. */
export const WebLive = HttpRouter.addAll(
  Effect.map(loadAssets, (assets) => [
    ...pages,
    ...assets.map((a) => HttpRouter.route("GET", a.path, serveAsset(a))),
    ...assets.filter((a) => a.path === "/assets/favicon.ico").map((a) =>
      HttpRouter.route("GET", "/favicon.ico", serveAsset(a))
    ),
    HttpRouter.route("GET", "/*", notFound)
  ])
)
