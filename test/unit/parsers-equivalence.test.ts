/**
 * The parsers give what the regular-expression parsers gave, on every recorded file: for each (file, parser) the
 * row count and a digest of the whole output (canonical JSON, SHA-256) equal those recorded at commit b6583f3 in
 * test/fixtures/parsers/digests.json (see its README). The vendored recordings (test/fixtures) are always
 * checked; the shared recordings (psx-raw, about a thousand files) when they are beside the clone.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { currentDigests, type Digests, digestsFile, psxRawDir } from "../support/ParserDigests.ts"

const recorded: Digests = JSON.parse(readFileSync(digestsFile, "utf8"))

/**
 * Where the new parser reads a recording differently on purpose: the old digest, the new one, and why. Each is a
 * reading the old parser got wrong; nothing else may differ.
 */
const CORRECTED: Record<string, { readonly old: string; readonly now: string; readonly why: string }> = {
  "fixtures/news/google-news.rss parseFeed": {
    old: "2 6b5715e52846d7df",
    now: "2 89737bcaaaf4234a",
    why: "Google News escapes the HTML of a description, so `&amp;nbsp;` is the HTML entity `&nbsp;`: the old reader " +
      "decoded one level and kept a literal \"&nbsp;&nbsp;\" in both summaries (\"…insurance sector &nbsp;&nbsp; Dawn\"); " +
      "the new one reads the HTML as HTML (\"…insurance sector Dawn\")"
  }
}

describe("parsers against the digests recorded with the regular-expression parsers", () => {
  const current = currentDigests()
  const compared = Object.keys(current).filter((key) => recorded[key] !== undefined)

  it("reads every vendored recording the digests name (and the shared ones when present)", () => {
    const expected = Object.keys(recorded).filter((k) => k.startsWith("fixtures/") || psxRawDir() !== undefined)
    assert.deepStrictEqual(expected.filter((k) => current[k] === undefined), [], "recorded files not found")
    assert.isAbove(compared.filter((k) => k.startsWith("fixtures/")).length, 250)
  })

  it("every parser gives the same rows on every file", () => {
    const differing = compared.flatMap((key) =>
      Object.entries(recorded[key]!)
        .filter(([parser, digest]) => current[key]![parser] !== (CORRECTED[`${key} ${parser}`]?.now ?? digest))
        .map(([parser, digest]) => `${key} ${parser}: recorded ${digest}, now ${current[key]![parser]}`)
    )
    assert.deepStrictEqual(differing, [], differing.join("\n"))
  })

  it("each corrected reading is one the old parser gave", () => {
    for (const [entry, { old }] of Object.entries(CORRECTED)) {
      const [key, parser] = entry.split(" ")
      assert.strictEqual(recorded[key!]?.[parser!], old, entry)
    }
  })
})
