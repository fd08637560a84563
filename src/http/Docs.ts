/**
 * The offline API reference at /docs (Scalar, with its script inline), with
 * a strict Content-Security-Policy of its own: only the page's own inline
 * scripts run (each allowed by its SHA-256 hash), it talks only to this
 * origin, and it may not be framed (`frame-ancestors 'none'`), since it
 * runs on the origin that keeps the session token.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
import { createHash } from "node:crypto"
import { Api } from "./Api.ts"

const SCRIPT = /<script>([\s\S]*?)<\/script>/gu

/** The CSP that allows exactly the inline scripts of `html`. */
export const docsPolicy = (html: string) => {
  const hashes = [...html.matchAll(SCRIPT)].map((m) => `'sha256-${createHash("sha256").update(m[1]!).digest("base64")}'`)
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

const withPolicy = Effect.fnUntraced(function*(response: HttpServerResponse.HttpServerResponse) {
  const body = response.body
  if (body._tag !== "Uint8Array" && body._tag !== "Raw") return response
  const html = body._tag === "Uint8Array" ? decoder.decode(body.body) : String(body.body)
  return HttpServerResponse.setHeaders(response, {
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
    made !== undefined ? Effect.succeed(made) : Effect.tap(Effect.flatMap(httpEffect, withPolicy), (r) =>
      Effect.sync(() => {
        if (r.status === 200) made = r
      }))
})).layer

export const DocsLive = HttpApiScalar.layer(Api, { path: "/docs" }).pipe(Layer.provide(DocsPolicy))
