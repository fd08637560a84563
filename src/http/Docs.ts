/**
 * The offline API reference at /docs (Scalar, with its script inline), with
 * a strict Content-Security-Policy of its own: only the page's own inline
 * scripts run (each allowed by its SHA-256 hash), it talks only to this
 * origin, and it may not be framed (`frame-ancestors 'none'`), since it
 * runs on the origin that keeps the session token. Scalar's web fonts are
 * left out (they would come from another origin, which the policy refuses):
 * the page uses the system's fonts. A bar at the top leads back to the site.
 */
import { Effect, Layer } from "effect"
import { HttpBody, HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { createHash } from "node:crypto"
import { Api } from "./Api.ts"

const SCRIPT = /<script>([\s\S]*?)<\/script>/gu

/** The CSP that allows exactly the inline scripts of `html`. */
export const docsPolicy = (html: string) => {
  const hashes = [...html.matchAll(SCRIPT)].map((m) =>
    `'sha256-${createHash("sha256").update(m[1]!).digest("base64")}'`
  )
  return [
    "default-src 'none'",
    `script-src ${hashes.join(" ")}`,
    // Scalar sets styles from script and ships inline style blocks.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

const decoder = new TextDecoder()

/**
 * The way back to the website, above the reference (styled inline: the docs policy allows inline styles, not
 * scripts). The page clips sideways overflow: Scalar lays a few hidden labels past the edge of a phone.
 */
const BACK_BAR =
  `<style>html,body{overflow-x:clip}.psx-back{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;padding:.5rem 1rem;background:#1a1a1a;color:#fff;` +
  `font:15px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}.psx-back a{color:#fff}.psx-back a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}</style>` +
  `<nav class="psx-back" aria-label="Site"><a href="/">← PSX data service</a><a href="/market">Market</a><a href="/portfolio">Portfolio</a>` +
  `<a href="/openapi.json">OpenAPI document</a></nav>`

/** The reference page with the bar leading back to the site, in the page's own language. */
export const withBackBar = (html: string) =>
  html.replace("<html>", "<html lang=\"en\">").replace("<body>", `<body>\n    ${BACK_BAR}`)

// eslint-disable-next-line require-yield -- an Effect.fn body that needs no other effect
const withPolicy = Effect.fnUntraced(function*(response: HttpServerResponse.HttpServerResponse) {
  const body = response.body
  if (body._tag !== "Uint8Array" && body._tag !== "Raw") return response
  const html = withBackBar(body._tag === "Uint8Array" ? decoder.decode(body.body) : String(body.body))
  const page = HttpServerResponse.setBody(response, HttpBody.text(html, "text/html; charset=utf-8"))
  return HttpServerResponse.setHeaders(page, {
    "content-security-policy": docsPolicy(html),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer"
  })
})

/** The policy is computed once: the page is the same bytes for the life of the process. */
const DocsPolicy = HttpRouter.middleware(Effect.sync(() => {
  let made: HttpServerResponse.HttpServerResponse | undefined
  return (httpEffect) =>
    made !== undefined ?
      Effect.succeed(made) :
      Effect.tap(Effect.flatMap(httpEffect, withPolicy), (r) =>
        Effect.sync(() => {
          if (r.status === 200) made = r
        }))
})).layer

export const DocsLive = HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }).pipe(
  Layer.provide(DocsPolicy)
)

/**
 * Scalar's script (a 3 MB module, compiled when first imported) loaded before the request gate listens: the
 * page's layer imports it when built, and building it with the routes would compile it while /ready and the
 * reads already being answered wait (about 60 ms on a 2-core machine). Built once here on a router of its
 * own, it leaves the module loaded for the routes' build. Only speed rests on it, so a failure is ignored.
 */
export const DocsScriptLoaded = Layer.effectDiscard(
  Layer.build(DocsLive).pipe(Effect.provide(HttpRouter.layer), Effect.scoped, Effect.ignore)
)
