/**
 * The website's static files, read once when the server starts: the pages'
 * own scripts and style sheet (src/web/assets) and the chart library, uPlot,
 * from node_modules, so nothing is ever fetched from another origin.
 *
 * Owns: locating, reading and labelling those files. Does not own: serving
 * them (WebRoutes).
 */
import { Effect, FileSystem } from "effect"
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export interface Asset {
  readonly path: `/assets/${string}`
  readonly body: Uint8Array
  readonly contentType: string
  readonly etag: string
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon"
}
const typeOf = (file: string) => TYPES[file.slice(file.lastIndexOf("."))]

const ownDirectory = fileURLToPath(new URL("./assets/", import.meta.url))
const uplotDirectory = () => join(dirname(createRequire(import.meta.url).resolve("uplot/package.json")), "dist")

const asset = (path: Asset["path"], body: Uint8Array, contentType: string): Asset => ({
  path,
  body,
  contentType,
  etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`
})

/**
 * The minified uPlot build defines one global-style `var uPlot`; one appended
 * export line makes it an ES module the chart page can import.
 */
const asModule = (iife: Uint8Array) =>
  new TextEncoder().encode(`${new TextDecoder().decode(iife)}\nexport default uPlot;\n`)

/** Every asset, keyed by its URL path under /assets/. */
export const loadAssets = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const names = yield* fs.readDirectory(ownDirectory)
  const own = yield* Effect.forEach(
    names.filter((name) => typeOf(name) !== undefined).sort(),
    (name) => Effect.map(fs.readFile(join(ownDirectory, name)), (body) => asset(`/assets/${name}`, body, typeOf(name)!))
  )
  const vendor = uplotDirectory()
  const uplotJs = yield* fs.readFile(join(vendor, "uPlot.iife.min.js"))
  const uplotCss = yield* fs.readFile(join(vendor, "uPlot.min.css"))
  return [
    ...own,
    asset("/assets/vendor/uplot.js", asModule(uplotJs), TYPES[".js"]!),
    asset("/assets/vendor/uplot.css", uplotCss, TYPES[".css"]!)
  ]
}).pipe(Effect.orDie)
