/**
 * The service uses only Node's public, documented API: no V8 flags set at run time, no async_hooks, no V8
 * natives syntax (`%DebugPrint(…)`), anywhere under src/. Start options belong on the documented start line
 * (scripts/serve.sh).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const SRC = join(import.meta.dirname, "..", "src")

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|mts|js|mjs)$/u.test(entry.name) ? [path] : []
  })

/** What may not appear: V8's run-time flags, async hooks, and V8's natives syntax (a `%` then a runtime function's name and `(`). */
const FORBIDDEN: ReadonlyArray<readonly [string, RegExp]> = [
  ["setFlagsFromString", /setFlagsFromString/u],
  ["async_hooks", /async_hooks/u],
  ["V8 natives syntax", /%[A-Z][A-Za-z]+\(/u],
  ["--expose-gc", /expose[-_]gc/u]
]

describe("only public, documented Node under src/", () => {
  const files = sourceFiles(SRC)

  it("finds the sources", () => {
    expect(files.length).toBeGreaterThan(50)
  })

  for (const [name, pattern] of FORBIDDEN) {
    it(`no ${name}`, () => {
      const offenders = files.filter((file) => pattern.test(readFileSync(file, "utf8")))
      expect(offenders).toEqual([])
    })
  }
})
