/**
 * One spelling per path. The request gate (RequestGate.ts) rewrites a request's
 * URL with `canonicalUrl` before anything looks at it — the fast path, the
 * guard and its rate limiter, the MCP session guard, the router — so every
 * check sees the path the router routes.
 *
 * The router (effect's FindMyWay) would by default read many spellings as one
 * path: upper case in static segments, a trailing slash, repeated slashes,
 * percent-escapes (decoded before matching), and a `;` or `#` (read as the
 * start of the query). Checks that compare the raw URL (`/v1/me/session`,
 * `/mcp`) missed those spellings. Now:
 *
 * - a percent-escape of an unreserved character (A–Z a–z 0–9 - . _ ~) is
 *   decoded: RFC 3986 §6.2.2.2 makes `/%6Dcp` and `/mcp` the same URI. The
 *   router decodes the escapes left only to characters no static segment
 *   holds (a space, a non-ASCII letter) and leaves `%2F`, `%3B`, `%3F`, `%23`
 *   encoded, so they never change which route matches;
 * - `;` and `#` in the path are escaped (`%3B`, `%23`): they are part of the
 *   segment, so `/mcp;x` names no route instead of being read as `/mcp`;
 * - an absolute-form target (`http://host/path?q`, RFC 9112 §3.2.2) becomes
 *   its path and query, as Effect's request reads it; any other target that
 *   does not start with `/` (`*`) gets one, and names no route;
 * - the router is told to take the rest literally (`StrictRouting`): case is
 *   significant and so are a trailing slash and repeated slashes, so
 *   `/V1/me/session`, `/mcp/` and `//mcp` answer 404.
 *
 * A URL already canonical (the common case) is found so by one scan of its
 * path, and returned as it is.
 */
import { Layer } from "effect"
import { HttpRouter } from "effect/http"

const SLASH = 47
const PERCENT = 37
const SEMICOLON = 59
const HASH = 35
const QUESTION = 63

/** The router matches a path exactly as the request gate hands it on (see the module comment). */
export const StrictRouting = Layer.succeed(HttpRouter.RouterConfig)({
  caseSensitive: true,
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false
})

const UNRESERVED = /^[A-Za-z0-9._~-]$/u
const ESCAPE_OR_SEPARATOR = /%([0-9A-Fa-f]{2})|[;#]/gu

const canonicalChar = (match: string, hex: string | undefined) => {
  if (hex === undefined) return match === ";" ? "%3B" : "%23"
  const char = String.fromCharCode(Number.parseInt(hex, 16))
  return UNRESERVED.test(char) ? char : match
}

/** The path of a target that does not start with `/`. */
const originForm = (target: string) => {
  const absolute = /^https?:\/\//iu.test(target) ? URL.parse(target) : null
  return absolute !== null ? absolute.pathname + absolute.search : `/${target}`
}

const rewrite = (url: string) => {
  const target = url.charCodeAt(0) === SLASH ? url : originForm(url)
  const q = target.indexOf("?")
  const path = q === -1 ? target : target.slice(0, q)
  return path.replace(ESCAPE_OR_SEPARATOR, canonicalChar) + (q === -1 ? "" : target.slice(q))
}

/** The URL's one spelling (the same string when it is canonical already). */
export const canonicalUrl = (url: string): string => {
  if (url.charCodeAt(0) !== SLASH) return rewrite(url)
  for (let i = 1; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code === QUESTION) return url
    if (code === PERCENT || code === SEMICOLON || code === HASH) return rewrite(url)
  }
  return url
}
